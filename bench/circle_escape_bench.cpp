// The way out of a restart's circle (escape_circle), asked every cycle by a
// placing robot inside the distance, per league preset and scene. Baseline
// in the same run: one ERRT plan (PathPlanner, the skills' own parameters)
// from the robot to the exit found, round the same robots: what the same
// cycle pays next anyway.
// - scrum: the robot at the ball among four opponents and three teammates
//   scattered within five radii of it (the way out is short and open);
// - ring: the robot halfway out, the other team and two of ours shoulder to
//   shoulder round the circle just past the distance but for a gap on the
//   far side (the way crosses the circle: the search's worst case).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "actors/player_skills/circle_escape.hpp"
#include "actors/player_skills/path_planner.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/statistics.hpp"

namespace {

using robocaf::actors::CircleObstacle;
using robocaf::actors::Escape;
using robocaf::actors::EscapeScene;
using robocaf::actors::PathPlanner;
using robocaf::actors::PlannerParams;
using robocaf::runtime::quantile;
using V = Eigen::Vector2d;

struct Row {
  std::vector<double> escape_us, plan_us;
  double length = 0.0;
  bool found = false;
};
std::map<std::string, Row> g_rows;

EscapeScene scene_for(const std::string& preset, const std::string& kind) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const double r = league.robot().radius(), keep = league.rules().restart_distance();
  EscapeScene scene;
  scene.centre = V(0.0, 0.0);
  // As SkillController::leave_circle asks.
  scene.exit_radius = keep + 0.5 * r + 0.25 * r;
  scene.bearing_weight = 0.1 * scene.exit_radius;
  scene.inward_weight = 4.0;
  scene.cell = std::max(0.25 * r, scene.exit_radius / 60.0);
  scene.space = robocaf::actors::field_free_space(league.field().length(), league.field().width(), r,
                                                  league.field().goal_width(), league.field().goal_depth());
  const double gap = 2.0 * r + 0.01;
  if (kind == "scrum") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> around(-5.0 * r, 5.0 * r);
    scene.start = V(2.0 * r, 0.0);
    for (int tries = 0; scene.keep_off.size() < 7 && tries < 100000; ++tries) {
      const V q(around(rng), around(rng));
      const bool apart = (q - scene.start).norm() > 2.0 * r &&
                         std::all_of(scene.keep_off.begin(), scene.keep_off.end(),
                                     [&](const CircleObstacle& o) { return (q - o.centre).norm() > 2.0 * r; });
      if (apart && q.norm() > 2.0 * r) scene.keep_off.push_back({q, gap});
    }
  } else {
    scene.start = V(0.5 * keep, 0.0);
    const double ring = keep + r;
    const int n = static_cast<int>(std::floor(2.0 * M_PI * ring / (2.0 * r + 0.02)));
    for (int k = 0; k < n; ++k) {
      const double a = 2.0 * M_PI * k / n;
      if (std::abs(std::remainder(a - M_PI, 2.0 * M_PI)) < 2.5 * r / ring) continue;
      scene.keep_off.push_back({ring * V(std::cos(a), std::sin(a)), gap});
    }
  }
  scene.keep_off.push_back({scene.centre, r + league.ball().radius() + 0.01});
  return scene;
}

void run(benchmark::State& state, const std::string& preset, const std::string& kind) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const double r = league.robot().radius();
  const EscapeScene scene = scene_for(preset, kind);
  PlannerParams params;
  params.robot_radius = r;
  params.clearance = 0.01;
  params.step = 2.0 * r;
  PathPlanner planner(params);
  // The planner adds the robot's radius and the clearance to each body's.
  std::vector<CircleObstacle> bodies;
  for (const auto& o : scene.keep_off) bodies.push_back({o.centre, o.radius - r - 0.01});
  Row row;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::optional<Escape> escape = robocaf::actors::escape_circle(scene);
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(escape);
    row.escape_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    if (!escape) continue;
    row.found = true;
    row.length = escape->length;
    const auto t2 = std::chrono::steady_clock::now();
    const auto plan = planner.plan(scene.start, escape->way.back(), bodies, scene.space);
    benchmark::DoNotOptimize(plan);
    row.plan_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t2).count());
  }
  g_rows[preset + "/" + kind] = std::move(row);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::vector<std::string> presets = {"mirosot", "ssl", "msl"}, kinds = {"scrum", "ring"};
  for (const auto& preset : presets)
    for (const auto& kind : kinds)
      benchmark::RegisterBenchmark((preset + "/" + kind).c_str(),
                                   [preset, kind](benchmark::State& s) { run(s, preset, kind); })
          ->Iterations(2000);
  benchmark::RunSpecifiedBenchmarks();

  std::printf("\n%-16s %10s %10s %10s %10s %10s %12s\n", "way out", "escape", "escape", "way", "plan (base)",
              "escape", "");
  std::printf("%-16s %10s %10s %10s %10s %10s %12s\n", "", "median us", "p99 us", "m", "median us", "vs plan",
              "");
  for (const auto& preset : presets)
    for (const auto& kind : kinds) {
      const std::string name = preset + "/" + kind;
      const Row& row = g_rows[name];
      const double escape = quantile(row.escape_us, 0.5), plan = quantile(row.plan_us, 0.5);
      std::printf("%-16s %10.1f %10.1f %10.2f %10.1f %9.2fx %12s\n", name.c_str(), escape,
                  quantile(row.escape_us, 0.99), row.length, plan, plan > 0.0 ? escape / plan : 0.0,
                  row.found ? "" : "(no way)");
    }
  return 0;
}
