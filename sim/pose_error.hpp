#pragma once
// How far each robot's belief of its own pose (the SelfBelief records of a
// game log) was from where it stood (the WorldTruth records). Plain C++ over
// game-log records; `robocaf pose-error` prints it.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "messages/log.pb.h"

namespace robocaf::sim {

/// One belief against the truth at the time it was predicted to.
struct PoseErrorSample {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  uint32_t robot_id = 0;
  double t = 0.0;              // the time the belief's pose is predicted to
  double error = 0.0;          // m, believed to true position
  double heading_error = 0.0;  // rad, absolute, in [0, pi]
  double position_sd = 0.0;    // m, what the world model claimed
  double localisation_sd = 0.0;  // m, what perception's localiser claimed (0: none)
  /// m, perception's pose of it (at its capture time) to the true position
  /// then; -1 when perception gave none.
  double perceived_error = -1.0;
};

/// A stretch of time one robot believed itself more than a threshold away
/// from where it stood.
struct PoseErrorEpisode {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  uint32_t robot_id = 0;
  double begin = 0.0, end = 0.0;  // times of its first and last sample over the threshold
  double max_error = 0.0;         // m
  double t_max = 0.0;             // when the error was largest
  double position_sd_at_max = 0.0, localisation_sd_at_max = 0.0;
  double perceived_error_at_max = -1.0;  // m; -1: perception gave no pose then
};

/// Feed it a match's log records in order. A belief is predicted ahead of the
/// cycle that logs it (to when the robot's command acts), so it is held until
/// the truth reaches its time and then compared with the truth interpolated
/// there (positions linearly, headings along the shorter way); the perceived
/// position likewise at its capture time.
class PoseErrorMeter {
 public:
  void add(const msg::LogRecord& record);

  /// In the order their truth arrived (since the last take_samples()).
  const std::vector<PoseErrorSample>& samples() const { return samples_; }
  /// The samples so far, handed over and forgotten: a caller that keeps
  /// only some of them does not hold a whole match's.
  std::vector<PoseErrorSample> take_samples();
  /// Beliefs seen so far.
  std::size_t beliefs() const { return beliefs_; }
  /// Beliefs no truth could be found for: older than the truth kept (1 s
  /// before the newest), after the log's last truth, or of a robot the truth
  /// around their time does not have.
  std::size_t unmatched() const { return beliefs_ - matched_ - pending_.size(); }

 private:
  struct RobotPose {
    msg::Team team;
    uint32_t robot_id;
    double x, y, theta;
  };
  // One WorldTruth's robot poses: all the meter needs of it, without
  // copying the message (balls, velocities, wheels) a hundred times a second.
  struct TruthPoses {
    double t;
    std::vector<RobotPose> robots;
  };

  void resolve();
  /// The robot's true pose at `t` from history_, if it has it around then.
  bool truth_at(msg::Team team, uint32_t id, double t, double& x, double& y, double& theta) const;

  std::deque<TruthPoses> history_;        // the last second of truth, oldest first
  std::deque<msg::SelfBelief> pending_;   // beliefs ahead of the newest truth
  std::vector<PoseErrorSample> samples_;
  std::size_t beliefs_ = 0;
  std::size_t matched_ = 0;
};

/// Runs of one robot's samples with error over `threshold` m, where a run
/// goes on over gaps (samples under it, or none) shorter than `gap` s. In
/// order of team, robot and time.
std::vector<PoseErrorEpisode> pose_error_episodes(const std::vector<PoseErrorSample>& samples, double threshold,
                                                  double gap);

/// A whole game log measured.
struct PoseErrorLog {
  std::vector<PoseErrorSample> samples;
  std::size_t beliefs = 0;      // none: the log was recorded before beliefs were
  double sample_period = 0.0;   // s between one robot's samples (the median gap)
};

/// The game log at `path`. Throws runtime::GameLogError when it cannot be read.
PoseErrorLog measure_pose_error(const std::string& path);

}  // namespace robocaf::sim
