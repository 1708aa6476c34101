// Path planner (ERRT, BRIEF 4.5) per control cycle: one robot replanning
// every cycle at 60 Hz while opponents move, as player skills will call it.
// Baseline in the same run: plain RRT, the same planner with goal bias and
// waypoint cache off, on the same scenes. Closed loop: the robot drives
// along its own plan, opponents drift and bounce regardless; a robot that
// reaches its goal (or runs out of time) gets a new one across the crowd.
// Besides time, Botnia's measures: how often a plan reaches its target,
// and path length.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "actors/player_skills/path_planner.hpp"
#include "runtime/config_loader.hpp"

namespace {

using robocaf::actors::CircleObstacle;
using robocaf::actors::FreeSpace;
using robocaf::actors::PathPlanner;
using robocaf::actors::PlannerParams;
using robocaf::actors::PlanResult;
using V = Eigen::Vector2d;

constexpr double kCycle = 1.0 / 60.0;  // s
constexpr int kCycles = 20000;         // plans per row: about 5.5 minutes of play

struct Case {
  std::string name;
  double length = 0.0, width = 0.0;  // field, m
  double radius = 0.0;               // every robot's, m
  double speed = 0.0;                // our robot along its path, m/s
  int opponents = 0;
  double crowd_half_length = 0.0;  // opponents stay within |x| <= this
  double step = 0.0, clearance = 0.0;
  FreeSpace space;
};

// League geometry from the embedded presets.
Case league_case(const std::string& name, const std::string& preset, int opponents, double crowd_fraction,
                 double step_in_radii, double clearance) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  Case c;
  c.name = name;
  // Without walls robots may use the boundary strip round the lines.
  const double boundary = league.field().walls() ? 0.0 : league.field().boundary_width();
  c.length = league.field().length() + 2.0 * boundary;
  c.width = league.field().width() + 2.0 * boundary;
  c.radius = league.robot().radius();
  c.speed = league.robot().max_speed();
  c.opponents = opponents;
  c.crowd_half_length = crowd_fraction * 0.5 * c.length;
  c.clearance = clearance;
  c.step = step_in_radii * c.radius;
  c.space = robocaf::actors::field_free_space(c.length, c.width, c.radius);
  return c;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      league_case("mirosot_5", "mirosot", 5, 1.0, 2.2, 0.01),
      league_case("msl_11", "msl", 11, 1.0, 2.0, 0.05),
      // 15 opponents packed into the middle third of the MiroSot field, the
      // robot crossing from one end to the other through them.
      league_case("mirosot_cluttered_15", "mirosot", 15, 0.35, 2.2, 0.01),
  };
  return all;
}

// The planners compared: plain RRT (the baseline), ERRT replanning from
// scratch each cycle, and ERRT keeping its last way (the default).
enum class Variant { kRrt, kErrtNoKeep, kErrt };
constexpr Variant kVariants[] = {Variant::kRrt, Variant::kErrtNoKeep, Variant::kErrt};

std::string variant_name(const Case& c, Variant v) {
  return c.name + (v == Variant::kRrt ? "/rrt" : v == Variant::kErrtNoKeep ? "/errt_no_keep" : "/errt");
}

PlannerParams planner_params(const Case& c, Variant variant) {
  PlannerParams p;
  p.robot_radius = c.radius;
  p.clearance = c.clearance;
  p.step = c.step;
  p.max_nodes = 300;
  p.seed = 11;
  p.goal_jump = 6.0 * c.step;
  if (variant != Variant::kErrt) p.keep_way_fraction = -1.0;
  if (variant == Variant::kRrt) {
    p.goal_bias = 0.0;
    p.waypoint_bias = 0.0;
    p.cache_size = 0;
  }
  return p;
}

struct Stats {
  std::vector<double> all_us, tree_us;
  long nodes = 0, iterations = 0, trees = 0, reached = 0;
  double detour = 0.0;  // sum over tree plans that reached their target: path length / straight distance
  long detours = 0;
  long flips = 0, flip_chances = 0;  // consecutive plans to the same goal whose first legs differ by > 45 deg
};
std::map<std::string, Stats> g_stats;

