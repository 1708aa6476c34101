#include "sim/camera/camera_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>
#include <google/protobuf/text_format.h>
#include <opencv2/calib3d.hpp>

#include "runtime/config_loader.hpp"
#include "sim/camera/robot_markings.hpp"

namespace robocaf::sim::camera {

namespace {

constexpr double kNearPlane = 1e-3;  // m in front of the camera
constexpr double kFitMargin = 0.02;  // of the image size, kept free around the arena

struct ImageSize {
  int width;
  int height;
};

ImageSize image_size(const msg::ImageSpec& image) {
  return {image.width() > 0 ? static_cast<int>(image.width()) : kDefaultImageWidth,
          image.height() > 0 ? static_cast<int>(image.height()) : kDefaultImageHeight};
}

double focal_from_fov(int width, double fov) { return width / 2.0 / std::tan(fov / 2.0); }

void set_intrinsics(msg::CameraCalibration& c, ImageSize size, double f, const msg::ImageSpec& image) {
  if (image.distortion_size() > 5)
    throw std::invalid_argument("camera image distortion has more than 5 coefficients (k1 k2 p1 p2 k3)");
  c.set_width(static_cast<uint32_t>(size.width));
  c.set_height(static_cast<uint32_t>(size.height));
  c.set_fx(f);
  c.set_fy(f);
  c.set_cx((size.width - 1) / 2.0);
  c.set_cy((size.height - 1) / 2.0);
  c.clear_distortion();
  for (int i = 0; i < 5; ++i) c.add_distortion(i < image.distortion_size() ? image.distortion(i) : 0.0);
}

void set_extrinsics(msg::CameraCalibration& c, const Eigen::Matrix3d& r, const Eigen::Vector3d& centre) {
  const Eigen::Vector3d t = -r * centre;
  c.clear_rotation();
  c.clear_translation();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.add_rotation(r(i, j));
  for (int i = 0; i < 3; ++i) c.add_translation(t(i) + 0.0);  // + 0.0: no "-0" in the text form
}

// Points on the outline of everything standing on the floor, at the floor and
// at the top, that an overhead camera must see.
std::vector<Eigen::Vector3d> arena_outline(const SceneGeometry& g) {
  const double ax = g.arena_half_length(), ay = g.arena_half_width();
  std::vector<Eigen::Vector3d> points;
  for (double z : {0.0, g.top_height()})
    for (int i = 0; i <= 8; ++i) {
      const double s = -1.0 + i / 4.0;
      points.emplace_back(s * ax, ay, z);
      points.emplace_back(s * ax, -ay, z);
      points.emplace_back(ax, s * ay, z);
      points.emplace_back(-ax, s * ay, z);
    }
  return points;
}

bool fits(const msg::CameraCalibration& c, const std::vector<Eigen::Vector3d>& points) {
  const CameraModel model{c};
  const double mx = kFitMargin * c.width(), my = kFitMargin * c.height();
  for (const auto& p : points) {
    const auto pixel = model.project(p);
    if (!pixel || pixel->x < mx || pixel->x > c.width() - 1 - mx || pixel->y < my || pixel->y > c.height() - 1 - my)
      return false;
  }
  return true;
}

// Keeps the part of a camera-frame polygon where n . p + d >= 0.
void clip_polygon(const std::vector<Eigen::Vector3d>& in, std::vector<Eigen::Vector3d>& out,
                  const Eigen::Vector3d& n, double d) {
  out.clear();
  const size_t count = in.size();
  for (size_t i = 0; i < count; ++i) {
    const Eigen::Vector3d& a = in[i];
    const Eigen::Vector3d& b = in[(i + 1) % count];
    const double fa = n.dot(a) + d, fb = n.dot(b) + d;
    if (fa >= 0) out.push_back(a);
    if ((fa >= 0) != (fb >= 0)) out.push_back(a + (b - a) * (fa / (fa - fb)));
  }
}

}  // namespace

msg::CameraCalibration overhead_calibration(const msg::LeaguePreset& league, const msg::GlobalCameraSpec& spec) {
  const ImageSize size = image_size(spec.image());
  if (spec.height() < 0 || spec.image().horizontal_fov() < 0)
    throw std::invalid_argument("overhead camera: negative height or field of view");
  const SceneGeometry geometry = scene_geometry(league);
  const auto outline = arena_outline(geometry);

  // Straight down: image x = field x, image y = field -y, optical axis = field -z.
  Eigen::Matrix3d r;
  r << 1, 0, 0, 0, -1, 0, 0, 0, -1;
  msg::CameraCalibration c;
  const double half_w = (size.width - 1) / 2.0 - kFitMargin * size.width;
  const double half_h = (size.height - 1) / 2.0 - kFitMargin * size.height;
  double height = spec.height();
  double fov = spec.image().horizontal_fov();

  if (height > 0 && height <= geometry.top_height())
    throw std::invalid_argument("overhead camera: height " + std::to_string(height) +
                                " m is not above the goals and walls (" + std::to_string(geometry.top_height()) +
                                " m)");
  if (height > 0 && fov > 0) {
    set_intrinsics(c, size, focal_from_fov(size.width, fov), spec.image());
    set_extrinsics(c, r, {0, 0, height});
    return c;
  }
  if (height > 0) {
    // Narrowest fov (longest focal length) that fits the pinhole image, then
    // widened until the distorted image fits too.
    double f = std::numeric_limits<double>::infinity();
    for (const auto& p : outline) {
      const double depth = height - p.z();
      if (std::abs(p.x()) > 0) f = std::min(f, half_w * depth / std::abs(p.x()));
      if (std::abs(p.y()) > 0) f = std::min(f, half_h * depth / std::abs(p.y()));
    }
    set_intrinsics(c, size, f, spec.image());
    set_extrinsics(c, r, {0, 0, height});
    for (int i = 0; i < 500 && !fits(c, outline); ++i) {
      c.set_fx(c.fx() * 0.98);
      c.set_fy(c.fx());
    }
    return c;
  }
  if (!(fov > 0)) fov = kDefaultHorizontalFov;
  const double f = focal_from_fov(size.width, fov);
  height = 0;
  for (const auto& p : outline)
    height = std::max(height, p.z() + std::max(std::abs(p.x()) * f / half_w, std::abs(p.y()) * f / half_h));
  set_intrinsics(c, size, f, spec.image());
  set_extrinsics(c, r, {0, 0, height});
  for (int i = 0; i < 500 && !fits(c, outline); ++i) {
    height *= 1.02;
    set_extrinsics(c, r, {0, 0, height});
  }
  return c;
}

msg::CameraCalibration onboard_calibration(const msg::LeaguePreset& league, const msg::OnboardCameraSpec& spec,
                                           const msg::Pose2& pose) {
  const ImageSize size = image_size(spec.image());
  double fov = spec.image().horizontal_fov() > 0 ? spec.image().horizontal_fov() : spec.horizontal_fov();
  if (!(fov > 0)) fov = kDefaultHorizontalFov;
  const double mount = spec.mount_height() > 0 ? spec.mount_height() : scene_geometry(league).robot_height;
  const double ct = std::cos(pose.theta()), st = std::sin(pose.theta());
  const double ctilt = std::cos(spec.tilt()), stilt = std::sin(spec.tilt());
  const Eigen::Vector3d forward{ct * ctilt, st * ctilt, -stilt};
  const Eigen::Vector3d right{st, -ct, 0};  // the robot's right: image +x
  const Eigen::Vector3d down = forward.cross(right);
  Eigen::Matrix3d r;
  r.row(0) = right;
  r.row(1) = down;
  r.row(2) = forward;
  msg::CameraCalibration c;
  set_intrinsics(c, size, focal_from_fov(size.width, fov), spec.image());
  set_extrinsics(c, r, {pose.x(), pose.y(), mount});
  return c;
}

std::string calibration_to_text(const msg::CameraCalibration& calibration) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(calibration, &text);
  return text;
}

