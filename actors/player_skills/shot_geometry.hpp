#pragma once

#include <Eigen/Core>

namespace robocaf::actors {

/// The angle (rad) of the directions in which a ball of radius `ball_radius`
/// at `ball` passes between the posts of a goal whose line is x = goal_x and
/// whose posts stand at y = +-goal_half_width: the angle between the posts
/// seen from the ball, less on each side the angle the ball's radius takes
/// up at that post's distance. 0 when nothing gets in (seen from a steep
/// angle the near post covers the whole mouth) or when the ball is on or
/// behind the goal line. Posts are taken as points.
double goal_open_angle(const Eigen::Vector2d& ball, double goal_x, double goal_half_width, double ball_radius);

}  // namespace robocaf::actors
