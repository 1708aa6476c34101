#pragma once
// MI20's vision covariance tool: the measurement noise of a camera, estimated
// from the detections of an object that stands still, as recorded in a game
// log. The result is what NoiseSpec.ball_covariance / robot_covariance and
// the trackers' measurement noise want.

#include <cstdint>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "messages/geometry.pb.h"

namespace robocaf::runtime {

/// Which object's detections to use.
struct NoiseSubject {
  bool ball = true;                 ///< false: the robot below
  msg::Team team = msg::TEAM_UNSPECIFIED;
  std::uint32_t robot_id = 0;
};

/// Parses "ball", "blue/3" or "yellow/1". Throws std::invalid_argument naming
/// the text for anything else.
NoiseSubject parse_noise_subject(const std::string& text);

struct NoiseEstimate {
  std::size_t samples = 0;          ///< detections used
  std::size_t rejected_moving = 0;  ///< left out: the log's truth says the object moved
  std::size_t stretches = 0;        ///< still stretches pooled
  Eigen::VectorXd mean;             ///< of the longest stretch: (x, y) ball, (x, y, theta) robot
  Eigen::MatrixXd covariance;       ///< pooled sample covariance about each stretch's mean; theta wrapped
};

/// Reads the detections of `subject` with t in [t_from, t_to] from the log at
/// `path`, as MI20's procedure has it (place the object, record, run the
/// tool): the detections split into still stretches wherever one jumps more
/// than 5 cm from the previous (the object was moved) or, when the log holds
/// ground truth (simulated matches), the truth moved faster than 1 mm/s; the
/// covariance pools every stretch of at least 10 detections about its own
/// mean. Throws GameLogError for an unreadable log and std::runtime_error
/// when no stretch is long enough.
NoiseEstimate estimate_detection_noise(const std::string& path, const NoiseSubject& subject,
                                       double t_from = 0.0, double t_to = 1e300);

}  // namespace robocaf::runtime
