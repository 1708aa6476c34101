#include "actors/actor_setup.hpp"

#include <stdexcept>

#include <caf/actor.hpp>

#include "actors/coach/coach_actor.hpp"
#include "actors/mission_manager/mission_manager_actor.hpp"
#include "actors/motor/motor_actor.hpp"
#include "actors/perception/perception_actor.hpp"
#include "actors/player_skills/player_skills_actor.hpp"
#include "actors/team_skills/team_skills_actor.hpp"
#include "actors/world_knowledge/world_knowledge_actor.hpp"

namespace robocaf::actors {

const msg::TeamConfig& own_team_config(const ActorSetup& setup) {
  return setup.shell.address.team() == msg::YELLOW ? setup.match.yellow() : setup.match.blue();
}

caf::actor spawn_actor(caf::actor_system& system, const ActorSetup& setup) {
  switch (setup.shell.address.kind()) {
    case msg::ACTOR_PERCEPTION: return spawn_perception(system, setup);
    case msg::ACTOR_WORLD_KNOWLEDGE: return spawn_world_knowledge(system, setup);
    case msg::ACTOR_PLAYER_SKILLS: return spawn_player_skills(system, setup);
    case msg::ACTOR_MOTOR: return spawn_motor(system, setup);
    case msg::ACTOR_MISSION_MANAGER: return spawn_mission_manager(system, setup);
    case msg::ACTOR_COACH: return spawn_coach(system, setup);
    case msg::ACTOR_TEAM_SKILLS: return spawn_team_skills(system, setup);
    default:
      throw std::invalid_argument("no robot or team actor of kind " + msg::ActorKind_Name(setup.shell.address.kind()));
  }
}

}  // namespace robocaf::actors
