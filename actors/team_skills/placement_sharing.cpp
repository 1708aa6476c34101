#include "actors/team_skills/placement_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace robocaf::actors {

std::vector<msg::Placement> share_placements_by_distance(const std::vector<msg::Placement>& placements,
                                                         const std::map<uint32_t, msg::Pose2>& poses,
                                                         uint32_t fixed_id) {
  std::vector<size_t> movers;  // indices into placements
  for (size_t i = 0; i < placements.size(); ++i)
    if (placements[i].robot_id() != fixed_id) movers.push_back(i);
  if (movers.size() < 2 || movers.size() > 8) return placements;
  for (size_t i : movers) {
    const auto pose = poses.find(placements[i].robot_id());
    if (pose == poses.end() || !std::isfinite(pose->second.x()) || !std::isfinite(pose->second.y()))
      return placements;
  }
  // order[k]: the spot (index into movers) robot movers[k] takes.
  std::vector<size_t> order(movers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto total = [&](const std::vector<size_t>& o) {
    double sum = 0.0;
    for (size_t k = 0; k < movers.size(); ++k) {
      const msg::Pose2& from = poses.at(placements[movers[k]].robot_id());
      const msg::Pose2& to = placements[movers[o[k]]].pose();
      sum += std::hypot(from.x() - to.x(), from.y() - to.y());
    }
    return sum;
  };
  std::vector<size_t> best = order;
  double least = total(order);
  while (std::next_permutation(order.begin(), order.end())) {
    const double cost = total(order);
    if (cost < least - 1e-9) {
      least = cost;
      best = order;
    }
  }
  std::vector<msg::Placement> out = placements;
  for (size_t k = 0; k < movers.size(); ++k) *out[movers[k]].mutable_pose() = placements[movers[best[k]]].pose();
  return out;
}

}  // namespace robocaf::actors
