#include "actors/team_skills/team_skills_actor.hpp"

#include <optional>
#include <vector>

#include <caf/all.hpp>

#include "actors/team_skills/role_assigner.hpp"
#include "messages/runtime.pb.h"
#include "runtime/cycle_buffer.hpp"

namespace robocaf::actors {

namespace {

// Input: CoachCommand (its coach; the cycle trigger), WorldEstimate (every
// robot's world knowledge). Output: PlayerInstruction to every robot's player
// skills, then RoleAssignment (for the game log) and CycleDone to the world.
struct TeamSkillsState {
  runtime::ShellContext ctx;
  std::optional<RoleAssigner> assigner;
  runtime::CycleBuffer<uint32_t, msg::WorldEstimate> estimates;
  static inline const char* name = "team_skills";
};

caf::behavior team_skills(runtime::ShellActor<TeamSkillsState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  const msg::TeamConfig& team_config =
      setup.shell.address.team() == msg::YELLOW ? setup.match.yellow() : setup.match.blue();
  st.assigner.emplace(setup.match.league(), team_config.strategy());
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::CoachCommand& coach) {
        auto& s = self->state;
        const auto team = s.ctx.address.team();
        const uint64_t cycle = coach.cycle();
        std::vector<msg::WorldEstimate> latest;
        s.estimates.for_each_before(cycle, [&](uint32_t, uint64_t, const msg::WorldEstimate& e) { latest.push_back(e); });
        std::vector<uint32_t> present(coach.robots_present().begin(), coach.robots_present().end());
        msg::RoleAssignment roles;
        roles.set_cycle(cycle);
        roles.set_t(coach.t());
        roles.set_team(team);
        for (const msg::RoleEntry& entry : s.assigner->assign(latest, present, coach.attack_positive_x())) {
          *roles.add_roles() = entry;
          msg::PlayerInstruction instruction;
          instruction.set_cycle(cycle);
          instruction.set_t(coach.t());
          instruction.set_role(entry.role());
          instruction.set_role_index(entry.role_index());
          instruction.set_role_count(entry.role_count());
          instruction.set_directive(coach.directive());
          instruction.set_attack_positive_x(coach.attack_positive_x());
          instruction.set_we_kick_off(coach.we_kick_off());
          if (coach.has_ball_spot()) *instruction.mutable_ball_spot() = coach.ball_spot();
          for (const auto& placement : coach.placements())
            if (placement.robot_id() == entry.robot_id()) *instruction.mutable_placement() = placement.pose();
          if (auto skills = s.ctx.peers.find(team, entry.robot_id(), msg::ACTOR_PLAYER_SKILLS))
            self->send(skills, std::move(instruction));
        }
        msg::CycleDone done;
        done.set_cycle(cycle);
        *done.mutable_address() = s.ctx.address;
        // The world records the roles in the game log, so a match can be analysed by role.
        if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD)) {
          self->send(world, std::move(roles));
          self->send(world, done);
        }
      },
      [self](const msg::WorldEstimate& estimate) {
        if (estimate.team() != self->state.ctx.address.team()) return;
        self->state.estimates.put(estimate.robot_id(), estimate.cycle(), estimate);
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_team_skills(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(team_skills, setup);
}

}  // namespace robocaf::actors
