#pragma once
// Distributed team skills' core: one robot's share of agreeing on the team's
// roles without a central arbiter. No CAF here; the team skills actor of each
// robot (COORDINATION_DISTRIBUTED) wraps one of these.

#include <cstdint>
#include <optional>
#include <vector>

#include "actors/team_skills/role_assigner.hpp"
#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"

namespace robocaf::actors {

/// What a robot's team skills announces to its teammates' team skills once a
/// cycle: the role it took, and what its bid for every role rests on.
struct RoleClaim {
  uint64_t cycle = 0;  // the cycle it decided in
  double t = 0.0;      // the time of that cycle
  /// Its own entry: robot id, role, role_index, role_count.
  msg::RoleEntry entry;
  /// Its own world estimate cut down to what the costs need: `self` (absent
  /// while it has no estimate) and the ball, with `robot_id` the claimant.
  msg::WorldEstimate basis;
};

/// This robot's decision for one cycle.
struct RoleDecision {
  /// Every present robot's role as this robot worked it out, ascending by id.
  std::vector<msg::RoleEntry> team;
  /// This robot's own entry; empty when the coach does not list it present.
  std::optional<msg::RoleEntry> own;
  /// What to announce to teammates (meaningful only with `own`).
  RoleClaim claim;
};

/// Agreement by a common input. Every robot's team skills runs the same
/// RoleAssigner (the central algorithm) on the same input: the claims of the
/// previous cycle, which every teammate received before this cycle opened.
/// Positions and the ball come from the claimants' bases (each robot knows
/// where it is best); the hysteresis comes from the roles they claimed, so a
/// robot that restarted, or disagreed, falls back in line at once. With the
/// same claims, robots present and attack side, every robot computes the same
/// team and takes its own role from it: no role is held twice.
///
/// Conflicts (robots that decided from different inputs, e.g. one missed a
/// claim) resolve one cycle later, deterministically: of several robots
/// claiming the keeper, the one nearer its own goal keeps it; of several
/// attackers, the one with the cheaper path behind the ball; ties to the
/// lower id. The others yield.
///
/// Missing input: a present robot without a claim of the last
/// `kClaimTimeout` seconds is placed by this robot's own estimate (its view of
/// teammates, fused from their shares) and holds no role to stick to; a robot
/// the coach no longer lists is left out, and its role goes to the next best.
/// A claimant that had no estimate yet counts as unplaced on every robot.
/// This robot's own estimate is otherwise used only for its next claim (and
/// the ball when nobody claimed), so it cannot split the team's common view.
class RoleAgreement {
 public:
  /// Claims older than this (s) no longer count: the claimant has fallen
  /// silent. Long enough to ride out a busy computer in real time (a robot
  /// that is gone leaves the coach's robots present instead).
  static constexpr double kClaimTimeout = 0.5;

  RoleAgreement(const msg::LeaguePreset& league, msg::TeamStrategy strategy, uint32_t robot_id);

  /// Decides for cycle `cycle` at time `t`. `present`: the coach's robots
  /// present. `own_estimate`: this robot's latest world estimate, if any.
  /// `claims`: the newest claim of each robot (this robot's own included)
  /// from cycles before `cycle`, in any order. Depends on nothing else: the
  /// same arguments give the same decision.
  RoleDecision decide(uint64_t cycle, double t, const std::vector<uint32_t>& present, bool attack_positive_x,
                      const std::optional<msg::WorldEstimate>& own_estimate, const std::vector<RoleClaim>& claims);

  uint32_t robot_id() const { return robot_id_; }

 private:
  RoleAssigner assigner_;
  uint32_t robot_id_;
};

}  // namespace robocaf::actors
