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
  // Cost of a hand-out: the longest run first (the last robot to arrive
  // decides whether the team stands legally at the deadline), then the total.
  struct Cost {
    double longest = 0.0, total = 0.0;
  };
  auto cost_of = [&](const std::vector<size_t>& o) {
    Cost c;
    for (size_t k = 0; k < movers.size(); ++k) {
      const msg::Pose2& from = poses.at(placements[movers[k]].robot_id());
      const msg::Pose2& to = placements[movers[o[k]]].pose();
      const double d = std::hypot(from.x() - to.x(), from.y() - to.y());
      c.longest = std::max(c.longest, d);
      c.total += d;
    }
    return c;
  };
  // Longest runs within kLongestTie (m) count as equal, so rounding does not
  // decide and the total breaks the tie.
  constexpr double kLongestTie = 1e-6;
  auto better = [&](const Cost& a, const Cost& b) {
    if (a.longest < b.longest - kLongestTie) return true;
    if (a.longest > b.longest + kLongestTie) return false;
    return a.total < b.total - 1e-9;
  };
  std::vector<size_t> best = order;
  Cost least = cost_of(order);
  while (std::next_permutation(order.begin(), order.end())) {
    const Cost cost = cost_of(order);
    if (better(cost, least)) {
      least = cost;
      best = order;
    }
  }
  std::vector<msg::Placement> out = placements;
  for (size_t k = 0; k < movers.size(); ++k) *out[movers[k]].mutable_pose() = placements[movers[best[k]]].pose();
  return out;
}

}  // namespace robocaf::actors
