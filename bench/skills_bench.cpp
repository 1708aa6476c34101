// Player skills' dynamics safety search (DSS, BRIEF 4.5): time per control
// cycle for a whole team of 11 (all robots, all pairs, centralised) and for
// one robot deciding alone against 5 teammates (what each robot's player
// skills run), crowded also with turning robots (their paths arcs cut into
// windows). Baseline in the same run: the check of the desired accelerations
// alone, without the search, so the table shows what searching for a
// replacement costs on top of the check.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "actors/player_skills/safety_search.hpp"

namespace {

using robocaf::actors::DssDecision;
using robocaf::actors::DssParams;
using robocaf::actors::DssRobot;
using robocaf::actors::SafetySearch;
using V = Eigen::Vector2d;

struct Result {
  double ns_per_cycle = 0.0;
  double changed_fraction = 0.0;
};
std::map<std::string, Result> g_results;  // measured inside each benchmark, for the table

constexpr int kScenes = 64;

DssParams dss_params() {
  DssParams p;
  p.dt = 0.02;
  p.margin = 0.01;
  return p;
}

// SSL robots (18 cm, 3 m/s^2 up, 6 m/s^2 braking). Open play: spread over
// half a field at up to 2 m/s, each desiring an acceleration towards a random
// goal. Crowded: all within 1.5 m of the ball, heading for it (most desired
// accelerations are unsafe: the worst case for the search).
std::vector<std::vector<DssRobot>> scenes(int robots, bool crowded, uint32_t seed, bool turning = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<std::vector<DssRobot>> out;
  for (int s = 0; s < kScenes; ++s) {
    std::vector<DssRobot> team;
    const double spread = crowded ? 0.75 : 2.0;
    while (static_cast<int>(team.size()) < robots) {
      DssRobot r;
      r.position = V(spread * unit(rng), spread * unit(rng));
      bool apart = true;
      for (const auto& o : team) apart = apart && (o.position - r.position).norm() > 0.2;
      if (!apart) continue;
      const V heading = crowded ? V(-r.position.normalized()) : V(unit(rng), unit(rng)).normalized();
      r.velocity = heading * (1.0 + unit(rng));
      r.desired_acceleration = heading * 3.0 + V(unit(rng), unit(rng));
      r.max_acceleration = 3.0;
      r.max_deceleration = 6.0;
      r.radius = 0.09;
      // Turning: paths curving at up to 5 rad/s, as arcs in windows.
      if (turning) r.turn_rate = 5.0 * unit(rng);
      team.push_back(r);
    }
    out.push_back(std::move(team));
  }
  return out;
}

// This thread's CPU time: other processes on a busy 2-core machine would
// inflate wall time, not the work done.
double cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

void record(benchmark::State& state, const std::string& name, double start, long decisions, long changed) {
  const double ns = cpu_ns() - start;
  Result& r = g_results[name];
  r.ns_per_cycle = ns / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  r.changed_fraction = decisions > 0 ? static_cast<double>(changed) / static_cast<double>(decisions) : 0.0;
  state.counters["changed"] = r.changed_fraction;
}

// Times `decide` over the prepared cases in turn (CPU time); it returns how
// many robots it decided for and how many it flagged (unsafe or changed).
template <typename Case, typename Decide>
void measure(benchmark::State& state, const std::string& name, const std::vector<Case>& cases, Decide decide) {
  const SafetySearch dss(dss_params());
  long decisions = 0, flagged = 0;
  std::size_t k = 0;
  const double start = cpu_ns();
  for (auto _ : state) {
    const auto [decided, flags] = decide(dss, cases[k++ % cases.size()]);
    decisions += decided;
    flagged += flags;
  }
  record(state, name, start, decisions, flagged);
}

// Baseline, 11 robots: every pair's desired accelerations checked once.
void team_check(benchmark::State& state, bool crowded, const std::string& name) {
  measure(state, name, scenes(11, crowded, 1), [](const SafetySearch& dss, const std::vector<DssRobot>& team) {
    bool bad[11] = {};
    for (std::size_t i = 0; i < team.size(); ++i)
      for (std::size_t j = i + 1; j < team.size(); ++j) {
        const double c =
            dss.pair_clearance(team[i], team[i].desired_acceleration, team[j], team[j].desired_acceleration);
        benchmark::DoNotOptimize(c);
        if (c < 0.0) bad[i] = bad[j] = true;
      }
    long unsafe = 0;
    for (std::size_t i = 0; i < team.size(); ++i) unsafe += bad[i] ? 1 : 0;
    return std::pair<long, long>(static_cast<long>(team.size()), unsafe);
  });
}

// DSS for all 11 robots of a team, all pairs.
void team_search(benchmark::State& state, bool crowded, const std::string& name, bool turning = false) {
  measure(state, name, scenes(11, crowded, 1, turning), [](const SafetySearch& dss, const std::vector<DssRobot>& team) {
    const std::vector<DssDecision> out = dss.search(team);
    benchmark::DoNotOptimize(out.data());
    long changed = 0;
    for (const auto& d : out) changed += d.changed ? 1 : 0;
    return std::pair<long, long>(static_cast<long>(out.size()), changed);
  });
}

// Baseline, one robot: its desired acceleration against 5 braking teammates.
void robot_check(benchmark::State& state, bool crowded, const std::string& name) {
  measure(state, name, scenes(6, crowded, 2), [](const SafetySearch& dss, const std::vector<DssRobot>& team) {
    bool ok = true;
    for (std::size_t j = 1; j < team.size(); ++j) {
      const double c =
          dss.pair_clearance(team[0], team[0].desired_acceleration, team[j], dss.brake_acceleration(team[j]));
      benchmark::DoNotOptimize(c);
      ok = ok && c >= 0.0;
    }
    return std::pair<long, long>(1, ok ? 0 : 1);
  });
}

// The decentralised call each robot's player skills make: self against 5 teammates.
void robot_search(benchmark::State& state, bool crowded, const std::string& name, bool turning = false) {
  std::vector<std::pair<DssRobot, std::vector<DssRobot>>> cases;
  for (const auto& team : scenes(6, crowded, 2, turning))
    cases.emplace_back(team[0], std::vector<DssRobot>(team.begin() + 1, team.end()));
  using Case = std::pair<DssRobot, std::vector<DssRobot>>;
  measure(state, name, cases, [](const SafetySearch& dss, const Case& c) {
    const DssDecision d = dss.safe_acceleration(c.first, c.second);
    benchmark::DoNotOptimize(d);
    return std::pair<long, long>(1, d.changed ? 1 : 0);
  });
}

void team11_check_open(benchmark::State& s) { team_check(s, false, "team11_check_open"); }
void team11_dss_open(benchmark::State& s) { team_search(s, false, "team11_dss_open"); }
void team11_check_crowded(benchmark::State& s) { team_check(s, true, "team11_check_crowded"); }
void team11_dss_crowded(benchmark::State& s) { team_search(s, true, "team11_dss_crowded"); }
void robot_vs5_check_open(benchmark::State& s) { robot_check(s, false, "robot_vs5_check_open"); }
void robot_vs5_dss_open(benchmark::State& s) { robot_search(s, false, "robot_vs5_dss_open"); }
void robot_vs5_check_crowded(benchmark::State& s) { robot_check(s, true, "robot_vs5_check_crowded"); }
void robot_vs5_dss_crowded(benchmark::State& s) { robot_search(s, true, "robot_vs5_dss_crowded"); }
void team11_dss_crowded_turning(benchmark::State& s) { team_search(s, true, "team11_dss_crowded_turning", true); }
void robot_vs5_dss_crowded_turning(benchmark::State& s) {
  robot_search(s, true, "robot_vs5_dss_crowded_turning", true);
}

BENCHMARK(team11_check_open);
BENCHMARK(team11_dss_open);
BENCHMARK(team11_check_crowded);
BENCHMARK(team11_dss_crowded);
BENCHMARK(robot_vs5_check_open);
BENCHMARK(robot_vs5_dss_open);
BENCHMARK(robot_vs5_check_crowded);
BENCHMARK(robot_vs5_dss_crowded);
BENCHMARK(team11_dss_crowded_turning);
BENCHMARK(robot_vs5_dss_crowded_turning);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  // "unsafe / changed": the check's share of robots whose desired acceleration
  // fails; DSS's share of robots it gave another acceleration.
  std::printf("\n%-26s %14s %14s %16s %18s\n", "DSS (20 ms cycle)", "CPU us/cycle", "vs check", "unsafe/changed",
              "% of a 20 ms cycle");
  const std::pair<const char*, const char*> rows[] = {
      {"team11_check_open", "team11_check_open"},         {"team11_dss_open", "team11_check_open"},
      {"team11_check_crowded", "team11_check_crowded"},   {"team11_dss_crowded", "team11_check_crowded"},
      {"robot_vs5_check_open", "robot_vs5_check_open"},   {"robot_vs5_dss_open", "robot_vs5_check_open"},
      {"robot_vs5_check_crowded", "robot_vs5_check_crowded"}, {"robot_vs5_dss_crowded", "robot_vs5_check_crowded"},
      {"team11_dss_crowded_turning", "team11_check_crowded"},
      {"robot_vs5_dss_crowded_turning", "robot_vs5_check_crowded"}};
  for (const auto& [name, base_name] : rows) {
    if (!g_results.count(name)) continue;
    const Result& r = g_results[name];
    const double base = g_results.count(base_name) ? g_results[base_name].ns_per_cycle : 0.0;
    std::printf("%-26s %14.2f %14.1f %15.0f%% %17.3f%%\n", name, r.ns_per_cycle / 1000.0,
                base > 0.0 ? r.ns_per_cycle / base : 0.0, 100.0 * r.changed_fraction, r.ns_per_cycle / 2e7 * 100.0);
  }
  return 0;
}
