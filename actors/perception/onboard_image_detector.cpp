#include "actors/perception/onboard_image_detector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Shape limits for onboard blobs: a ball cut by the image border or a band
// cut by a nearer robot is still a usable blob, so slimmer shapes pass than
// in the overhead view (whose blobs are whole discs).
BlobFilter onboard_blob_filter() {
  BlobFilter f;
  f.min_area = 4;
  f.min_fill = 0.3;
  f.max_aspect = 40.0;  // a ball under the bottom edge shows as a wide sliver; whole blobs are checked below
  return f;
}

// Whole (unclipped) blobs: a ball's image is nearly round, a robot's band at
// most about two robot radii wide over 0.4 robot heights tall.
constexpr double kMaxWholeBallAspect = 2.0;
constexpr double kMaxWholeBandAspect = 6.0;

// Size checks of a ball blob, as blob area over the expected area.
constexpr double kMinUnfittedAreaRatio = 0.4;   // an unfitted blob this much smaller is something else, or too biased
constexpr double kMaxAreaRatio = 2.5;           // nothing ball-coloured is bigger than the ball
constexpr double kMaxFittedAreaRatio = 1.5;     // the fitted ball must hold its blob
constexpr double kFitBelowAreaRatio = 0.75;     // a whole-looking blob this small is cut by something: fit it
constexpr double kOccludedOutlineShare = 0.1;   // outline points next to a robot beyond this: occluded

// The silhouette fit.
constexpr int kMinOutlinePoints = 8;
// A smaller sliver (a ball just off the side of the image) shows too short an
// arc to tell its curvature: fits of such slivers in matches were off by
// ~15 % of the distance, however small the residuals.
constexpr int kMinFittedBlobPixels = 40;
constexpr double kOutlinePointSdPixels = 0.35;  // thresholded edge of an anti-aliased rim
constexpr double kOffsetPriorSdPixels = 0.5;    // outline offset of the colour threshold
constexpr int kFitIterations = 15;
constexpr double kMaxOffsetPixels = 1.5;
constexpr double kMaxFitRmsPixels = 1.0;    // outline residuals (free, and bounding ones pressing), RMS
constexpr double kScanStep = 1.05;          // distance ratio between the scan's starting points
constexpr double kScanMaxDistance = 30.0;   // m

// A pixel next to a ball that belongs to a robot: its team band or its near
// black body (robot_markings.hpp: body (25, 25, 25); nothing else in the
// scene is this dark, the carpet's brightest channel is 120).
constexpr int kDarkMaxChannel = 80;

constexpr std::uint8_t class_bit(ColourClass c) { return static_cast<std::uint8_t>(1u << static_cast<int>(c)); }

// Ellipse of a sphere's image (pinhole, normalised coordinates): angular
// radius alpha, centre theta off the optical axis. The extreme points along
// the radial line are tan(theta -+ alpha); cos(theta + alpha) cos(theta - alpha)
// = cos^2 theta - sin^2 alpha.
// (The centre, (tan(theta + alpha) + tan(theta - alpha)) / 2 = sin theta
// cos theta / (cos^2 theta - sin^2 alpha), is what centre_from_centroid inverts.)
struct SphereImage {
  double semi_major;  // radial
  double semi_minor;  // tangential
};

SphereImage sphere_image(double theta, double alpha) {
  const double c2 = std::cos(theta) * std::cos(theta), s2a = std::sin(alpha) * std::sin(alpha);
  const double d = std::max(c2 - s2a, 1e-9);
  return {std::sin(alpha) * std::cos(alpha) / d, std::sin(alpha) / std::sqrt(d)};
}

}  // namespace

OnboardImageDetector::OnboardImageDetector(const msg::LeaguePreset& league,
                                           const msg::CameraCalibration& calibration,
                                           const msg::ColourThresholds& thresholds)
    : geometry_(calibration),
      segmenter_(thresholds, onboard_blob_filter()),
      camera_to_robot_(geometry_.rotation().transpose()) {
  focal_ = 0.5 * (calibration.fx() + calibration.fy());
  ball_radius_ = league.ball().radius() > 0 ? league.ball().radius() : 0.0215;
  robot_radius_ = league.robot().radius() > 0 ? league.robot().radius() : 0.09;
  robot_height_ = league.robot().height() > 0 ? league.robot().height() : 0.05;
  if (league.field().goal_width() > 0 && league.field().length() > 0) goals_.emplace(league.field(), calibration);
  if (league.field().length() > 0) lines_.emplace(league.field(), calibration);
}

