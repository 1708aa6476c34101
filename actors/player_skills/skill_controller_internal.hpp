#pragma once
// Private to the SkillController sources (skill_controller*.cpp): helpers two or more of them use.

#include <cmath>
#include <optional>

#include <Eigen/Dense>

#include "runtime/angle.hpp"

namespace robocaf::actors::skill_internal {

using runtime::kPi;
// m beyond the restart distance that a placing robot's planned circle
// reaches at least (see step()).
inline constexpr double kRestartCircleCreep = 0.02;
using V = Eigen::Vector2d;

using runtime::wrap_angle;

inline double angle_of(const V& v) { return std::atan2(v.y(), v.x()); }

inline V unit_or(const V& v, const V& fallback) {
  const double n = v.norm();
  return n > 1e-9 ? V(v / n) : fallback;
}

inline double limit_or(double v, double fallback) { return v > 0.0 ? v : fallback; }

// `target` moved straight out to `radius` from `centre` when it lies closer
// (away from `from` when it sits on the centre itself).
inline V outside_circle(const V& target, const V& centre, double radius, const V& from) {
  if ((target - centre).norm() >= radius) return target;
  V away = target - centre;
  if (away.norm() < 1e-9) away = from - centre;
  if (away.norm() < 1e-9) away = V(1.0, 0.0);
  return centre + away.normalized() * radius;
}

// Where the straight way from `from` to `to` passes `obstacle` closer than
// `radius` between its ends: the fraction of the way at the closest point,
// and the unit side to pass on (the side the way is already on).
struct CloseCall {
  double fraction;
  V side;
};
inline std::optional<CloseCall> passes_close(const V& from, const V& to, const V& obstacle, double radius) {
  const V seg = to - from;
  const double len2 = seg.squaredNorm();
  if (len2 < 1e-12) return std::nullopt;
  const double lambda = (obstacle - from).dot(seg) / len2;
  if (lambda <= 0.0 || lambda >= 1.0) return std::nullopt;
  const V closest = from + lambda * seg;
  if ((closest - obstacle).norm() >= radius) return std::nullopt;
  V perp = V(-seg.y(), seg.x()).normalized();
  if ((closest - obstacle).dot(perp) < 0.0) perp = -perp;
  return CloseCall{lambda, perp};
}

}  // namespace robocaf::actors::skill_internal
