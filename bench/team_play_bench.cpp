// Team play per control cycle: role assignment for a whole team (team
// skills) and one robot's full player-skills cycle (SkillController::step,
// safety search included), per league. Baseline in the same run: copying the
// cycle's inputs (the WorldEstimates), the least a handler of them costs, so
// the table reads as "how many input copies is one decision".
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "actors/player_skills/skill_controller.hpp"
#include "actors/team_skills/role_assigner.hpp"
#include "runtime/config_loader.hpp"

namespace {

using robocaf::actors::RoleAssigner;
using robocaf::actors::SkillController;
namespace msg = robocaf::msg;

constexpr int kScenes = 64;
std::map<std::string, double> g_ns;  // CPU ns per iteration by benchmark name, for the ratio table

// Each robot's WorldEstimate in open play: robots and ball spread over the
// league's field, every robot seeing all the others.
std::vector<std::vector<msg::WorldEstimate>> scenes(const msg::LeaguePreset& league, int robots, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> x(-0.45 * league.field().length(), 0.45 * league.field().length());
  std::uniform_real_distribution<double> y(-0.45 * league.field().width(), 0.45 * league.field().width());
  std::uniform_real_distribution<double> angle(-3.14, 3.14);
  std::vector<std::vector<msg::WorldEstimate>> out;
  for (int s = 0; s < kScenes; ++s) {
    std::vector<msg::RobotEstimate> poses;
    for (int i = 1; i <= robots; ++i) {
      msg::RobotEstimate e;
      e.set_team(msg::BLUE);
      e.set_robot_id(i);
      e.mutable_pose()->set_x(x(rng));
      e.mutable_pose()->set_y(y(rng));
      e.mutable_pose()->set_theta(angle(rng));
      e.mutable_velocity()->set_x(0.3);
      e.set_t_observed(1.0);
      poses.push_back(e);
    }
    const double bx = x(rng), by = y(rng);
    std::vector<msg::WorldEstimate> team;
    for (int i = 0; i < robots; ++i) {
      msg::WorldEstimate w;
      w.set_team(msg::BLUE);
      w.set_robot_id(i + 1);
      w.set_t(1.0);
      *w.mutable_self() = poses[i];
      for (int j = 0; j < robots; ++j)
        if (j != i) *w.add_teammates() = poses[j];
      w.mutable_ball()->set_valid(true);
      w.mutable_ball()->mutable_position()->set_x(bx);
      w.mutable_ball()->mutable_position()->set_y(by);
      w.mutable_ball()->set_t_observed(1.0);
      team.push_back(w);
    }
    out.push_back(team);
  }
  return out;
}

void copy_inputs(benchmark::State& state, const std::string& preset, int robots) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const auto all = scenes(league, robots, 1);
  std::size_t k = 0;
  for (auto _ : state) {
    std::vector<msg::WorldEstimate> copy = all[k++ % all.size()];
    benchmark::DoNotOptimize(copy);
  }
}

void assign_roles(benchmark::State& state, const std::string& preset, int robots) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const auto all = scenes(league, robots, 1);
  std::vector<uint32_t> present;
  for (int i = 1; i <= robots; ++i) present.push_back(i);
  RoleAssigner assigner(league);
  std::size_t k = 0;
  for (auto _ : state) {
    auto roles = assigner.assign(all[k % all.size()], present, true, 0.02 * static_cast<double>(k));
    ++k;
    benchmark::DoNotOptimize(roles);
  }
}

// One control cycle per iteration, robot 1 seeing each scene in turn.
void run_cycles(benchmark::State& state, SkillController& skills, const msg::PlayerInstruction& instruction,
                const std::vector<std::vector<msg::WorldEstimate>>& all) {
  std::size_t k = 0;
  uint64_t cycle = 0;
  for (auto _ : state) {
    msg::WorldEstimate world = all[k++ % all.size()][0];
    ++cycle;
    world.set_t(0.02 * cycle);
    auto command = skills.step(world, instruction, cycle, 0.02 * cycle);
    benchmark::DoNotOptimize(command);
  }
}

