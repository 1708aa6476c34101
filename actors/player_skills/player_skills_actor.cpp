#include "actors/player_skills/player_skills_actor.hpp"

#include <optional>

#include <caf/all.hpp>

#include "actors/player_skills/skill_controller.hpp"
#include "runtime/cycle_buffer.hpp"

namespace robocaf::actors {

namespace {

// Input: WorldEstimate (own world knowledge; the cycle trigger) and
// PlayerInstruction (team skills). Output: MotionCommand to its motor.
struct PlayerSkillsState {
  runtime::ShellContext ctx;
  std::optional<SkillController> controller;
  runtime::CycleBuffer<int, msg::PlayerInstruction> instructions;
  static inline const char* name = "player_skills";
};

caf::behavior player_skills(runtime::ShellActor<PlayerSkillsState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  const msg::TeamConfig& team = st.ctx.address.team() == msg::YELLOW ? setup.match.yellow() : setup.match.blue();
  SkillParams params;
  params.aim_at_open_gaps = team.strategy() == msg::STRATEGY_DEFAULT;
  params.pass = team.strategy() == msg::STRATEGY_DEFAULT && team.passing();
  st.controller.emplace(st.ctx.address.team(), st.ctx.address.robot_id(), setup.match.league(), params);
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::WorldEstimate& estimate) {
        auto& s = self->state;
        // Until team skills has spoken, a robot holds still.
        msg::PlayerInstruction instruction =
            s.instructions.latest_before(0, estimate.cycle()).value_or(msg::PlayerInstruction{});
        msg::MotionCommand command = s.controller->step(estimate, instruction, estimate.cycle(), estimate.t());
        if (auto motor = s.ctx.peers.find(s.ctx.address.team(), s.ctx.address.robot_id(), msg::ACTOR_MOTOR))
          self->send(motor, std::move(command));
      },
      [self](const msg::PlayerInstruction& instruction) {
        self->state.instructions.put(0, instruction.cycle(), instruction);
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_player_skills(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(player_skills, setup);
}

}  // namespace robocaf::actors
