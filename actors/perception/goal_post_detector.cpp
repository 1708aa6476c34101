#include "actors/perception/goal_post_detector.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "actors/perception/camera_geometry.hpp"

namespace robocaf::actors {
namespace {

// Shortest white run through the horizon that may be a post: a post at
// 10 m is ~45 pixels tall, a stray white pixel one.
constexpr int kMinRunPixels = 8;
// Neighbouring columns belong to one post while their bottoms agree this
// well (a post's bottom is the goal line's edge, nearly level); the crossbar
// between the posts ends far higher and is cut off.
constexpr int kMaxBottomStep = 3;
// Goals farther than this are not reported: distances come from edge rows,
// and at 10 m a pixel is already half a metre (the renderer's anti-aliased
// edges wander by a few tenths of a pixel along a line), so the goal's turn
// against the view, from the difference of two such distances, is lost.
constexpr double kMaxRange = 10.0;
// A post cut by the image's top edge must reach at least this close to it.
constexpr double kTopTolerancePixels = 2.0;
// The foot's distance must agree with the top's within this (metres plus
// share of the distance; see posts()).
constexpr double kFootTolerance = 0.1;
constexpr double kFootToleranceShare = 0.05;
// Two posts are one goal only if the crossbar's top edge is found in this
// share of the columns between them (a robot in front may hide a little).
constexpr double kMinCrossbarShare = 0.7;
// Where to look for the crossbar's top edge around the line between the
// posts' tops, pixels.
constexpr int kCrossbarSearchPixels = 3;
// Sub-pixel edges: the anti-aliased rim pixel's coverage from its brightness
// between the inside and the outside next to it; below this contrast (in
// whiteness) the edge stays at the pixel boundary.
constexpr int kMinEdgeContrast = 40;

struct Run {
  int top = 0, bottom = -1;  // inclusive rows
  int length() const { return bottom - top + 1; }
};

// The edge at the end of a white run in column x of the level whiteness
// image, sub-pixel: `last` is the run's last white row going in direction
// `dir` (+1 down, -1 up). The run is white up to `last`; the rim pixels
// around it are partly covered, and the edge lies past the last fully
// covered row by the sum of their coverages.
double subpixel_edge(const cv::Mat& whiteness, int x, int last, int dir) {
  const double boundary = last + 0.5 * dir;
  const int inside_row = last - 2 * dir, outside_row = last + 3 * dir;
  if (inside_row < 0 || inside_row >= whiteness.rows || outside_row < 0 || outside_row >= whiteness.rows)
    return boundary;
  // The inside's brightest of three rows: a thin bar (the crossbar far off)
  // may have the next thing behind it two rows in.
  int inside = 0;
  for (int k = 0; k < 3; ++k) inside = std::max<int>(inside, whiteness.at<std::uint8_t>(last - k * dir, x));
  const int outside = whiteness.at<std::uint8_t>(outside_row, x);
  if (inside - outside < kMinEdgeContrast) return boundary;
  double covered = 0.0;
  for (int k = 0; k < 3; ++k)
    covered += std::clamp(double(whiteness.at<std::uint8_t>(last + k * dir, x) - outside) / (inside - outside), 0.0, 1.0);
  // `last` counts as fully inside in `boundary`; its own coverage is in the sum.
  return boundary - dir + dir * covered;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

GoalPostDetector::GoalPostDetector(const msg::FieldGeometry& field, const msg::CameraCalibration& calibration) {
  if (!(field.goal_width() > 0) || !(field.length() > 0))
    throw std::invalid_argument("GoalPostDetector: the field has no goal (goal_width and length must be > 0)");
  const CameraGeometry geometry(calibration);  // validates the calibration
  size_ = geometry.size();
  eye_ = geometry.position();
  goal_width_ = field.goal_width();
  goal_height_ = kGoalHeightPerWidth * goal_width_;
  post_ = std::max(0.005, kLineWidthPerLength * field.length());
  goal_area_depth_ = std::max(0.0, field.goal_area_depth());
  const double boundary = std::max(0.0, field.boundary_width());
  max_range_ = std::min(kMaxRange, std::hypot(field.length() + 2 * boundary, field.width() + 2 * boundary));

  // The level camera: the real one's heading, no pitch (OpenCV axes: x
  // right, y down, z forward).
  const Eigen::Matrix3d& camera_from_robot = geometry.rotation();
  const Eigen::Vector3d axis = camera_from_robot.transpose() * Eigen::Vector3d::UnitZ();
  const Eigen::Vector2d heading(axis.x(), axis.y());
  if (heading.norm() < 1e-6) throw std::invalid_argument("GoalPostDetector: the camera looks straight up or down");
  const Eigen::Vector3d forward(heading.x() / heading.norm(), heading.y() / heading.norm(), 0.0);
  const Eigen::Vector3d down(0.0, 0.0, -1.0);
  level_from_robot_.row(0) = down.cross(forward);
  level_from_robot_.row(1) = down;
  level_from_robot_.row(2) = forward;
  const Eigen::Matrix3d level_from_camera = level_from_robot_ * camera_from_robot.transpose();

  // Same focal lengths; the level image is sized and shifted to hold every
  // pixel of the camera's (its border, undistorted and turned level).
  const cv::Matx33d k(calibration.fx(), 0, calibration.cx(), 0, calibration.fy(), calibration.cy(), 0, 0, 1);
  std::vector<double> distortion(calibration.distortion().begin(), calibration.distortion().end());
  distortion.resize(5, 0.0);
  cv::Matx33d rectify;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) rectify(r, c) = level_from_camera(r, c);
  std::vector<cv::Point2d> border, level_border;
  for (int x = 0; x < size_.width; x += 8) border.insert(border.end(), {{double(x), 0.0}, {double(x), size_.height - 1.0}});
  for (int y = 0; y < size_.height; y += 8) border.insert(border.end(), {{0.0, double(y)}, {size_.width - 1.0, double(y)}});
  border.emplace_back(size_.width - 1.0, size_.height - 1.0);
  cv::undistortPoints(border, level_border, k, distortion, rectify, cv::noArray(),
                      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 50, 1e-12));
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  for (const auto& p : level_border) {
    x0 = std::min(x0, p.x);
    x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y);
    y1 = std::max(y1, p.y);
  }
  fx_ = calibration.fx();
  fy_ = calibration.fy();
  cx_ = -fx_ * x0;
  cy_ = -fy_ * y0;
  // Bounded: a wide lens pitched far down would ask for a huge level image.
  const cv::Size level_size(std::min(3 * size_.width, static_cast<int>(std::ceil(fx_ * (x1 - x0))) + 1),
                            std::min(3 * size_.height, static_cast<int>(std::ceil(fy_ * (y1 - y0))) + 1));
  const cv::Matx33d level_k(fx_, 0, cx_, 0, fy_, cy_, 0, 0, 1);
  cv::initUndistortRectifyMap(k, distortion, rectify, level_k, level_size, CV_16SC2, map1_, map2_);
  cv::remap(cv::Mat(size_, CV_8UC1, cv::Scalar(255)), inside_, map1_, map2_, cv::INTER_NEAREST,
            cv::BORDER_CONSTANT, cv::Scalar(0));
}

