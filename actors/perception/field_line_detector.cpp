#include "actors/perception/field_line_detector.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace robocaf::actors {

FieldLineDetector::FieldLineDetector(const msg::FieldGeometry& field, const msg::CameraCalibration& calibration,
                                     double max_range, int columns, int max_points_per_scan)
    : geometry_(calibration) {  // validates the calibration
  if (!(field.length() > 0)) throw std::invalid_argument("FieldLineDetector: the field has no length");
  if (!(max_range > 0)) throw std::invalid_argument("FieldLineDetector: max_range must be > 0");
  const cv::Size size = geometry_.size();
  if (columns < 1 || columns > size.width)
    throw std::invalid_argument("FieldLineDetector: columns must be between 1 and the image width");
  if (max_points_per_scan < 1) throw std::invalid_argument("FieldLineDetector: max_points_per_scan must be >= 1");
  line_width_ = std::max(0.005, kLineWidthPerLength * field.length());
  max_range_ = max_range;
  max_points_ = max_points_per_scan;
  eye_ = geometry_.position();

  const Eigen::Matrix3d robot_from_camera = geometry_.rotation().transpose();

  // Every pixel of every column undistorted in one call: per image only
  // interpolation and a plane intersection remain.
  std::vector<int> xs;
  for (int k = 0; k < columns; ++k) {
    const int x = std::clamp(static_cast<int>((k + 0.5) * size.width / columns), 0, size.width - 1);
    if (xs.empty() || xs.back() != x) xs.push_back(x);
  }
  std::vector<cv::Point2d> pixels;
  pixels.reserve(xs.size() * static_cast<size_t>(size.height));
  for (int x : xs)
    for (int row = size.height - 1; row >= 0; --row) pixels.emplace_back(x, row);
  const std::vector<cv::Point2d> normalised = geometry_.undistort(pixels);

  // Far-edge rim and carpet pixels beyond the last row within range.
  constexpr int kMargin = kMaxRimPixels + kCarpetPixels + 1;
  offset_.push_back(0);
  for (size_t c = 0; c < xs.size(); ++c) {
    const cv::Point2d* n = &normalised[c * static_cast<size_t>(size.height)];
    std::vector<Eigen::Vector3d> rays;
    int in_range = 0;  // samples whose floor point is within max_range
    Eigen::Vector2d near = Eigen::Vector2d::Zero(), far = Eigen::Vector2d::Zero();
    for (int j = 0; j < size.height; ++j) {
      const Eigen::Vector3d ray = robot_from_camera * Eigen::Vector3d(n[j].x, n[j].y, 1.0);
      if (ray.z() > -1e-6) break;  // the horizon: no floor from here up
      const double s = -eye_.z() / ray.z();
      if (!(s > 0)) break;
      const Eigen::Vector2d p(eye_.x() + s * ray.x(), eye_.y() + s * ray.y());
      if (p.norm() <= max_range_) {
        if (j != in_range) break;  // back in range after leaving it: not a near-to-far column
        if (j == 0) near = p;
        far = p;
        ++in_range;
      } else if (j >= in_range + kMargin) {
        break;
      }
      rays.push_back(ray);
    }
    // Too short to hold a line and carpet on both sides.
    if (in_range < 2 * (kMaxRimPixels + kCarpetPixels) + 1) continue;
    FieldLineScan scan;
    scan.column = xs[c];
    scan.bottom_row = size.height - 1;
    scan.top_row = size.height - static_cast<int>(rays.size());
    scan.near = near;
    scan.far = far;
    scans_.push_back(scan);
    rays_.insert(rays_.end(), rays.begin(), rays.end());
    offset_.push_back(static_cast<int>(rays_.size()));
    longest_scan_ = std::max(longest_scan_, static_cast<int>(rays.size()));
  }
  whiteness_.assign(rays_.size(), 0);
  greenness_.assign(rays_.size(), 0);
}

Eigen::Vector2d FieldLineDetector::floor_at(int scan, double t) const {
  const int begin = offset_[static_cast<size_t>(scan)], n = offset_[static_cast<size_t>(scan) + 1] - begin;
  const int i = std::clamp(static_cast<int>(std::floor(t)), 0, n - 2);
  const double f = t - i;
  // Neighbouring pixels' rays differ by a milliradian: interpolating them is
  // as good as undistorting the fractional pixel.
  const Eigen::Vector3d ray =
      (1.0 - f) * rays_[static_cast<size_t>(begin + i)] + f * rays_[static_cast<size_t>(begin + i + 1)];
  const double s = -eye_.z() / std::min(ray.z(), -1e-9);
  return {eye_.x() + s * ray.x(), eye_.y() + s * ray.y()};
}

