#include "actors/motor/motor_actor.hpp"

#include <optional>

#include <caf/all.hpp>

#include "actors/motor/motor_control.hpp"

namespace robocaf::actors {

namespace {

// Input: MotionCommand (player skills), Odometry (the motor board or the world;
// it also carries the clock). Output: RobotCommand to the hardware, which is the
// world actor in simulation: the motor cannot tell the difference.
struct MotorState {
  runtime::ShellContext ctx;
  std::optional<MotorControl> control;
  bool moving = false;  // commanded since the last full stop: the watchdog has a ramp to send
  static inline const char* name = "motor";
};

void send_to_hardware(runtime::ShellActor<MotorState>* self, msg::RobotCommand command, uint64_t cycle) {
  auto& s = self->state;
  command.set_team(s.ctx.address.team());
  command.set_robot_id(s.ctx.address.robot_id());
  command.set_cycle(cycle);
  if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD)) self->send(world, std::move(command));
}

caf::behavior motor(runtime::ShellActor<MotorState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  st.control.emplace(setup.match.league().robot(), setup.match.sim().motor_timeout());
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::MotionCommand& motion) {
        self->state.moving = true;
        send_to_hardware(self, self->state.control->on_motion(motion), motion.cycle());
      },
      [self](const msg::Odometry& odometry) {
        // Only a silent player skills makes the motor speak on its own: after
        // the timeout it ramps the robot down to a stop, then falls silent, so
        // in virtual time the world never sees two commands for one cycle.
        auto& s = self->state;
        if (!s.moving) return;
        if (auto stop = s.control->on_tick(odometry.t())) {
          const auto& w = stop->wheels();
          const auto& b = stop->body();
          s.moving = w.left() != 0.0 || w.right() != 0.0 || b.vx() != 0.0 || b.vy() != 0.0 || b.omega() != 0.0;
          send_to_hardware(self, *stop, odometry.cycle());
        }
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_motor(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(motor, setup);
}

}  // namespace robocaf::actors
