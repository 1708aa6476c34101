#pragma once
// Global vision from one overhead camera image: colour blobs -> balls and
// robots (team, id, pose) in field coordinates, as an SSL-Vision-like
// msg::DetectionFrame.

#include <array>
#include <cstdint>

#include <opencv2/core.hpp>

#include "actors/perception/camera_geometry.hpp"
#include "actors/perception/colour_segmenter.hpp"
#include "messages/config.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// The robot marking protocol, in units of the robot radius (robot frame: x
/// forward, y left): the vision protocol the simulator draws
/// (sim/camera/robot_markings.hpp, kept equal by a unit test). Dot i shows bit
/// i of the robot id: magenta 1, green 0. The front pair is 1.22 R apart, the
/// back pair 0.78 R, which makes the heading unambiguous.
inline constexpr std::array<std::array<double, 2>, 4> kMarkingDots{{
    {{0.389, -0.607}},   // bit 0: front right
    {{0.389, 0.607}},    // bit 1: front left
    {{-0.607, 0.389}},   // bit 2: back left
    {{-0.607, -0.389}},  // bit 3: back right
}};
inline constexpr double kMarkingPatchRadius = 0.28;  ///< team patch, centred
inline constexpr double kMarkingDotRadius = 0.22;    ///< id dots
inline constexpr std::uint32_t kMaxMarkingId = 15;   ///< four bits, id 0 (all green) unused

/// Detects balls and robots in overhead BGR images of one calibrated camera.
///
/// Balls: every ball-coloured blob is a candidate, mapped onto the plane of
/// the ball centre (z = ball radius; 0.0215 m if the preset gives 0);
/// confidence is its area over the expected area (or the inverse if larger),
/// so a blob of the ball's size scores ~1.
///
/// Robots: every blue or yellow blob of at least a quarter of the team patch's
/// expected area is a robot, mapped onto the plane of the robot tops
/// (RobotSpec.height, 0.05 m if 0; radius 0.09 m if 0). Its id dots are the
/// dot blobs 0.35..1.05 R from the patch on that plane (the five nearest to
/// the nominal 0.72 R if more), leaving out blobs the size of two merged dots
/// (robots pressed together). The ids in play are 1..LeaguePreset.team_size
/// (at most 15), as the simulator and the robots' addresses use them.
///  - Four dots whose rigid fit to the marking layout (least squares over the
///    patch and the dots, every assignment of the dots to the slots) leaves a
///    residual (RMS) under 0.06 R, spelling an id in play: decoded, robot_id
///    from the dot colours, confidence 1 - rms / 0.3 R (0.8..1).
///  - Otherwise (a dot hidden or cut by the goal's crossbar or nets, merged
///    with a neighbour's, a neighbour's dot taken): every assignment of two or
///    more dots to distinct slots that fits within 0.15 R is a pose; each of
///    its four slots is read from the image where the pose puts it (the dot's
///    colour, hidden under something bright, or bare dark top, which rules
///    the pose out, as do bits no id in play shows). The poses with the most
///    dots that fit within 0.04 R of the best leave a set of possible ids;
///    ids decoded for other robots of the team in the frame are struck from
///    it. One id left, read alike by every such pose within 20 deg: decoded
///    with confidence 0.4.
///  - Otherwise reported with robot_id 0 and confidence 0.2 (pose from the
///    best fit, heading possibly wrong): trackers may ignore it, or
///    associate it by position.
///  - Fewer than 2 dots: dropped (no heading).
/// A wrong id is worse than none (a tracker would move that robot's
/// track), so every doubt ends in robot_id 0.
/// pixel_x / pixel_y are the patch's (ball's) blob centroid in the image.
///
/// Not thread-safe (the segmenter's scratch buffers); one detector per thread.
class ImageDetector {
 public:
  ImageDetector(const msg::LeaguePreset& league, const msg::CameraCalibration& calibration,
                const msg::ColourThresholds& thresholds);

  /// One frame of detections; t_sent is left 0 and camera_id 0. Throws
  /// std::invalid_argument unless bgr is CV_8UC3.
  msg::DetectionFrame detect(const cv::Mat& bgr, std::uint64_t frame_number, double t_capture);

  const CameraGeometry& geometry() const { return geometry_; }
  const ColourSegmenter& segmenter() const { return segmenter_; }

 private:
  CameraGeometry geometry_;
  ColourSegmenter segmenter_;
  double robot_radius_ = 0;
  double robot_height_ = 0;
  double ball_radius_ = 0;
  std::uint32_t max_robot_id_ = kMaxMarkingId;
};

}  // namespace robocaf::actors
