// Automatic referee for unattended simulated matches: kick-offs, goals,
// halves with a side switch, ball out of play, fouls and stalemates, with the
// rules of the league preset (FIRA MiroSot, RoboCup SSL, RoboCup MSL).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
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
/// coaches SimConfig.placement_seconds to place their robots (the second
/// half's kick-off, after the side switch, that plus field length / max_speed:
/// every robot has to change halves); then the referee moves robots still
/// standing illegally and starts play.
///
/// The playing clock runs only while the ball is in play (NORMAL_START or
/// FORCE_START), so a half lasts half_duration of play plus its restarts.
///
/// Rules while the ball is in play, in this order (one decision per update;
/// everything league-specific comes from LeaguePreset.field and .rules):
/// - goal: the ball entirely behind a goal line between the posts;
/// - ball out (only fields without walls): the ball's centre beyond a touch
///   line, or beyond a goal line outside the goal. A BALL_OUT event names the
///   line, then the restart:
///   - touch line: THROW_IN for the team that did not touch the ball last, on
///     the touch line where the ball crossed it, moved in by the ball radius
///     (nobody ever touched it: DROP_BALL there instead);
///   - goal line, last touched by the attackers (or by nobody): GOAL_KICK for
///     the defenders, level with their goal area's front edge and two robot
///     radii outside its side edge on the side the ball left, so the taker
///     standing behind the ball is not in the goal area (goal_kick_spot());
///   - goal line, last touched by the defenders: CORNER_KICK for the
///     attackers at the nearer corner, moved in by the ball radius.
/// - goal area: more than rules.max_defenders_in_goal_area robots of a team
///   with their centre in their own goal area (goal_area_side()) for
///   kGoalAreaGraceSeconds without a break -> FOUL_GOAL_AREA and a FREE_KICK
///   for the other team, in front of the goal area's front edge midpoint by
///   restart_distance plus a robot radius (a keeper on the edge keeps the
///   distance without leaving its area). The grace keeps a robot brushing the
///   area for a moment from being called.
/// - pushing: a robot touching an opponent (centres closer than two radii
///   plus kPushContactTolerance radii) whose drive velocity points into it
///   faster than rules.pushing_speed, at every update for
///   rules.pushing_seconds -> FOUL_PUSHING naming the pusher, and a FREE_KICK
///   for the other team at the ball's position (legal_ball_spot()). When two
///   robots qualify in the same update, the one that started pushing first is
///   called, ties by (team, id).
/// - stalemate: the ball untouched, or staying within kStuckRadius, for
///   SimConfig.stalemate_seconds -> a STALEMATE event with the cause, then by
///   rules.stalemate_restart either FREE_BALL (the nearest free-ball spot,
///   robots on it moved off, FORCE_START at once) or DROP_BALL (the ball stays
///   where it is, moved just inside the field and out of goal areas).
///
/// Restarts other than kick-offs and free balls: REF_PREPARE_RESTART with
/// GameState.restart, restart_team and ball_spot; the ball is placed at once
/// (robots standing on the spot are moved off it). After placement_seconds
/// the ball is put back on the spot if it moved; robots of the other team (of
/// both teams for a drop ball) closer than rules.restart_distance to it, any
/// robot on the ball, and robots one too many in their own goal area (all but
/// the ones nearest the goal, so the restart does not begin with a foul) are
/// moved to the nearest free point inside the field, out of the goal areas
/// and at their distance from the ball (REPOSITION events); then play starts:
/// NORMAL_START for the restart team, FORCE_START for a drop ball.
///
/// After NORMAL_START (a kick-off, a restart, or a human's) the ball is in
/// play for the restart team only (GameState.waiting_for_taker) until it has
/// moved kInPlayDistance from its spot, or until rules.restart_timeout has
/// passed (BALL_IN_PLAY event; the stalemate clocks start again then, as
/// the other team may play the ball only from then on); 0 turns the wait
/// off. Meanwhile a robot of
/// the other team closer than restart_distance to the spot (kick-off: inside
/// the centre circle or across the halfway line), by more than
/// kEncroachTolerance, or one that plays the ball first, is an ENCROACHMENT:
/// the referee moves it back to the nearest place it may stand (and the ball
/// back to its spot), and the wait goes on. Retaking the restart instead
/// looped: a team whose placement lies inside the distance (the chaser's
/// robot 1 before its goal area) walked back in every time.
class Referee {
 public:
  /// Length of the half-time break, simulated seconds.
  static constexpr double kHalfTimeSeconds = 1.0;
  /// The ball staying within this distance of one point for
  /// stalemate_seconds is a stalemate even while robots keep touching it
  /// (a ball pinned against a wall or between robots).
  static constexpr double kStuckRadius = 0.05;
  /// Too many defenders in a goal area must last this long to be a foul.
  static constexpr double kGoalAreaGraceSeconds = 0.5;
  /// Robots count as touching when their centres are closer than
  /// (2 + kPushContactTolerance) robot radii.
  static constexpr double kPushContactTolerance = 0.1;
  /// A restart is taken once the ball has moved this far (m) from its spot.
  static constexpr double kInPlayDistance = 0.05;
  /// How far (m) a robot of the other team may stray inside its restart
  /// distance (or the centre circle) before the restart is taken: robots
  /// the referee placed exactly on the limit may be nudged.
  static constexpr double kEncroachTolerance = 0.05;

