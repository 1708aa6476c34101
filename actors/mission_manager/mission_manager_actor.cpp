#include "actors/mission_manager/mission_manager_actor.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/mission_manager/heartbeat_monitor.hpp"
#include "runtime/atoms.hpp"

namespace robocaf::actors {

namespace {

// Liveness runs on wall time (CAF timers): a hung handler is a wall-clock event
// and stops virtual time with it. Nothing here feeds the game log.
constexpr auto kHeartbeatPeriod = std::chrono::milliseconds(250);
constexpr double kHeartbeatPeriodSeconds = 0.25;
constexpr double kHeartbeatTimeoutSeconds = 1.5;
constexpr int kReportEveryRounds = 4;

struct Child {
  msg::ActorKind kind = msg::ACTOR_UNSPECIFIED;
  caf::actor handle;
  bool ready = false;
  uint32_t restarts = 0;
  std::string last_restart_reason;
};

// Starts its robot's actors (or its team's coach and, central, team skills), collects
// their Ready, polls heartbeats, restarts an actor that died or hung, and reports
// HealthReport to its coach and to the world.
struct MissionManagerState {
  runtime::ShellContext ctx;
  msg::MatchConfig match;
  std::vector<Child> children;  // index = HeartbeatMonitor child id
  std::optional<HeartbeatMonitor> heartbeats;
  uint64_t rounds = 0;          // heartbeat rounds: the manager's notion of time
  bool last_reported_operational = false;
  static inline const char* name = "mission_manager";
};

using Self = runtime::ShellActor<MissionManagerState>;

double now(const Self* self) { return static_cast<double>(self->state.rounds) * kHeartbeatPeriodSeconds; }

void report(Self* self) {
  auto& s = self->state;
  msg::HealthReport health;
  health.set_team(s.ctx.address.team());
  health.set_robot_id(s.ctx.address.robot_id());
  bool operational = true;
  for (auto& child : s.children) {
    auto* entry = health.add_actors();
    *entry->mutable_address() = runtime::make_address(s.ctx.address.team(), s.ctx.address.robot_id(), child.kind);
    entry->set_state(child.ready ? msg::ACTOR_READY : (child.restarts > 0 ? msg::ACTOR_RESTARTING : msg::ACTOR_STARTING));
    entry->set_restarts(child.restarts);
    entry->set_last_restart_reason(child.last_restart_reason);
    operational = operational && child.ready;
  }
  health.set_operational(operational);
  s.last_reported_operational = operational;
  const auto team = s.ctx.address.team();
  if (auto coach = s.ctx.peers.find(team, 0, msg::ACTOR_COACH)) self->send(coach, health);
  if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD)) self->send(world, health);
}

void start_child(Self* self, size_t index) {
  auto& s = self->state;
  auto& child = s.children[index];
  ActorSetup setup;
  setup.shell.address = runtime::make_address(s.ctx.address.team(), s.ctx.address.robot_id(), child.kind);
  setup.shell.directory = s.ctx.directory;
  setup.shell.supervisor = caf::actor_cast<caf::actor>(self);
  setup.match = s.match;
  child.handle = spawn_actor(self->system(), setup);
  child.ready = false;
  self->monitor(child.handle);
  s.heartbeats->reset(static_cast<int>(index), now(self));
}

void restart_child(Self* self, size_t index, const std::string& reason) {
  auto& s = self->state;
  auto& child = s.children[index];
  std::cerr << "robocaf: " << self->display_name() << " restarts " << runtime::kind_name(child.kind) << ": "
            << reason << '\n';
  auto old = child.handle;
  self->demonitor(old);
  // A hung actor cannot be stopped from outside; it ends when its handler
  // returns. Its replacement takes over its directory address at once.
  self->send_exit(old, caf::exit_reason::kill);
  ++child.restarts;
  child.last_restart_reason = reason;
  start_child(self, index);
  report(self);
}

caf::behavior mission_manager(Self* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  st.match = setup.match;
  st.heartbeats.emplace(kHeartbeatTimeoutSeconds);
  // Team skills run beside the coach (central) or on every robot (distributed).
  const bool distributed = own_team_config(setup).coordination() == msg::COORDINATION_DISTRIBUTED;
  std::vector<msg::ActorKind> kinds =
      st.ctx.address.robot_id() == 0
          ? std::vector<msg::ActorKind>{msg::ACTOR_COACH}
          : std::vector<msg::ActorKind>{msg::ACTOR_MOTOR, msg::ACTOR_PLAYER_SKILLS, msg::ACTOR_WORLD_KNOWLEDGE,
                                        msg::ACTOR_PERCEPTION};
  if ((st.ctx.address.robot_id() == 0) != distributed) kinds.push_back(msg::ACTOR_TEAM_SKILLS);
  for (auto kind : kinds) st.children.push_back(Child{kind, {}, false, 0, {}});
  self->set_down_handler([self](const caf::down_msg& down) {
    auto& s = self->state;
    // A shutdown of the node is not a failure to recover from.
    if (down.reason == caf::exit_reason::user_shutdown) return;
    for (size_t i = 0; i < s.children.size(); ++i)
      if (s.children[i].handle.address() == down.source)
        restart_child(self, i, "died: " + self->system().render(down.reason));
  });
  runtime::join_directory(self, st.ctx, [self] {
    for (size_t i = 0; i < self->state.children.size(); ++i) start_child(self, i);
    self->delayed_send(self, kHeartbeatPeriod, runtime::heartbeat_atom::value);
  });
  return caf::message_handler{
      [self](const msg::Ready& ready) {
        auto& s = self->state;
        for (size_t i = 0; i < s.children.size(); ++i) {
          if (s.children[i].kind != ready.address().kind()) continue;
          s.children[i].ready = true;
          s.heartbeats->reset(static_cast<int>(i), now(self));
        }
        report(self);
      },
      [self](const msg::HeartbeatAck& ack) {
        auto& s = self->state;
        for (size_t i = 0; i < s.children.size(); ++i)
          if (s.children[i].kind == ack.address().kind()) s.heartbeats->ack(static_cast<int>(i), ack.sequence(), now(self));
      },
      [self](runtime::heartbeat_atom) {
        auto& s = self->state;
        ++s.rounds;
        for (int overdue : s.heartbeats->overdue(now(self))) {
          auto index = static_cast<size_t>(overdue);
          if (s.children[index].ready) restart_child(self, index, "missed heartbeats (hung)");
        }
        msg::Heartbeat beat;
        beat.set_sequence(s.heartbeats->next_sequence());
        for (auto& child : s.children)
          if (child.handle) self->send(child.handle, beat);
        if (s.rounds % kReportEveryRounds == 0) report(self);
        self->delayed_send(self, kHeartbeatPeriod, runtime::heartbeat_atom::value);
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_mission_manager(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(mission_manager, setup);
}

}  // namespace robocaf::actors
