#include "actors/team_skills/placement_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

namespace robocaf::actors {

namespace {

// Cost of a hand-out: the longest run first (the last robot to arrive
// decides whether the team stands legally at the deadline), then the total.
struct Cost {
  double longest = 0.0, total = 0.0;
};

// Longest runs within kLongestTie (m) count as equal, so rounding does not
// decide and the total breaks the tie.
constexpr double kLongestTie = 1e-6;

bool better(const Cost& a, const Cost& b) {
  if (a.longest < b.longest - kLongestTie) return true;
  if (a.longest > b.longest + kLongestTie) return false;
  return a.total < b.total - 1e-9;
}

struct Sharing {
  std::vector<size_t> movers;  // indices into the placements
  std::vector<size_t> order;   // order[k]: the spot (index into movers) movers[k] takes
  Cost cost;
};

// The robots to share among: all but fixed_id and those of `standing`
// within at_spot of the spot the coach named for them. Nothing where one of
// them has no pose or more than eight would share.
std::optional<std::vector<size_t>> movers_of(const std::vector<msg::Placement>& placements,
                                             const std::map<uint32_t, msg::Pose2>& poses, uint32_t fixed_id,
                                             double at_spot, const std::set<uint32_t>& standing) {
  std::vector<size_t> movers;
  for (size_t i = 0; i < placements.size(); ++i) {
    if (placements[i].robot_id() == fixed_id) continue;
    const auto pose = poses.find(placements[i].robot_id());
    if (pose == poses.end() || !std::isfinite(pose->second.x()) || !std::isfinite(pose->second.y()))
      return std::nullopt;
    const msg::Pose2& spot = placements[i].pose();
    if (standing.count(placements[i].robot_id()) > 0 &&
        std::hypot(pose->second.x() - spot.x(), pose->second.y() - spot.y()) <= at_spot)
      continue;
    movers.push_back(i);
  }
  if (movers.size() > 8) return std::nullopt;
  return movers;
}

Cost cost_of(const std::vector<msg::Placement>& placements, const std::map<uint32_t, msg::Pose2>& poses,
             const std::vector<size_t>& movers, const std::vector<size_t>& order) {
  Cost c;
  for (size_t k = 0; k < movers.size(); ++k) {
    const msg::Pose2& from = poses.at(placements[movers[k]].robot_id());
    const msg::Pose2& to = placements[movers[order[k]]].pose();
    const double d = std::hypot(from.x() - to.x(), from.y() - to.y());
    c.longest = std::max(c.longest, d);
    c.total += d;
  }
  return c;
}

// The best hand-out: the shortest longest run, then the least total. With
// `longest_slack` > 0, of the hand-outs whose longest run is within it of the
// shortest, the least total.
Sharing best_sharing(const std::vector<msg::Placement>& placements, const std::map<uint32_t, msg::Pose2>& poses,
                     std::vector<size_t> movers, double longest_slack = 0.0) {
  std::vector<size_t> order(movers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  Sharing best{movers, order, cost_of(placements, poses, movers, order)};
  while (std::next_permutation(order.begin(), order.end())) {
    const Cost cost = cost_of(placements, poses, movers, order);
    if (better(cost, best.cost)) {
      best.cost = cost;
      best.order = order;
    }
  }
  if (!(longest_slack > 0.0)) return best;
  const double longest = best.cost.longest + longest_slack;
  std::iota(order.begin(), order.end(), size_t{0});
  do {
    const Cost cost = cost_of(placements, poses, movers, order);
    if (cost.longest <= longest && cost.total < best.cost.total - 1e-9) {
      best.cost = cost;
      best.order = order;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

std::vector<msg::Placement> handed_out(const std::vector<msg::Placement>& placements, const Sharing& sharing) {
  std::vector<msg::Placement> out = placements;
  for (size_t k = 0; k < sharing.movers.size(); ++k)
    *out[sharing.movers[k]].mutable_pose() = placements[sharing.movers[sharing.order[k]]].pose();
  return out;
}

}  // namespace

std::vector<msg::Placement> share_placements_by_distance(const std::vector<msg::Placement>& placements,
                                                         const std::map<uint32_t, msg::Pose2>& poses,
                                                         uint32_t fixed_id) {
  const auto movers = movers_of(placements, poses, fixed_id, 0.0, {});
  if (!movers || movers->size() < 2) return placements;
  return handed_out(placements, best_sharing(placements, poses, *movers));
}

std::vector<msg::Placement> PlacementSharer::share(const std::vector<msg::Placement>& placements,
                                                   const std::map<uint32_t, msg::Pose2>& poses, uint32_t fixed_id,
                                                   const std::set<uint32_t>& standing) {
  const auto movers = movers_of(placements, poses, fixed_id, at_spot_, standing);
  if (!movers) {
    forget();
    return placements;
  }
  std::vector<msg::Placement> out = placements;
  if (movers->size() >= 2) {
    Sharing chosen = best_sharing(placements, poses, *movers, longest_slack_);
    // The last hand-out, if every robot sharing now was handed a spot
    // before: each robot keeps the spot that lies nearest where its last
    // one did (the hand-out that moves the spots least, found as if the
    // robots stood at their last spots). Fixed spots are thus kept exactly;
    // spots that moved with the robots are followed, whichever robot the
    // coach now names for them.
    const bool fits = std::all_of(movers->begin(), movers->end(),
                                  [&](size_t i) { return handed_.count(placements[i].robot_id()) > 0; });
    if (fits) {
      const Sharing last = best_sharing(placements, handed_, *movers);
      const Cost kept = cost_of(placements, poses, *movers, last.order);
      if (!(chosen.cost.longest < kept.longest - keep_margin_)) {
        chosen.order = last.order;
        chosen.cost = kept;
      }
    }
    out = handed_out(placements, chosen);
  }
  for (const auto& placement : out)
    if (placement.robot_id() != fixed_id) handed_[placement.robot_id()] = placement.pose();
  return out;
}

}  // namespace robocaf::actors