  /// Throws std::invalid_argument if half_duration is not positive or a
  /// rule's time or distance is negative.
  explicit Referee(const msg::MatchConfig& config);

  /// Runs the rules at simulated time t (call once per control cycle, t not
  /// decreasing). May move the ball and robots of `world`. Returns the
  /// decisions taken in this call, in order (plus REF_EVENT_SHOT for a shot at
  /// the opponents' goal during play). `cycle` only fills state().cycle.
  std::vector<msg::RefereeEvent> update(Physics& world, double t, std::uint64_t cycle = 0);

  /// A human referee's command at time t, taken as given (call before
  /// update() of the same cycle). Returns a REF_EVENT_MANUAL event whose
  /// reason says what was done, or why the command was refused; a refused
  /// command changes nothing. Accepted during a half:
  /// - HALT, STOP: play stops (the clock too) until a human starts it again;
  ///   a pending kick-off or restart waits. HALT is also accepted (and changes
  ///   nothing) outside the halves.
  /// - PREPARE_KICKOFF for `team` (BLUE or YELLOW): the ball goes to the
  ///   centre spot and the kick-off follows after placement_seconds.
  /// - PREPARE_RESTART for `team`: a free kick at the ball's position
  ///   (legal_ball_spot()), started after placement_seconds.
  /// - NORMAL_START: play starts for `team`, or, if the command names no
  ///   team, for the team of the pending restart or kick-off. Robots are not
  ///   moved. Refused while the ball is in play or when there is no team.
  /// - FORCE_START: play starts for either team. Refused while in play.
  /// Everything else, and anything outside the halves, is refused.
  std::vector<msg::RefereeEvent> apply_manual(const msg::ManualRefereeCommand& command, Physics& world,
                                              double t);

  /// The first half opens with this restart instead of blue's kick-off
  /// (`robocaf restart-drill`): at the first update() the ball goes to
  /// `spot` and the restart is prepared as if the match had stopped there,
  /// robots on the spot moved off. For a free kick, goal kick, corner kick,
  /// throw-in (taken by `team`, BLUE or YELLOW) or drop ball (any team);
  /// anything else, a spot that is not finite or a call after the first
  /// update() throws std::invalid_argument.
  void open_with_restart(msg::RestartKind kind, msg::Team team, const Eigen::Vector2d& spot);

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

  /// The restart's name as the referee's events say it ("free kick").
  static const char* restart_name(msg::RestartKind kind);
  /// Whether a robot centre p may stand there when play starts at a
  /// kick-off (as start_kickoff() judges: see nearest_legal_kickoff_point()).
  static bool legal_at_kickoff(const msg::LeaguePreset& league, const Eigen::Vector2d& p, bool on_positive_side,
                               bool kicking);
  /// Whether a robot centre p of a team that must keep the restart distance
  /// from `spot` may stand there when play restarts (as start_restart()
  /// judges it; the goal-area limit, a rule on the whole team, is not part).
  static bool legal_at_restart(const msg::LeaguePreset& league, const Eigen::Vector2d& spot, const Eigen::Vector2d& p);
  /// The nearest legal kick-off position for a robot centre p (inside the
  /// field, body entirely in its own half, off the ball, and outside the
  /// centre circle unless its team kicks off).
  static Eigen::Vector2d nearest_legal_kickoff_point(const msg::LeaguePreset& league,
                                                     const Eigen::Vector2d& p,
                                                     bool on_positive_side, bool kicking);
  /// The free-ball spot (+-length/4, +-width/4) nearest to p.
  static Eigen::Vector2d free_ball_spot(const msg::FieldGeometry& field, const Eigen::Vector2d& p);

