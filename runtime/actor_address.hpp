#pragma once
// Actors are addressed by who they are (team, robot, kind), never by host.

#include <string>
#include <tuple>

#include "messages/health.pb.h"

namespace robocaf::runtime {

/// Builds an address; robot_id 0 names a team-level actor, TEAM_UNSPECIFIED a neutral one.
msg::ActorAddress make_address(msg::Team team, uint32_t robot_id, msg::ActorKind kind);

/// "blue/3/motor", "yellow/team/coach", "world": stable, readable, used as a map key.
std::string address_key(const msg::ActorAddress& address);

/// Short lower-case name of an actor kind ("world_knowledge").
std::string kind_name(msg::ActorKind kind);

/// A protobuf enum value's name without its prefix, in lower case:
/// "ROLE_ATTACKER" -> "attacker", "ACTOR_WORLD_KNOWLEDGE" -> "world_knowledge"
/// (everything after the first underscore).
std::string short_enum_name(const std::string& proto_name);

/// "blue", "yellow" or "neutral".
std::string team_name(msg::Team team);

/// Canonical order: team, then robot, then kind. Everything that must be
/// reproducible iterates actors in this order.
inline bool address_less(const msg::ActorAddress& a, const msg::ActorAddress& b) {
  return std::make_tuple(int(a.team()), a.robot_id(), int(a.kind())) <
         std::make_tuple(int(b.team()), b.robot_id(), int(b.kind()));
}

inline bool same_address(const msg::ActorAddress& a, const msg::ActorAddress& b) {
  return a.team() == b.team() && a.robot_id() == b.robot_id() && a.kind() == b.kind();
}

}  // namespace robocaf::runtime
