// `robocaf restart-drill LOG...`: every restart in game logs at which a team
// had to keep its distance from the ball (the other team's free kicks, goal
// kicks, corners and throw-ins, and drop balls), played again with this
// build from where every robot stood when the referee called it
// (sim::restart_drill()), beside the same restart as the log has it.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/drill_comparison.hpp"
#include "deploy/drill_runner.hpp"
#include "sim/referee.hpp"
#include "sim/restart_drill.hpp"

namespace robocaf::deploy {

namespace {

const char* kRestartDrillUsage =
    "usage: robocaf restart-drill LOG... [--team blue|yellow] [--restart NAME] [--jobs J] [--log-dir DIR]\n"
    "                             [--list] [--lead-in S] [--repeats K] [--from S] [--to S]\n"
    "                             [--summary-json FILE]\n"
    "                             [--against FILE]\n"
    "  every restart in the game logs at which the team (default blue) had to keep its distance\n"
    "  from the ball (the other team's free kicks, goal kicks, corner kicks and throw-ins, and\n"
    "  drop balls) played again with this build from where every robot stood when the referee\n"
    "  called it (the robots start moving as they moved): how long the team took until all its\n"
    "  robots stood legally and how many the referee moved, beside the same restart as logged\n"
    "  --restart NAME  only these: free-kick, goal-kick, corner-kick, throw-in or drop-ball\n"
    "  --jobs J        drills at a time (default: one per core)\n"
    "  --log-dir DIR   keep each drill's game log there, as LOG-restartN.rclog (LOG: the game log's\n"
    "                  name, after its folder's where two logs given have the same name;\n"
    "                  default: deleted)\n"
    "  --lead-in S     first play the S seconds of the match before each moment as logged, so\n"
    "                  the robots see and remember what they did there (default 3; 0: start cold)\n"
    "  --repeats K     play each restart's drill K times, each drawing its own noise (default 1); the\n"
    "                  logged rows count each restart once\n"
    "  --from S, --to S  only the restarts called between these times (s of match time, as\n"
    "                  --list shows them; default every restart)\n"
    "  --summary-json FILE  the table as JSON, and every drill's outcome under a key that names\n"
    "                  the same drill in another run of the same logs (\"runs\")\n"
    "  --against FILE  beside an earlier run's summary JSON (another build, the same logs and\n"
    "                  options): how many drills changed, sooner or later, the time in all, the\n"
    "                  drills with a robot moved in each, and the biggest changes\n"
    "  --list          one line per drill as well";

const std::map<std::string, msg::RestartKind> kRestartNames{{"free-kick", msg::RESTART_FREE_KICK},
                                                             {"goal-kick", msg::RESTART_GOAL_KICK},
                                                             {"corner-kick", msg::RESTART_CORNER_KICK},
                                                             {"throw-in", msg::RESTART_THROW_IN},
                                                             {"drop-ball", msg::RESTART_DROP_BALL}};

}  // namespace

int restart_drill_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"team", "restart", "jobs", "log-dir", "summary-json", "against", "lead-in", "repeats", "from", "to"}, {"help", "list"}, 100000};
  if (arguments.has("help")) {
    std::cout << kRestartDrillUsage << '\n';
    return 0;
  }
  if (arguments.positional().empty()) throw UsageError(std::string("give at least one game log\n") + kRestartDrillUsage);
  std::optional<msg::RestartKind> only;
  if (auto name = arguments.value("restart")) {
    const auto it = kRestartNames.find(*name);
    if (it == kRestartNames.end())
      throw UsageError("--restart must be free-kick, goal-kick, corner-kick, throw-in or drop-ball, not '" + *name +
                       "'");
    only = it->second;
  }
  const DrillOptions options = drill_options(arguments, "restart-drill");
  // Read before any drill is played: a bad file fails at once.
  const std::optional<AgainstRun> against = against_run(arguments);
  const std::string& team_name = options.team_name;
  const msg::Team team = options.team;
  namespace fs = std::filesystem;
  const fs::path& dir = options.dir;

  struct Drill {
    sim::RestartMoment moment;
    DrillOutcome logged, replayed;
    std::string key;  // drill_key(): this drill in another run of the same logs
  };
  std::vector<Drill> drills;
  std::vector<DrillRun> runs;
  const std::vector<std::string> stems = drill_log_stems(arguments.positional());
  for (size_t log = 0; log < arguments.positional().size(); ++log) {
    const std::string& path = arguments.positional()[log];
    const std::vector<sim::RestartReadiness> phases = sim::measure_restart_readiness(path);
    for (sim::RestartMoment& moment : sim::restart_moments(path, options.lead_in_seconds)) {
      // The team is judged where it keeps the distance: not at its own restarts.
      if (moment.kind != msg::RESTART_DROP_BALL && moment.team == team) continue;
      if (only && moment.kind != *only) continue;
      if (!options.within(moment.t)) continue;
      Drill drill;
      for (const auto& phase : phases)
        if (phase.restart == moment.kind && std::abs(phase.t - moment.t) < 0.05) drill.logged = outcome_of(phase, team);
      DrillRun run;
      run.log = (dir / (stems[log] + "-restart" + std::to_string(moment.number) + ".rclog")).string();
      try {
        sim::RestartDrill restart = sim::restart_drill(moment);
        run.config = restart.config;
        run.start = restart.start;
        run.lead_in = sim::LeadIn(std::move(restart.lead_in));
        run.opening_restart = restart.opening;
      } catch (const std::exception& e) {
        run.error = e.what();
      }
      moment.lead_in.clear();  // the run has it
      drill.moment = std::move(moment);
      for (DrillRun& repeat : repeated(run, options.repeats)) {
        drill.key = drill_key(stems[log], "restart", drill.moment.number, repeat.repeat);
        drills.push_back(drill);
        runs.push_back(std::move(repeat));
      }
    }
  }
  if (options.windowed && drills.empty())
    throw std::runtime_error("no restart to drill " + window_text(options) + " in the logs given");
  std::cerr << "robocaf restart-drill: " << drills.size() / options.repeats << " restarts in " << arguments.positional().size()
            << " logs, "
            << (options.repeats > 1 ? std::to_string(options.repeats) + " drills each, " : std::string())
            << options.jobs << " at a time" << std::endl;
  // Each drill's outcome, and its line, as soon as it and those before it
  // are done: a long run shows its lines as it goes.
  const bool list = arguments.has("list");
  auto judge = [&](size_t i) {
    DrillRun& run = runs[i];
    Drill& d = drills[i];
    if (run.error.empty() && run.phase->restart != d.moment.kind)
      run.error = "the drill's log " + run.log + " opens with another restart";
    const char* name = sim::Referee::restart_name(d.moment.kind);
    if (!run.error.empty()) {
      std::printf("%s  restart %u (%s) at %.2f s: FAILED, %s\n", d.moment.log.c_str(), d.moment.number, name,
                  d.moment.t, run.error.c_str());
    } else {
      d.replayed = outcome_of(*run.phase, team);
      if (list)
        std::printf("%s  restart %u at %8.2f s%s  %-11s  logged %-9s  drill %-9s  last robot %u\n",
                    d.moment.log.c_str(), d.moment.number, d.moment.t, repeat_text(run, options).c_str(), name,
                    ready_text(d.logged).c_str(), ready_text(d.replayed).c_str(), d.replayed.last_robot);
    }
    std::fflush(stdout);
  };
  run_drills(runs, options.jobs, options.keep_logs, judge);
  if (!options.keep_logs) fs::remove_all(dir);

  // Rows by restart, in the order of RestartKind.
  std::map<int, std::pair<DrillColumn, DrillColumn>> by_kind;
  DrillColumn all_logged, all_replayed;
  unsigned failed = 0;
  for (size_t i = 0; i < drills.size(); ++i) {
    const Drill& d = drills[i];
    if (!runs[i].error.empty()) {
      ++failed;
      continue;
    }
    auto& [logged, replayed] = by_kind[d.moment.kind];
    if (runs[i].repeat == 0) {
      logged.add(d.logged);
      all_logged.add(d.logged);
    }
    replayed.add(d.replayed);
    all_replayed.add(d.replayed);
  }
  std::printf("%s at restarts where it kept its distance, %zu drills (ready: until every robot of it stood\n"
              "legally; the logged rows are the same restarts as the matches played them)\n",
              team_name.c_str(), drills.size());
  std::printf("%-12s %-7s %8s %9s %6s %8s %8s %8s %8s\n", "restart", "", "restarts", "not ready", "moved", "median s",
              "p95 s", "max s", "over 6 s");
  auto row = [](const char* restart, const char* which, const DrillColumn& c) {
    std::printf("%-12s %-7s %8u %9u %6u %8s %8s %8s %8u\n", restart, which, c.restarts, c.not_ready, c.moved,
                c.quantile_text(0.5).c_str(), c.quantile_text(0.95).c_str(), c.quantile_text(1.0).c_str(),
                c.over(6.0));
  };
  for (const auto& [kind, columns] : by_kind) {
    const char* name = sim::Referee::restart_name(static_cast<msg::RestartKind>(kind));
    row(name, "logged", columns.first);
    row(name, "drill", columns.second);
  }
  row("all", "logged", all_logged);
  row("all", "drill", all_replayed);

  // Every drill's outcome under its key, and beside an earlier run's.
  const std::vector<KeyedOutcome> outcomes = keyed_outcomes(drills, runs);
  const std::optional<DrillComparison> comparison = report_against(against, outcomes);

  if (auto path = arguments.value("summary-json")) {
    auto column = [](const DrillColumn& c) {
      return nlohmann::json{{"restarts", c.restarts},         {"not_ready", c.not_ready},
                            {"moved", c.moved},               {"ready_median_s", c.quantile(0.5)},
                            {"ready_p95_s", c.quantile(0.95)}, {"ready_max_s", c.quantile(1.0)}};
    };
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [kind, columns] : by_kind)
      kinds[sim::Referee::restart_name(static_cast<msg::RestartKind>(kind))] = {{"logged", column(columns.first)},
                                                                              {"drill", column(columns.second)}};
    nlohmann::json json{{"team", team_name},
                        {"drills", drills.size()},
                        {"failed", failed},
                        {"logged", column(all_logged)},
                        {"drill", column(all_replayed)},
                        {"by_restart", kinds}};
    json["runs"] = outcomes_json(outcomes);
    if (comparison) json["against"] = comparison_json(*comparison, against->path);
    write_text_file(*path, json.dump(2) + "\n");
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace robocaf::deploy
