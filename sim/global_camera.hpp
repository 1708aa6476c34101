// Simulated overhead camera: turns ground truth into SSL-Vision-like
// detection frames with seeded measurement noise, missed detections and
// false ball candidates.
#pragma once

#include <array>
#include <cstdint>

#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"
#include "sim/random.hpp"

namespace robocaf::sim {

/// A global camera over the whole field (MiroSot, SSL).
///
/// Noise: each robot gets N(0, Sigma_r) on (x, y, theta) and the ball
/// N(0, Sigma_b) on (x, y), drawn as S * z with z standard normal and
/// S S^T = Sigma. Sigma is NoiseSpec.robot_covariance / ball_covariance when
/// set (MI20: correlated errors), otherwise diagonal from the per-axis sds.
/// S is the Cholesky factor (Eigen::LLT) of a positive definite Sigma; a
/// singular (positive semi-definite) Sigma, e.g. perfectly correlated axes,
/// has no Cholesky factor and gets S = P^T L sqrt(D) from Eigen's pivoting
/// LDLT instead, which has the same covariance.
///
/// Reproducibility: a seed gives the same frames on every platform
/// (SeededRandom). Every real object consumes the same draws whether it is
/// seen or not (1 uniform for the miss, then 2 or 3 normals), so changing the
/// miss probability does not reshuffle the noise of the others. False ball
/// candidates come from a second stream (derive_seed(seed, 1)), so enabling
/// them changes no real detection in any frame. Without covariances or false
/// balls the frames are bit-identical to the per-axis camera of before.
class GlobalCamera {
 public:
  /// Confidence reported for every real detection.
  static constexpr double kConfidence = 0.9;
  /// Confidence of a false ball candidate: lower than a real one, so a
  /// consumer that keeps the most confident ball prefers the real ball when
  /// it is seen, and a confidence threshold between the two removes them.
  static constexpr double kFalseBallConfidence = 0.4;

  /// The camera over `field`; false ball candidates (NoiseSpec.
  /// false_ball_rate) fall uniformly on the playing area
  /// [-length/2, length/2] x [-width/2, width/2].
  ///
  /// Throws std::invalid_argument, naming the NoiseSpec field, for a negative
  /// or non-finite sd, a miss probability outside [0, 1], a false_ball_rate
  /// outside [0, 100] (the Poisson draw is meant for small means), a
  /// covariance with the wrong number of entries (9 robot, 4 ball), a
  /// non-finite entry, a non-symmetric matrix or one that is not positive
  /// semi-definite (both up to a relative tolerance of 1e-9), and when false
  /// balls are asked for on a field without a positive length and width.
  GlobalCamera(const msg::FieldGeometry& field, const msg::NoiseSpec& noise, std::uint64_t seed);

  /// A camera that knows no field, for tests and tools without one: like the
  /// one above, so a positive NoiseSpec.false_ball_rate is rejected (false
  /// balls need a field to land on).
  GlobalCamera(const msg::NoiseSpec& noise, std::uint64_t seed);

  /// One frame of camera 0: the ball and every robot, each with noise as
  /// above (orientation wrapped to (-pi, pi]) and each dropped with
  /// miss_probability, then Poisson(false_ball_rate) false balls appended
  /// after the real ball. t_sent = t_capture (frame rate and latency are the
  /// world's business), cycle = truth.cycle; pixel coordinates are left 0
  /// (no camera model). Robots of neither team are skipped (after their draws).
  msg::DetectionFrame observe(const msg::WorldTruth& truth, std::uint64_t frame_number,
                              double t_capture);

 private:
  msg::NoiseSpec noise_;
  double half_length_ = 0.0;
  double half_width_ = 0.0;
  bool false_balls_ = false;      // the camera knows a field and the rate is > 0
  std::array<double, 9> robot_factor_{};  // S with S S^T = Sigma_r, row-major 3x3
  std::array<double, 4> ball_factor_{};   // S with S S^T = Sigma_b, row-major 2x2
  SeededRandom rng_;        // real objects
  SeededRandom false_rng_;  // false ball candidates
};

}  // namespace robocaf::sim
