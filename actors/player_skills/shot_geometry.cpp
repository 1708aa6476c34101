#include "actors/player_skills/shot_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace robocaf::actors {

namespace {

// Distance of the goal line in front of the ball, the field lying towards x = 0.
double depth_to(const Eigen::Vector2d& ball, double goal_x) {
  return goal_x >= 0.0 ? goal_x - ball.x() : ball.x() - goal_x;
}

}  // namespace

double goal_open_angle(const Eigen::Vector2d& ball, double goal_x, double goal_half_width, double ball_radius) {
  const double depth = depth_to(ball, goal_x);
  if (!(depth > ball_radius) || !(goal_half_width > 0.0)) return 0.0;
  // Angles from the goal line's normal, as seen from the ball.
  const double to_left = std::atan2(goal_half_width - ball.y(), depth);
  const double to_right = std::atan2(-goal_half_width - ball.y(), depth);
  double open = to_left - to_right;
  const double d_left = std::hypot(depth, goal_half_width - ball.y());
  const double d_right = std::hypot(depth, -goal_half_width - ball.y());
  open -= std::asin(std::min(1.0, ball_radius / d_left)) + std::asin(std::min(1.0, ball_radius / d_right));
  return std::max(0.0, open);
}

std::vector<GoalGap> open_goal_gaps(const Eigen::Vector2d& ball, double goal_x, double goal_half_width,
                                    double ball_radius, const std::vector<ShotObstacle>& obstacles) {
  std::vector<GoalGap> gaps;
  if (goal_open_angle(ball, goal_x, goal_half_width, ball_radius) <= 0.0) return gaps;
  const double depth = depth_to(ball, goal_x);
  // Directions as angles from the goal line's normal, measured with y
  // (mirrored for the goal at -x, which keeps them monotonic in y on the
  // goal line; only their order and differences matter).
  auto angle_to = [&](double along, double across) { return std::atan2(across, along); };
  const double d_left = std::hypot(depth, goal_half_width - ball.y());
  const double d_right = std::hypot(depth, -goal_half_width - ball.y());
  // Open intervals of directions, each edge marked as a post's or a shadow's.
  struct Interval {
    double lo, hi;
    bool lo_post, hi_post;
  };
  std::vector<Interval> open{
      {angle_to(depth, -goal_half_width - ball.y()) + std::asin(std::min(1.0, ball_radius / d_right)),
       angle_to(depth, goal_half_width - ball.y()) - std::asin(std::min(1.0, ball_radius / d_left)), true, true}};
  for (const ShotObstacle& o : obstacles) {
    const double along = goal_x >= 0.0 ? o.centre.x() - ball.x() : ball.x() - o.centre.x();
    const double across = o.centre.y() - ball.y();
    const double reach = o.radius + ball_radius;
    if (!std::isfinite(along) || !std::isfinite(across) || !std::isfinite(reach)) return {};
    const double distance = std::hypot(along, across);
    if (distance <= reach) return {};
    // Behind the ball the shadow points away from the goal; beyond the goal
    // line the ball is in before it gets there.
    if (along < -reach || along > depth + reach) continue;
    const double centre = angle_to(along, across), half = std::asin(reach / distance);
    std::vector<Interval> left;
    for (const Interval& i : open) {
      if (centre + half <= i.lo || centre - half >= i.hi) {
        left.push_back(i);
        continue;
      }
      if (centre - half > i.lo) left.push_back({i.lo, centre - half, i.lo_post, false});
      if (centre + half < i.hi) left.push_back({centre + half, i.hi, false, i.hi_post});
    }
    open = std::move(left);
  }
  for (const Interval& i : open) {
    GoalGap g;
    g.low_y = ball.y() + depth * std::tan(i.lo);
    g.high_y = ball.y() + depth * std::tan(i.hi);
    g.aim_y = ball.y() + depth * std::tan(0.5 * (i.lo + i.hi));
    g.angle = i.hi - i.lo;
    g.low_at_post = i.lo_post;
    g.high_at_post = i.hi_post;
    gaps.push_back(g);
  }
  return gaps;
}

bool well_inside_open_gap(const std::vector<GoalGap>& gaps, double y, double edge_margin) {
  if (!std::isfinite(y)) return false;
  for (const GoalGap& g : gaps) {
    const double quarter = 0.25 * (g.high_y - g.low_y);
    const double low = g.low_at_post ? edge_margin : std::max(edge_margin, quarter);
    const double high = g.high_at_post ? edge_margin : std::max(edge_margin, quarter);
    if (y >= g.low_y + low && y <= g.high_y - high) return true;
  }
  return false;
}

}  // namespace robocaf::actors
