#include "runtime/peers.hpp"

#include <algorithm>

namespace robocaf::runtime {

void Peers::update(const msg::Roster& roster, const std::vector<caf::actor>& handles) {
  if (roster.version() < version_) return;
  version_ = roster.version();
  by_key_.clear();
  const int n = std::min<int>(roster.entries_size(), static_cast<int>(handles.size()));
  for (int i = 0; i < n; ++i) {
    const auto& address = roster.entries(i).address();
    by_key_[address_key(address)] = Entry{address, handles[static_cast<size_t>(i)]};
  }
}

caf::actor Peers::find(msg::Team team, uint32_t robot_id, msg::ActorKind kind) const {
  auto it = by_key_.find(address_key(make_address(team, robot_id, kind)));
  return it == by_key_.end() ? caf::actor{} : it->second.handle;
}

std::vector<std::pair<uint32_t, caf::actor>> Peers::of_kind(msg::Team team, msg::ActorKind kind) const {
  std::vector<std::pair<uint32_t, caf::actor>> out;
  for (auto& [key, entry] : by_key_)
    if (entry.address.team() == team && entry.address.kind() == kind && entry.address.robot_id() != 0)
      out.emplace_back(entry.address.robot_id(), entry.handle);
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.first < b.first; });
  return out;
}

bool Peers::contains(const msg::ActorAddress& address) const {
  return by_key_.count(address_key(address)) > 0;
}

}  // namespace robocaf::runtime