double OnboardImageDetector::expected_ball_area(const Eigen::Vector2d& position) const {
  const Eigen::Vector3d centre(position.x(), position.y(), ball_radius_);
  const Eigen::Vector3d in_camera = camera_to_robot_.transpose() * (centre - geometry_.position());
  const double distance = in_camera.norm();
  if (in_camera.z() <= 0 || distance <= ball_radius_) return 0.0;
  const double theta = std::acos(std::clamp(in_camera.z() / distance, -1.0, 1.0));
  const SphereImage image = sphere_image(theta, std::asin(ball_radius_ / distance));
  return kPi * image.semi_major * image.semi_minor * focal_ * focal_;
}

bool OnboardImageDetector::centre_from_centroid(const cv::Point2d& normalised, Eigen::Vector2d& centre) const {
  // The centroid is the ellipse centre at tan(theta_c) = sin theta cos theta /
  // (cos^2 theta - sin^2 alpha) off the axis; solve for the sphere centre's
  // theta, with alpha from the distance of the current estimate.
  const double rho = std::hypot(normalised.x, normalised.y);
  cv::Point2d n = normalised;
  for (int i = 0; i < 3; ++i) {
    const auto p = geometry_.normalised_to_field(n, ball_radius_);
    if (!p) return false;
    centre = *p;
    if (rho < 1e-9) return true;
    const double distance = (Eigen::Vector3d(p->x(), p->y(), ball_radius_) - geometry_.position()).norm();
    if (distance <= ball_radius_) return true;
    const double s2a = std::pow(ball_radius_ / distance, 2);
    double tan_theta = rho;
    for (int k = 0; k < 4; ++k) tan_theta = rho * (1.0 - s2a * (1.0 + tan_theta * tan_theta));  // 1/cos^2 = 1 + tan^2
    n = normalised * (tan_theta / rho);
  }
  const auto p = geometry_.normalised_to_field(n, ball_radius_);
  if (!p) return false;
  centre = *p;
  return true;
}

