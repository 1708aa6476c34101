#pragma once
// What every robocaf actor shares: its address, the directory that finds its
// peers, the mission manager that supervises it, and the control-plane handlers
// (roster updates, heartbeats, statistics, fault injection). Actor kinds add
// only their own protocol on top.

#include <functional>

#include <caf/actor.hpp>
#include <caf/message_handler.hpp>
#include <caf/stateful_actor.hpp>

#include "messages/health.pb.h"
#include "runtime/instrumented_actor.hpp"
#include "runtime/peers.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::runtime {

struct ShellContext {
  msg::ActorAddress address;
  caf::actor directory;
  caf::actor supervisor;  // the mission manager; invalid for unsupervised actors
  Peers peers;
  std::function<void()> on_roster_change;  // optional: runs after every roster update
};

/// How a spawner introduces an actor to the system.
struct ShellSetup {
  msg::ActorAddress address;
  caf::actor directory;
  caf::actor supervisor;
};

template <class State>
using ShellActor = caf::stateful_actor<State, InstrumentedActor>;

/// Registers `self` with the directory (which answers with the roster of the
/// peers it may talk to), then sends Ready to the supervisor. `on_ready` runs
/// after the roster arrived, for actor-specific start-up.
void join_directory(InstrumentedActor* self, ShellContext& ctx, std::function<void()> on_ready = {});

/// Roster updates, heartbeats, statistics queries and fault injection.
caf::message_handler shell_handlers(InstrumentedActor* self, ShellContext& ctx);

/// Copies a setup into the context and names the actor after its address.
void init_shell(InstrumentedActor* self, ShellContext& ctx, const ShellSetup& setup);

}  // namespace robocaf::runtime
