#pragma once
// Pinhole cameras with OpenCV's lens distortion, in the field frame (metres,
// origin at the centre spot, x along the length, z up from the floor):
// building the calibration of the overhead and the onboard cameras, projecting
// field points into pixels and pixels back onto horizontal planes.
//
// Pixel convention: OpenCV's, pixel (i, j) has its centre at (i, j); the
// principal point is the image centre ((width - 1) / 2, (height - 1) / 2).
// Camera frame: OpenCV's, x right in the image, y down, z along the optical
// axis; p_cam = R * p_field + t (msg::CameraCalibration).

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::sim::camera {

/// Image size used when ImageSpec leaves width or height 0.
inline constexpr int kDefaultImageWidth = 640;
inline constexpr int kDefaultImageHeight = 480;
/// Horizontal field of view (rad) when neither the spec nor a fit gives one.
inline constexpr double kDefaultHorizontalFov = 1.0471975511965976;  // 60 deg

/// The overhead camera: straight down from `spec.height` above the centre
/// spot, image x along the field's +x and image y along the field's -y (a
/// normal top view with +y up). Zero fields are filled in:
///  - image width/height 0: 640 x 480;
///  - height 0: the lowest height at which the whole arena (carpet,
///    boundary, goals, walls, up to their top) fits in the image with a 2 %
///    margin, distortion included, for the given fov (60 deg if that is 0
///    too);
///  - horizontal_fov 0 with a height: the narrowest fov that fits the arena
///    from that height (the same 2 % margin).
/// fx from the fov and the width (fx = width / 2 / tan(fov / 2)), fy = fx.
/// Throws std::invalid_argument for a height at or below the top of the goals
/// or a negative size.
msg::CameraCalibration overhead_calibration(const msg::LeaguePreset& league,
                                            const msg::GlobalCameraSpec& spec);

/// An onboard camera on a robot at `pose`: at (x, y, mount_height), looking
/// along theta, pitched down by `tilt` (rad), no roll. mount_height 0 takes
/// the robot's height (RobotSpec.height, 0.05 if that is 0); the fov is
/// image.horizontal_fov, else spec.horizontal_fov, else 60 deg; the image
/// 640 x 480 if not given.
msg::CameraCalibration onboard_calibration(const msg::LeaguePreset& league,
                                           const msg::OnboardCameraSpec& spec,
                                           const msg::Pose2& pose);

/// Protobuf text format of a calibration (what `robocaf render --calibration`
/// writes) and back. calibration_from_text parses like the config files:
/// runtime::ConfigError naming <name_for_errors>:line:col for text that does
/// not parse or has unknown fields.
std::string calibration_to_text(const msg::CameraCalibration& calibration);
msg::CameraCalibration calibration_from_text(const std::string& text,
                                             const std::string& name_for_errors = "calibration");

/// A calibrated camera. Cheap to copy; immutable.
class CameraModel {
 public:
  /// Throws std::invalid_argument unless width, height, fx, fy are positive,
  /// rotation has 9 and translation 3 elements; a shorter distortion is
  /// padded with zeros (more than 5 is an error).
  explicit CameraModel(const msg::CameraCalibration& calibration);

  const msg::CameraCalibration& calibration() const { return calibration_; }
  cv::Size size() const { return {width_, height_}; }
  /// Camera centre in the field frame.
  const Eigen::Vector3d& position() const { return centre_; }
  Eigen::Vector3d to_camera(const Eigen::Vector3d& field_point) const { return rotation_ * field_point + translation_; }

  /// Pixel of a field point through the distorted lens (the same formula as
  /// cv::projectPoints). nullopt behind the camera (z_cam <= 0) or so far off
  /// the axis that the distortion polynomial folds back. The pixel may lie
  /// outside the image.
  std::optional<cv::Point2d> project(const Eigen::Vector3d& field_point) const;

  /// The field point on the plane z = plane_height seen at `pixel`
  /// (undistorted with cv::undistortPoints, iterated to 1e-12). nullopt when
  /// the ray does not meet the plane in front of the camera.
  std::optional<Eigen::Vector3d> ground_point(const cv::Point2d& pixel, double plane_height = 0.0) const;

  /// Pixel outline of a planar field polygon: clipped to the camera's view
  /// volume (a near plane and four side planes a little outside the image),
  /// then its edges sampled densely enough that distortion bends them. A
  /// concave polygon (or one with a hole joined by a slit) stays fillable:
  /// clipping may only add zero-width edges, and those lie outside the image.
  /// Empty if nothing of it is in view.
  std::vector<cv::Point2d> project_polygon(const std::vector<Eigen::Vector3d>& field_polygon) const;

  /// Pixel runs of a field polyline, clipped to the view volume the same way:
  /// the polyline is split where it leaves the view (e.g. behind the camera).
  std::vector<std::vector<cv::Point2d>> project_polyline(const std::vector<Eigen::Vector3d>& field_polyline) const;

 private:
  cv::Point2d distort_to_pixel(double x, double y) const;  // normalised image coords -> pixel
  void append_edge(const Eigen::Vector3d& a, const Eigen::Vector3d& b, std::vector<cv::Point2d>& out) const;

  msg::CameraCalibration calibration_;
  int width_ = 0, height_ = 0;
  double fx_ = 0, fy_ = 0, cx_ = 0, cy_ = 0;
  double k1_ = 0, k2_ = 0, p1_ = 0, p2_ = 0, k3_ = 0;
  bool distorted_ = false;
  double max_radius_sq_ = 0;  // normalised radius^2 beyond which the distortion folds
  double clip_x_ = 0, clip_y_ = 0;  // |x/z|, |y/z| bounds of the view volume
  Eigen::Matrix3d rotation_;
  Eigen::Vector3d translation_;
  Eigen::Vector3d centre_;
};

}  // namespace robocaf::sim::camera
