#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/launcher.hpp"
#include "messages/config.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "runtime/match_summary.hpp"

namespace robocaf::deploy {

namespace fs = std::filesystem;

int launch_command(const std::vector<std::string>& args, const std::string& self_executable) {
  Arguments arguments{args, {"half-duration", "summary-json", "log", "log-dir"}, {}, 1};
  if (arguments.positional().empty())
    throw UsageError("usage: robocaf launch FILE [--half-duration SECONDS] [--summary-json FILE] [--log FILE]");
  const std::string deploy_path = arguments.positional()[0];
  msg::DeployConfig deploy;
  runtime::load_text_config(deploy_path, deploy);
  if (deploy.processes().empty()) throw runtime::ConfigError(deploy_path + ": no processes");
  auto half = arguments.number("half-duration", 1.0, 24 * 3600.0);
  const std::string log_path = fs::absolute(arguments.value("log").value_or("launch.rclog")).string();
  const std::string log_dir = fs::absolute(arguments.value("log-dir").value_or("launch-logs")).string();
  const std::string summary_path =
      arguments.value("summary-json") ? fs::absolute(*arguments.value("summary-json")).string() : std::string{};
  fs::create_directories(log_dir);

  Launcher launcher{log_dir};
  std::string world_process;
  const fs::path base = fs::path(deploy_path).parent_path();
  for (const auto& process : deploy.processes()) {
    const std::string node_path = (base / process.node_config()).string();
    msg::NodeConfig node;
    runtime::load_text_config(node_path, node);  // fail here, with file:line:col, not in a child
    Launcher::Process spec{process.name(), {self_executable, "node", "--config", node_path}, process.respawn()};
    if (half) {
      spec.argv.push_back("--half-duration");
      spec.argv.push_back(std::to_string(*half));
    }
    if (node.host_world()) {
      if (!world_process.empty()) throw runtime::ConfigError(deploy_path + ": more than one process hosts the world");
      world_process = process.name();
      spec.argv.insert(spec.argv.end(), {"--log", log_path});
      if (!summary_path.empty()) spec.argv.insert(spec.argv.end(), {"--summary-json", summary_path});
    }
    launcher.add(std::move(spec));
  }
  if (world_process.empty()) throw runtime::ConfigError(deploy_path + ": no process hosts the world");

  launcher.start();
  std::cout << "robocaf launch: " << deploy.processes_size() << " processes started, logs in " << log_dir
            << std::endl;
  std::map<std::string, int> seen_restarts;
  std::optional<int> status;
  // Progress: the world node's own lines (kick-offs, goals, halves), as they come.
  std::ifstream world_log;
  auto show_world_progress = [&] {
    if (!world_log.is_open()) world_log.open(launcher.log_path(world_process));
    std::string line;
    while (world_log.is_open() && std::getline(world_log, line)) {
      if (!line.empty() && line[0] == '[' && line.rfind("[launcher]", 0) != 0) std::cout << line << std::endl;
    }
    world_log.clear();  // at EOF: keep reading as the file grows
  };
  while (!(status = launcher.wait_for(world_process, std::chrono::seconds(1)))) {
    show_world_progress();
    for (const auto& process : deploy.processes()) {
      int restarts = launcher.restarts(process.name());
      if (restarts > seen_restarts[process.name()]) {
        std::cout << "restarted " << process.name() << " (pid " << launcher.pid_of(process.name()) << ")"
                  << std::endl;
        seen_restarts[process.name()] = restarts;
      }
    }
  }
  show_world_progress();
  launcher.stop_all();
  if (*status != 0) {
    std::cerr << "robocaf launch: the world process ended with status " << *status << "; see "
              << launcher.log_path(world_process) << '\n';
    return 1;
  }
  runtime::MatchSummary summary = runtime::summarize_log(log_path);
  std::cout << runtime::format_result_table(summary);
  int total_restarts = 0;
  for (auto& [name, count] : seen_restarts) total_restarts += count;
  std::cout << "process restarts: " << total_restarts << "\n";
  return summary.finished ? 0 : 1;
}

}  // namespace robocaf::deploy
