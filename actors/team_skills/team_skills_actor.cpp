#include "actors/team_skills/team_skills_actor.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <caf/all.hpp>

#include "actors/team_skills/placement_sharing.hpp"
#include "actors/team_skills/role_agreement.hpp"
#include "actors/team_skills/role_assigner.hpp"
#include "messages/runtime.pb.h"
#include "runtime/cycle_buffer.hpp"
#include "runtime/kickoff_run.hpp"

namespace robocaf::actors {

namespace {

// Below this estimated speed (m/s) a robot counts as standing where it is.
constexpr double kStandingSpeed = 0.2;

// Central (the team's one team skills, robot 0). Input: CoachCommand (its
// coach; the cycle trigger), WorldEstimate (every robot's world knowledge).
// Output: PlayerInstruction to every robot's player skills, then
// RoleAssignment (for the game log) and CycleDone to the world.
//
// Distributed (one per robot). Input: CoachCommand (the trigger),
// WorldEstimate (its own robot's world knowledge), (RoleAssignment,
// WorldEstimate) claims from its teammates' team skills. Output:
// PlayerInstruction to its own player skills, its claim to its teammates'
// team skills, its own RoleAssignment entry and CycleDone to the world.
//
// Either way CycleDone goes last: the world opens the next cycle only after
// it, so everything sent before it is settled input there (runtime::CycleBuffer).
struct TeamSkillsState {
  runtime::ShellContext ctx;
  std::optional<RoleAssigner> assigner;    // central
  std::optional<RoleAgreement> agreement;  // distributed
  std::optional<PlacementSharer> placements;  // central, where kick-off runs are long
  runtime::CycleBuffer<uint32_t, msg::WorldEstimate> estimates;
  runtime::CycleBuffer<uint32_t, RoleClaim> claims;  // distributed: teammates' and its own
  static inline const char* name = "team_skills";
};

using Self = runtime::ShellActor<TeamSkillsState>;

msg::PlayerInstruction instruction_for(const msg::RoleEntry& entry, const msg::CoachCommand& coach,
                                       const std::vector<msg::RoleEntry>& team) {
  msg::PlayerInstruction instruction;
  instruction.set_cycle(coach.cycle());
  instruction.set_t(coach.t());
  instruction.set_role(entry.role());
  instruction.set_role_index(entry.role_index());
  instruction.set_role_count(entry.role_count());
  instruction.set_directive(coach.directive());
  instruction.set_attack_positive_x(coach.attack_positive_x());
  instruction.set_we_kick_off(coach.we_kick_off());
  if (coach.has_ball_spot()) *instruction.mutable_ball_spot() = coach.ball_spot();
  instruction.set_keep_out_radius(coach.keep_out_radius());
  instruction.set_restart(coach.restart());
  instruction.set_waiting_for_taker(coach.waiting_for_taker());
  for (const auto& placement : coach.placements())
    if (placement.robot_id() == entry.robot_id()) *instruction.mutable_placement() = placement.pose();
  for (const auto& mate : team) *instruction.add_team_roles() = mate;
  return instruction;
}

// The world records the roles in the game log, so a match can be analysed by
// role; CycleDone closes this actor's part of the cycle.
void report_to_world(Self* self, msg::RoleAssignment roles, uint64_t cycle) {
  auto& s = self->state;
  msg::CycleDone done;
  done.set_cycle(cycle);
  *done.mutable_address() = s.ctx.address;
  if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD)) {
    self->send(world, std::move(roles));
    self->send(world, done);
  }
}

msg::RoleAssignment assignment_header(const Self* self, const msg::CoachCommand& coach) {
  msg::RoleAssignment roles;
  roles.set_cycle(coach.cycle());
  roles.set_t(coach.t());
  roles.set_team(self->state.ctx.address.team());
  return roles;
}

// Central: the coach places by id; the field players share its spots out by
// distance from where they are (the keeper, the lowest id, keeps its own).
// Where the run back to a kick-off is long (MSL) a robot keeps the spot it
// was handed, at every restart (PlacementSharer): handed out afresh every
// cycle, three robots beside a drop ball or free kick swapped spots every
// cycle for seconds. Where the run back takes a second (MiroSot), the
// hand-out is made afresh every cycle: kept, a robot held up on the way to
// one spot kept it while another passed by (12 robots late in 20 matches
// against 3). Not shared at all, robots the referee moved at restarts other
// than kick-offs rose from 21 to 70 in 20 MSL matches.
msg::CoachCommand with_placements_shared(PlacementSharer* sharer, const msg::CoachCommand& coach,
                                         const std::vector<msg::WorldEstimate>& latest,
                                         const std::vector<uint32_t>& present) {
  const bool placing = coach.directive() == msg::COACH_PLACE;
  const bool keep_hand_out = sharer != nullptr && placing;
  if (sharer != nullptr && !keep_hand_out) sharer->forget();
  if (!placing || coach.placements().empty() || present.empty()) return coach;
  std::map<uint32_t, msg::Pose2> poses;
  // Standing robots keep a spot they stand at, at restarts other than
  // kick-offs, where the coach names a robot standing legally its own
  // position (PlacementSharer).
  std::set<uint32_t> standing;
  for (const auto& estimate : latest) {
    if (!estimate.has_self()) continue;
    poses[estimate.robot_id()] = estimate.self().pose();
    if (coach.restart() != msg::RESTART_KICKOFF &&
        std::hypot(estimate.self().velocity().x(), estimate.self().velocity().y()) < kStandingSpeed)
      standing.insert(estimate.robot_id());
  }
  const std::vector<msg::Placement> placements(coach.placements().begin(), coach.placements().end());
  const uint32_t keeper = *std::min_element(present.begin(), present.end());
  msg::CoachCommand shared = coach;
  shared.clear_placements();
  for (auto& placement : keep_hand_out ? sharer->share(placements, poses, keeper, standing)
                                       : share_placements_by_distance(placements, poses, keeper))
    *shared.add_placements() = std::move(placement);
  return shared;
}