// The moving scene: opponents random-walk their velocities (up to half our
// speed) and reflect off the crowd's box.
class World {
 public:
  explicit World(const Case& c) : c_(c), rng_(3) {
    std::uniform_real_distribution<double> x(-c.crowd_half_length, c.crowd_half_length);
    std::uniform_real_distribution<double> y(-0.5 * c.width + c.radius, 0.5 * c.width - c.radius);
    while (static_cast<int>(opponents_.size()) < c.opponents) {
      const V p(x(rng_), y(rng_));
      bool apart = true;
      for (const auto& o : opponents_) apart = apart && (o.centre - p).norm() > 2.0 * c.radius;
      if (!apart) continue;
      opponents_.push_back({p, c.radius});
      velocities_.push_back(V::Zero());
    }
    robot_ = V(-0.45 * c.length, 0.0);
    new_goal();
  }

  const V& robot() const { return robot_; }
  const V& goal() const { return goal_; }
  const std::vector<CircleObstacle>& opponents() const { return opponents_; }

  // One cycle: our robot moves along `path`, opponents drift.
  void advance(const std::vector<V>& path) {
    double left = c_.speed * kCycle;
    for (std::size_t i = 1; i < path.size() && left > 0.0; ++i) {
      const V d = path[i] - robot_;
      const double n = d.norm();
      if (n <= left) {
        robot_ = path[i];
        left -= n;
      } else {
        robot_ += d * (left / n);
        left = 0.0;
      }
    }
    std::normal_distribution<double> kick(0.0, 0.15 * c_.speed);
    const double hx = c_.crowd_half_length, hy = 0.5 * c_.width - c_.radius;
    for (std::size_t i = 0; i < opponents_.size(); ++i) {
      V& v = velocities_[i];
      v += V(kick(rng_), kick(rng_));
      if (v.norm() > 0.5 * c_.speed) v *= 0.5 * c_.speed / v.norm();
      V& p = opponents_[i].centre;
      p += v * kCycle;
      for (int k = 0; k < 2; ++k) {
        const double h = k == 0 ? hx : hy;
        if (std::abs(p[k]) > h) {
          p[k] = std::copysign(h, p[k]);
          v[k] = -v[k];
        }
      }
    }
    if ((robot_ - goal_).norm() < 0.01 || ++episode_ * kCycle * c_.speed > 2.0 * c_.length) new_goal();
  }

 private:
  // Across the crowd from where the robot is.
  void new_goal() {
    episode_ = 0;
    std::uniform_real_distribution<double> x(0.35 * c_.length, 0.45 * c_.length);
    std::uniform_real_distribution<double> y(-0.4 * c_.width, 0.4 * c_.width);
    goal_ = V(robot_.x() < 0.0 ? x(rng_) : -x(rng_), y(rng_));
  }

  const Case& c_;
  std::mt19937 rng_;
  std::vector<CircleObstacle> opponents_;
  std::vector<V> velocities_;
  V robot_, goal_;
  int episode_ = 0;
};

void replan(benchmark::State& state, const Case& c, Variant variant) {
  const std::string name = variant_name(c, variant);
  Stats stats;
  World world(c);
  PathPlanner planner(planner_params(c, variant));
  V last_heading = V::Zero(), last_goal = V::Constant(1e9);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const PlanResult r = planner.plan(world.robot(), world.goal(), world.opponents(), c.space);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    stats.all_us.push_back(us);
    if (r.nodes > 0) {
      stats.tree_us.push_back(us);
      stats.nodes += r.nodes;
      stats.iterations += r.iterations;
      ++stats.trees;
      const double straight = (r.waypoints.back() - r.waypoints.front()).norm();
      if (r.reached_target && straight > 0.0) {
        stats.detour += r.length() / straight;
        ++stats.detours;
      }
    }
    stats.reached += r.reached_target ? 1 : 0;
    // Whether the robot would turn away from where the last plan sent it:
    // plans that disagree cycle to cycle make a robot dither.
    const V heading = (r.waypoints[1] - r.waypoints[0]).normalized();
    if (world.goal() == last_goal && last_heading != V::Zero() && heading.allFinite()) {
      ++stats.flip_chances;
      if (heading.dot(last_heading) < std::cos(M_PI / 4)) ++stats.flips;
    }
    last_goal = world.goal();
    last_heading = heading.allFinite() ? heading : V::Zero();
    world.advance(r.waypoints);
  }
  g_stats[name] = std::move(stats);
}

