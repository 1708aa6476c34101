#include "runtime/field_lines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace robocaf::runtime {

FieldLines::FieldLines(const msg::FieldGeometry& field) {
  const double hl = 0.5 * field.length(), hw = 0.5 * field.width();
  using V = Eigen::Vector2d;
  segments_ = {
      {V(-hl, -hw), V(hl, -hw)},  // touch lines
      {V(-hl, hw), V(hl, hw)},
      {V(-hl, -hw), V(-hl, hw)},  // goal lines
      {V(hl, -hw), V(hl, hw)},
      {V(0.0, -hw), V(0.0, hw)},  // halfway line
  };
  const double depth = field.goal_area_depth(), half = 0.5 * field.goal_area_width();
  if (depth > 0.0 && half > 0.0) {
    for (double side : {-1.0, 1.0}) {
      const double line = side * hl, front = side * (hl - depth);
      segments_.push_back({V(front, -half), V(front, half)});
      segments_.push_back({V(line, -half), V(front, -half)});
      segments_.push_back({V(line, half), V(front, half)});
    }
  }
  if (field.center_circle_radius() > 0.0) circles_.push_back({V::Zero(), field.center_circle_radius()});
}

NearestLine FieldLines::nearest(const Eigen::Vector2d& p) const { return nearest_two(p)[0]; }

std::array<NearestLine, 2> FieldLines::nearest_two(const Eigen::Vector2d& p) const {
  std::array<NearestLine, 2> best;
  for (NearestLine& b : best) {
    b.distance = std::numeric_limits<double>::infinity();
    b.normal = Eigen::Vector2d::UnitX();
  }
  auto consider = [&](const Eigen::Vector2d& on_line) {
    const Eigen::Vector2d d = p - on_line;
    NearestLine line;
    line.distance = d.norm();
    line.normal = line.distance > 0.0 ? Eigen::Vector2d(d / line.distance) : Eigen::Vector2d::UnitX();
    if (line.distance < best[0].distance) {
      best[1] = best[0];
      best[0] = line;
    } else if (line.distance < best[1].distance) {
      best[1] = line;
    }
  };
  for (const auto& s : segments_) {
    const Eigen::Vector2d ab = s.b - s.a;
    const double u = std::clamp((p - s.a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
    consider(s.a + u * ab);
  }
  for (const auto& c : circles_) {
    const Eigen::Vector2d d = p - c.centre;
    const double n = d.norm();
    consider(c.centre + (n > 0.0 ? Eigen::Vector2d(d / n) : Eigen::Vector2d::UnitX()) * c.radius);
  }
  return best;
}

std::vector<double> FieldLines::crossings(const Eigen::Vector2d& origin, const Eigen::Vector2d& direction,
                                          double range) const {
  std::vector<double> out;
  auto cross2 = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); };
  for (const auto& s : segments_) {
    const Eigen::Vector2d e = s.b - s.a;
    const double denom = cross2(direction, e);
    if (std::abs(denom) < 1e-12) continue;  // parallel: seen along its length, no single crossing
    const Eigen::Vector2d w = s.a - origin;
    const double t = cross2(w, e) / denom;
    const double u = cross2(w, direction) / denom;
    if (t > 0.0 && t <= range && u >= 0.0 && u <= 1.0) out.push_back(t);
  }
  for (const auto& c : circles_) {
    const Eigen::Vector2d m = origin - c.centre;
    const double b = m.dot(direction);
    const double disc = b * b - (m.squaredNorm() - c.radius * c.radius);
    if (disc < 0.0) continue;
    const double root = std::sqrt(disc);
    for (double t : {-b - root, -b + root})
      if (t > 0.0 && t <= range) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  // Two segments meeting at a corner give one crossing there, not two.
  out.erase(std::unique(out.begin(), out.end(), [](double a, double b) { return std::abs(a - b) < 1e-9; }),
            out.end());
  return out;
}

}  // namespace robocaf::runtime
