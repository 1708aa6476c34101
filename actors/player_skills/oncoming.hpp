#pragma once
// Robots meeting while they place for a restart.

#include <vector>

#include <Eigen/Core>

#include "actors/player_skills/path_planner.hpp"

namespace robocaf::actors {

/// Whether a robot at `other` moving at `other_velocity` comes within
/// `reach` (centre to centre, m) of one at `self` moving at `self_velocity`
/// within `horizon` s, both going on as they go. Not when they are not
/// closing; a non-finite velocity counts as standing.
bool on_collision_course(const Eigen::Vector2d& self, const Eigen::Vector2d& self_velocity,
                         const Eigen::Vector2d& other, const Eigen::Vector2d& other_velocity, double reach,
                         double horizon);

/// Bodies of `radius` along the way a robot at `centre` moving at
/// `velocity` goes within `seconds`, going on as it goes: at most a radius
/// apart from its centre (not included) to where it will be, so a
/// plan round them passes behind a robot crossing its way rather than in
/// front, where it is going. The robot itself is not among them. The way
/// ends before it comes within `free_radius` of `keep_free` (the planning
/// robot's start): a robot coming at it would meet it there, and bodies on
/// past it boxed in a robot that an opponent ran at. None for a non-finite
/// velocity or a non-positive time.
std::vector<CircleObstacle> way_ahead(const Eigen::Vector2d& centre, const Eigen::Vector2d& velocity, double radius,
                                      double seconds, const Eigen::Vector2d& keep_free, double free_radius);

}  // namespace robocaf::actors