bool OnboardImageDetector::fit_silhouette(const std::vector<OutlineRay>& outline, Eigen::Vector2d& centre,
                                          double& position_sd) const {
  const auto free_points =
      std::count_if(outline.begin(), outline.end(), [](const OutlineRay& ray) { return !ray.bounding; });
  if (free_points < kMinOutlinePoints) return false;
  const Eigen::Vector3d eye = geometry_.position();
  // Residual of one outline ray, pixels: its angle from the cone's axis minus
  // the cone's half angle, less the outline offset; for a bounding ray only
  // the part outside the cone counts.
  auto residual = [&](const Eigen::Vector3d& params, const OutlineRay& ray) {
    const Eigen::Vector3d axis = Eigen::Vector3d(params.x(), params.y(), ball_radius_) - eye;
    const double distance = axis.norm();
    const double half_angle = std::asin(std::min(1.0, ball_radius_ / distance));
    const double angle = std::acos(std::clamp(ray.direction.dot(axis) / distance, -1.0, 1.0));
    const double r = focal_ * (angle - half_angle) - params.z();
    return ray.bounding ? std::max(0.0, r) : r;
  };
  const double prior_weight = kOutlinePointSdPixels / kOffsetPriorSdPixels;
  auto cost = [&](const Eigen::Vector3d& params, const std::vector<const OutlineRay*>& used) {
    double sum = std::pow(prior_weight * params.z(), 2);
    for (const OutlineRay* ray : used) sum += std::pow(residual(params, *ray), 2);
    return sum;
  };
  // Residuals and their Jacobian (numeric in the centre, exact in the offset),
  // with the offset's prior as the last row.
  auto linearise = [&](const Eigen::Vector3d& params, const std::vector<const OutlineRay*>& used, Eigen::MatrixXd& J,
                       Eigen::VectorXd& r) {
    const int n = static_cast<int>(used.size());
    J.resize(n + 1, 3);
    r.resize(n + 1);
    const double step = 1e-5 * std::max(1.0, Eigen::Vector2d(params.x(), params.y()).norm());
    for (int i = 0; i < n; ++i) {
      r(i) = residual(params, *used[i]);
      for (int k = 0; k < 2; ++k) {
        Eigen::Vector3d moved = params;
        moved(k) += step;
        J(i, k) = (residual(moved, *used[i]) - r(i)) / step;
      }
      J(i, 2) = used[i]->bounding && r(i) <= 0.0 ? 0.0 : -1.0;
    }
    r(n) = prior_weight * params.z();
    J.row(n) << 0.0, 0.0, prior_weight;
  };
  auto gauss_newton = [&](Eigen::Vector3d& params, const std::vector<const OutlineRay*>& used) {
    Eigen::MatrixXd J;
    Eigen::VectorXd r;
    for (int iteration = 0; iteration < kFitIterations; ++iteration) {
      linearise(params, used, J, r);
      // Levenberg damping keeps a short arc's nearly flat directions in check.
      Eigen::Matrix3d normal = J.transpose() * J;
      normal.diagonal() *= 1.0 + 1e-3;
      const Eigen::Vector3d delta = normal.ldlt().solve(-J.transpose() * r);
      if (!delta.allFinite()) return false;
      params += delta;
      // The offset stands for where the colour threshold cuts an anti-aliased
      // rim, a fraction of a pixel; left free, it would turn a short arc into
      // a bigger ball farther away.
      params.z() = std::clamp(params.z(), -kMaxOffsetPixels, kMaxOffsetPixels);
      const double distance = Eigen::Vector2d(params.x(), params.y()).norm();
      if (!std::isfinite(distance)) return false;
      if (Eigen::Vector2d(delta.x(), delta.y()).norm() < 1e-7 * std::max(1.0, distance)) break;
    }
    return true;
  };

  std::vector<const OutlineRay*> used;
  for (const auto& ray : outline) used.push_back(&ray);

  // Starting points: the centroid's answer, and the best of a scan along its
  // bearing. A short arc (a ball under the bottom edge shows only its top)
  // also fits a smaller ball farther away nearly as well locally, so
  // Gauss-Newton from the centroid alone can settle there.
  std::vector<Eigen::Vector3d> starts{Eigen::Vector3d(centre.x(), centre.y(), 0.0)};
  {
    const Eigen::Vector2d flat = centre - Eigen::Vector2d(eye.x(), eye.y());
    if (flat.norm() > 1e-9) {
      const Eigen::Vector2d direction = flat.normalized();
      double best = std::numeric_limits<double>::infinity();
      Eigen::Vector3d best_start = starts.front();
      for (double d = std::max(ball_radius_, 0.1); d < kScanMaxDistance; d *= kScanStep) {
        const Eigen::Vector2d p = Eigen::Vector2d(eye.x(), eye.y()) + d * direction;
        const Eigen::Vector3d start(p.x(), p.y(), 0.0);
        const double c = cost(start, used);
        if (c < best) {
          best = c;
          best_start = start;
        }
      }
      starts.push_back(best_start);
    }
  }
  Eigen::Vector3d params = starts.front();
  double best_cost = std::numeric_limits<double>::infinity();
  for (Eigen::Vector3d start : starts) {
    if (!gauss_newton(start, used)) continue;
    const double c = cost(start, used);
    if (c < best_cost) {
      best_cost = c;
      params = start;
    }
  }
  if (!std::isfinite(best_cost)) return false;

  // Drop free outline points the silhouette does not explain (an occluder's
  // edge the robot test missed, a goal post in front), then fit again.
  std::vector<double> free_residuals;
  for (const OutlineRay* ray : used)
    if (!ray->bounding) free_residuals.push_back(std::abs(residual(params, *ray)));
  std::nth_element(free_residuals.begin(), free_residuals.begin() + free_residuals.size() / 2, free_residuals.end());
  const double limit = std::max(1.0, 3.0 * 1.4826 * free_residuals[free_residuals.size() / 2]);
  std::vector<const OutlineRay*> kept;
  int kept_free = 0;
  for (const OutlineRay* ray : used) {
    if (ray->bounding) {
      kept.push_back(ray);
    } else if (std::abs(residual(params, *ray)) <= limit) {
      kept.push_back(ray);
      ++kept_free;
    }
  }
  if (kept_free >= kMinOutlinePoints && kept.size() < used.size()) {
    if (!gauss_newton(params, kept)) return false;
    used.swap(kept);
  }

  // A silhouette that does not explain its outline (well-fitted outlines stay
  // near the point noise, ~0.3 pixels RMS) is the wrong basin or not a ball.
  {
    double sum = 0.0;
    int free_used = 0;
    for (const OutlineRay* ray : used) {
      sum += std::pow(residual(params, *ray), 2);
      free_used += !ray->bounding;
    }
    if (std::sqrt(sum / std::max(1, free_used)) > kMaxFitRmsPixels) return false;
  }

  // How well the free outline pins the centre down: the larger standard
  // deviation of the linearised fit to it (outline points
  // kOutlinePointSdPixels from the silhouette). Bounding points are left
  // out: they only say where the ball is not, and counting them as
  // measurements would make a sliver at the border look certain.
  {
    std::vector<const OutlineRay*> free_outline;
    for (const OutlineRay* ray : used)
      if (!ray->bounding) free_outline.push_back(ray);
    Eigen::MatrixXd J;
    Eigen::VectorXd r;
    linearise(params, free_outline, J, r);
    const Eigen::Matrix3d normal = J.transpose() * J;
    Eigen::Matrix3d covariance = normal.inverse() * kOutlinePointSdPixels * kOutlinePointSdPixels;
    if (!covariance.allFinite()) return false;
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(covariance.topLeftCorner<2, 2>());
    position_sd = std::sqrt(std::max(0.0, eigen.eigenvalues().maxCoeff()));
  }

  // The fitted centre must lie in front of the camera, on the side the rays look at.
  const Eigen::Vector3d axis = Eigen::Vector3d(params.x(), params.y(), ball_radius_) - eye;
  if ((camera_to_robot_.transpose() * axis).z() <= 0) return false;
  centre = Eigen::Vector2d(params.x(), params.y());
  return true;
}

