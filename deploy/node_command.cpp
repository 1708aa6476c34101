#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/match_report.hpp"
#include "deploy/system.hpp"
#include "messages/game.pb.h"
#include "runtime/atoms.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/directory.hpp"
#include "runtime/match_summary.hpp"
#include "runtime/proto_inspect.hpp"
#include "sim/world_actor.hpp"

namespace robocaf::deploy {

namespace {

// A node that starts before the world node keeps knocking.
caf::actor connect_directory(caf::actor_system& system, const std::string& host, uint16_t port) {
  std::string last_error;
  for (int attempt = 0; attempt < 300; ++attempt) {
    auto directory = system.middleman().remote_actor(host, port);
    if (directory) return *directory;
    last_error = system.render(directory.error());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  throw std::runtime_error("cannot reach the directory at " + host + ":" + std::to_string(port) + ": " + last_error);
}

int run_world_node(caf::actor_system& system, const msg::NodeConfig& node, const msg::MatchConfig& match,
                   const std::string& log_path, const std::string& summary_path) {
  auto directory = runtime::spawn_directory(system, match.league().team_size());
  auto port = system.middleman().publish(directory, static_cast<uint16_t>(node.directory_port()), nullptr, true);
  if (!port) throw std::runtime_error("cannot publish the directory on port " + std::to_string(node.directory_port()) +
                                      ": " + system.render(port.error()));
  msg::NodeIdentity identity;
  identity.set_name(node.name());
  identity.set_world(true);
  join(system, directory, identity);
  sim::WorldOptions options;
  options.match = match;
  options.realtime = true;
  options.log_path = log_path;
  options.startup_timeout_seconds = 30;
  options.progress = [](const std::string& line) { std::cout << line << std::endl; };
  const auto wall_start = std::chrono::steady_clock::now();
  auto world = sim::spawn_world(system, directory, options);
  std::cout << "world node: directory on port " << *port << ", waiting for the robots" << std::endl;
  bool ended = false;
  {
    caf::scoped_actor self{system};
    self->request(world, caf::infinite, runtime::await_atom::value)
        .receive([&](const msg::GameState&) { ended = true; },
                 [&](caf::error& err) { std::cerr << "world: " << system.render(err) << '\n'; });
  }
  const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  stop_all(system, directory);
  if (!ended) return 1;
  MatchReport report = make_report(log_path, wall_seconds);
  std::cout << runtime::format_result_table(report.summary) << std::flush;
  if (!summary_path.empty()) write_summary_json(summary_path, report);
  return 0;
}

int run_member_node(caf::actor_system& system, const msg::NodeConfig& node, const msg::MatchConfig& match) {
  auto directory = connect_directory(system, node.directory_host(), static_cast<uint16_t>(node.directory_port()));
  msg::NodeIdentity identity;
  identity.set_name(node.name());
  identity.set_team(node.team());
  identity.set_team_actors(node.host_team_actors());
  for (uint32_t id : node.robot_ids()) identity.add_robot_ids(id);
  join(system, directory, identity);
  std::vector<uint32_t> ids(node.robot_ids().begin(), node.robot_ids().end());
  auto managers = spawn_team(system, directory, match, node.team(), node.host_team_actors(), ids);
  std::cout << "node " << node.name() << ": joined" << std::endl;
  // The node lives as long as the world node: when the directory goes away the
  // match is over (or lost), and this node ends too.
  caf::scoped_actor self{system};
  self->monitor(directory);
  self->receive([](const caf::down_msg&) {});
  for (auto& manager : managers) caf::anon_send_exit(manager, caf::exit_reason::user_shutdown);
  return 0;
}

}  // namespace

int node_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"config", "half-duration", "summary-json", "log"}, {}, 0};
  auto config_path = arguments.value("config");
  if (!config_path) throw UsageError("robocaf node needs --config FILE");
  msg::NodeConfig node;
  runtime::load_text_config(*config_path, node);
  msg::MatchConfig match;
  if (node.match_config().empty()) {
    match = runtime::default_match_config();
  } else {
    auto path = std::filesystem::path(*config_path).parent_path() / node.match_config();
    match = runtime::load_match_config(path.string());
  }
  if (node.half_duration() > 0) match.set_half_duration(node.half_duration());
  if (auto half = arguments.number("half-duration", 1.0, 24 * 3600.0)) match.set_half_duration(*half);
  if (node.directory_port() == 0 || node.directory_port() > 65535)
    throw runtime::ConfigError(*config_path + ": directory_port must be between 1 and 65535");
  if (!node.host_world() && node.team() == msg::TEAM_UNSPECIFIED)
    throw runtime::ConfigError(*config_path + ": a node without the world must name its team");

  SystemConfig config{true, node.worker_threads()};
  caf::actor_system system{config};
  if (node.host_world()) {
    std::string log_path = arguments.value("log").value_or(node.log().empty() ? "distributed.rclog" : node.log());
    std::string summary_path = arguments.value("summary-json").value_or(node.summary_json());
    return run_world_node(system, node, match, log_path, summary_path);
  }
  return run_member_node(system, node, match);
}

}  // namespace robocaf::deploy