msg::CameraCalibration calibration_from_text(const std::string& text, const std::string& name_for_errors) {
  msg::CameraCalibration calibration;
  runtime::parse_text_config(text, name_for_errors, calibration);
  return calibration;
}

CameraModel::CameraModel(const msg::CameraCalibration& calibration) : calibration_(calibration) {
  const auto& c = calibration_;
  if (c.width() == 0 || c.height() == 0 || !(c.fx() > 0) || !(c.fy() > 0))
    throw std::invalid_argument("camera calibration: width, height, fx and fy must be positive");
  if (c.rotation_size() != 9 || c.translation_size() != 3)
    throw std::invalid_argument("camera calibration: rotation needs 9 and translation 3 elements");
  if (c.distortion_size() > 5) throw std::invalid_argument("camera calibration: more than 5 distortion coefficients");
  while (calibration_.distortion_size() < 5) calibration_.add_distortion(0.0);
  width_ = static_cast<int>(c.width());
  height_ = static_cast<int>(c.height());
  fx_ = c.fx();
  fy_ = c.fy();
  cx_ = c.cx();
  cy_ = c.cy();
  k1_ = calibration_.distortion(0);
  k2_ = calibration_.distortion(1);
  p1_ = calibration_.distortion(2);
  p2_ = calibration_.distortion(3);
  k3_ = calibration_.distortion(4);
  distorted_ = k1_ != 0 || k2_ != 0 || p1_ != 0 || p2_ != 0 || k3_ != 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) rotation_(i, j) = c.rotation(3 * i + j);
    translation_(i) = c.translation(i);
  }
  centre_ = -rotation_.transpose() * translation_;

  // Radial distortion r (1 + k1 r^2 + k2 r^4 + k3 r^6) must grow with r;
  // where its derivative reaches 0 the lens model folds back and points far
  // off the axis would land inside the image again.
  max_radius_sq_ = std::numeric_limits<double>::infinity();
  if (distorted_) {
    auto slope = [&](double s) { return 1 + 3 * k1_ * s + 5 * k2_ * s * s + 7 * k3_ * s * s * s; };
    double lo = 0;
    for (double s = 1e-4; s < 100; s *= 1.01) {
      if (slope(s) <= 0) {
        double hi = s;
        for (int i = 0; i < 60; ++i) {
          const double mid = (lo + hi) / 2;
          (slope(mid) > 0 ? lo : hi) = mid;
        }
        max_radius_sq_ = lo;
        break;
      }
      lo = s;
    }
  }

  // The view volume for clipping: the undistorted extent of the image border
  // plus a margin, so clipped edges fall outside the image; kept inside the
  // fold radius so every clipped point projects.
  double ex = 0, ey = 0;
  std::vector<cv::Point2d> border;
  const int steps = 16;
  for (int i = 0; i <= steps; ++i) {
    const double u = (width_ - 1) * double(i) / steps, v = (height_ - 1) * double(i) / steps;
    border.insert(border.end(), {{u, 0}, {u, height_ - 1.0}, {0, v}, {width_ - 1.0, v}});
  }
  if (distorted_) {
    const cv::Matx33d k{fx_, 0, cx_, 0, fy_, cy_, 0, 0, 1};
    const cv::Vec<double, 5> d{k1_, k2_, p1_, p2_, k3_};
    std::vector<cv::Point2d> normalised;
    cv::undistortPoints(border, normalised, k, d, cv::noArray(), cv::noArray(),
                        cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12));
    for (const auto& p : normalised) {
      ex = std::max(ex, std::abs(p.x));
      ey = std::max(ey, std::abs(p.y));
    }
  } else {
    for (const auto& p : border) {
      ex = std::max(ex, std::abs((p.x - cx_) / fx_));
      ey = std::max(ey, std::abs((p.y - cy_) / fy_));
    }
  }
  clip_x_ = ex * 1.15 + 0.02;
  clip_y_ = ey * 1.15 + 0.02;
  const double limit = 0.95 * max_radius_sq_;
  const double r2 = clip_x_ * clip_x_ + clip_y_ * clip_y_;
  if (r2 > limit) {
    const double scale = std::max(std::sqrt(limit / r2), std::sqrt((ex * ex + ey * ey) / r2));
    clip_x_ *= scale;
    clip_y_ *= scale;
  }
}

