#pragma once

#include <vector>

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

/// A round body that may stand in a shot's way (a robot).
struct ShotObstacle {
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();
  double radius = 0.0;  ///< m
};

/// One interval of directions from the ball into the goal mouth that no
/// obstacle's shadow covers: a ball kicked anywhere inside it goes in
/// untouched (if nothing moves). Directions are given by where they cross
/// the goal line.
struct GoalGap {
  double low_y = 0.0, high_y = 0.0;  ///< where the gap's edge directions cross the goal line (low_y < high_y)
  double aim_y = 0.0;                ///< where its middle direction crosses the goal line
  double angle = 0.0;                ///< its width, rad (> 0)
  /// Whether an edge is the mouth's own (a post, less the ball's radius)
  /// rather than the edge of an obstacle's shadow.
  bool low_at_post = false, high_at_post = false;
};

/// The open gaps of the goal mouth seen from `ball` (the directions of
/// goal_open_angle), left after removing the shadow of every obstacle in
/// front of the goal line: the directions in which the ball's centre passes
/// within obstacle radius + ball_radius of the obstacle's centre. Sorted by
/// low_y. Empty when the mouth is closed, an obstacle touches the ball, or
/// any input is not finite. Obstacles behind the ball or beyond the goal
/// line cast no shadow into it.
std::vector<GoalGap> open_goal_gaps(const Eigen::Vector2d& ball, double goal_x, double goal_half_width,
                                    double ball_radius, const std::vector<ShotObstacle>& obstacles);

/// Whether a shot crossing the goal line at `y` goes through one of `gaps`
/// well clear of its edges: at least `edge_margin` (m along the goal line)
/// inside a post's edge, and at least that and a quarter of the gap's width
/// inside a shadow's edge (the robots casting shadows move; the middle half
/// of a gap misses them by a safe angle).
bool well_inside_open_gap(const std::vector<GoalGap>& gaps, double y, double edge_margin = 0.0);

}  // namespace robocaf::actors
