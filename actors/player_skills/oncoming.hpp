#pragma once
// Robots meeting while they place for a restart.

#include <Eigen/Core>

namespace robocaf::actors {

/// Whether a robot at `other` moving at `other_velocity` comes within
/// `reach` (centre to centre, m) of one at `self` moving at `self_velocity`
/// within `horizon` s, both going on as they go. Not when they are not
/// closing; a non-finite velocity counts as standing.
bool on_collision_course(const Eigen::Vector2d& self, const Eigen::Vector2d& self_velocity,
                         const Eigen::Vector2d& other, const Eigen::Vector2d& other_velocity, double reach,
                         double horizon);

}  // namespace robocaf::actors
