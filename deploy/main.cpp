// robocaf: one executable, one subcommand per job.

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/config_loader.hpp"

namespace {

const char* kUsage =
    "usage: robocaf <command> [options]\n"
    "commands:\n"
    "  match   play a whole match in this process (virtual time)\n"
    "  node    run one node of a distributed match (--config FILE)\n"
    "  launch  start and supervise the node processes of a deploy config\n"
    "  render  draw a match from its game log (PNG frames or a video)\n"
    "  scenario  run a named, scripted situation over seeds (--list shows them)\n"
    "  covariance  measurement covariance of a still object from a game log\n"
    "  eval-perception  image perception and world knowledge against ground truth\n"
    "  calibrate  estimate the overhead camera's calibration from an image of the field\n"
    "  perceive  detect ball and robots in an image folder, a video or a live camera's frames\n"
    "  tournament  many matches against a baseline opponent (chaser, wall), with a result table\n"
    "  restarts  how long a team took to stand legally at each restart of game logs\n"
    "  pose-error  each robot's belief of its own pose against the truth in game logs\n"
    "  trace   one robot's course through a stretch of a game log, the referee's events and who was near\n"
    "  kickoff-drill  the other team's kick-off after each goal in game logs, played again with this build\n"
    "  restart-drill  each restart in game logs at which a team kept its distance, played again likewise\n";

std::string self_executable(const char* argv0) {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string(argv0) : path.string();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace robocaf;
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "match") return deploy::match_command(args);
    if (command == "node") return deploy::node_command(args);
    if (command == "tournament") return deploy::tournament_command(args, self_executable(argv[0]));
    if (command == "launch") return deploy::launch_command(args, self_executable(argv[0]));
    if (command == "render") return deploy::render_command(args);
    if (command == "scenario") return deploy::scenario_command(args);
    if (command == "covariance") return deploy::covariance_command(args);
    if (command == "eval-perception") return deploy::eval_perception_command(args);
    if (command == "calibrate") return deploy::calibrate_command(args);
    if (command == "perceive") return deploy::perceive_command(args);
    if (command == "restarts") return deploy::restarts_command(args);
    if (command == "pose-error") return deploy::pose_error_command(args);
    if (command == "trace") return deploy::trace_command(args);
    if (command == "kickoff-drill") return deploy::kickoff_drill_command(args);
    if (command == "restart-drill") return deploy::restart_drill_command(args);
    if (command == "--help" || command == "help") {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "robocaf: unknown command '" << command << "'\n" << kUsage;
    return 2;
  } catch (const deploy::UsageError& e) {
    std::cerr << "robocaf " << command << ": " << e.what() << '\n';
    return 2;
  } catch (const runtime::ConfigError& e) {
    std::cerr << "robocaf " << command << ": " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "robocaf " << command << ": " << e.what() << '\n';
    return 1;
  }
}
