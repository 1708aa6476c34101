#pragma once
// Simulated overhead camera images (MiroSot, SSL): what a real global vision
// system's camera delivers, rendered from ground truth.

#include <cstdint>

#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/scene_painter.hpp"

namespace robocaf::sim::camera {

/// derive_seed() stream of the match seed for overhead images: callers pass
/// derive_seed(match seed, kOverheadImageStream) as the renderer's seed.
inline constexpr std::uint64_t kOverheadImageStream = 16;

/// Renders 8-bit BGR images of the field seen straight down from above the
/// centre spot (overhead_calibration in camera_model.hpp says how zero spec
/// fields are filled in). Everything is projected through the distorted lens:
/// robots are prisms of RobotSpec.radius up to RobotSpec.height (0.05 m if 0)
/// with their markings on top, so parallax is real; the ball is an orange
/// sphere at z = ball radius; solids are painted far to near by the distance
/// of their centre from the camera. Then the lighting gradient and Gaussian
/// noise of spec.image are applied. Appearance: robot_markings.hpp.
///
/// An image depends only on (league, spec, seed, truth, frame_number): the
/// noise pool comes from `seed`, frame n's offset into it from
/// derive_seed(seed, n) (see SensorEffects).
class OverheadImageRenderer {
 public:
  /// Throws std::invalid_argument for an impossible camera (see
  /// overhead_calibration) or a negative noise_sd.
  OverheadImageRenderer(const msg::LeaguePreset& league, const msg::GlobalCameraSpec& spec, std::uint64_t seed);

  /// One camera image of `truth`; size = calibration().width x height.
  cv::Mat render(const msg::WorldTruth& truth, std::uint64_t frame_number) const;

  const msg::CameraCalibration& calibration() const { return camera_.calibration(); }
  const CameraModel& camera() const { return camera_; }
  cv::Size size() const { return camera_.size(); }

 private:
  Scene scene_;
  CameraModel camera_;
  SensorEffects sensor_;
  std::uint64_t seed_ = 0;
  cv::Mat floor_;  // everything at z = 0, painted once
};

}  // namespace robocaf::sim::camera
