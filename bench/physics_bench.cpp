// Physics alone, no actors: how much faster than real time a 1 ms step runs.
// Baseline in the same run: a world with the ball only, so the table shows what
// robots and their collisions cost on top of the fixed per-step work.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "messages/commands.pb.h"
#include "runtime/config_loader.hpp"
#include "sim/physics.hpp"

namespace {

using robocaf::msg::MatchConfig;
using robocaf::sim::Physics;

std::map<std::string, double> g_ns_per_step;  // measured inside each benchmark, for the table

// Robots circle on their own tracks (open play) or all drive at the ball (a
// scrum, the worst case for collision handling).
void run(benchmark::State& state, int robots_per_team, bool scrum, const std::string& name) {
  MatchConfig match = robocaf::runtime::default_match_config();
  Physics world(match.league(), match.sim());
  const robocaf::msg::Team teams[] = {robocaf::msg::BLUE, robocaf::msg::YELLOW};
  for (int t = 0; t < 2; ++t)
    for (int i = 1; i <= robots_per_team; ++i) {
      robocaf::msg::Pose2 pose;
      pose.set_x((t == 0 ? -0.2 : 0.2) * i);
      pose.set_y(0.15 * (i - 3));
      pose.set_theta(t == 0 ? 0.0 : M_PI);
      world.add_robot(teams[t], static_cast<uint32_t>(i), pose);
    }
  world.place_ball({0.0, 0.0}, {0.8, 0.5});
  robocaf::msg::RobotCommand command;
  const double step = match.sim().physics_step();
  uint64_t steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (steps % 20 == 0) {  // a new command every control period, as in a match
      for (int t = 0; t < 2; ++t)
        for (int i = 1; i <= robots_per_team; ++i) {
          command.mutable_wheels()->set_left(scrum ? 1.0 : 0.6 + 0.05 * i);
          command.mutable_wheels()->set_right(scrum ? 1.0 : 0.9);
          world.set_command(teams[t], static_cast<uint32_t>(i), command, world.time());
        }
    }
    world.step(step);
    ++steps;
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  g_ns_per_step[name] = ns / static_cast<double>(std::max<uint64_t>(steps, 1));
  state.counters["real_time_factor"] =
      benchmark::Counter(step * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void ball_only(benchmark::State& state) { run(state, 0, false, "ball_only"); }
void open_play_5v5(benchmark::State& state) { run(state, 5, false, "open_play_5v5"); }
void scrum_5v5(benchmark::State& state) { run(state, 5, true, "scrum_5v5"); }

BENCHMARK(ball_only);
BENCHMARK(open_play_5v5);
BENCHMARK(scrum_5v5);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  const double base = g_ns_per_step["ball_only"];
  std::printf("\n%-16s %12s %14s %14s\n", "world", "us per step", "x real time", "vs ball only");
  for (const char* name : {"ball_only", "open_play_5v5", "scrum_5v5"}) {
    const double ns = g_ns_per_step[name];
    std::printf("%-16s %12.2f %14.0f %14.1f\n", name, ns / 1000.0, ns > 0 ? 1e6 / ns : 0.0, base > 0 ? ns / base : 0.0);
  }
  return 0;
}
