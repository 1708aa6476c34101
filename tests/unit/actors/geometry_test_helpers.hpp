#pragma once
// Plane geometry shared by the actors' tests, written out independently of
// the code under test.

#include <algorithm>
#include <cmath>

#include <Eigen/Core>

#include "messages/geometry.pb.h"

namespace robocaf::actors::testing {

/// Robot frame of a robot at `p` -> field frame, and back.
inline Eigen::Vector2d to_field(const msg::Pose2& p, const Eigen::Vector2d& ego) {
  const double c = std::cos(p.theta()), s = std::sin(p.theta());
  return {p.x() + c * ego.x() - s * ego.y(), p.y() + s * ego.x() + c * ego.y()};
}
inline Eigen::Vector2d to_robot(const msg::Pose2& p, const Eigen::Vector2d& field) {
  const double c = std::cos(p.theta()), s = std::sin(p.theta());
  const Eigen::Vector2d d = field - Eigen::Vector2d(p.x(), p.y());
  return {c * d.x() + s * d.y(), -s * d.x() + c * d.y()};
}

/// Distance from `c` to the segment a-b (any dimension; a point when a = b).
template <typename V>
double segment_distance(const V& a, const V& b, const V& c) {
  const V ab = b - a;
  const double len2 = ab.squaredNorm();
  const double u = len2 > 0.0 ? std::clamp((c - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (a + u * ab - c).norm();
}

}  // namespace robocaf::actors::testing
