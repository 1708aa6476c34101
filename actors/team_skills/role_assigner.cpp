#include "actors/team_skills/role_assigner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "runtime/min_cost_assignment.hpp"

namespace robocaf::actors {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSwitchRatio = 0.8;    // a new attacker must be 20 % cheaper ...
constexpr double kSwitchMargin = 0.1;   // ... and 0.1 m cheaper
constexpr double kDefenderBonus = 0.1;  // m, keeps defenders from swapping with supporters

struct Known {
  double x = 0.0, y = 0.0, t_observed = -kInf;
  bool from_self = false;
};

}  // namespace

RoleAssigner::RoleAssigner(const msg::LeaguePreset& league, msg::TeamStrategy strategy)
    : league_(league), strategy_(strategy), formation_(league) {}

double RoleAssigner::place_bonus() const { return std::max(kDefenderBonus, 2.0 * league_.robot().radius()); }

void RoleAssigner::reset() {
  keepers_.clear();
  attackers_.clear();
  defenders_.clear();
  field_slots_.clear();
  attack_challenge_.reset();
  defence_challenge_.reset();
  slots_challenge_.reset();
}

void RoleAssigner::remember(const std::vector<msg::RoleEntry>& previous) {
  keepers_.clear();
  attackers_.clear();
  defenders_.clear();
  field_slots_.clear();
  for (const auto& entry : previous) {
    if (entry.role() == msg::ROLE_KEEPER) keepers_.insert(entry.robot_id());
    if (entry.role() == msg::ROLE_ATTACKER) attackers_.insert(entry.robot_id());
    if (entry.role() == msg::ROLE_DEFENDER) defenders_.insert(entry.robot_id());
    if (entry.role() == msg::ROLE_DEFENDER || entry.role() == msg::ROLE_SUPPORTER)
      field_slots_[entry.robot_id()] = Slot{entry.role(), entry.role_index(), entry.role_count()};
  }
}

void RoleAssigner::assign_field_slots(const std::vector<uint32_t>& pool, size_t defenders,
                                      const std::function<std::optional<Eigen::Vector2d>(uint32_t)>& position,
                                      const Eigen::Vector2d& ball, bool attack_positive_x, double t) {
  const size_t n = pool.size();
  std::vector<Slot> slots;
  for (size_t i = 0; i < n; ++i) {
    const bool defender = i < defenders;
    const size_t count = defender ? defenders : n - defenders;
    slots.push_back(Slot{defender ? msg::ROLE_DEFENDER : msg::ROLE_SUPPORTER,
                         static_cast<uint32_t>(defender ? i : i - defenders), static_cast<uint32_t>(count)});
  }
  auto spot = [&](uint32_t id, const Slot& slot) {
    if (slot.role == msg::ROLE_DEFENDER)
      return slot.count > 1 ? formation_.wall_slot(ball, attack_positive_x, slot.index, slot.count)
                            : formation_.defender(ball, attack_positive_x);
    return formation_.supporter(ball, attack_positive_x, support_side_, slot.index, slot.count, id);
  };

  // The current places, when every robot of the pool holds a different one
  // of this cycle's places.
  std::map<uint32_t, Slot> current;
  for (uint32_t id : pool) {
    auto it = field_slots_.find(id);
    if (it != field_slots_.end() && std::find(slots.begin(), slots.end(), it->second) != slots.end())
      current[id] = it->second;
  }
  bool complete = current.size() == n;
  for (auto a = current.begin(); complete && a != current.end(); ++a)
    for (auto b = std::next(a); complete && b != current.end(); ++b) complete = !(a->second == b->second);

  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
  for (size_t r = 0; r < n; ++r) {
    const std::optional<Eigen::Vector2d> p = position(pool[r]);
    const auto held = current.find(pool[r]);
    for (size_t c = 0; c < n; ++c) {
      // A robot nobody knows the place of costs the same anywhere.
      double d = p ? (*p - spot(pool[r], slots[c])).norm() : 0.0;
      if (!std::isfinite(d)) d = 1e6;
      if (held != current.end() && held->second == slots[c]) d -= place_bonus();
      cost[r][c] = d;
    }
  }
  const std::vector<int> column = runtime::min_cost_assignment(cost);
  std::map<uint32_t, Slot> wanted;
  for (size_t r = 0; r < n; ++r) wanted[pool[r]] = slots[column.size() == n ? column[r] : r];

  if (!complete || wanted == current) {
    slots_challenge_.reset();
    field_slots_ = complete ? current : wanted;
    return;
  }
  std::set<uint32_t> key;  // the wanted assignment, one number per robot
  for (const auto& [id, slot] : wanted) key.insert((id << 16) | (static_cast<uint32_t>(slot.role) << 8) | slot.index);
  field_slots_ = confirmed(slots_challenge_, key, t) ? wanted : current;
}

