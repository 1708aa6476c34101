#pragma once

#include <optional>

#include <Eigen/Core>

namespace robocaf::actors {

/// The halfway line as a robot placing for a kick-off sees it: which side is
/// its own, and what it must keep out of on the way back. Field frame,
/// metres, the line at x = 0.
struct HalfwayCrossing {
  /// +1 when the robot's own half is x > 0, -1 when it is x < 0.
  double own_side = 1.0;
  /// The referee judges a robot in its half with its whole body there: its
  /// centre at least this far from the line.
  double robot_radius = 0.0;
  /// Most the way back leans sideways from straight across the line (rad):
  /// at 0.2 a crossing takes 2 % longer than straight across.
  double max_angle = 0.2;
  /// How far past the legal depth the crossing point lies (m): beyond the
  /// distance the robot needs to brake, so it crosses at speed.
  double lead = 1.0;
  /// Within this much past the legal depth (m), the robot counts as back.
  double back_margin = 0.1;
  /// Round the centre spot, where the other team gathers for its kick-off:
  /// a crossing point within this radius is none (0 or less: no such
  /// circle).
  double circle_radius = 0.0;
};

/// Where a robot in the other half (or within `back_margin` of being
/// legally in its own) heads for first on its way to `place`, its kick-off
/// slot in its own half: the point `lead` past the legal depth, as far
/// along towards the slot's y as `max_angle` allows. None once the robot is
/// back, when `place` itself is not beyond the legal depth (the slot is all
/// there is), or when the point lies within `circle_radius` of the centre
/// spot: a way leaning in towards the centre circle led robots past its
/// edge, where the kicking team gathers, and they were late (the kick-off
/// slots keep robots running back wide of it; see
/// CoachLogic::kickoff_placements()).
///
/// Why: a robot legal at the restart only has to be in its half; the slot
/// lies further on. Heading straight for a slot a few metres to the side,
/// scorers running back from the other goal line crossed the line 0.3 to
/// 0.5 s after the kick-off was taken (MSL vs chaser, 8 s to run 9 m).
std::optional<Eigen::Vector2d> halfway_crossing_point(const Eigen::Vector2d& self, const Eigen::Vector2d& place,
                                                      const HalfwayCrossing& crossing);

}  // namespace robocaf::actors
