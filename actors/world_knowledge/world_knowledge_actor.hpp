#pragma once

#include "actors/actor_setup.hpp"

namespace robocaf::actors {

caf::actor spawn_world_knowledge(caf::actor_system& system, const ActorSetup& setup);

}  // namespace robocaf::actors