OnboardDetections OnboardImageDetector::detect(const cv::Mat& bgr) {
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("OnboardImageDetector: image must be CV_8UC3 (BGR)");
  if (bgr.size() != geometry_.size())
    throw std::invalid_argument("OnboardImageDetector: image size differs from the calibration's");
  OnboardDetections out;
  const std::vector<ColourBlob> blobs = segmenter_.segment(bgr);
  const int width = bgr.cols, height = bgr.rows;

  auto robot_like = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= width || y >= height) return false;
    const cv::Vec3b p = bgr.at<cv::Vec3b>(y, x);
    if (std::max({p[0], p[1], p[2]}) < kDarkMaxChannel) return true;
    return (segmenter_.classify(p[0], p[1], p[2]) & (class_bit(ColourClass::kBlue) | class_bit(ColourClass::kYellow))) != 0;
  };
  const std::uint8_t ball_bit = class_bit(ColourClass::kBall);

  for (const ColourBlob& blob : blobs) {
    if (blob.colour == ColourClass::kBlue || blob.colour == ColourClass::kYellow) {
      detect_robot(bgr, blob, out);
      continue;
    }
    if (blob.colour != ColourClass::kBall) continue;

    OnboardBallCandidate ball;
    ball.pixel = blob.centroid;
    ball.area = blob.area;
    const cv::Rect& box = blob.bbox;
    ball.clipped = box.x == 0 || box.y == 0 || box.x + box.width == width || box.y + box.height == height;
    if (!ball.clipped && std::max(box.width, box.height) > kMaxWholeBallAspect * std::min(box.width, box.height))
      continue;
    if (!centre_from_centroid(geometry_.undistort({blob.centroid}).front(), ball.position)) continue;
    const double expected = expected_ball_area(ball.position);
    if (expected <= 0) continue;
    double ratio = blob.area / expected;

    // The blob's outline: the outermost ball pixels of each row and column,
    // each an edge half a pixel outside its pixel centre. An outline point is
    // free unless it lies on the image border or next to a robot.
    std::vector<cv::Point2d> outline_pixels;
    std::vector<bool> bounding;
    int next_to_robot = 0;
    auto add_edge = [&](int x, int y, int dx, int dy) {
      const int ox = x + dx, oy = y + dy;
      const bool on_border = ox < 0 || oy < 0 || ox >= width || oy >= height;
      const bool robot = !on_border && (robot_like(ox, oy) || robot_like(ox + dx, oy + dy));
      next_to_robot += robot;
      outline_pixels.emplace_back(x + 0.5 * dx, y + 0.5 * dy);
      bounding.push_back(on_border || robot);
    };
    const cv::Mat roi = bgr(box);
    classes_.create(roi.size(), CV_8UC1);
    for (int y = 0; y < roi.rows; ++y) {
      const auto* p = roi.ptr<std::uint8_t>(y);
      auto* m = classes_.ptr<std::uint8_t>(y);
      for (int x = 0; x < roi.cols; ++x, p += 3) m[x] = segmenter_.classify(p[0], p[1], p[2]) & ball_bit;
    }
    for (int y = 0; y < roi.rows; ++y) {
      const auto* m = classes_.ptr<std::uint8_t>(y);
      int first = -1, last = -1;
      for (int x = 0; x < roi.cols; ++x)
        if (m[x]) {
          if (first < 0) first = x;
          last = x;
        }
      if (first < 0) continue;
      add_edge(box.x + first, box.y + y, -1, 0);
      add_edge(box.x + last, box.y + y, 1, 0);
    }
    for (int x = 0; x < roi.cols; ++x) {
      int first = -1, last = -1;
      for (int y = 0; y < roi.rows; ++y)
        if (classes_.at<std::uint8_t>(y, x)) {
          if (first < 0) first = y;
          last = y;
        }
      if (first < 0) continue;
      add_edge(box.x + x, box.y + first, 0, -1);
      add_edge(box.x + x, box.y + last, 0, 1);
    }
    ball.occluded = next_to_robot > kOccludedOutlineShare * static_cast<double>(outline_pixels.size());

    if ((ball.clipped || ball.occluded || ratio < kFitBelowAreaRatio) && blob.area >= kMinFittedBlobPixels) {
      const std::vector<cv::Point2d> normalised = geometry_.undistort(outline_pixels);
      std::vector<OutlineRay> rays;
      rays.reserve(normalised.size());
      for (std::size_t i = 0; i < normalised.size(); ++i)
        rays.push_back({(camera_to_robot_ * Eigen::Vector3d(normalised[i].x, normalised[i].y, 1.0)).normalized(),
                        bounding[i]});
      Eigen::Vector2d fitted = ball.position;
      double fitted_sd = 0.0;
      if (fit_silhouette(rays, fitted, fitted_sd)) {
        const double fitted_expected = expected_ball_area(fitted);
        if (fitted_expected > 0 && blob.area <= kMaxFittedAreaRatio * fitted_expected) {
          ball.position = fitted;
          ball.position_sd = fitted_sd;
          ball.fitted = true;
          ratio = blob.area / fitted_expected;
        }
      }
    }
    if (!ball.fitted) {
      // The centroid's noise: outline points' noise averaged over the outline
      // (half of them bound each axis), through the plane's pixel-to-metre map.
      const double centroid_sd = kOutlinePointSdPixels / std::sqrt(std::max(1.0, 0.5 * outline_pixels.size()));
      const auto right = geometry_.pixel_to_field(blob.centroid + cv::Point2d(1, 0), ball_radius_);
      const auto down = geometry_.pixel_to_field(blob.centroid + cv::Point2d(0, 1), ball_radius_);
      const auto here = geometry_.pixel_to_field(blob.centroid, ball_radius_);
      if (right && down && here) {
        Eigen::Matrix2d per_pixel;
        per_pixel << *right - *here, *down - *here;
        const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(per_pixel * per_pixel.transpose());
        ball.position_sd = centroid_sd * std::sqrt(std::max(0.0, eigen.eigenvalues().maxCoeff()));
      }
    }
    // Unfitted, the centroid stands: only for a blob of about a ball's size
    // there (cut or hidden blobs that could not be fitted are too biased).
    if (!ball.fitted && (ratio > kMaxAreaRatio || ratio < kMinUnfittedAreaRatio)) continue;
    ball.confidence = ratio <= 1.0 ? ratio : 1.0 / ratio;
    out.balls.push_back(ball);
  }
  if (goals_) out.goals = goals_->detect(bgr);
  if (lines_) lines_->detect(bgr, out.line_points);
  return out;
}

