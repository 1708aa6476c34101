#pragma once
// An actor's view of the directory: whom it may talk to, by address.

#include <map>
#include <string>
#include <vector>

#include <caf/actor.hpp>

#include "messages/runtime.pb.h"
#include "runtime/actor_address.hpp"

namespace robocaf::runtime {

class Peers {
 public:
  /// Applies a roster pushed by the directory; older versions are ignored
  /// because pushes and request replies can overtake each other.
  void update(const msg::Roster& roster, const std::vector<caf::actor>& handles);

  /// The actor at an address, or an invalid handle if none is registered.
  caf::actor find(msg::Team team, uint32_t robot_id, msg::ActorKind kind) const;

  /// Every registered actor of a kind in a team (robot actors only), by robot id.
  std::vector<std::pair<uint32_t, caf::actor>> of_kind(msg::Team team, msg::ActorKind kind) const;

  bool contains(const msg::ActorAddress& address) const;
  uint64_t version() const { return version_; }
  size_t size() const { return by_key_.size(); }

 private:
  struct Entry {
    msg::ActorAddress address;
    caf::actor handle;
  };
  std::map<std::string, Entry> by_key_;
  uint64_t version_ = 0;
};

}  // namespace robocaf::runtime