void decide_for_team(Self* self, const msg::CoachCommand& command) {
  auto& s = self->state;
  const auto team = s.ctx.address.team();
  std::vector<msg::WorldEstimate> latest;
  s.estimates.for_each_before(command.cycle(), [&](uint32_t, uint64_t, const msg::WorldEstimate& e) { latest.push_back(e); });
  std::vector<uint32_t> present(command.robots_present().begin(), command.robots_present().end());
  const msg::CoachCommand coach = with_placements_shared(s.placements ? &*s.placements : nullptr, command, latest, present);
  msg::RoleAssignment roles = assignment_header(self, coach);
  const std::vector<msg::RoleEntry> entries = s.assigner->assign(latest, present, coach.attack_positive_x(), coach.t());
  for (const msg::RoleEntry& entry : entries) {
    *roles.add_roles() = entry;
    if (auto skills = s.ctx.peers.find(team, entry.robot_id(), msg::ACTOR_PLAYER_SKILLS))
      self->send(skills, instruction_for(entry, coach, entries));
  }
  report_to_world(self, std::move(roles), coach.cycle());
}

void decide_for_own_robot(Self* self, const msg::CoachCommand& coach) {
  auto& s = self->state;
  const auto team = s.ctx.address.team();
  const uint32_t me = s.ctx.address.robot_id();
  const uint64_t cycle = coach.cycle();
  std::vector<RoleClaim> claims;
  s.claims.for_each_before(cycle, [&](uint32_t, uint64_t, const RoleClaim& claim) { claims.push_back(claim); });
  std::vector<uint32_t> present(coach.robots_present().begin(), coach.robots_present().end());
  RoleDecision decision = s.agreement->decide(cycle, coach.t(), present, coach.attack_positive_x(),
                                              s.estimates.latest_before(me, cycle), claims);
  msg::RoleAssignment own = assignment_header(self, coach);
  if (decision.own) {
    *own.add_roles() = *decision.own;
    if (auto skills = s.ctx.peers.find(team, me, msg::ACTOR_PLAYER_SKILLS))
      self->send(skills, instruction_for(*decision.own, coach, decision.team));
    decision.claim.basis.set_team(team);
    s.claims.put(me, cycle, decision.claim);
    for (auto& [mate, handle] : s.ctx.peers.of_kind(team, msg::ACTOR_TEAM_SKILLS))
      if (mate != me) self->send(handle, own, decision.claim.basis);
  }
  report_to_world(self, std::move(own), cycle);
}

caf::behavior team_skills(Self* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  const msg::TeamStrategy strategy = own_team_config(setup).strategy();
  if (setup.shell.address.robot_id() == 0) {
    st.assigner.emplace(setup.match.league(), strategy);
    // A swap must save more than a robot's width of the longest run; a
    // robot within 0.4 radii of its spot (0.1 m in MSL) stands there; a
    // hand-out a robot's width longer in its longest run than the shortest
    // still counts, by the total.
    if (runtime::long_kickoff_run(setup.match.league())) {
      const double r = setup.match.league().robot().radius();
      st.placements.emplace(2.0 * r, 0.4 * r, 2.0 * r);
    }
  } else {
    st.agreement.emplace(setup.match.league(), strategy, setup.shell.address.robot_id());
  }
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::CoachCommand& coach) {
        if (coach.team() != self->state.ctx.address.team()) return;
        if (self->state.agreement)
          decide_for_own_robot(self, coach);
        else
          decide_for_team(self, coach);
      },
      [self](const msg::WorldEstimate& estimate) {
        auto& s = self->state;
        if (estimate.team() != s.ctx.address.team()) return;
        // Distributed: only its own robot's world knowledge counts here.
        if (s.agreement && estimate.robot_id() != s.ctx.address.robot_id()) return;
        s.estimates.put(estimate.robot_id(), estimate.cycle(), estimate);
      },
      [self](const msg::RoleAssignment& roles, const msg::WorldEstimate& basis) {
        // A teammate's claim: one entry, its own, and the basis of its bid.
        auto& s = self->state;
        if (!s.agreement || roles.team() != s.ctx.address.team() || roles.roles_size() != 1) return;
        const msg::RoleEntry& entry = roles.roles(0);
        const uint32_t mate = entry.robot_id();
        if (mate == 0 || mate == s.ctx.address.robot_id() || basis.robot_id() != mate) return;
        s.claims.put(mate, roles.cycle(), RoleClaim{roles.cycle(), roles.t(), entry, basis});
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_team_skills(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(team_skills, setup);
}

}  // namespace robocaf::actors