bool GoalPostDetector::level_pixel(const Eigen::Vector3d& robot_point, cv::Point2d& pixel) const {
  const Eigen::Vector3d p = level_from_robot_ * (robot_point - eye_);
  if (p.z() <= 1e-9) return false;
  pixel = {fx_ * p.x() / p.z() + cx_, fy_ * p.y() / p.z() + cy_};
  return true;
}

bool GoalPostDetector::point_at_height(const cv::Point2d& pixel, double height, Eigen::Vector2d& robot_point) const {
  const Eigen::Vector3d ray =
      level_from_robot_.transpose() * Eigen::Vector3d((pixel.x - cx_) / fx_, (pixel.y - cy_) / fy_, 1.0);
  if (std::abs(ray.z()) < 1e-12) return false;
  const double s = (height - eye_.z()) / ray.z();
  if (s <= 0) return false;  // the plane lies the other way
  robot_point = Eigen::Vector2d(eye_.x() + s * ray.x(), eye_.y() + s * ray.y());
  return true;
}

std::vector<GoalPostCandidate> GoalPostDetector::posts(const cv::Mat& bgr) {
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("GoalPostDetector: image must be CV_8UC3 (BGR)");
  if (bgr.size() != size_) throw std::invalid_argument("GoalPostDetector: image size differs from the calibration's");
  // Most images show no goal: when no camera pixel on the level horizon is
  // white, nothing crosses it and the resampling is skipped.
  const int horizon = static_cast<int>(std::lround(cy_));
  if (horizon < 0 || horizon >= map1_.rows) return {};
  {
    bool any = false;
    const auto* source = map1_.ptr<cv::Vec2s>(horizon);  // fixed-point part: whole source pixels
    for (int x = 0; x < map1_.cols && !any; ++x) {
      const int sx = source[x][0], sy = source[x][1];
      if (sx < 0 || sy < 0 || sx >= bgr.cols || sy >= bgr.rows) continue;
      const cv::Vec3b p = bgr.at<cv::Vec3b>(sy, sx);
      any = std::min({p[0], p[1], p[2]}) >= kWhiteMin;
    }
    if (!any) return {};
  }
  cv::Mat channels[3];
  cv::split(bgr, channels);
  cv::min(channels[0], channels[1], whiteness_);
  cv::min(whiteness_, channels[2], whiteness_);
  cv::remap(whiteness_, level_, map1_, map2_, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
  cv::threshold(level_, white_, kWhiteMin - 1, 255, cv::THRESH_BINARY);
  // Per column the white run through the horizon: a goal's posts are
  // taller than the camera, so they cross it, while nothing on the floor
  // (lines, however near and wide) reaches it.
  std::vector<Run> runs(static_cast<size_t>(white_.cols));
  {
    const auto* row = white_.ptr<std::uint8_t>(horizon);
    for (int x = 0; x < white_.cols; ++x) {
      if (!row[x]) continue;
      Run& r = runs[static_cast<size_t>(x)];
      r.top = r.bottom = horizon;
      while (r.top > 0 && white_.at<std::uint8_t>(r.top - 1, x)) --r.top;
      while (r.bottom + 1 < white_.rows && white_.at<std::uint8_t>(r.bottom + 1, x)) ++r.bottom;
    }
  }

  const Eigen::Vector2d eye(eye_.x(), eye_.y());
  auto outside = [&](int x, int y) {
    return x < 0 || y < 0 || x >= inside_.cols || y >= inside_.rows || !inside_.at<std::uint8_t>(y, x);
  };
  std::vector<GoalPostCandidate> out;
  auto consider = [&](int x0, int x1) {  // columns [x0, x1]
    const int width = x1 - x0 + 1;
    const int trim = width / 4;
    std::vector<double> bottoms, tops;
    int clipped_tops = 0, clipped_bottoms = 0;
    for (int x = x0 + trim; x <= x1 - trim; ++x) {
      const Run& r = runs[static_cast<size_t>(x)];
      bottoms.push_back(subpixel_edge(level_, x, r.bottom, +1));
      tops.push_back(subpixel_edge(level_, x, r.top, -1));
      clipped_tops += outside(x, r.top - 1);
      clipped_bottoms += outside(x, r.bottom + 1);
    }
    GoalPostCandidate post;
    post.column = 0.5 * (x0 + x1);
    post.bottom_edge = median(bottoms);
    post.top_edge = median(tops);
    post.top_clipped = 2 * clipped_tops >= static_cast<int>(tops.size());
    if (2 * clipped_bottoms >= static_cast<int>(bottoms.size())) return;  // the foot is out of the image
    // A column whose bottom is above the horizon does not stand on the
    // floor (a post whose foot a robot hides: robots are taller than the camera).
    if (!point_at_height({post.column, post.bottom_edge}, 0.0, post.foot)) return;
    const double foot_distance = (post.foot - eye).norm();
    if (foot_distance < 1e-3) return;
    const Eigen::Vector2d direction = (post.foot - eye) / foot_distance;
    // Where the post stands: from the top edge when it shows, else from the
    // foot. Above a crossbar there is only sky, while from ~11 m on the
    // foot's edge merges with the goal area's line 0.75 m nearer (under two
    // pixels apart).
    if (post.top_clipped) {
      post.front = post.foot + 0.5 * post_ * direction;  // the goal line's middle
    } else if (!point_at_height({post.column, post.top_edge}, goal_height_, post.front)) {
      return;
    }
    const double distance = (post.front - eye).norm();
    if (distance > max_range_) return;
    const Eigen::Vector3d forward = level_from_robot_.row(2).transpose();
    const double depth = Eigen::Vector3d(post.front.x() - eye.x(), post.front.y() - eye.y(), 0.0).dot(forward);
    if (depth <= 0) return;
    // A post seen from the front is post_ wide, across a corner up to sqrt 2 times that.
    const double expected_width = fx_ * post_ / depth;
    if (width < 0.5 * expected_width - 1.5 || width > 1.6 * expected_width + 2.0) return;
    if (post.top_clipped) {
      // The post must be tall enough to leave the image at the top.
      cv::Point2d top;
      if (!level_pixel({post.front.x(), post.front.y(), goal_height_}, top)) return;
      if (top.y > post.top_edge + kTopTolerancePixels) return;
    } else {
      // The foot half a line nearer than the top's point, or merged with a
      // line up to the goal area's depth nearer; never farther.
      const double slack = kFootTolerance + kFootToleranceShare * distance;
      if (foot_distance > distance + slack || foot_distance < distance - goal_area_depth_ - 2 * post_ - slack) return;
    }
    out.push_back(post);
  };

  int start = -1;
  for (int x = 0; x <= white_.cols; ++x) {
    const Run* r = x < white_.cols ? &runs[static_cast<size_t>(x)] : nullptr;
    const bool tall = r && r->length() >= kMinRunPixels;
    if (start >= 0) {
      const Run& prev = runs[static_cast<size_t>(x - 1)];
      if (!tall || std::abs(r->bottom - prev.bottom) > kMaxBottomStep) {
        consider(start, x - 1);
        start = -1;
      }
    }
    if (tall && start < 0) start = x;
  }
  return out;
}

bool GoalPostDetector::front_at(const GoalPostCandidate& post, double edge_bias, Eigen::Vector2d& front) const {
  // The bias grows shapes outwards: the top edge up, the bottom edge down.
  if (!post.top_clipped) return point_at_height({post.column, post.top_edge + edge_bias}, goal_height_, front);
  Eigen::Vector2d foot;
  if (!point_at_height({post.column, post.bottom_edge - edge_bias}, 0.0, foot)) return false;
  const Eigen::Vector2d eye(eye_.x(), eye_.y());
  front = foot + 0.5 * post_ * (foot - eye).normalized();  // the goal line's middle
  return true;
}

std::vector<SeenGoal> GoalPostDetector::detect(const cv::Mat& bgr) {
  const std::vector<GoalPostCandidate> found = posts(bgr);  // in column order
  const Eigen::Vector2d eye(eye_.x(), eye_.y());
  const double spacing = goal_width_ + post_;  // post centre to centre
  std::vector<SeenGoal> goals;
  for (size_t i = 0; i + 1 < found.size(); ++i) {
    const GoalPostCandidate& a = found[i];
    const GoalPostCandidate& b = found[i + 1];
    // The crossbar's top edge between the posts' middles: a straight line in
    // the level image (the goal's front top edge), fitted to every column's
    // sub-pixel edge. Read at the two posts it gives their top rows better
    // than each post alone (whose outer columns may show its side face, whose
    // top lies farther back and lower), so their difference, which sets the
    // goal's turn against the view, is right to a few hundredths of a pixel.
    GoalPostCandidate left_post = a, right_post = b;
    if (!a.top_clipped && !b.top_clipped) {
      std::vector<cv::Point2f> edge;
      const int xa = static_cast<int>(std::ceil(a.column)), xb = static_cast<int>(std::floor(b.column));
      for (int x = xa; x <= xb; ++x) {
        const double guess = a.top_edge + (x - a.column) / (b.column - a.column) * (b.top_edge - a.top_edge);
        const int y0 = static_cast<int>(std::floor(guess)) - kCrossbarSearchPixels;
        for (int y = std::max(0, y0); y <= y0 + 2 * kCrossbarSearchPixels && y < white_.rows; ++y) {
          if (!white_.at<std::uint8_t>(y, x)) continue;
          edge.emplace_back(static_cast<float>(x), static_cast<float>(subpixel_edge(level_, x, y, -1)));
          break;
        }
      }
      if (edge.size() < 2 || static_cast<double>(edge.size()) < kMinCrossbarShare * (xb - xa + 1)) continue;
      cv::Vec4f line;  // direction (vx, vy), point (x0, y0)
      cv::fitLine(edge, line, cv::DIST_HUBER, 0, 0.01, 0.01);
      if (std::abs(line[0]) < 0.5) continue;  // no crossbar is that steep
      left_post.top_edge = line[3] + (a.column - line[2]) * line[1] / line[0];
      right_post.top_edge = line[3] + (b.column - line[2]) * line[1] / line[0];
    }
    // Distances come from edge rows, which a bias common to the image's
    // edges shifts alike (the renderer's anti-aliased fill grows every shape
    // by about a pixel: 0.6 m at 10 m); bearings come from the columns'
    // middles, which it does not move, and the difference of two rows
    // neither. So the one unknown is that bias, in pixels, and the goal's
    // known width fixes it: the spacing of the two fronts grows with it, and
    // bisection finds where it matches. Two posts no bias within
    // kMaxEdgeBiasPixels reconciles are not one goal.
    auto spacing_at = [&](double bias, Eigen::Vector2d& left, Eigen::Vector2d& right) {
      if (!front_at(left_post, bias, left) || !front_at(right_post, bias, right)) return -1.0;
      return (left - right).norm();
    };
    Eigen::Vector2d left, right;
    double lo = -kMaxEdgeBiasPixels, hi = kMaxEdgeBiasPixels;
    const double at_lo = spacing_at(lo, left, right), at_hi = spacing_at(hi, left, right);
    if (at_lo < 0 || at_hi < 0 || at_lo > spacing || at_hi < spacing) continue;
    for (int k = 0; k < 40; ++k) {
      const double mid = 0.5 * (lo + hi);
      (spacing_at(mid, left, right) < spacing ? lo : hi) = mid;
    }
    SeenGoal goal;
    goal.edge_bias = 0.5 * (lo + hi);
    spacing_at(goal.edge_bias, left, right);
    if ((left - eye).norm() > max_range_ || (right - eye).norm() > max_range_) continue;
    // Both fronts lie on the goal line: the line through them is the goal's
    // y axis (left to right post is -y of a +x goal seen from the field), its
    // normal away from the robot the x axis.
    const Eigen::Vector2d y_axis = (left - right).normalized();
    const Eigen::Vector2d x_axis(y_axis.y(), -y_axis.x());
    // The post's centre lies on the same ray half a post beyond its front
    // along x; the landmark is the post's inner front corner.
    auto corner = [&](const Eigen::Vector2d& front, double side) {
      const Eigen::Vector2d direction = (front - eye).normalized();
      const double along_x = std::max(0.3, direction.dot(x_axis));  // steeper than ~73 deg is not a view of a goal
      const Eigen::Vector2d centre = front + (0.5 * post_ / along_x) * direction;
      return Eigen::Vector2d(centre - 0.5 * post_ * (x_axis + side * y_axis));
    };
    goal.left = corner(left, 1.0);
    goal.right = corner(right, -1.0);
    goal.left_post = left_post;
    goal.right_post = right_post;
    goals.push_back(goal);
    ++i;  // a post belongs to one goal
  }
  return goals;
}

void GoalPostDetector::to_landmarks(const std::vector<SeenGoal>& goals, msg::OnboardFrame& frame) {
  for (const SeenGoal& goal : goals) {
    // As if the +x goal (vision.proto): its +y post (1) is on the left seen from the field.
    for (const auto& [index, where] : {std::pair<std::uint32_t, Eigen::Vector2d>{1, goal.left}, {0, goal.right}}) {
      auto* landmark = frame.add_landmarks();
      landmark->set_kind(msg::LANDMARK_GOAL_POST);
      landmark->set_index(index);
      landmark->mutable_position()->set_x(where.x());
      landmark->mutable_position()->set_y(where.y());
      landmark->set_symmetric(true);
    }
  }
}

}  // namespace robocaf::actors
