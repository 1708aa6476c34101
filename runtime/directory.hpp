#pragma once
// The directory: addresses actors by (team, robot, kind) instead of by host.
//
// Protocol (CAF messages):
//   (join_atom, NodeIdentity)                 -> ok | error      a node announces what it hosts
//   (register_atom, ActorAddress, actor)      -> (Roster, vector<actor>) | error
//   (stats_atom)                              -> (Roster, vector<actor>) of everyone
// After registering, an actor receives a (Roster, vector<actor>) push whenever
// an actor it may talk to joins, restarts or goes down. It sees only its own team
// and neutral actors (the world); neutral actors see everyone. A registration is
// refused unless the registering node's identity covers the address and the
// robot id is in the match roster, so a robot can never be wired to the other
// team's actors.

#include <cstdint>

namespace caf {
class actor;
class actor_system;
}  // namespace caf

namespace robocaf::runtime {

caf::actor spawn_directory(caf::actor_system& system, uint32_t team_size);

}  // namespace robocaf::runtime