bool RoleAssigner::confirmed(std::optional<Challenge>& challenge, const std::set<uint32_t>& wanted, double t) {
  // A clock that went back (a new match) restarts the wait.
  if (!challenge || challenge->robots != wanted || !(t >= challenge->since)) challenge = Challenge{wanted, t};
  return t - challenge->since >= kConfirmSeconds;
}

double RoleAssigner::attack_cost(double x, double y, double bx, double by, bool attack_positive_x) const {
  const double gx = (attack_positive_x ? 0.5 : -0.5) * league_.field().length();
  double ux = gx - bx, uy = -by;
  const double n = std::hypot(ux, uy);
  if (n < 1e-9) {
    ux = attack_positive_x ? 1.0 : -1.0;
    uy = 0.0;
  } else {
    ux /= n;
    uy /= n;
  }
  const double contact = league_.robot().radius() + league_.ball().radius();
  const double clear = contact + 0.02;
  const double qx = bx - ux * 1.5 * clear, qy = by - uy * 1.5 * clear;
  // The straight way to the point behind the ball is free unless it passes
  // through the ball. A robot with the ball at its front is on it: it stands
  // one contact distance behind the ball, nearer than `clear`, and counting
  // that as the wrong side made the attacker on the ball look metres away
  // (MSL: 1.8 m), so whoever came near took the role and gave it back.
  const double sx = qx - x, sy = qy - y;
  const double length_squared = sx * sx + sy * sy;
  const double s = length_squared > 0.0 ? std::clamp(((bx - x) * sx + (by - y) * sy) / length_squared, 0.0, 1.0) : 0.0;
  if (std::hypot(x + s * sx - bx, y + s * sy - by) >= 0.9 * contact) return std::sqrt(length_squared);
  // Through the ball: around it, by the side the robot is on.
  const double side = (ux * (y - by) - uy * (x - bx)) >= 0.0 ? 1.0 : -1.0;
  const double wx = bx - side * uy * 2.0 * clear, wy = by + side * ux * 2.0 * clear;
  return std::hypot(x - wx, y - wy) + std::hypot(wx - qx, wy - qy);
}

