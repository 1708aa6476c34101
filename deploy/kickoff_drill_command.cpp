// `robocaf kickoff-drill LOG...`: the other team's kick-off after each of a
// team's goals in game logs, played again with this build from where every
// robot stood when the ball went in (sim::kickoff_drill()), beside the same
// kick-off as the log has it. A tournament's count of robots moved at
// kick-offs changes with everything that happened before each one; the drill
// puts two builds on the same starts, a few seconds of play each.
//
// Threads rather than processes (unlike the tournament): a drill is a few
// seconds of simulated time, and each one's actor system runs one worker
// thread, so its log is reproducible whatever --jobs is.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/drill_comparison.hpp"
#include "deploy/drill_runner.hpp"
#include "sim/kickoff_drill.hpp"
#include "sim/restart_readiness.hpp"

namespace robocaf::deploy {

namespace {

const char* kKickoffDrillUsage =
    "usage: robocaf kickoff-drill LOG... [--team blue|yellow] [--jobs J] [--log-dir DIR] [--list]\n"
    "                             [--lead-in S] [--repeats K] [--from S] [--to S] [--summary-json FILE]\n"
    "                             [--against FILE]\n"
    "  for every goal the team (default blue) scored in the game logs, the other team's kick-off\n"
    "  played again with this build from where every robot stood when the ball went in (the\n"
    "  robots start moving as they moved): how long the scoring team took until all its robots\n"
    "  stood legally and how many the referee moved, beside the same kick-off as logged\n"
    "  --jobs J        drills at a time (default: one per core)\n"
    "  --log-dir DIR   keep each drill's game log there, as LOG-goalN.rclog (LOG: the game log's\n"
    "                  name, after its folder's where two logs given have the same name;\n"
    "                  default: deleted)\n"
    "  --lead-in S     first play the S seconds of the match before each moment as logged, so\n"
    "                  the robots see and remember what they did there (default 3; 0: start cold)\n"
    "  --repeats K     play each goal's drill K times, each drawing its own noise (default 1); the\n"
    "                  logged column counts each kick-off once\n"
    "  --from S, --to S  only the goals scored between these times (s of match time, as --list\n"
    "                  shows them; default every goal)\n"
    "  --summary-json FILE  the table as JSON, and every drill's outcome under a key that names\n"
    "                  the same drill in another run of the same logs (\"runs\")\n"
    "  --against FILE  beside an earlier run's summary JSON (another build, the same logs and\n"
    "                  options): how many drills changed, sooner or later, the time in all, the\n"
    "                  drills with a robot moved in each, and the biggest changes\n"
    "  --list          one line per drill as well";

}  // namespace

int kickoff_drill_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"team", "jobs", "log-dir", "summary-json", "against", "lead-in", "repeats", "from", "to"}, {"help", "list"}, 100000};
  if (arguments.has("help")) {
    std::cout << kKickoffDrillUsage << '\n';
    return 0;
  }
  if (arguments.positional().empty()) throw UsageError(std::string("give at least one game log\n") + kKickoffDrillUsage);
  const DrillOptions options = drill_options(arguments, "kickoff-drill");
  // Read before any drill is played: a bad file fails at once.
  const std::optional<AgainstRun> against = against_run(arguments);
  const std::string& team_name = options.team_name;
  const msg::Team team = options.team;
  namespace fs = std::filesystem;
  const fs::path& dir = options.dir;

  struct Drill {
    sim::GoalMoment goal;
    DrillOutcome logged, replayed;
    std::string key;  // drill_key(): this drill in another run of the same logs
  };
  std::vector<Drill> drills;
  std::vector<DrillRun> runs;
  const std::vector<std::string> stems = drill_log_stems(arguments.positional());
  for (size_t log = 0; log < arguments.positional().size(); ++log) {
    const std::string& path = arguments.positional()[log];
    const std::vector<sim::RestartReadiness> phases = sim::measure_restart_readiness(path);
    for (sim::GoalMoment& goal : sim::goal_moments(path, team, options.lead_in_seconds)) {
      if (!options.within(goal.t)) continue;
      Drill drill;
      // The kick-off the goal led to, as logged: the phase that began with it.
      for (const auto& phase : phases)
        if (phase.restart == msg::RESTART_KICKOFF && std::abs(phase.t - goal.t) < 0.05)
          drill.logged = outcome_of(phase, team);
      DrillRun run;
      run.log = (dir / (stems[log] + "-goal" + std::to_string(goal.number) + ".rclog")).string();
      try {
        sim::KickoffDrill kickoff = sim::kickoff_drill(goal);
        run.config = kickoff.config;
        run.start = kickoff.start;
        run.lead_in = sim::LeadIn(std::move(kickoff.lead_in));
      } catch (const std::exception& e) {
        run.error = e.what();
      }
      goal.lead_in.clear();  // the run has it
      drill.goal = std::move(goal);
      for (DrillRun& repeat : repeated(run, options.repeats)) {
        drill.key = drill_key(stems[log], "goal", drill.goal.number, repeat.repeat);
        drills.push_back(drill);
        runs.push_back(std::move(repeat));
      }
    }
  }
  if (options.windowed && drills.empty())
    throw std::runtime_error("no goal by " + team_name + " " + window_text(options) + " in the logs given");
  std::cerr << "robocaf kickoff-drill: " << drills.size() / options.repeats << " goals by " << team_name << " in "
            << arguments.positional().size() << " logs, "
            << (options.repeats > 1 ? std::to_string(options.repeats) + " drills each, " : std::string())
            << options.jobs << " at a time" << std::endl;
  // Each drill's outcome, and its line, as soon as it and those before it
  // are done: a long run shows its lines as it goes.
  const bool list = arguments.has("list");
  auto judge = [&](size_t i) {
    DrillRun& run = runs[i];
    Drill& d = drills[i];
    if (run.error.empty() && run.phase->restart != msg::RESTART_KICKOFF)
      run.error = "the drill's log " + run.log + " has no kick-off";
    if (!run.error.empty()) {
      std::printf("%s  goal %u at %.2f s: FAILED, %s\n", d.goal.log.c_str(), d.goal.number, d.goal.t,
                  run.error.c_str());
    } else {
      d.replayed = outcome_of(*run.phase, msg::YELLOW);  // the scorers play yellow in the drill
      if (list)
        std::printf("%s  goal %u at %8.2f s%s  by robot %u  logged %-9s  drill %-9s  last robot %u\n",
                    d.goal.log.c_str(), d.goal.number, d.goal.t, repeat_text(run, options).c_str(),
                    d.goal.scorer_robot, ready_text(d.logged).c_str(), ready_text(d.replayed).c_str(),
                    d.replayed.last_robot);
    }
    std::fflush(stdout);
  };
  run_drills(runs, options.jobs, options.keep_logs, judge);
  if (!options.keep_logs) fs::remove_all(dir);

  DrillColumn logged, replayed;
  unsigned failed = 0;
  for (size_t i = 0; i < drills.size(); ++i) {
    if (!runs[i].error.empty()) {
      ++failed;
      continue;
    }
    if (runs[i].repeat == 0) logged.add(drills[i].logged);
    replayed.add(drills[i].replayed);
  }
  std::printf("%s at the other team's kick-off after its goals, %zu drills (ready: until every robot of it\n"
              "stood legally; the logged column is the same kick-off as the match played it)\n",
              team_name.c_str(), drills.size());
  std::printf("%-8s %9s %9s %6s %8s %8s %8s %8s\n", "", "kick-offs", "not ready", "moved", "median s", "p95 s",
              "max s", "over 7 s");
  for (const auto& [name, c] : {std::pair<const char*, const DrillColumn&>{"logged", logged}, {"drill", replayed}})
    std::printf("%-8s %9u %9u %6u %8s %8s %8s %8u\n", name, c.restarts, c.not_ready, c.moved,
                c.quantile_text(0.5).c_str(), c.quantile_text(0.95).c_str(), c.quantile_text(1.0).c_str(), c.over(7.0));

  // Every drill's outcome under its key, and beside an earlier run's.
  const std::vector<KeyedOutcome> outcomes = keyed_outcomes(drills, runs);
  const std::optional<DrillComparison> comparison = report_against(against, outcomes);

  if (auto path = arguments.value("summary-json")) {
    auto column = [](const DrillColumn& c) {
      return nlohmann::json{{"kickoffs", c.restarts},         {"not_ready", c.not_ready},
                            {"moved", c.moved},               {"ready_median_s", c.quantile(0.5)},
                            {"ready_p95_s", c.quantile(0.95)}, {"ready_max_s", c.quantile(1.0)}};
    };
    nlohmann::json json{{"team", team_name}, {"drills", drills.size()}, {"failed", failed},
                        {"logged", column(logged)}, {"drill", column(replayed)}};
    json["runs"] = outcomes_json(outcomes);
    if (comparison) json["against"] = comparison_json(*comparison, against->path);
    write_text_file(*path, json.dump(2) + "\n");
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace robocaf::deploy
