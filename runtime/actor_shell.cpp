#include "runtime/actor_shell.hpp"

#include <chrono>
#include <thread>

#include <caf/all.hpp>

#include "messages/runtime.pb.h"
#include "messages/telemetry.pb.h"
#include "runtime/atoms.hpp"

namespace robocaf::runtime {

void init_shell(InstrumentedActor* self, ShellContext& ctx, const ShellSetup& setup) {
  ctx.address = setup.address;
  ctx.directory = setup.directory;
  ctx.supervisor = setup.supervisor;
  self->set_display_name(address_key(setup.address));
}

void join_directory(InstrumentedActor* self, ShellContext& ctx, std::function<void()> on_ready) {
  auto me = caf::actor_cast<caf::actor>(self);
  self->request(ctx.directory, std::chrono::seconds(30), register_atom::value, ctx.address, me)
      .then(
          [self, &ctx, on_ready](const msg::Roster& roster, const std::vector<caf::actor>& handles) {
            ctx.peers.update(roster, handles);
            if (on_ready) on_ready();
            if (ctx.supervisor) {
              msg::Ready ready;
              *ready.mutable_address() = ctx.address;
              self->send(ctx.supervisor, ready);
            }
          },
          [self](caf::error& err) {
            // Without the directory an actor cannot find anyone: give up and let
            // the supervisor restart us.
            self->quit(std::move(err));
          });
}

caf::message_handler shell_handlers(InstrumentedActor* self, ShellContext& ctx) {
  return {
      [&ctx](const msg::Roster& roster, const std::vector<caf::actor>& handles) {
        ctx.peers.update(roster, handles);
        if (ctx.on_roster_change) ctx.on_roster_change();
      },
      [&ctx](const msg::Heartbeat& beat) {
        msg::HeartbeatAck ack;
        ack.set_sequence(beat.sequence());
        *ack.mutable_address() = ctx.address;
        return ack;
      },
      [self](stats_atom) {
        msg::Telemetry telemetry;
        for (auto& entry : self->handler_stats().snapshot(self->display_name()))
          *telemetry.add_handlers() = entry;
        return telemetry;
      },
      [self](const msg::FaultInjection& fault) {
        if (fault.fault() == msg::FaultInjection::FAULT_CRASH) {
          self->quit(caf::make_error(caf::sec::runtime_error, "fault injection: crash"));
        } else if (fault.fault() == msg::FaultInjection::FAULT_HANG) {
          // Deliberately blocks a worker thread, as a real hung handler would.
          std::this_thread::sleep_for(std::chrono::duration<double>(fault.hang_seconds()));
        }
      },
  };
}

}  // namespace robocaf::runtime