void OnboardImageDetector::detect_robot(const cv::Mat& bgr, const ColourBlob& blob, OnboardDetections& out) const {
  const cv::Rect& box = blob.bbox;
  const int width = bgr.cols, height = bgr.rows;
  const bool clipped = box.x == 0 || box.y == 0 || box.x + box.width == width || box.y + box.height == height;
  if (!clipped && std::max(box.width, box.height) > kMaxWholeBandAspect * std::min(box.width, box.height)) return;
  const std::uint8_t bit = class_bit(blob.colour);
  // The band's bottom edge in the blob's middle third of columns: the lowest
  // pixel of the class in each column, the median of those.
  std::vector<int> bottoms;
  const int x0 = box.x + box.width / 3, x1 = std::max(x0 + 1, box.x + (2 * box.width + 2) / 3);
  for (int x = x0; x < x1; ++x) {
    for (int y = box.y + box.height - 1; y >= box.y; --y) {
      const cv::Vec3b p = bgr.at<cv::Vec3b>(y, x);
      if (segmenter_.classify(p[0], p[1], p[2]) & bit) {
        bottoms.push_back(y);
        break;
      }
    }
  }
  if (bottoms.empty()) return;
  std::nth_element(bottoms.begin(), bottoms.begin() + bottoms.size() / 2, bottoms.end());
  const int bottom = bottoms[bottoms.size() / 2];
  const bool clipped_side = box.x == 0 || box.x + box.width == width;
  const Eigen::Vector2d eye(geometry_.position().x(), geometry_.position().y());

  Eigen::Vector2d centre;
  if (bottom < height - 1) {
    const auto near_side = geometry_.pixel_to_field({box.x + 0.5 * (box.width - 1), bottom + 0.5},
                                                    kBandBottom * robot_height_);
    if (!near_side) return;
    const Eigen::Vector2d ray = *near_side - eye;
    if (ray.norm() < 1e-6) return;
    centre = *near_side + robot_radius_ * ray.normalized();
  } else if (!clipped_side) {
    // The band runs off the bottom of the image: its width gives the distance.
    const auto n = geometry_.undistort({{box.x - 0.5, box.y + 0.5 * box.height}, {box.x + box.width - 0.5, box.y + 0.5 * box.height}});
    const Eigen::Vector3d a = (camera_to_robot_ * Eigen::Vector3d(n[0].x, n[0].y, 1)).normalized();
    const Eigen::Vector3d b = (camera_to_robot_ * Eigen::Vector3d(n[1].x, n[1].y, 1)).normalized();
    const double half_angle = 0.5 * std::acos(std::clamp(a.dot(b), -1.0, 1.0));
    if (half_angle <= 1e-6) return;
    const double distance = robot_radius_ / std::sin(half_angle);
    Eigen::Vector2d direction(a.x() + b.x(), a.y() + b.y());
    if (direction.norm() < 1e-9) return;
    centre = eye + distance * direction.normalized();
  } else {
    return;  // cut on two sides: nothing to measure
  }

  // Confidence: the blob's width against the band's expected angular width there.
  OnboardRobotCandidate robot;
  robot.team = blob.colour == ColourClass::kBlue ? msg::BLUE : msg::YELLOW;
  robot.position = centre;
  robot.pixel = blob.centroid;
  const double distance = (centre - eye).norm();
  const double expected_width = distance > robot_radius_ ? 2.0 * focal_ * std::asin(robot_radius_ / distance) : 0.0;
  const double ratio = expected_width > 0 ? box.width / expected_width : 0.0;
  robot.confidence = ratio <= 1.0 ? ratio : 1.0 / ratio;
  if (robot.confidence < 0.1) return;
  out.robots.push_back(robot);
}

msg::OnboardFrame OnboardImageDetector::to_frame(const OnboardDetections& detections, std::uint64_t frame_number,
                                                 double t_capture, msg::Team team, std::uint32_t robot_id) {
  msg::OnboardFrame frame;
  frame.set_frame_number(frame_number);
  frame.set_t_capture(t_capture);
  frame.set_team(team);
  frame.set_robot_id(robot_id);
  for (const auto& b : detections.balls) {
    auto* o = frame.add_balls();
    o->mutable_position()->set_x(b.position.x());
    o->mutable_position()->set_y(b.position.y());
    o->set_confidence(b.confidence);
    o->set_position_sd(b.position_sd);
  }
  for (const auto& r : detections.robots) {
    auto* o = frame.add_robots();
    o->mutable_position()->set_x(r.position.x());
    o->mutable_position()->set_y(r.position.y());
    o->set_confidence(r.confidence);
    o->set_team(r.team);
  }
  GoalPostDetector::to_landmarks(detections.goals, frame);
  FieldLineDetector::to_line_points(detections.line_points, frame);
  return frame;
}

}  // namespace robocaf::actors
