#pragma once
// The shortest way out of a restart's circle between the robots standing in
// and round it. Plain C++ with Eigen, no CAF; SkillController asks it every
// cycle while a placing robot is inside the distance the rules keep it from
// the ball.
//
// Why a grid search and not the path planner: the planner goes to a given
// goal, and which point of the circle's edge to leave by is the question
// here. Picking an edge point first (by straight-line distance and bearing)
// and planning to it failed where the other team had already formed a ring
// at the distance: a robot last out of a scrum at the ball headed for a
// point in a pocket of that ring, or for one beyond it and back through the
// circle, and stood inside at the restart (MSL vs chaser: three of four
// robots moved at drop balls and free kicks in 20 matches). A shortest-path
// search from the robot over the whole circle answers both at once: which
// exits can be reached at all, and which is nearest by the way there.

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "actors/player_skills/path_planner.hpp"

namespace robocaf::actors {

/// What the way out is searched in. Field frame, metres.
struct EscapeScene {
  Eigen::Vector2d start = Eigen::Vector2d::Zero();   // the robot's centre
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();  // the circle's (the ball's spot)
  /// A point at least this far from the centre is out.
  double exit_radius = 0.0;
  /// Discs the robot's centre keeps out of: `radius` is the whole distance
  /// kept between the centres (both bodies and the gap). A disc the start
  /// already lies in is shrunk to the start's distance: the robot may move
  /// off or along it, never nearer.
  std::vector<CircleObstacle> keep_off;
  /// Where the centre may be (empty: anywhere).
  FreeSpace space;
  /// Where a way may end (empty: anywhere in `space`): the field inside its
  /// lines, say, where the way on round the circle to a place does not
  /// meet the boundary.
  FreeSpace exits;
  /// Exits are compared by the way's length plus this many metres per
  /// radian between the exit's bearing from the centre and
  /// `preferred_bearing` (where the robot goes next, outside).
  double preferred_bearing = 0.0;
  double bearing_weight = 0.0;
  /// Each metre the way comes nearer the centre costs this many metres more:
  /// nearer the centre is where the taker will stand, and the way back out.
  double inward_weight = 0.0;
  /// Grid spacing; 0 picks exit_radius / 40.
  double cell = 0.0;
};

/// A way out found.
struct Escape {
  /// From the start (way.front(), as given) to the exit point (way.back(),
  /// at least exit_radius from the centre): the grid path, 8-connected.
  std::vector<Eigen::Vector2d> way;
  /// The furthest point of `way` the robot reaches from the start in a
  /// straight line without entering a disc: where to head now.
  Eigen::Vector2d head_for = Eigen::Vector2d::Zero();
  /// Length of `way`, m.
  double length = 0.0;
};

/// The way out of least cost (EscapeScene::bearing_weight), or nullopt when
/// no exit can be reached (the robot is shut in). A start already out is
/// its own way. Throws std::invalid_argument for a non-positive exit_radius
/// or a negative cell.
std::optional<Escape> escape_circle(const EscapeScene& scene);

}  // namespace robocaf::actors
