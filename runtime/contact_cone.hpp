#pragma once
// How a body that touches others may move: what the simulator lets a robot
// slide (sim::Physics) and what its self-localiser believes it moved
// (actors::SelfLocaliser). One rule, so the two agree.

#include <cstddef>

#include <Eigen/Dense>

namespace robocaf::runtime {

/// The nearest motion to `wanted` that points into none of the `count`
/// contacts at `towards` (unit vectors from the body towards what it
/// touches; a motion m is free when m . c <= 0 for each c): the projection
/// of `wanted` onto the cone the contacts leave free. In the plane that is
/// `wanted` itself, its projection onto one contact's tangent line, or
/// nothing (wedged). Taking the contacts one after another instead, the
/// motion taken out of the second can end on its tangent pointing back and
/// away from the first: free, but not the nearest (a robot pushing forwards
/// with one contact ahead on its left and one ahead on its right slides
/// right and back).
inline Eigen::Vector2d nearest_free_motion(const Eigen::Vector2d& wanted, const Eigen::Vector2d* towards,
                                           std::size_t count) {
  const double tolerance = 1e-12 * (1.0 + wanted.norm());
  auto free = [&](const Eigen::Vector2d& m) {
    for (std::size_t k = 0; k < count; ++k)
      if (m.dot(towards[k]) > tolerance) return false;
    return true;
  };
  if (free(wanted)) return wanted;
  Eigen::Vector2d best = Eigen::Vector2d::Zero();
  for (std::size_t k = 0; k < count; ++k) {
    const Eigen::Vector2d along = wanted - wanted.dot(towards[k]) * towards[k];
    if (free(along) && (wanted - along).squaredNorm() < (wanted - best).squaredNorm()) best = along;
  }
  return best;
}

}  // namespace robocaf::runtime
