// Simulated overhead camera: turns ground truth into SSL-Vision-like
// detection frames with seeded measurement noise and missed detections.
#pragma once

#include <cstdint>
#include <random>

#include "messages/config.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"

namespace robocaf::sim {

/// A global camera over the whole field (MiroSot, SSL).
///
/// Noise comes from one std::mt19937_64 and a Box-Muller transform written
/// here (std::normal_distribution differs between standard libraries), so a
/// seed reproduces the same frames on every platform. Every object consumes
/// the same number of draws whether it is seen or not, so changing the miss
/// probability does not reshuffle the noise of the others.
class GlobalCamera {
 public:
  /// Confidence reported for every detection.
  static constexpr double kConfidence = 0.9;

  /// Throws std::invalid_argument for a negative standard deviation or a
  /// miss probability outside [0, 1].
  GlobalCamera(const msg::NoiseSpec& noise, std::uint64_t seed);

  /// One frame of camera 0: the ball and every robot, each with Gaussian
  /// noise on x, y (and orientation, wrapped to (-pi, pi]), each dropped with
  /// miss_probability. t_sent = t_capture (no processing delay modelled),
  /// cycle = truth.cycle; pixel coordinates are left 0 (no camera model).
  msg::DetectionFrame observe(const msg::WorldTruth& truth, std::uint64_t frame_number,
                              double t_capture);

 private:
  double uniform();   // [0, 1)
  double gaussian();  // N(0, 1)

  msg::NoiseSpec noise_;
  std::mt19937_64 rng_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace robocaf::sim