void FieldLineDetector::scan_one(int scan, std::vector<Eigen::Vector2d>& points) const {
  const int begin = offset_[static_cast<size_t>(scan)], n = offset_[static_cast<size_t>(scan) + 1] - begin;
  const unsigned char* w = &whiteness_[static_cast<size_t>(begin)];
  const short* g = &greenness_[static_cast<size_t>(begin)];
  auto carpet = [&](int j) { return w[j] <= kCarpetMaxWhiteness && g[j] >= kCarpetMinGreenness; };
  int found = 0;
  int j = 0;
  while (j < n && found < max_points_) {
    if (w[j] < kRunMin) {
      ++j;
      continue;
    }
    const int s = j;
    int e = j;
    while (e + 1 < n && w[e + 1] >= kRunMin) ++e;
    j = e + 1;
    int r0 = s, r1 = e;
    while (r0 > 0 && s - r0 < kMaxRimPixels && w[r0 - 1] > kCarpetMaxWhiteness) --r0;
    while (r1 + 1 < n && r1 - e < kMaxRimPixels && w[r1 + 1] > kCarpetMaxWhiteness) ++r1;
    // Carpet on both sides; the run cut by the image's bottom or the scan's
    // end is not a whole crossing.
    if (r0 - kCarpetPixels < 0 || r1 + kCarpetPixels >= n) continue;
    bool bounded = true;
    for (int k = 1; k <= kCarpetPixels && bounded; ++k) bounded = carpet(r0 - k) && carpet(r1 + k);
    if (!bounded) continue;

    // Local carpet level on each side from the carpet pixels past the
    // first (which may still hold a little of the rim); the lighting
    // gradient makes it differ across the image.
    double near_carpet = 0, far_carpet = 0;
    for (int k = 2; k <= kCarpetPixels; ++k) {
      near_carpet += w[r0 - k];
      far_carpet += w[r1 + k];
    }
    near_carpet /= kCarpetPixels - 1;
    far_carpet /= kCarpetPixels - 1;
    int white = kNominalWhite;
    for (int k = s; k <= e; ++k) white = std::max<int>(white, w[k]);
    const int lo = r0 - 1, hi = r1 + 1;  // the first carpet pixels may hold a sliver of coverage
    const int middle = (s + e) / 2;
    auto coverage = [&](int k) {
      const double c = k <= middle ? near_carpet : far_carpet;
      return std::clamp((w[k] - c) / std::max(1.0, white - c), 0.0, 1.0);
    };
    // White on carpet blends linearly from the carpet's greenness to none;
    // light grey (a net's foot grazed by the scan, 190) is as bright as
    // white partly covering a pixel but has no green in it.
    {
      double carpet_green = 0;
      for (int k = 2; k <= kCarpetPixels; ++k) carpet_green += g[r0 - k] + g[r1 + k];
      carpet_green /= 2 * (kCarpetPixels - 1);
      double deviation = 0;
      for (int k = s; k <= e; ++k) deviation += std::abs(g[k] - carpet_green * (1.0 - coverage(k)));
      if (deviation > kMaxGreenDeviation * (e - s + 1)) continue;
    }
    double a, b;  // edges, fractional sample index
    if (e - s >= 2) {
      // Pixels between the rims are fully covered: each edge lies as far
      // from the middle pixel's boundary as its side's summed coverage.
      double below = 0, above = 0;
      for (int k = lo; k <= middle; ++k) below += coverage(k);
      for (int k = middle + 1; k <= hi; ++k) above += coverage(k);
      a = middle + 0.5 - below;
      b = middle + 0.5 + above;
    } else {
      // One or two pixels, maybe none fully covered: the coverage-weighted
      // centre and the summed coverage give the middle and the width (each
      // edge within ~0.1 pixel of a box profile's).
      double sum = 0, moment = 0;
      for (int k = lo; k <= hi; ++k) {
        const double c = coverage(k);
        sum += c;
        moment += c * k;
      }
      if (sum <= 0) continue;
      const double centre = moment / sum;
      a = centre - 0.5 * sum;
      b = centre + 0.5 * sum;
    }
    const Eigen::Vector2d pa = floor_at(scan, a), pb = floor_at(scan, b);
    const Eigen::Vector2d point = 0.5 * (pa + pb);
    if (point.norm() > max_range_) break;  // the rest of the scan is farther still
    const double centre = 0.5 * (a + b);
    const double pixel = (floor_at(scan, centre + 0.5) - floor_at(scan, centre - 0.5)).norm();
    const double length = (pb - pa).norm();
    const double slack = kWidthTolerancePixels * pixel;
    if (length < kMinLengthPerWidth * line_width_ - slack || length > kMaxLengthPerWidth * line_width_ + slack)
      continue;
    points.push_back(point);
    ++found;
  }
}

void FieldLineDetector::detect(const cv::Mat& bgr, std::vector<Eigen::Vector2d>& points) {
  if (bgr.empty()) throw std::invalid_argument("FieldLineDetector: image is empty");
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("FieldLineDetector: image must be CV_8UC3 (BGR)");
  if (bgr.size() != geometry_.size())
    throw std::invalid_argument("FieldLineDetector: image size differs from the calibration's");
  points.clear();
  // Row by row, so the reads go through memory in order rather than a
  // cache line per pixel down each column.
  const int rows = bgr.rows;
  for (int j = 0; j < longest_scan_; ++j) {
    const auto* row = bgr.ptr<cv::Vec3b>(rows - 1 - j);
    for (size_t k = 0; k < scans_.size(); ++k) {
      if (j >= offset_[k + 1] - offset_[k]) continue;
      const cv::Vec3b& p = row[scans_[k].column];
      const size_t i = static_cast<size_t>(offset_[k] + j);
      whiteness_[i] = std::min({p[0], p[1], p[2]});
      greenness_[i] = static_cast<short>(p[1] - std::max(p[0], p[2]));
    }
  }
  for (int k = 0; k < static_cast<int>(scans_.size()); ++k) scan_one(k, points);
}

std::vector<Eigen::Vector2d> FieldLineDetector::detect(const cv::Mat& bgr) {
  std::vector<Eigen::Vector2d> points;
  detect(bgr, points);
  return points;
}

void FieldLineDetector::to_line_points(const std::vector<Eigen::Vector2d>& points, msg::OnboardFrame& frame) {
  for (const Eigen::Vector2d& p : points) {
    auto* q = frame.add_line_points();
    q->set_x(p.x());
    q->set_y(p.y());
  }
}

}  // namespace robocaf::actors
