#pragma once
// Simulated onboard camera images (MSL): what a robot's own forward camera
// sees, rendered from ground truth.

#include <cstdint>

#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"
#include "sim/camera/scene_painter.hpp"

namespace robocaf::sim::camera {

/// derive_seed() stream of the match seed for onboard images: callers pass
/// derive_seed(match seed, kOnboardImageStream) as the renderer's seed.
inline constexpr std::uint64_t kOnboardImageStream = 17;

/// Renders 8-bit BGR perspective images from a camera on a robot: at the
/// robot's centre, mount_height above the floor, looking along its heading
/// and pitched down by tilt (onboard_calibration in camera_model.hpp says how
/// zero spec fields are filled in). Above the horizon the hall (sky colour),
/// below it the floor, the carpet and the field lines; goals (white posts and
/// crossbar, kGoalHeightPerWidth x goal width high, grey nets), walls, other
/// robots (prisms with the team band on their sides and markings on top) and
/// the ball (an orange sphere), painted far to near so nearer things hide
/// farther ones. Everything is clipped to the view volume, so what is behind
/// the camera never shows. The carrying robot itself is not drawn. Then the
/// lighting gradient and Gaussian noise of spec.image. Appearance:
/// robot_markings.hpp.
///
/// An image depends only on (league, spec, seed, truth, team, robot, frame
/// number): the noise pool comes from `seed`, the offset of a frame into it
/// from (seed, team, robot, frame number) (see SensorEffects).
class OnboardImageRenderer {
 public:
  /// Throws std::invalid_argument for a negative noise_sd.
  OnboardImageRenderer(const msg::LeaguePreset& league, const msg::OnboardCameraSpec& spec, std::uint64_t seed);

  /// The image of robot (team, robot_id)'s camera. Throws
  /// std::invalid_argument if that robot is not in `truth`.
  cv::Mat render(const msg::WorldTruth& truth, msg::Team team, std::uint32_t robot_id,
                 std::uint64_t frame_number) const;

  /// The camera of a robot standing at `robot_pose` (field frame).
  msg::CameraCalibration calibration_for(const msg::Pose2& robot_pose) const;

  cv::Size size() const;

 private:
  msg::LeaguePreset league_;
  msg::OnboardCameraSpec spec_;
  Scene scene_;
  std::uint64_t seed_ = 0;
  SensorEffects sensor_;
};

}  // namespace robocaf::sim::camera
