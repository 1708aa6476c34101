#pragma once

#include "actors/actor_setup.hpp"

namespace robocaf::actors {

caf::actor spawn_coach(caf::actor_system& system, const ActorSetup& setup);

}  // namespace robocaf::actors
