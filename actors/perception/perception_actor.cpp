#include "actors/perception/perception_actor.hpp"

#include <optional>

#include <caf/all.hpp>

#include "actors/perception/detection_filter.hpp"
#include "actors/perception/onboard_filter.hpp"

namespace robocaf::actors {

namespace {

// Input: DetectionFrame (a global camera or the world), or OnboardFrame plus
// Odometry (the robot's own camera and wheels). Output: Percept to its robot's
// world knowledge.
struct PerceptionState {
  runtime::ShellContext ctx;
  std::optional<DetectionFilter> filter;
  std::optional<OnboardFilter> onboard;
  static inline const char* name = "perception";
};

caf::behavior perception(runtime::ShellActor<PerceptionState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  st.filter.emplace(st.ctx.address.team(), st.ctx.address.robot_id());
  st.onboard.emplace(st.ctx.address.team(), st.ctx.address.robot_id());
  runtime::join_directory(self, st.ctx);
  auto send_percept = [self](msg::Percept percept) {
    auto& s = self->state;
    auto wk = s.ctx.peers.find(s.ctx.address.team(), s.ctx.address.robot_id(), msg::ACTOR_WORLD_KNOWLEDGE);
    if (wk) self->send(wk, std::move(percept));
  };
  return caf::message_handler{
      [self, send_percept](const msg::DetectionFrame& frame) { send_percept(self->state.filter->to_percept(frame)); },
      [self](const msg::Odometry& odometry) { self->state.onboard->on_odometry(odometry); },
      [self, send_percept](const msg::OnboardFrame& frame) { send_percept(self->state.onboard->to_percept(frame)); },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_perception(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(perception, setup);
}

}  // namespace robocaf::actors
