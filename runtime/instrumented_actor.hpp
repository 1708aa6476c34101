#pragma once
// Base class of every robocaf actor: counts messages and times handlers per
// message type (MI20's per-listener statistics), reports handlers that run over
// the watchdog threshold, and keeps an actor alive when a handler throws on bad
// input (the message is dropped and reported instead).

#include <string>

#include <caf/event_based_actor.hpp>

#include "runtime/handler_stats.hpp"

namespace robocaf::runtime {

class InstrumentedActor : public caf::event_based_actor {
 public:
  explicit InstrumentedActor(caf::actor_config& cfg);

  caf::invoke_message_result consume(caf::mailbox_element& x) override;

  /// Name used in statistics and watchdog reports, e.g. "blue/3/motor".
  void set_display_name(std::string name) { display_name_ = std::move(name); }
  const std::string& display_name() const { return display_name_; }

  const HandlerStats& handler_stats() const { return stats_; }

  /// Messages this actor could not handle because a handler threw.
  uint64_t rejected_messages() const { return rejected_; }

 private:
  std::string display_name_ = "actor";
  HandlerStats stats_;
  uint64_t rejected_ = 0;
};

/// The process-wide watchdog all instrumented actors report to.
Watchdog& process_watchdog();

}  // namespace robocaf::runtime
