#pragma once
// How long each team took to stand legally for each kick-off and restart of
// a logged match, judged by the referee's own rules (Referee::legal_at_*).
// Plain C++ over game-log records; `robocaf restarts` prints it.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/log.pb.h"
#include "sim/pose_error.hpp"

namespace robocaf::sim {

/// One preparation phase: from REF_PREPARE_KICKOFF or REF_PREPARE_RESTART
/// until the referee starts play.
struct RestartReadiness {
  /// How one team stood during the phase. Judged are both teams at a
  /// kick-off; at other restarts the team that must keep the restart
  /// distance (both at a drop ball), not the one taking it.
  struct Team {
    bool judged = false;
    /// Seconds from the phase's start until the last of its robots stood
    /// legally for good (every WorldTruth sample after it legal); -1 when
    /// the referee moved one at the start. The log's last sample before the
    /// start is a cycle older than the referee's judgement: a robot still
    /// illegal there that the referee did not move counts as ready at the
    /// start.
    double ready_after = -1.0;
    unsigned robots = 0;          // robots of the team in the samples
    unsigned repositioned = 0;    // REF_EVENT_REPOSITION for the team at the start
    unsigned encroachments = 0;   // REF_EVENT_ENCROACHMENT for it before the next phase
    /// The robot that stood legally last (or was still illegal at the
    /// start; 0 when every robot stood legally from the first sample), and
    /// at kick-offs how far inside the other half it stood when the phase
    /// began (m; negative in its own half). At the other team's kick-off
    /// after our goal that tells the scorer run back from the far goal from
    /// a robot hemmed in near the halfway line.
    unsigned last_robot = 0;
    double last_robot_depth = 0.0;
    /// At kick-offs: seconds from the phase's start until the last robot
    /// first ran towards its own half at over half its top speed; -1 when
    /// it never did, or at other restarts. A scorer boxed in at the far goal
    /// loses its seconds here, not on the run itself.
    double last_robot_ran_home_after = -1.0;
    /// m: how far the last robot's newest belief of its own pose before the
    /// start was from where it stood, and the pose perception gave it then
    /// (PoseErrorMeter); -1 when the log holds none. A robot moved because
    /// it believed itself elsewhere shows here.
    double last_robot_belief_error = -1.0;
    double last_robot_perceived_error = -1.0;
  };
  double t = 0.0;                                  // simulated time the phase began
  double seconds = 0.0;                            // its length, until play started
  msg::RestartKind restart = msg::RESTART_NONE;    // RESTART_KICKOFF for kick-offs
  msg::Team taker = msg::TEAM_UNSPECIFIED;         // kick-off team, or the restart's team
  Team blue, yellow;
};

/// Feed it a match's log records in order; complete phases collect in
/// phases(). A phase the log ends in is left out.
class RestartReadinessMeter {
 public:
  explicit RestartReadinessMeter(const msg::LeaguePreset& league);

  void add(const msg::LogRecord& record);

  const std::vector<RestartReadiness>& phases() const { return phases_; }

 private:
  struct Open {
    RestartReadiness phase;
    bool blue_on_positive_side = false;
    double ball_x = 0.0, ball_y = 0.0;
    // Per (team, robot id): since when it has stood legally (the phase's
    // start if it did from the first sample) and whether its last sample
    // was legal.
    struct Robot {
      double since = 0.0;
      bool legal = false;
      double depth = 0.0;  // m inside the other half at the first sample (kick-offs)
      double ran_home = -1.0;  // when it first ran towards its half at over half its top speed (kick-offs)
    };
    std::map<std::pair<int, unsigned>, Robot> robots;
  };
  void begin(const msg::GameState& state, double t);
  void finish(double t);
  void judge(const msg::WorldTruth& truth);
  RestartReadiness::Team& side(msg::Team team, RestartReadiness& phase) const;

  msg::LeaguePreset league_;
  double running_home_speed_;  // m/s: half the robots' top speed (Team::last_robot_ran_home_after)
  bool preparing_ = false;
  Open open_;
  // The last finished phase (index into phases_, -1: none), still counting
  // its start's repositions and the encroachments that follow until the
  // next phase begins.
  long counting_ = -1;
  std::vector<RestartReadiness> phases_;
  PoseErrorMeter pose_;
  // Per (team, robot id): its newest belief met with the truth.
  std::map<std::pair<int, unsigned>, PoseErrorSample> newest_belief_;
};

/// Every complete phase of the game log at `path` (league from its header).
/// Throws runtime::GameLogError when the log cannot be read.
std::vector<RestartReadiness> measure_restart_readiness(const std::string& path);

}  // namespace robocaf::sim
