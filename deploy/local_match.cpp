#include "deploy/local_match.hpp"

#include <caf/all.hpp>

#include "messages/game.pb.h"
#include "runtime/atoms.hpp"
#include "runtime/directory.hpp"
#include "runtime/proto_inspect.hpp"
#include "sim/world_actor.hpp"

namespace robocaf::deploy {

LocalMatch::LocalMatch(const LocalMatchOptions& options)
    : config_(false, options.worker_threads), system_(config_) {
  const msg::MatchConfig& match = options.match;
  directory_ = runtime::spawn_directory(system_, match.league().team_size());
  msg::NodeIdentity identity;
  identity.set_name("local");
  identity.set_world(true);  // the all-in-one node may host every actor
  join(system_, directory_, identity);
  sim::WorldOptions world;
  world.match = match;
  world.realtime = options.realtime;
  world.log_path = options.log_path;
  world.progress = options.progress;
  world.scenario = options.scenario;
  world.start_from = options.start_from;
  world.opening_restart = options.opening_restart;
  world.lead_in = options.lead_in;
  world.stop_at_first_start = options.stop_at_first_start;
  world_ = sim::spawn_world(system_, directory_, world);
  if (options.scenario) {
    for (auto team : {msg::BLUE, msg::YELLOW}) {
      std::vector<uint32_t> ids;
      for (const auto& robot : options.scenario->robots)
        if (robot.team == team) ids.push_back(robot.id);
      if (!ids.empty()) spawn_team(system_, directory_, match, team, false, ids);
    }
    return;
  }
  std::vector<uint32_t> ids;
  for (uint32_t id = 1; id <= match.league().team_size(); ++id) ids.push_back(id);
  for (auto team : {msg::BLUE, msg::YELLOW}) spawn_team(system_, directory_, match, team, true, ids);
}

LocalMatch::~LocalMatch() { stop_all(system_, directory_); }

std::string LocalMatch::wait() {
  std::string failure;
  caf::scoped_actor self{system_};
  self->request(world_, caf::infinite, runtime::await_atom::value)
      .receive([](const msg::GameState&) {}, [&](caf::error& err) { failure = system_.render(err); });
  return failure;
}

msg::ScenarioResult LocalMatch::wait_scenario() {
  std::string failure;
  msg::ScenarioResult result;
  caf::scoped_actor self{system_};
  self->request(world_, caf::infinite, runtime::await_atom::value)
      .receive([&](const msg::ScenarioResult& r) { result = r; },
               [&](caf::error& err) { failure = system_.render(err); });
  if (!failure.empty()) throw std::runtime_error("scenario failed to run: " + failure);
  return result;
}

}  // namespace robocaf::deploy
