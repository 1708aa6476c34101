#include "actors/player_skills/shot_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace robocaf::actors {

double goal_open_angle(const Eigen::Vector2d& ball, double goal_x, double goal_half_width, double ball_radius) {
  // Distance in front of the goal line, the field lying towards x = 0.
  const double depth = goal_x >= 0.0 ? goal_x - ball.x() : ball.x() - goal_x;
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

}  // namespace robocaf::actors
