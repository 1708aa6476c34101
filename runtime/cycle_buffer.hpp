#pragma once
// Inputs from other actors, keyed by sender, released by control cycle.
//
// Why: in virtual time a local match must be reproducible whatever the number of
// CAF worker threads. A message a peer sends in cycle k may arrive before or after
// our own cycle-k trigger, but everything sent in cycle k-1 has arrived before the
// world opens cycle k (the world waits for every participant, and in-process sends
// are enqueued synchronously). So a consumer that, in cycle k, reads only messages
// of cycles < k sees the same inputs in every run.

#include <cstdint>
#include <map>
#include <optional>

namespace robocaf::runtime {

template <class Key, class Message>
class CycleBuffer {
 public:
  /// Stores `message`, sent by `sender` in cycle `cycle`. Older messages of the
  /// same sender that a newer settled one supersedes are dropped.
  void put(const Key& sender, uint64_t cycle, Message message) {
    auto& slots = by_sender_[sender];
    slots[cycle] = std::move(message);
    // Keep the newest message of an older cycle plus anything newer: at most
    // a few entries per sender, however long the match.
    while (slots.size() > 3) slots.erase(slots.begin());
  }

  /// The newest message of `sender` sent in a cycle before `cycle`.
  std::optional<Message> latest_before(const Key& sender, uint64_t cycle) const {
    auto it = by_sender_.find(sender);
    if (it == by_sender_.end()) return std::nullopt;
    auto& slots = it->second;
    auto pos = slots.lower_bound(cycle);
    if (pos == slots.begin()) return std::nullopt;
    return std::prev(pos)->second;
  }

  /// For every sender, in key order, the newest message before `cycle`.
  template <class F>
  void for_each_before(uint64_t cycle, F&& f) const {
    for (auto& [sender, slots] : by_sender_) {
      auto pos = slots.lower_bound(cycle);
      if (pos != slots.begin()) f(sender, std::prev(pos)->first, std::prev(pos)->second);
    }
  }

  void forget(const Key& sender) { by_sender_.erase(sender); }

 private:
  std::map<Key, std::map<uint64_t, Message>> by_sender_;
};

}  // namespace robocaf::runtime
