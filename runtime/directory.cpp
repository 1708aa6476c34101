#include "runtime/directory.hpp"

#include <map>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "messages/runtime.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/atoms.hpp"
#include "runtime/instrumented_actor.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::runtime {

namespace {

struct Entry {
  msg::ActorAddress address;
  caf::actor handle;
  uint64_t incarnation = 0;
};

struct DirectoryState {
  uint32_t team_size = 0;
  std::map<caf::node_id, msg::NodeIdentity> identities;
  std::map<std::string, Entry> entries;   // by address key: canonical order
  std::map<std::string, uint64_t> incarnations;
  uint64_t version = 0;
  static inline const char* name = "directory";
};

using DirectoryActor = caf::stateful_actor<DirectoryState, InstrumentedActor>;

std::string check_admission(const DirectoryState& st, const msg::NodeIdentity* identity,
                            const msg::ActorAddress& address) {
  const std::string key = address_key(address);
  if (identity == nullptr) return key + ": the registering node has not joined";
  if (address.team() == msg::TEAM_UNSPECIFIED) {
    if (!identity->world()) return key + ": only the world node may host neutral actors";
    return {};
  }
  if (address.robot_id() > st.team_size)
    return key + ": robot " + std::to_string(address.robot_id()) + " is not in the roster (team size " +
           std::to_string(st.team_size) + ")";
  // A world node that names no team is the all-in-one node of a local match.
  if (identity->world() && identity->team() == msg::TEAM_UNSPECIFIED) return {};
  if (identity->team() != address.team())
    return key + ": node '" + identity->name() + "' belongs to team " + team_name(identity->team());
  if (address.robot_id() == 0) {
    if (!identity->team_actors()) return key + ": node '" + identity->name() + "' does not host team actors";
    return {};
  }
  for (auto id : identity->robot_ids())
    if (id == address.robot_id()) return {};
  return key + ": node '" + identity->name() + "' does not host robot " + std::to_string(address.robot_id());
}

std::pair<msg::Roster, std::vector<caf::actor>> roster_for(const DirectoryState& st,
                                                           const msg::ActorAddress& viewer) {
  msg::Roster roster;
  std::vector<caf::actor> handles;
  roster.set_version(st.version);
  for (auto& [key, entry] : st.entries) {
    bool visible = viewer.team() == msg::TEAM_UNSPECIFIED || entry.address.team() == msg::TEAM_UNSPECIFIED ||
                   entry.address.team() == viewer.team();
    if (!visible) continue;
    auto* reg = roster.add_entries();
    *reg->mutable_address() = entry.address;
    reg->set_incarnation(entry.incarnation);
    handles.push_back(entry.handle);
  }
  return {std::move(roster), std::move(handles)};
}

void publish(DirectoryActor* self, const std::string& except_key = {}) {
  auto& st = self->state;
  ++st.version;
  for (auto& [key, entry] : st.entries) {
    if (key == except_key) continue;
    auto [roster, handles] = roster_for(st, entry.address);
    self->send(entry.handle, std::move(roster), std::move(handles));
  }
}

caf::behavior directory(DirectoryActor* self, uint32_t team_size) {
  self->state.team_size = team_size;
  self->set_display_name("directory");
  self->set_down_handler([self](const caf::down_msg& down) {
    auto& entries = self->state.entries;
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (it->second.handle.address() == down.source) {
        entries.erase(it);
        publish(self);
        return;
      }
    }
  });
  return {
      [self](join_atom, const msg::NodeIdentity& identity) -> caf::result<caf::atom_value> {
        auto sender = self->current_sender();
        if (!sender) return caf::make_error(caf::sec::invalid_argument, "anonymous join");
        if (!identity.world() && identity.team() == msg::TEAM_UNSPECIFIED)
          return caf::make_error(caf::sec::invalid_argument, "node '" + identity.name() + "' names no team");
        for (uint32_t id : identity.robot_ids())
          if (id == 0 || id > self->state.team_size)
            return caf::make_error(caf::sec::invalid_argument, "node '" + identity.name() + "' claims robot " +
                                                                   std::to_string(id) + ", not in the roster (team size " +
                                                                   std::to_string(self->state.team_size) + ")");
        self->state.identities[sender->node()] = identity;
        return caf::atom("ok");
      },
      [self](register_atom, const msg::ActorAddress& address,
             const caf::actor& handle) -> caf::result<msg::Roster, std::vector<caf::actor>> {
        auto& st = self->state;
        if (!handle) return caf::make_error(caf::sec::invalid_argument, "register without a handle");
        auto identity = st.identities.find(handle->node());
        std::string refusal =
            check_admission(st, identity == st.identities.end() ? nullptr : &identity->second, address);
        if (!refusal.empty()) return caf::make_error(caf::sec::unexpected_message, "refused: " + refusal);
        const std::string key = address_key(address);
        // A newer incarnation replaces an older one even if that one still
        // lives: the supervisor restarts hung actors without waiting for them.
        Entry entry{address, handle, ++st.incarnations[key]};
        st.entries[key] = entry;
        self->monitor(handle);
        publish(self, key);
        auto [roster, handles] = roster_for(st, address);
        return {std::move(roster), std::move(handles)};
      },
      [self](stats_atom) {
        // Everyone, for tools that collect statistics at the end of a match.
        auto [roster, handles] =
            roster_for(self->state, runtime::make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_UNSPECIFIED));
        return caf::make_message(std::move(roster), std::move(handles));
      },
  };
}

}  // namespace

caf::actor spawn_directory(caf::actor_system& system, uint32_t team_size) {
  return system.spawn(directory, team_size);
}

}  // namespace robocaf::runtime