cv::Point2d CameraModel::distort_to_pixel(double x, double y) const {
  if (!distorted_) return {fx_ * x + cx_, fy_ * y + cy_};
  const double r2 = x * x + y * y;
  const double radial = 1 + r2 * (k1_ + r2 * (k2_ + r2 * k3_));
  const double xd = x * radial + 2 * p1_ * x * y + p2_ * (r2 + 2 * x * x);
  const double yd = y * radial + p1_ * (r2 + 2 * y * y) + 2 * p2_ * x * y;
  return {fx_ * xd + cx_, fy_ * yd + cy_};
}

std::optional<cv::Point2d> CameraModel::project(const Eigen::Vector3d& field_point) const {
  const Eigen::Vector3d p = to_camera(field_point);
  if (!(p.z() > 0)) return std::nullopt;
  const double x = p.x() / p.z(), y = p.y() / p.z();
  if (x * x + y * y > max_radius_sq_) return std::nullopt;
  return distort_to_pixel(x, y);
}

std::optional<Eigen::Vector3d> CameraModel::ground_point(const cv::Point2d& pixel, double plane_height) const {
  double x = (pixel.x - cx_) / fx_, y = (pixel.y - cy_) / fy_;
  if (distorted_) {
    const cv::Matx33d k{fx_, 0, cx_, 0, fy_, cy_, 0, 0, 1};
    const cv::Vec<double, 5> d{k1_, k2_, p1_, p2_, k3_};
    std::vector<cv::Point2d> in{pixel}, out;
    cv::undistortPoints(in, out, k, d, cv::noArray(), cv::noArray(),
                        cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 200, 1e-12));
    x = out[0].x;
    y = out[0].y;
    // OpenCV's fixed-point iteration converges slowly near the image corners
    // of a strong lens; a few Newton steps on the forward model finish it.
    for (int i = 0; i < 4; ++i) {
      const cv::Point2d e = distort_to_pixel(x, y) - pixel;
      if (std::abs(e.x) + std::abs(e.y) < 1e-10) break;
      const double h = 1e-7;
      const cv::Point2d dx = (distort_to_pixel(x + h, y) - distort_to_pixel(x - h, y)) / (2 * h);
      const cv::Point2d dy = (distort_to_pixel(x, y + h) - distort_to_pixel(x, y - h)) / (2 * h);
      const double det = dx.x * dy.y - dy.x * dx.y;
      if (std::abs(det) < 1e-12) break;
      x -= (dy.y * e.x - dy.x * e.y) / det;
      y -= (-dx.y * e.x + dx.x * e.y) / det;
    }
  }
  const Eigen::Vector3d ray = rotation_.transpose() * Eigen::Vector3d{x, y, 1.0};
  if (std::abs(ray.z()) < 1e-12) return std::nullopt;
  const double s = (plane_height - centre_.z()) / ray.z();
  if (!(s > 0)) return std::nullopt;
  return Eigen::Vector3d{centre_ + s * ray};
}

