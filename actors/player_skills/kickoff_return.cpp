#include "actors/player_skills/kickoff_return.hpp"

#include <algorithm>
#include <cmath>

namespace robocaf::actors {

std::optional<Eigen::Vector2d> halfway_crossing_point(const Eigen::Vector2d& self, const Eigen::Vector2d& place,
                                                      const HalfwayCrossing& crossing) {
  const double s = crossing.own_side >= 0.0 ? 1.0 : -1.0;
  const double legal = crossing.robot_radius;
  const double depth = s * self.x();
  if (depth >= legal + crossing.back_margin) return std::nullopt;
  const double slot_depth = s * place.x();
  if (slot_depth <= legal + crossing.back_margin) return std::nullopt;
  const double target_depth = std::min(slot_depth, legal + std::max(crossing.lead, crossing.back_margin));
  const double sideways = std::tan(std::clamp(crossing.max_angle, 0.0, 1.5)) * (target_depth - depth);
  const double y = std::clamp(place.y(), self.y() - sideways, self.y() + sideways);
  const double x = s * target_depth;
  if (crossing.circle_radius > 0.0 && std::hypot(x, y) < crossing.circle_radius) return std::nullopt;
  return Eigen::Vector2d(x, y);
}

}  // namespace robocaf::actors
