// The base of every robocaf actor: statistics per message type, and a handler
// that throws on bad input drops the message instead of killing the actor.
#include "runtime/instrumented_actor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include <caf/all.hpp>

#include "messages/health.pb.h"
#include "messages/telemetry.pb.h"
#include "runtime/atoms.hpp"
#include "runtime/message_types.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::runtime {
namespace {

struct Config : caf::actor_system_config {
  Config() { runtime::add_message_types(*this); }
};

struct ProbeState {
  static inline const char* name = "probe";
};
using Probe = caf::stateful_actor<ProbeState, InstrumentedActor>;

// Answers a heartbeat with its sequence number; rejects sequence 0 by throwing.
caf::behavior probe(Probe* self) {
  self->set_display_name("test/probe");
  return {
      [](const msg::Heartbeat& beat) -> uint64_t {
        if (beat.sequence() == 0) throw std::invalid_argument("sequence 0 is not a heartbeat");
        return beat.sequence();
      },
      [self](stats_atom) {
        msg::Telemetry telemetry;
        for (auto& entry : self->handler_stats().snapshot(self->display_name())) *telemetry.add_handlers() = entry;
        return telemetry;
      },
  };
}

TEST(InstrumentedActor, SurvivesAThrowingHandlerAndCountsEveryMessage) {
  Config config;
  caf::actor_system system{config};
  caf::scoped_actor self{system};
  auto actor = system.spawn(probe);
  msg::Heartbeat bad;
  self->send(actor, bad);
  msg::Heartbeat good;
  good.set_sequence(9);
  uint64_t answer = 0;
  self->request(actor, std::chrono::seconds(5), good).receive([&](uint64_t x) { answer = x; }, [](caf::error&) {});
  EXPECT_EQ(answer, 9u) << "the actor died on the bad message";

  msg::Telemetry telemetry;
  self->request(actor, std::chrono::seconds(5), stats_atom::value)
      .receive([&](const msg::Telemetry& t) { telemetry = t; }, [](caf::error&) {});
  uint64_t heartbeats = 0;
  for (auto& handler : telemetry.handlers()) {
    EXPECT_EQ(handler.actor(), "test/probe");
    if (handler.message_type() == "Heartbeat") heartbeats = handler.calls();
    EXPECT_LE(handler.min_us(), handler.max_us());
  }
  EXPECT_EQ(heartbeats, 2u);
  caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
}

}  // namespace
}  // namespace robocaf::runtime
