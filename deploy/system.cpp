#include "deploy/system.hpp"

#include <chrono>
#include <stdexcept>

#include <caf/all.hpp>
#include <caf/io/middleman.hpp>

#include "actors/actor_setup.hpp"
#include "messages/telemetry.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/atoms.hpp"
#include "runtime/message_types.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::deploy {

SystemConfig::SystemConfig(bool network, unsigned worker_threads) {
  runtime::add_message_types(*this);
  if (network) load<caf::io::middleman>();
  if (worker_threads > 0) set("scheduler.max-threads", static_cast<size_t>(worker_threads));
  // CAF's own log and console output stay quiet; robocaf prints its own.
  set("logger.verbosity", caf::atom("quiet"));
}

void join(caf::actor_system& system, const caf::actor& directory, const msg::NodeIdentity& identity) {
  caf::scoped_actor self{system};
  std::string failure;
  self->request(directory, std::chrono::seconds(10), runtime::join_atom::value, identity)
      .receive([](caf::atom_value) {}, [&](caf::error& err) { failure = system.render(err); });
  if (!failure.empty()) throw std::runtime_error("the directory refused node '" + identity.name() + "': " + failure);
}

std::vector<caf::actor> spawn_team(caf::actor_system& system, const caf::actor& directory,
                                   const msg::MatchConfig& match, msg::Team team, bool team_actors,
                                   const std::vector<uint32_t>& robot_ids) {
  std::vector<caf::actor> managers;
  auto spawn_manager = [&](uint32_t robot_id) {
    actors::ActorSetup setup;
    setup.shell.address = runtime::make_address(team, robot_id, msg::ACTOR_MISSION_MANAGER);
    setup.shell.directory = directory;
    setup.match = match;
    managers.push_back(actors::spawn_actor(system, setup));
  };
  if (team_actors) spawn_manager(0);
  for (uint32_t id : robot_ids) spawn_manager(id);
  return managers;
}

std::pair<msg::Roster, std::vector<caf::actor>> registered_actors(caf::actor_system& system,
                                                                  const caf::actor& directory) {
  caf::scoped_actor self{system};
  std::pair<msg::Roster, std::vector<caf::actor>> result;
  self->request(directory, std::chrono::seconds(10), runtime::stats_atom::value)
      .receive([&](const msg::Roster& roster,
                   const std::vector<caf::actor>& handles) { result = {roster, handles}; },
               [](caf::error&) {});
  return result;
}

std::map<std::string, KindStats> stats_per_kind(caf::actor_system& system, const caf::actor& directory) {
  std::map<std::string, KindStats> totals;
  auto [roster, handles] = registered_actors(system, directory);
  caf::scoped_actor self{system};
  for (size_t i = 0; i < handles.size(); ++i) {
    const std::string kind = runtime::kind_name(roster.entries(static_cast<int>(i)).address().kind());
    self->request(handles[i], std::chrono::seconds(5), runtime::stats_atom::value)
        .receive(
            [&](const msg::Telemetry& telemetry) {
              auto& total = totals[kind];
              for (const auto& handler : telemetry.handlers()) {
                total.messages += handler.calls();
                total.total_us += handler.avg_us() * static_cast<double>(handler.calls());
                if (handler.max_us() > total.max_us) {
                  total.max_us = handler.max_us();
                  total.slowest_message = handler.message_type();
                }
              }
            },
            [](caf::error&) {});
  }
  return totals;
}

void stop_all(caf::actor_system& system, const caf::actor& directory) {
  auto [roster, handles] = registered_actors(system, directory);
  for (auto& handle : handles) caf::anon_send_exit(handle, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
}

}  // namespace robocaf::deploy