std::vector<msg::RoleEntry> RoleAssigner::assign(const std::vector<msg::WorldEstimate>& robot_estimates,
                                                 const std::vector<uint32_t>& robots_present, bool attack_positive_x,
                                                 double t) {
  std::vector<uint32_t> ids = robots_present;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

  // Where everyone is: a robot's own estimate first, the freshest other view otherwise.
  std::map<uint32_t, Known> known;
  auto offer = [&](uint32_t id, const msg::RobotEstimate& e, bool from_self) {
    Known& k = known[id];
    const bool better = (from_self && !k.from_self) ||
                        (from_self == k.from_self && e.t_observed() > k.t_observed);
    if (!better) return;
    k = Known{e.pose().x(), e.pose().y(), e.t_observed(), from_self};
  };
  bool have_ball = false;
  double bx = 0.0, by = 0.0, ball_t = -kInf;
  uint32_t ball_source = 0;
  for (const auto& w : robot_estimates) {
    if (w.has_self()) offer(w.robot_id(), w.self(), true);
    for (const auto& e : w.teammates()) offer(e.robot_id(), e, false);
    const auto& b = w.ball();
    if (b.valid() &&
        (!have_ball || b.t_observed() > ball_t || (b.t_observed() == ball_t && w.robot_id() < ball_source))) {
      have_ball = true;
      bx = b.position().x();
      by = b.position().y();
      ball_t = b.t_observed();
      ball_source = w.robot_id();
    }
  }
  // Without a ball, assume it is where play restarts.
  if (!have_ball) bx = by = 0.0;

  auto position = [&](uint32_t id) -> const Known* {
    auto it = known.find(id);
    return it == known.end() ? nullptr : &it->second;
  };
  const double own_goal_x = (attack_positive_x ? -0.5 : 0.5) * league_.field().length();
  auto goal_distance = [&](uint32_t id) {
    const Known* k = position(id);
    return k ? std::hypot(k->x - own_goal_x, k->y) : kInf;
  };
  // Lowest score first, ties to the lower id (ids are sorted and the sort is stable).
  auto best_of = [](std::vector<uint32_t> pool, auto score) {
    std::stable_sort(pool.begin(), pool.end(), [&](uint32_t a, uint32_t b) { return score(a) < score(b); });
    return pool;
  };

  std::map<uint32_t, msg::Role> roles;
  std::vector<uint32_t> pool = ids;
  auto take = [&](uint32_t id, msg::Role role) {
    roles[id] = role;
    pool.erase(std::find(pool.begin(), pool.end(), id));
  };

  if (strategy_ == msg::STRATEGY_CHASER) {
    for (uint32_t id : ids) roles[id] = msg::ROLE_ATTACKER;
    pool.clear();
  }

  // The present holders of a role, in id order.
  auto incumbents = [&](const std::set<uint32_t>& holders) {
    std::vector<uint32_t> present;
    for (uint32_t id : pool)
      if (holders.count(id)) present.push_back(id);
    return present;
  };

  // Keeper.
  if (!pool.empty()) {
    const std::vector<uint32_t> keepers = incumbents(keepers_);
    const uint32_t keeper = best_of(keepers.empty() ? pool : keepers, goal_distance).front();
    take(keeper, msg::ROLE_KEEPER);
    keepers_ = {keeper};
  } else {
    keepers_.clear();
  }

  // Attacker (the wall has none).
  if (!pool.empty() && strategy_ != msg::STRATEGY_WALL) {
    auto cost = [&](uint32_t id) {
      const Known* k = position(id);
      return k ? attack_cost(k->x, k->y, bx, by, attack_positive_x) : kInf;
    };
    const uint32_t best = best_of(pool, cost).front();
    uint32_t chosen = best;
    const std::vector<uint32_t> attackers = incumbents(attackers_);
    if (!attackers.empty()) {
      const uint32_t current_attacker = best_of(attackers, cost).front();
      const double current = cost(current_attacker), challenger = cost(best);
      const bool clearly_better = challenger < kSwitchRatio * current && current - challenger > kSwitchMargin;
      if (!clearly_better) attack_challenge_.reset();
      if (!clearly_better || !confirmed(attack_challenge_, {best}, t)) chosen = current_attacker;
    } else {
      attack_challenge_.reset();
    }
    take(chosen, msg::ROLE_ATTACKER);
    attackers_ = {chosen};
  } else {
    attackers_.clear();
  }

  // Defenders, then supporters.
  // One defender; supporters get the rest (a second defender only from four
  // field robots left on): a team crowding its own goal does not score.
  const size_t defenders = pool.empty()                     ? 0
                           : strategy_ == msg::STRATEGY_WALL ? pool.size()
                                                             : std::max<size_t>(1, pool.size() / 2);
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> places;  // id -> (index, count)
  support_side_ = formation_.support_side(support_side_, by);
  if (strategy_ == msg::STRATEGY_DEFAULT) {
    assign_field_slots(pool, defenders, [&](uint32_t id) -> std::optional<Eigen::Vector2d> {
      const Known* k = position(id);
      if (!k) return std::nullopt;
      return Eigen::Vector2d(k->x, k->y);
    }, Eigen::Vector2d(bx, by), attack_positive_x, t);
    defenders_.clear();
    for (uint32_t id : pool) {
      const Slot& slot = field_slots_.at(id);
      roles[id] = slot.role;
      if (slot.role == msg::ROLE_DEFENDER) defenders_.insert(id);
      places[id] = {slot.index, slot.count};
    }
  } else {
    auto defend_score = [&](uint32_t id) { return goal_distance(id) - (defenders_.count(id) ? place_bonus() : 0.0); };
    const std::vector<uint32_t> ranked = best_of(pool, defend_score);
    std::set<uint32_t> wanted, current;
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (i < defenders) wanted.insert(ranked[i]);
      if (defenders_.count(ranked[i])) current.insert(ranked[i]);
    }
    // All current defenders still here and as many as wanted: they stay until
    // another set has been nearer for kConfirmSeconds.
    const bool settled = current.size() == defenders;
    if (!settled || wanted == current) defence_challenge_.reset();
    const std::set<uint32_t>& chosen =
        settled && wanted != current && !confirmed(defence_challenge_, wanted, t) ? current : wanted;
    defenders_ = chosen;
    for (uint32_t id : pool) roles[id] = chosen.count(id) ? msg::ROLE_DEFENDER : msg::ROLE_SUPPORTER;
  }

  // Places within the other roles: defenders of the wall right to left seen
  // from the own goal (left of a robot facing the opponent goal is +y when
  // attacking +x), by where they stand; the rest by id.
  const double left_sign = attack_positive_x ? 1.0 : -1.0;
  auto lateral = [&](uint32_t id) {
    const Known* k = position(id);
    return k ? left_sign * k->y : 0.0;
  };
  std::map<msg::Role, std::vector<uint32_t>> by_role;
  for (const auto& [id, role] : roles)
    if (!places.count(id)) by_role[role].push_back(id);
  for (auto& [role, members] : by_role) {
    if (role == msg::ROLE_DEFENDER) members = best_of(members, lateral);
    for (size_t i = 0; i < members.size(); ++i)
      places[members[i]] = {static_cast<uint32_t>(i), static_cast<uint32_t>(members.size())};
  }

  std::vector<msg::RoleEntry> out;
  for (const auto& [id, role] : roles) {
    msg::RoleEntry e;
    e.set_robot_id(id);
    e.set_role(role);
    e.set_role_index(places[id].first);
    e.set_role_count(places[id].second);
    out.push_back(e);
  }
  return out;
}

}  // namespace robocaf::actors
