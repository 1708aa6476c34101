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
/// dot blobs 0.35..1.05 R from the patch on that plane (the four nearest to
/// the nominal 0.72 R if more). The pose is the rigid fit (least squares over
/// the patch and the dots) of the marking layout to them, trying every
/// assignment of the dots to the layout's slots and keeping the one with the
/// least residual; the asymmetric layout resolves the heading. Then:
///  - 4 dots and a fit residual (RMS) under 0.15 R: decoded; robot_id from the
///    dot colours, confidence 1 - rms / 0.3 R (0.5..1);
///  - 2 or 3 dots, or a worse fit: reported with robot_id 0 and confidence
///    0.2 (pose from the fit, heading possibly wrong): trackers may ignore it;
///  - fewer than 2 dots: dropped (no heading).
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
};

}  // namespace robocaf::actors
