#include "actors/perception/camera_geometry.hpp"

#include <stdexcept>

#include <Eigen/Dense>
#include <opencv2/calib3d.hpp>

namespace robocaf::actors {

CameraGeometry::CameraGeometry(const msg::CameraCalibration& c) {
  if (c.width() == 0 || c.height() == 0 || c.fx() <= 0 || c.fy() <= 0)
    throw std::invalid_argument("CameraGeometry: size and focal lengths must be positive");
  if (c.rotation_size() != 9 || c.translation_size() != 3)
    throw std::invalid_argument("CameraGeometry: rotation needs 9 and translation 3 elements");
  if (c.distortion_size() > 5) throw std::invalid_argument("CameraGeometry: at most 5 distortion coefficients");
  size_ = {static_cast<int>(c.width()), static_cast<int>(c.height())};
  fx_ = c.fx();
  fy_ = c.fy();
  cx_ = c.cx();
  cy_ = c.cy();
  camera_matrix_ = cv::Matx33d(fx_, 0, cx_, 0, fy_, cy_, 0, 0, 1);
  for (int i = 0; i < 5; ++i) distortion_[i] = i < c.distortion_size() ? c.distortion(i) : 0.0;
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) rotation_(r, k) = c.rotation(3 * r + k);
    translation_(r) = c.translation(r);
  }
  centre_ = -rotation_.transpose() * translation_;
}

std::vector<cv::Point2d> CameraGeometry::undistort(const std::vector<cv::Point2d>& pixels) const {
  std::vector<cv::Point2d> out;
  if (pixels.empty()) return out;
  // The default 5 iterations leave ~0.1 px of error near the corners with the
  // presets' barrel distortion; iterate to convergence instead.
  cv::undistortPoints(pixels, out, camera_matrix_, distortion_, cv::noArray(), cv::noArray(),
                      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 50, 1e-12));
  return out;
}

std::optional<Eigen::Vector2d> CameraGeometry::normalised_to_field(const cv::Point2d& n, double height) const {
  const Eigen::Vector3d ray = rotation_.transpose() * Eigen::Vector3d(n.x, n.y, 1.0);  // field frame, in front
  if (std::abs(ray.z()) < 1e-12) return std::nullopt;
  const double s = (height - centre_.z()) / ray.z();
  if (s <= 0) return std::nullopt;
  const Eigen::Vector3d p = centre_ + s * ray;
  return Eigen::Vector2d(p.x(), p.y());
}

std::optional<Eigen::Vector2d> CameraGeometry::pixel_to_field(const cv::Point2d& pixel, double height) const {
  return normalised_to_field(undistort({pixel}).front(), height);
}

std::optional<cv::Point2d> CameraGeometry::field_to_pixel(const Eigen::Vector2d& field, double height) const {
  const Eigen::Vector3d p = rotation_ * Eigen::Vector3d(field.x(), field.y(), height) + translation_;
  if (p.z() <= 0) return std::nullopt;
  const double x = p.x() / p.z(), y = p.y() / p.z();
  const double k1 = distortion_[0], k2 = distortion_[1], p1 = distortion_[2], p2 = distortion_[3],
               k3 = distortion_[4];
  const double r2 = x * x + y * y;
  const double radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
  const double xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  const double yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  return cv::Point2d(fx_ * xd + cx_, fy_ * yd + cy_);
}

double CameraGeometry::pixels_per_metre(const Eigen::Vector2d& field, double height) const {
  const Eigen::Vector3d p = rotation_ * Eigen::Vector3d(field.x(), field.y(), height) + translation_;
  return p.z() > 0 ? fx_ / p.z() : 0.0;
}

}  // namespace robocaf::actors
