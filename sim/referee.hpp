// Automatic referee for unattended simulated matches: kick-offs, goals,
// halves with a side switch, and the stalemate (free ball) rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/geometry.pb.h"
#include "sim/physics.hpp"

namespace robocaf::sim {

/// Runs the match lifecycle on a Physics world.
///
/// Sequence: PRE_GAME -> FIRST_HALF (blue kicks off, blue defends -x) ->
/// HALF_TIME (kHalfTimeSeconds) -> side switch -> SECOND_HALF (yellow kicks
/// off) -> POST_GAME. Every restart after a kick-off preparation gives the
/// coaches SimConfig.placement_seconds to place their robots; then the
/// referee moves robots still standing illegally and starts play.
///
/// The playing clock runs only while the ball is in play (NORMAL_START or
/// FORCE_START), so a half lasts half_duration of play plus its restarts.
class Referee {
 public:
  /// Length of the half-time break, simulated seconds.
  static constexpr double kHalfTimeSeconds = 1.0;
  /// The ball staying within this distance of one point for
  /// stalemate_seconds is a stalemate even while robots keep touching it
  /// (a ball pinned against a wall or between robots).
  static constexpr double kStuckRadius = 0.05;

  /// Throws std::invalid_argument if half_duration is not positive.
  explicit Referee(const msg::MatchConfig& config);

  /// Runs the rules at simulated time t (call once per control cycle, t not
  /// decreasing). May move the ball and robots of `world`. Returns the
  /// decisions taken in this call, in order (plus REF_EVENT_SHOT for a shot at
  /// the opponents' goal during play). `cycle` only fills state().cycle.
  std::vector<msg::RefereeEvent> update(Physics& world, double t, std::uint64_t cycle = 0);

  /// The current game state (robot lists as of the last update()).
  const msg::GameState& state() const { return state_; }

  /// Legal default kick-off poses for n robots of a team (robot 0 keeps
  /// goal). `on_positive_side`: the team defends the goal at +x. `kicking`:
  /// the team takes the kick-off (one robot stands just behind the ball).
  static std::vector<msg::Pose2> kickoff_positions(const msg::LeaguePreset& league,
                                                   std::size_t n, bool on_positive_side,
                                                   bool kicking);
  /// kickoff_positions() for `team` with the current side and kick-off team.
  std::vector<msg::Pose2> kickoff_positions(msg::Team team, std::size_t n) const;

  /// The nearest legal kick-off position for a robot centre p (inside the
  /// field, body entirely in its own half, off the ball, and outside the
  /// centre circle unless its team kicks off).
  static Eigen::Vector2d nearest_legal_kickoff_point(const msg::LeaguePreset& league,
                                                     const Eigen::Vector2d& p,
                                                     bool on_positive_side, bool kicking);
  /// The free-ball spot (+-length/4, +-width/4) nearest to p.
  static Eigen::Vector2d free_ball_spot(const msg::FieldGeometry& field, const Eigen::Vector2d& p);

 private:
  using Events = std::vector<msg::RefereeEvent>;

  bool in_play() const;
  bool team_on_positive_side(msg::Team team) const;
  void begin_half(msg::Stage stage, msg::Team kickoff, Physics& world, double t);
  void start_kickoff(Physics& world, double t, Events& ev);
  void score_goal(int side, Physics& world, double t, Events& ev);
  void end_half(double t, Events& ev);
  void free_ball(const char* why, Physics& world, double t, Events& ev);
  void report_shot(const Physics& world, Events& ev);
  void restart_clocks(const Physics& world, double t);
  void add_event(Events& ev, double t, msg::RefereeEventKind kind, msg::Team team,
                 std::uint32_t robot_id, const std::string& reason) const;

  msg::MatchConfig config_;
  msg::GameState state_;
  double last_t_ = 0.0;
  double play_time_ = 0.0;       // in-play time of the current half
  double stage_start_ = 0.0;     // for the half-time break
  double placement_start_ = 0.0; // start of the current kick-off preparation
  double restart_time_ = 0.0;    // last time play (re)started
  Eigen::Vector2d anchor_{0, 0}; // where the ball was when it last moved on
  double anchor_t_ = 0.0;
  std::uint64_t shots_seen_ = 0;  // Physics::shot_count() already reported
};

}  // namespace robocaf::sim
