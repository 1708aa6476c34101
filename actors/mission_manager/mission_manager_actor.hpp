#pragma once

#include "actors/actor_setup.hpp"

namespace robocaf::actors {

caf::actor spawn_mission_manager(caf::actor_system& system, const ActorSetup& setup);

}  // namespace robocaf::actors
