#pragma once
// Pixels <-> field points of a calibrated camera (msg::CameraCalibration:
// pinhole with OpenCV's k1 k2 p1 p2 k3 distortion, p_cam = R * p_field + t),
// for image perception. The robot software's own copy of the camera maths: it
// must not depend on the simulator.
//
// Conventions: field frame in metres, origin at the centre spot, z up from the
// floor; pixel (i, j) has its centre at (i, j) (OpenCV's).

#include <optional>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "messages/vision.pb.h"

namespace robocaf::actors {

class CameraGeometry {
 public:
  /// Throws std::invalid_argument unless width, height, fx, fy are positive,
  /// rotation has 9 and translation 3 elements, distortion at most 5 (shorter
  /// is padded with zeros).
  explicit CameraGeometry(const msg::CameraCalibration& calibration);

  /// The point on the horizontal plane z = height_above_floor (m) seen at
  /// `pixel`: undistorted with cv::undistortPoints (iterated to convergence),
  /// the ray through the camera centre intersected with the plane. nullopt
  /// when the ray does not meet the plane in front of the camera.
  std::optional<Eigen::Vector2d> pixel_to_field(const cv::Point2d& pixel, double height_above_floor) const;

  /// Normalised, undistorted image coordinates (x/z, y/z in the camera frame)
  /// of many pixels in one cv::undistortPoints call: the per-call overhead
  /// dominates for single points. Same order as the input.
  std::vector<cv::Point2d> undistort(const std::vector<cv::Point2d>& pixels) const;

  /// The plane point (as pixel_to_field) of normalised coordinates from undistort().
  std::optional<Eigen::Vector2d> normalised_to_field(const cv::Point2d& normalised, double height_above_floor) const;

  /// Pixel of the field point (x, y, height_above_floor) through the
  /// distorted lens (cv::projectPoints' formula); nullopt behind the camera.
  /// The pixel may lie outside the image.
  std::optional<cv::Point2d> field_to_pixel(const Eigen::Vector2d& field, double height_above_floor) const;

  /// Pixels per metre at field point `field` on the plane z = height, from
  /// the distance to the camera along the optical axis (fx / z_cam): for
  /// sizing pixel search radii.
  double pixels_per_metre(const Eigen::Vector2d& field, double height_above_floor) const;

  /// Camera centre in the field frame, metres.
  const Eigen::Vector3d& position() const { return centre_; }
  /// The calibration's rotation R, field frame -> camera frame (p_cam = R * p_field + t).
  const Eigen::Matrix3d& rotation() const { return rotation_; }
  cv::Size size() const { return size_; }

 private:
  cv::Size size_;
  cv::Matx33d camera_matrix_;
  cv::Vec<double, 5> distortion_;
  double fx_ = 0, fy_ = 0, cx_ = 0, cy_ = 0;
  Eigen::Matrix3d rotation_;     // field -> camera
  Eigen::Vector3d translation_;
  Eigen::Vector3d centre_;       // camera centre, field frame
};

}  // namespace robocaf::actors
