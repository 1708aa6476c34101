// `robocaf pose-error LOG...`: how far each robot's belief of its own pose
// was from the truth over logged matches (sim::PoseErrorMeter), a row per
// robot, and with --list every stretch it believed itself far off. A robot
// moved by the referee because it thought it stood elsewhere shows here
// without a debug build.

#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/statistics.hpp"
#include "sim/pose_error.hpp"

namespace robocaf::deploy {

namespace {

const char* kPoseErrorUsage =
    "usage: robocaf pose-error LOG... [--team blue|yellow] [--over M] [--list]\n"
    "  each robot's belief of its own pose (the world estimate its skills act on) against the\n"
    "  truth, over the game logs: median, p95, p99 and largest error, and the time it was more\n"
    "  than M metres off (default 0.5), with the standard deviation its world model claimed then;\n"
    "  and the pose perception gave it (localiser or overhead camera), p99 and largest error\n"
    "  (--list: one line per stretch more than M off, joined across gaps under a second)";

// Stretches over the threshold closer than this are one.
constexpr double kEpisodeGap = 1.0;

struct Robot {
  std::vector<double> errors;
  std::vector<double> perceived;  // perception's pose against the truth, where it gave one
  std::vector<double> claimed_sd_while_over;
  double seconds_over = 0.0;
  unsigned episodes = 0;
};

void print_row(const char* name, const Robot& r) {
  using runtime::quantile;
  std::printf("%-6s %9zu %9.3f %7.3f %7.3f %7.2f %9.1f %9u %12.3f %15.3f %14.2f\n", name, r.errors.size(),
              quantile(r.errors, 0.5), quantile(r.errors, 0.95), quantile(r.errors, 0.99), quantile(r.errors, 1.0),
              r.seconds_over, r.episodes, runtime::median(r.claimed_sd_while_over), quantile(r.perceived, 0.99),
              quantile(r.perceived, 1.0));
}

}  // namespace

int pose_error_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"team", "over"}, {"help", "list"}, 100000};
  if (arguments.has("help")) {
    std::cout << kPoseErrorUsage << '\n';
    return 0;
  }
  if (arguments.positional().empty()) throw UsageError(std::string("give at least one game log\n") + kPoseErrorUsage);
  const std::string team_name = team_option(arguments);
  const msg::Team team = team_name == "blue" ? msg::BLUE : msg::YELLOW;
  const double over = arguments.number("over", 0.0, 1000.0).value_or(0.5);

  std::map<uint32_t, Robot> robots;
  Robot all;
  size_t with_beliefs = 0;
  for (const std::string& path : arguments.positional()) {
    const sim::PoseErrorLog log = sim::measure_pose_error(path);
    if (log.beliefs == 0) {
      std::cerr << "robocaf pose-error: " << path << " holds no beliefs (recorded by a build before they were logged)\n";
      continue;
    }
    ++with_beliefs;
    for (const sim::PoseErrorSample& sample : log.samples) {
      if (sample.team != team) continue;
      for (Robot* r : {&robots[sample.robot_id], &all}) {
        r->errors.push_back(sample.error);
        if (sample.perceived_error >= 0.0) r->perceived.push_back(sample.perceived_error);
        if (sample.error > over) {
          r->seconds_over += log.sample_period;
          r->claimed_sd_while_over.push_back(sample.position_sd);
        }
      }
    }
    for (const sim::PoseErrorEpisode& e : sim::pose_error_episodes(log.samples, over, kEpisodeGap)) {
      if (e.team != team) continue;
      ++robots[e.robot_id].episodes;
      ++all.episodes;
      if (!arguments.has("list")) continue;
      char perceived[64] = "perception gave no pose";
      if (e.perceived_error_at_max >= 0.0)
        std::snprintf(perceived, sizeof perceived, "perception's pose %.2f m off", e.perceived_error_at_max);
      std::printf("%s  robot %u  %8.2f-%8.2f s  max %5.2f m at %8.2f s  (world model sd %.3f m, localiser sd %.3f m, %s)\n",
                  path.c_str(), e.robot_id, e.begin, e.end, e.max_error, e.t_max, e.position_sd_at_max,
                  e.localisation_sd_at_max, perceived);
    }
  }
  if (with_beliefs == 0) {
    std::cerr << "robocaf pose-error: none of the game logs holds beliefs\n";
    return 1;
  }
  std::printf("%s's robots in %zu game log%s: belief of its own pose against the truth, more than %.2f m off\n",
              team_name.c_str(), with_beliefs, with_beliefs == 1 ? "" : "s", over);
  std::printf("%-6s %9s %9s %7s %7s %7s %9s %9s %12s %15s %14s\n", "robot", "samples", "median m", "p95 m", "p99 m",
              "max m", "s over", "episodes", "claimed sd m", "perceived p99 m", "perceived max");
  for (const auto& [id, r] : robots) print_row(std::to_string(id).c_str(), r);
  print_row("all", all);
  return 0;
}

}  // namespace robocaf::deploy