  /// +1 / -1 if p is inside the goal area at +x / -x: |y| within half the
  /// goal_area_width and no further than goal_area_depth in front of the goal
  /// line (the goal itself and anything behind the line count too); else 0.
  /// Always 0 when the field defines no goal area.
  static int goal_area_side(const msg::FieldGeometry& field, const Eigen::Vector2d& p);

  /// The nearest place to p where the referee may put the ball for a restart:
  /// the whole ball inside the field and its centre out of both goal areas.
  static Eigen::Vector2d legal_ball_spot(const msg::LeaguePreset& league, const Eigen::Vector2d& p);

  /// The goal kick spot for the goal at side `goal_side` (+1: +x) when the
  /// ball left on side `y_side` (+1: +y): see the class comment.
  static Eigen::Vector2d goal_kick_spot(const msg::LeaguePreset& league, int goal_side, int y_side);

 private:
  using Events = std::vector<msg::RefereeEvent>;
  using Key = std::pair<int, std::uint32_t>;  // (team, id), ordered as robot_keys()

  bool in_play() const;
  bool team_on_positive_side(msg::Team team) const;
  msg::Team defender_of(int goal_side) const;
  void begin_half(msg::Stage stage, msg::Team kickoff, Physics& world, double t, Events& ev);
  void prepare_kickoff(msg::Team team, Physics& world, double t, Events& ev);
  void start_kickoff(Physics& world, double t, Events& ev);
  void score_goal(int side, Physics& world, double t, Events& ev);
  void end_half(double t, Events& ev);
  bool check_ball_out(Physics& world, double t, Events& ev);
  bool check_goal_area(Physics& world, double t, Events& ev);
  bool check_pushing(Physics& world, double t, Events& ev);
  void stalemate(const char* why, Physics& world, double t, Events& ev);
  void free_ball(Physics& world, double t, Events& ev);
  void prepare_restart(msg::RestartKind kind, msg::Team team, const Eigen::Vector2d& spot,
                       msg::RefereeEventKind event, const std::string& reason, Physics& world,
                       double t, Events& ev);
  void start_restart(Physics& world, double t, Events& ev);
  // After a NORMAL_START: the other team keeps its distance until the
  // restart team moves the ball (see the class comment).
  void wait_for_taker(const Physics& world);
  // While waiting: robots of the other team that came too close (or played
  // the ball) are sent back; the wait ends when the taker has moved the ball
  // or the timeout has passed.
  void check_taker(Physics& world, double t, Events& ev);
  void move_robots_off_ball(const Eigen::Vector2d& spot, const std::string& where, Physics& world,
                            double t, Events& ev);
  void report_shot(const Physics& world, Events& ev);
  void restart_clocks(const Physics& world, double t);
  // The stalemate rule's clocks (untouched, stuck) start at t.
  void restart_stalemate_clocks(const Physics& world, double t);
  void reset_foul_clocks();
  void set_restart(msg::RestartKind kind, msg::Team team, const Eigen::Vector2d& spot);
  void add_event(Events& ev, double t, msg::RefereeEventKind kind, msg::Team team,
                 std::uint32_t robot_id, const std::string& reason) const;

  msg::MatchConfig config_;
  msg::GameState state_;
  double last_t_ = 0.0;
  double play_time_ = 0.0;       // in-play time of the current half
  double stage_start_ = 0.0;     // for the half-time break
  double placement_start_ = 0.0; // start of the current kick-off or restart preparation
  double kickoff_placement_seconds_ = 0.0;  // the current kick-off's: longer after the side switch
  double restart_time_ = 0.0;    // last time play (re)started
  Eigen::Vector2d taker_spot_{0, 0};  // where the ball lay when the restart team's NORMAL_START came
  Eigen::Vector2d anchor_{0, 0}; // where the ball was when it last moved on
  double anchor_t_ = 0.0;
  Eigen::Vector2d prev_ball_{0, 0};  // ball at the previous update: where it crossed a line
  std::uint64_t shots_seen_ = 0;  // Physics::shot_count() already reported
  double crowded_since_[2] = {-1.0, -1.0};  // goal area at -x, +x over the limit since; -1: not
  std::map<Key, double> pushing_since_;     // pusher -> first update it was seen pushing
  struct Opening {
    msg::RestartKind kind = msg::RESTART_NONE;  // NONE: blue's kick-off
    msg::Team team = msg::TEAM_UNSPECIFIED;
    Eigen::Vector2d spot{0, 0};
  };
  Opening opening_;
};

}  // namespace robocaf::sim
