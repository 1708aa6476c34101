#pragma once
// What a spawner hands every robot and team actor: who it is, how to reach the
// directory and its supervisor, and the match it plays.

#include <caf/fwd.hpp>

#include "messages/config.pb.h"
#include "runtime/actor_shell.hpp"

namespace robocaf::actors {

struct ActorSetup {
  runtime::ShellSetup shell;
  msg::MatchConfig match;
};

/// The config of the team the actor plays for (`setup.shell.address.team()`).
const msg::TeamConfig& own_team_config(const ActorSetup& setup);

/// Spawns the actor kind named in `setup.shell.address.kind()`.
caf::actor spawn_actor(caf::actor_system& system, const ActorSetup& setup);

}  // namespace robocaf::actors
