#include "actors/player_skills/oncoming.hpp"

#include <algorithm>

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

}  // namespace robocaf::actors
