#include "actors/player_skills/oncoming.hpp"

#include <cmath>

namespace robocaf::actors {

bool on_collision_course(const Eigen::Vector2d& self, const Eigen::Vector2d& self_velocity,
                         const Eigen::Vector2d& other, const Eigen::Vector2d& other_velocity, double reach,
                         double horizon) {
  const Eigen::Vector2d p = other - self;
  const Eigen::Vector2d mine = self_velocity.allFinite() ? self_velocity : Eigen::Vector2d::Zero();
  const Eigen::Vector2d theirs = other_velocity.allFinite() ? other_velocity : Eigen::Vector2d::Zero();
  const Eigen::Vector2d closing = theirs - mine;
  const double c2 = closing.squaredNorm();
  if (c2 < 1e-9 || p.dot(closing) >= 0.0) return false;
  const double meet = std::min(-p.dot(closing) / c2, horizon);
  return (p + closing * meet).norm() < reach;
}

std::vector<CircleObstacle> keep_right_zones(const Eigen::Vector2d& self, const Eigen::Vector2d& travel,
                                             const Eigen::Vector2d& other, const Eigen::Vector2d& other_velocity,
                                             double robot_radius, double reach, double head_on) {
  std::vector<CircleObstacle> zones;
  if (!self.allFinite() || !other.allFinite() || !travel.allFinite() || !other_velocity.allFinite()) return zones;
  const double mine = travel.norm(), theirs = other_velocity.norm();
  if (mine < 1e-9 || theirs < 1e-9 || robot_radius <= 0.0) return zones;
  const Eigen::Vector2d along = travel / mine;
  // Coming the other way: its direction within head_on of straight back at us.
  if (along.dot(other_velocity / theirs) > -std::cos(head_on)) return zones;
  // And ahead of us, not behind.
  if (along.dot(other - self) <= 0.0) return zones;
  const Eigen::Vector2d left(-along.y(), along.x());
  const double spacing = 2.0 * robot_radius;
  for (double out = spacing; out <= reach + 1e-9; out += spacing)
    zones.push_back({other + out * left, robot_radius, 0.0});
  return zones;
}

}  // namespace robocaf::actors
