#include "actors/player_skills/oncoming.hpp"

#include <algorithm>
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

std::vector<CircleObstacle> way_ahead(const Eigen::Vector2d& centre, const Eigen::Vector2d& velocity, double radius,
                                      double seconds, const Eigen::Vector2d& keep_free, double free_radius) {
  std::vector<CircleObstacle> bodies;
  if (!velocity.allFinite() || !centre.allFinite() || !(seconds > 0.0) || !(radius > 0.0)) return bodies;
  const double run = velocity.norm() * seconds;
  const int n = static_cast<int>(std::ceil(run / radius - 1e-9));
  for (int k = 1; k <= n; ++k) {
    const Eigen::Vector2d at = centre + velocity * (seconds * k / n);
    if ((at - keep_free).norm() <= free_radius) break;
    bodies.push_back({at, radius});
  }
  return bodies;
}

}  // namespace robocaf::actors
