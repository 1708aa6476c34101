#include "actors/team_skills/role_agreement.hpp"

#include <map>

namespace robocaf::actors {

RoleAgreement::RoleAgreement(const msg::LeaguePreset& league, msg::TeamStrategy strategy, uint32_t robot_id)
    : assigner_(league, strategy), robot_id_(robot_id) {}

RoleDecision RoleAgreement::decide(uint64_t cycle, double t, const std::vector<uint32_t>& present,
                                   bool attack_positive_x, const std::optional<msg::WorldEstimate>& own_estimate,
                                   const std::vector<RoleClaim>& claims) {
  // The newest claim of each robot that still counts. Claims of this cycle or
  // later are not common yet: a teammate may not have them.
  std::map<uint32_t, const RoleClaim*> newest;
  for (const RoleClaim& claim : claims) {
    if (claim.cycle >= cycle || t - claim.t > kClaimTimeout) continue;
    const RoleClaim*& slot = newest[claim.entry.robot_id()];
    if (slot == nullptr || claim.cycle > slot->cycle) slot = &claim;
  }

  std::vector<msg::WorldEstimate> sources;
  std::vector<msg::RoleEntry> claimed;
  for (const auto& [id, claim] : newest) {
    claimed.push_back(claim->entry);
    // A claimant without `self` (no estimate yet) stays unplaced: every robot
    // then counts it as far from everything, alike.
    msg::WorldEstimate basis;
    basis.set_team(claim->basis.team());
    basis.set_robot_id(id);
    if (claim->basis.has_self()) {
      *basis.mutable_self() = claim->basis.self();
      basis.mutable_self()->set_robot_id(id);
    }
    *basis.mutable_ball() = claim->basis.ball();
    sources.push_back(std::move(basis));
  }
  // This robot's own view fills in only robots without a claim, and the ball
  // only when nobody claimed: were its fresher picture of itself or the ball
  // used, it would decide on other numbers than its teammates.
  if (own_estimate) {
    msg::WorldEstimate view;
    view.set_team(own_estimate->team());
    view.set_robot_id(robot_id_);
    if (!newest.count(robot_id_) && own_estimate->has_self()) *view.mutable_self() = own_estimate->self();
    for (const auto& mate : own_estimate->teammates())
      if (!newest.count(mate.robot_id())) *view.add_teammates() = mate;
    if (newest.empty()) *view.mutable_ball() = own_estimate->ball();
    sources.push_back(std::move(view));
  }

  assigner_.remember(claimed);
  RoleDecision decision;
  decision.team = assigner_.assign(sources, present, attack_positive_x, t);
  for (const auto& entry : decision.team)
    if (entry.robot_id() == robot_id_) decision.own = entry;

  decision.claim.cycle = cycle;
  decision.claim.t = t;
  if (decision.own) decision.claim.entry = *decision.own;
  decision.claim.entry.set_robot_id(robot_id_);
  decision.claim.basis.set_robot_id(robot_id_);
  decision.claim.basis.set_cycle(cycle);
  decision.claim.basis.set_t(t);
  if (own_estimate) {
    decision.claim.basis.set_team(own_estimate->team());
    if (own_estimate->has_self()) *decision.claim.basis.mutable_self() = own_estimate->self();
    *decision.claim.basis.mutable_ball() = own_estimate->ball();
  }
  return decision;
}

}  // namespace robocaf::actors
