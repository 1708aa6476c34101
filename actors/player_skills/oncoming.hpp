#pragma once
// Robots meeting while they place for a restart: whether two are on a
// collision course, and the rule that passes them without a dance.

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

/// Keep right: for a robot at `self` travelling along `travel` that meets
/// one ahead at `other` coming the other way (`other_velocity` within
/// `head_on` radians of straight opposite `travel`), zones that close the
/// way past `other` on the robot's left: discs of `robot_radius` every two
/// radii from its centre out to `reach`, square to `travel`, so a planner
/// passes it with it on the robot's left. Zones (CircleObstacle::body 0): a
/// robot standing in one is not held. Empty when they do not meet head on,
/// or either is not moving.
///
/// Why: two robots that each plan round the other choose their sides alone,
/// and as often as not the same side; each swerve then leads the other on
/// (MSL vs chaser: scorers running back met the other team's keeper
/// running home, both swerved the same way, and stood pushing for seconds).
/// Both running this rule, each passes on its right: the convention ships
/// and ORCA's reciprocal velocity obstacles share for the same reason.
std::vector<CircleObstacle> keep_right_zones(const Eigen::Vector2d& self, const Eigen::Vector2d& travel,
                                             const Eigen::Vector2d& other, const Eigen::Vector2d& other_velocity,
                                             double robot_radius, double reach, double head_on);

}  // namespace robocaf::actors
