#include "runtime/actor_address.hpp"

#include <algorithm>
#include <cctype>

namespace robocaf::runtime {

msg::ActorAddress make_address(msg::Team team, uint32_t robot_id, msg::ActorKind kind) {
  msg::ActorAddress address;
  address.set_team(team);
  address.set_robot_id(robot_id);
  address.set_kind(kind);
  return address;
}

std::string team_name(msg::Team team) {
  switch (team) {
    case msg::BLUE: return "blue";
    case msg::YELLOW: return "yellow";
    default: return "neutral";
  }
}

std::string short_enum_name(const std::string& proto_name) {
  std::string name = proto_name.substr(proto_name.find('_') + 1);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

std::string kind_name(msg::ActorKind kind) { return short_enum_name(msg::ActorKind_Name(kind)); }

std::string address_key(const msg::ActorAddress& address) {
  if (address.team() == msg::TEAM_UNSPECIFIED) return kind_name(address.kind());
  std::string robot = address.robot_id() == 0 ? "team" : std::to_string(address.robot_id());
  return team_name(address.team()) + "/" + robot + "/" + kind_name(address.kind());
}

}  // namespace robocaf::runtime