// The bound: a goal walled off by a closed ring of opponents (besides the
// case's own), so every plan spends all its nodes (or iterations) and fails.
void walled_off(benchmark::State& state, const Case& c) {
  World world(c);
  std::vector<CircleObstacle> obstacles = world.opponents();
  const V goal(0.3 * c.length, 0.0);
  const double ring = 3.0 * c.radius;  // the goal itself stays free
  for (int k = 0; k < 12; ++k) {
    const double a = 2.0 * M_PI * k / 12.0;
    obstacles.push_back({goal + ring * V(std::cos(a), std::sin(a)), c.radius});
  }
  const V start(-0.45 * c.length, 0.0);
  PathPlanner planner(planner_params(c, Variant::kErrt));
  Stats stats;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const PlanResult r = planner.plan(start, goal, obstacles, c.space);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    stats.all_us.push_back(us);
    stats.nodes += r.nodes;
    stats.iterations += r.iterations;
    stats.reached += r.reached_target ? 1 : 0;
    ++stats.trees;
  }
  g_stats[c.name + "/walled_off"] = std::move(stats);
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<std::size_t>(k)];
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const Case& c : cases())
    for (Variant v : kVariants)
      benchmark::RegisterBenchmark(variant_name(c, v).c_str(), [&c, v](benchmark::State& s) { replan(s, c, v); })
          ->Iterations(kCycles);
  for (const Case& c : cases())
    benchmark::RegisterBenchmark((c.name + "/walled_off").c_str(), [&c](benchmark::State& s) { walled_off(s, c); })
        ->Iterations(kCycles / 20);
  benchmark::RunSpecifiedBenchmarks();

  // Per plan, wall time of plan() alone (steady clock), over the same number
  // of cycles for both planners. "tree" = plans whose straight line was
  // blocked; the rest return the segment at once.
  std::printf("\n%-34s %8s %8s %8s %8s %7s %7s %7s %7s %7s %7s %9s\n", "replanning at 60 Hz", "median", "tree",
              "p99", "max", "nodes", "iters", "tree", "reach", "detour", "flips", "tree med");
  std::printf("%-34s %8s %8s %8s %8s %7s %7s %7s %7s %7s %7s %9s\n", "", "us", "med us", "us", "us", "/tree",
              "/tree", "%", "%", "", "%", "vs RRT");
  for (const Case& c : cases())
    for (Variant v : kVariants) {
      const std::string name = variant_name(c, v);
      if (!g_stats.count(name)) continue;
      const Stats& s = g_stats[name];
      const double n = static_cast<double>(std::max<std::size_t>(s.all_us.size(), 1));
      const double tree_median = quantile(s.tree_us, 0.5);
      const std::string base = c.name + "/rrt";
      const double base_tree = g_stats.count(base) ? quantile(g_stats[base].tree_us, 0.5) : 0.0;
      const double trees = static_cast<double>(std::max<long>(s.trees, 1));
      std::printf("%-34s %8.2f %8.2f %8.2f %8.1f %7.1f %7.1f %7.1f %7.1f %7.3f %7.2f %8.2fx\n", name.c_str(),
                  quantile(s.all_us, 0.5), tree_median, quantile(s.all_us, 0.99),
                  *std::max_element(s.all_us.begin(), s.all_us.end()), static_cast<double>(s.nodes) / trees,
                  static_cast<double>(s.iterations) / trees, 100.0 * static_cast<double>(s.trees) / n,
                  100.0 * static_cast<double>(s.reached) / n,
                  s.detours > 0 ? s.detour / static_cast<double>(s.detours) : 0.0,
                  100.0 * static_cast<double>(s.flips) / static_cast<double>(std::max<long>(s.flip_chances, 1)),
                  base_tree > 0.0 ? tree_median / base_tree : 0.0);
    }

  std::printf("\n%-30s %10s %10s %10s %10s %9s %14s\n", "bound: goal walled off", "median us", "max us", "nodes",
              "iters", "reach %", "% of 16.7 ms");
  for (const Case& c : cases()) {
    const std::string name = c.name + "/walled_off";
    if (!g_stats.count(name)) continue;
    const Stats& s = g_stats[name];
    const double n = static_cast<double>(std::max<long>(s.trees, 1));
    const double median = quantile(s.all_us, 0.5);
    std::printf("%-30s %10.1f %10.1f %10.1f %10.1f %9.1f %13.2f%%\n", name.c_str(), median,
                *std::max_element(s.all_us.begin(), s.all_us.end()), static_cast<double>(s.nodes) / n,
                static_cast<double>(s.iterations) / n, 100.0 * static_cast<double>(s.reached) / n,
                100.0 * median / (1e6 * kCycle));
  }
  return 0;
}