void player_skills_cycle(benchmark::State& state, const std::string& preset, msg::Role role) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const auto all = scenes(league, static_cast<int>(league.team_size()), 2);
  SkillController skills(msg::BLUE, 1, league);
  msg::PlayerInstruction instruction;
  instruction.set_directive(msg::COACH_PLAY);
  instruction.set_role(role);
  instruction.set_attack_positive_x(true);
  run_cycles(state, skills, instruction, all);
}

// Placing for the other team's free kick, its place across the field: the
// last leg a time-optimal move (SkillParams::time_optimal_placing) or, the
// baseline, steered straight at the place.
void player_skills_placing_cycle(benchmark::State& state, const std::string& preset, bool time_optimal) {
  const auto league = robocaf::runtime::preset_match_config(preset).league();
  const auto all = scenes(league, static_cast<int>(league.team_size()), 3);
  robocaf::actors::SkillParams params;
  params.time_optimal_placing = time_optimal;
  SkillController skills(msg::BLUE, 1, league, params);
  msg::PlayerInstruction instruction;
  instruction.set_directive(msg::COACH_PLACE);
  instruction.set_restart(msg::RESTART_FREE_KICK);
  instruction.set_role(msg::ROLE_DEFENDER);
  instruction.set_attack_positive_x(true);
  instruction.mutable_placement()->set_x(-0.25 * league.field().length());
  instruction.mutable_placement()->set_y(0.25 * league.field().width());
  run_cycles(state, skills, instruction, all);
}

}  // namespace

BENCHMARK_CAPTURE(copy_inputs, mirosot_5, "mirosot", 5);
BENCHMARK_CAPTURE(assign_roles, mirosot_5, "mirosot", 5);
BENCHMARK_CAPTURE(copy_inputs, ssl_11, "ssl", 11);
BENCHMARK_CAPTURE(assign_roles, ssl_11, "ssl", 11);
BENCHMARK_CAPTURE(player_skills_cycle, mirosot_attacker, "mirosot", msg::ROLE_ATTACKER);
BENCHMARK_CAPTURE(player_skills_cycle, mirosot_defender, "mirosot", msg::ROLE_DEFENDER);
BENCHMARK_CAPTURE(player_skills_cycle, ssl_attacker, "ssl", msg::ROLE_ATTACKER);
BENCHMARK_CAPTURE(player_skills_cycle, msl_supporter, "msl", msg::ROLE_SUPPORTER);
BENCHMARK_CAPTURE(player_skills_placing_cycle, ssl_straight, "ssl", false);
BENCHMARK_CAPTURE(player_skills_placing_cycle, ssl_time_optimal, "ssl", true);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Collect each run's time per iteration for the ratio table.
  class Collector : public benchmark::ConsoleReporter {
   public:
    void ReportRuns(const std::vector<Run>& runs) override {
      for (const auto& run : runs) g_ns[run.benchmark_name()] = run.GetAdjustedCPUTime();
      ConsoleReporter::ReportRuns(runs);
    }
  } reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\n%-46s %10s %8s  %s\n", "team play per cycle", "us (CPU)", "ratio", "against");
  const std::pair<const char*, const char*> rows[] = {
      {"assign_roles/mirosot_5", "copy_inputs/mirosot_5"},
      {"assign_roles/ssl_11", "copy_inputs/ssl_11"},
      {"player_skills_cycle/mirosot_attacker", "copy_inputs/mirosot_5"},
      {"player_skills_cycle/mirosot_defender", "copy_inputs/mirosot_5"},
      {"player_skills_cycle/ssl_attacker", "copy_inputs/ssl_11"},
      {"player_skills_cycle/msl_supporter", "copy_inputs/mirosot_5"},
      {"player_skills_placing_cycle/ssl_straight", "copy_inputs/ssl_11"},
      {"player_skills_placing_cycle/ssl_time_optimal", "player_skills_placing_cycle/ssl_straight"},
  };
  for (const auto& [name, base] : rows) {
    if (!g_ns.count(name)) continue;
    const double b = g_ns.count(base) ? g_ns[base] : 0.0;
    std::printf("%-46s %10.2f %7.1fx  %s\n", name, g_ns[name] / 1000.0, b > 0 ? g_ns[name] / b : 0.0, base);
  }
  return 0;
}
