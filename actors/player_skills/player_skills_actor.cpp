#include "actors/player_skills/player_skills_actor.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <caf/all.hpp>

#include "actors/player_skills/skill_controller.hpp"
#include "messages/log.pb.h"
#include "runtime/cycle_buffer.hpp"

namespace robocaf::actors {

namespace {

// Input: WorldEstimate (own world knowledge; the cycle trigger) and
// PlayerInstruction (team skills). Output: MotionCommand to its motor, and
// just before it, every kIntentLogPeriod, a SkillIntent to the simulated
// world for the game log (as world knowledge sends its SelfBelief: the
// world has it before the command that closes the robot's cycle).
struct PlayerSkillsState {
  runtime::ShellContext ctx;
  std::optional<SkillController> controller;
  runtime::CycleBuffer<int, msg::PlayerInstruction> instructions;
  uint64_t intent_every = 1;  // cycles between intents for the game log
  static inline const char* name = "player_skills";
};

// s between the intents a robot sends the game log: as often as its beliefs.
constexpr double kIntentLogPeriod = 0.1;

msg::Vec2F to_vec2f(const Eigen::Vector2d& v) {
  msg::Vec2F out;
  out.set_x(static_cast<float>(v.x()));
  out.set_y(static_cast<float>(v.y()));
  return out;
}

msg::SkillIntent skill_intent(const SkillController& controller, const msg::PlayerInstruction& instruction,
                              const msg::WorldEstimate& estimate) {
  msg::SkillIntent intent;
  intent.set_cycle(estimate.cycle());
  intent.set_t(estimate.t());
  intent.set_team(controller.team());
  intent.set_robot_id(controller.robot_id());
  intent.set_directive(instruction.directive());
  intent.set_role(instruction.role());
  if (instruction.directive() == msg::COACH_PLACE)
    *intent.mutable_placement() = to_vec2f({instruction.placement().x(), instruction.placement().y()});
  const SkillController::Intent& steered = controller.intent();
  if (steered.aim) *intent.mutable_aim() = to_vec2f(*steered.aim);
  if (steered.waypoint) *intent.mutable_waypoint() = to_vec2f(*steered.waypoint);
  if (steered.exit) *intent.mutable_exit() = to_vec2f(*steered.exit);
  intent.set_stepping_out(steered.stepping_out);
  intent.set_making_way(steered.making_way);
  for (const SkillController::Intent::PlannedOpponent& o : steered.planned_round) {
    msg::PlannedOpponent& out = *intent.add_planned_round();
    out.set_robot_id(o.robot_id);
    *out.mutable_position() = to_vec2f(o.position);
    out.set_unseen_for(static_cast<float>(o.unseen_for));
    out.set_way_ahead(o.way_ahead);
  }
  return intent;
}

caf::behavior player_skills(runtime::ShellActor<PlayerSkillsState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  const msg::TeamConfig& team = st.ctx.address.team() == msg::YELLOW ? setup.match.yellow() : setup.match.blue();
  SkillParams params;
  params.aim_at_open_gaps = team.strategy() == msg::STRATEGY_DEFAULT;
  params.pass = team.strategy() == msg::STRATEGY_DEFAULT && team.passing();
  st.controller.emplace(st.ctx.address.team(), st.ctx.address.robot_id(), setup.match.league(), params);
  if (const double period = setup.match.sim().control_period(); period > 0)
    st.intent_every = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(kIntentLogPeriod / period)));
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::WorldEstimate& estimate) {
        auto& s = self->state;
        // Until team skills has spoken, a robot holds still.
        msg::PlayerInstruction instruction =
            s.instructions.latest_before(0, estimate.cycle()).value_or(msg::PlayerInstruction{});
        msg::MotionCommand command = s.controller->step(estimate, instruction, estimate.cycle(), estimate.t());
        if (estimate.cycle() % s.intent_every == 0)
          if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD))
            self->send(world, skill_intent(*s.controller, instruction, estimate));
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
