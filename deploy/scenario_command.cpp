// `robocaf scenario NAME [--seeds N]`: a scripted situation over N seeds, as a
// table and a summary JSON.

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/local_match.hpp"
#include "runtime/config_loader.hpp"
#include "sim/scenarios.hpp"

namespace robocaf::deploy {

namespace {

const char* kScenarioUsage =
    "usage: robocaf scenario NAME [--seeds N] [--first-seed S] [--summary-json FILE] [--log-dir DIR]\n"
    "                        [--actuation-delay S] [--prediction-horizon S] [--team NAME|FILE]\n"
    "       robocaf scenario --list\n"
    "  --actuation-delay S     the robots act on a command S seconds late (league.robot.actuation_delay)\n"
    "  --prediction-horizon S  world knowledge predicts the skills' estimates S ahead (0 = no latency\n"
    "                          compensation; default: camera latency + actuation delay)\n"
    "  --team NAME|FILE        the TeamConfig blue's robots play with (default 'default'; e.g. 'passing')";

// Experiment settings on top of the scenario's own config.
struct Overrides {
  std::optional<double> actuation_delay;
  std::optional<double> prediction_horizon;
  std::optional<msg::TeamConfig> blue;
};

struct Stats {
  double mean = 0.0, sd = 0.0;
};

Stats stats_of(const std::vector<double>& xs) {
  Stats s;
  if (xs.empty()) return s;
  for (double x : xs) s.mean += x;
  s.mean /= static_cast<double>(xs.size());
  if (xs.size() > 1) {
    double ss = 0.0;
    for (double x : xs) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / static_cast<double>(xs.size() - 1));
  }
  return s;
}

msg::ScenarioResult run_once(const sim::ScenarioInfo& info, uint64_t seed, const std::string& log_dir,
                             const Overrides& overrides) {
  if (!info.uses_actors) return sim::run_physics_scenario(info.name, seed);
  LocalMatchOptions options;
  options.match = sim::scenario_config(info.name, seed);
  if (overrides.actuation_delay) options.match.mutable_league()->mutable_robot()->set_actuation_delay(*overrides.actuation_delay);
  if (overrides.blue) *options.match.mutable_blue() = *overrides.blue;
  if (overrides.prediction_horizon) {
    options.match.mutable_blue()->set_prediction_horizon(*overrides.prediction_horizon);
    options.match.mutable_yellow()->set_prediction_horizon(*overrides.prediction_horizon);
  }
  options.scenario = sim::skill_scenario_script(info.name, seed);
  if (!log_dir.empty()) options.log_path = log_dir + "/" + info.name + "-seed" + std::to_string(seed) + ".rclog";
  LocalMatch local{options};
  return local.wait_scenario();
}

}  // namespace

int scenario_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"seeds", "first-seed", "summary-json", "log-dir", "actuation-delay", "prediction-horizon", "team"}, {"list", "help"}, 1};
  if (arguments.has("help")) {
    std::cout << kScenarioUsage << '\n';
    return 0;
  }
  if (arguments.has("list")) {
    for (const auto& info : sim::scenario_catalog())
      std::cout << std::left << std::setw(26) << info.name << info.description << '\n';
    return 0;
  }
  if (arguments.positional().size() != 1) throw UsageError(std::string("give one scenario name\n") + kScenarioUsage);
  const std::string name = arguments.positional()[0];
  const sim::ScenarioInfo* info = sim::find_scenario(name);
  if (!info) {
    std::string known;
    for (const auto& s : sim::scenario_catalog()) known += (known.empty() ? "" : ", ") + s.name;
    throw UsageError("unknown scenario '" + name + "' (known: " + known + ")");
  }
  const uint64_t seeds = arguments.unsigned_number("seeds").value_or(10);
  if (seeds == 0) throw UsageError("--seeds must be at least 1");
  const uint64_t first = arguments.unsigned_number("first-seed").value_or(1);
  const std::string log_dir = arguments.value("log-dir").value_or("");
  if (!log_dir.empty()) std::filesystem::create_directories(log_dir);
  Overrides overrides;
  overrides.actuation_delay = arguments.number("actuation-delay", 0.0, 10.0);
  overrides.prediction_horizon = arguments.number("prediction-horizon", 0.0, 10.0);
  if (const auto team = arguments.value("team")) overrides.blue = runtime::team_config(*team);
  if ((overrides.actuation_delay || overrides.prediction_horizon || overrides.blue) && !info->uses_actors)
    throw UsageError("--actuation-delay, --prediction-horizon and --team apply to skill scenarios, not to '" + name +
                     "'");

  std::cout << "robocaf scenario " << name << ": " << info->description << '\n';
  std::vector<msg::ScenarioResult> results;
  std::map<std::string, std::vector<double>> metrics;
  std::vector<double> success_times;
  std::cout << std::left << std::setw(6) << "seed" << std::setw(9) << "result" << std::right << std::setw(9)
            << "time s" << "  " << std::left << "reason / metrics\n";
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    msg::ScenarioResult r = run_once(*info, seed, log_dir, overrides);
    std::ostringstream line;
    line << std::left << std::setw(6) << seed << std::setw(9) << (r.success() ? "success" : "fail") << std::right
         << std::fixed << std::setprecision(2) << std::setw(9) << r.time() << "  " << r.reason();
    std::map<std::string, double> sorted(r.metrics().begin(), r.metrics().end());
    for (const auto& [key, value] : sorted) {
      line << "  " << key << "=" << std::setprecision(3) << value;
      metrics[key].push_back(value);
    }
    std::cout << line.str() << std::endl;
    if (r.success()) success_times.push_back(r.time());
    results.push_back(std::move(r));
  }
  const double success_rate =
      static_cast<double>(success_times.size()) / static_cast<double>(results.size());
  // Mean over the successful runs: time to a goal, to the ball stopping, ...
  const double mean_time = stats_of(success_times).mean;

  nlohmann::json json;
  json["scenario"] = name;
  json["seeds"] = seeds;
  json["first_seed"] = first;
  json["success_rate"] = success_rate;
  json["mean_time_s"] = mean_time;
  for (const auto& [key, values] : metrics) {
    const Stats s = stats_of(values);
    json["metrics"][key] = {{"mean", s.mean}, {"sd", s.sd}};
  }
  if (name == "kick-rolldown") {
    json["stop_distance_m"] = stats_of(metrics["stop_distance_m"]).mean;
    json["stop_time_s"] = stats_of(metrics["stop_time_s"]).mean;
  }
  if (name == "drive-straight") {
    json["distance_mm_mean"] = stats_of(metrics["distance_mm"]).mean;
    json["drift_mm_mean"] = stats_of(metrics["drift_mm"]).mean;
    json["drift_mm_sd"] = stats_of(metrics["drift_mm"]).sd;
  }
  for (const auto& r : results) {
    json["runs"].push_back({{"seed", r.seed()}, {"success", r.success()}, {"time_s", r.time()}, {"reason", r.reason()}});
  }

  std::cout << "success " << std::fixed << std::setprecision(0) << 100.0 * success_rate << " % over " << seeds
            << " seeds, mean time " << std::setprecision(2) << mean_time << " s\n";
  for (const auto& [key, values] : metrics) {
    const Stats s = stats_of(values);
    std::cout << "  " << key << ": mean " << std::setprecision(3) << s.mean << ", sd " << s.sd << '\n';
  }
  if (auto path = arguments.value("summary-json")) {
    write_text_file(*path, json.dump(2) + '\n');
  }
  return 0;
}

}  // namespace robocaf::deploy