void CameraModel::append_edge(const Eigen::Vector3d& a, const Eigen::Vector3d& b, std::vector<cv::Point2d>& out) const {
  // a and b are camera-frame points inside the view volume; out gets a and
  // the samples between a and b (not b).
  const double xa = a.x() / a.z(), ya = a.y() / a.z();
  out.push_back(distort_to_pixel(xa, ya));
  if (!distorted_) return;
  const double xb = b.x() / b.z(), yb = b.y() / b.z();
  const double pixels = std::hypot(fx_ * (xb - xa), fy_ * (yb - ya));
  const int n = std::clamp(static_cast<int>(std::ceil(pixels / 4.0)), 1, 512);
  for (int i = 1; i < n; ++i) {
    const Eigen::Vector3d p = a + (b - a) * (double(i) / n);
    out.push_back(distort_to_pixel(p.x() / p.z(), p.y() / p.z()));
  }
}

std::vector<cv::Point2d> CameraModel::project_polygon(const std::vector<Eigen::Vector3d>& field_polygon) const {
  std::vector<Eigen::Vector3d> poly, tmp;
  poly.reserve(field_polygon.size() + 8);
  for (const auto& p : field_polygon) poly.push_back(to_camera(p));
  const std::pair<Eigen::Vector3d, double> planes[] = {
      {{0, 0, 1}, -kNearPlane},  {{1, 0, clip_x_}, 0}, {{-1, 0, clip_x_}, 0},
      {{0, 1, clip_y_}, 0},      {{0, -1, clip_y_}, 0},
  };
  for (const auto& [n, d] : planes) {
    clip_polygon(poly, tmp, n, d);
    poly.swap(tmp);
    if (poly.size() < 3) return {};
  }
  std::vector<cv::Point2d> pixels;
  for (size_t i = 0; i < poly.size(); ++i) append_edge(poly[i], poly[(i + 1) % poly.size()], pixels);
  return pixels;
}

std::vector<std::vector<cv::Point2d>> CameraModel::project_polyline(
    const std::vector<Eigen::Vector3d>& field_polyline) const {
  std::vector<std::vector<cv::Point2d>> runs;
  std::vector<cv::Point2d> run;
  auto close_run = [&] {
    if (run.size() >= 2) runs.push_back(std::move(run));
    run.clear();
  };
  const std::pair<Eigen::Vector3d, double> planes[] = {
      {{0, 0, 1}, -kNearPlane},  {{1, 0, clip_x_}, 0}, {{-1, 0, clip_x_}, 0},
      {{0, 1, clip_y_}, 0},      {{0, -1, clip_y_}, 0},
  };
  for (size_t i = 0; i + 1 < field_polyline.size(); ++i) {
    const Eigen::Vector3d a = to_camera(field_polyline[i]), b = to_camera(field_polyline[i + 1]);
    // Liang-Barsky against the five planes.
    double t0 = 0, t1 = 1;
    for (const auto& [n, d] : planes) {
      const double fa = n.dot(a) + d, fb = n.dot(b) + d;
      if (fa < 0 && fb < 0) {
        t0 = 2;
        break;
      }
      if (fa < 0) t0 = std::max(t0, fa / (fa - fb));
      if (fb < 0) t1 = std::min(t1, fa / (fa - fb));
    }
    if (t0 >= t1) {
      close_run();
      continue;
    }
    if (t0 > 0) close_run();
    const Eigen::Vector3d ca = a + (b - a) * t0, cb = a + (b - a) * t1;
    if (!run.empty()) run.pop_back();  // the previous segment ended where this one starts
    append_edge(ca, cb, run);
    run.push_back(distort_to_pixel(cb.x() / cb.z(), cb.y() / cb.z()));
    if (t1 < 1) close_run();
  }
  close_run();
  return runs;
}

}  // namespace robocaf::sim::camera
