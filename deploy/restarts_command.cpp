// `robocaf restarts LOG...`: how long a team took to stand legally for each
// kick-off and restart of logged matches (sim::RestartReadinessMeter), as a
// table per kind of restart. A match's count of illegal positions says
// whether robots were late; this says by how much time they were not.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/statistics.hpp"
#include "sim/referee.hpp"
#include "sim/restart_readiness.hpp"

namespace robocaf::deploy {

namespace {

const char* kRestartsUsage =
    "usage: robocaf restarts LOG... [--team blue|yellow] [--list]\n"
    "  for every kick-off and restart in the game logs: how long the team (default blue) took\n"
    "  until all its robots stood legally, by the referee's rules, and how many the referee moved\n"
    "  (--list: one line per restart as well, with the robot that stood legally last and, at\n"
    "  kick-offs, how far inside the other half it started and when it first ran home at over\n"
    "  half its top speed, and how far off its belief of its own pose was just before play\n"
    "  started)";

struct Spread {
  double median = 0.0, p95 = 0.0, max = 0.0;
};

// Of `v`; zeros if empty.
Spread spread(const std::vector<double>& v) {
  return {runtime::quantile(v, 0.5), runtime::quantile(v, 0.95), runtime::quantile(v, 1.0)};
}

struct Group {
  unsigned phases = 0, not_ready = 0, repositioned = 0, encroachments = 0;
  std::vector<double> ready_after, seconds;
};

}  // namespace

int restarts_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"team"}, {"help", "list"}, 100000};
  if (arguments.has("help")) {
    std::cout << kRestartsUsage << '\n';
    return 0;
  }
  if (arguments.positional().empty()) throw UsageError(std::string("give at least one game log\n") + kRestartsUsage);
  const std::string team_name = team_option(arguments);
  const msg::Team team = team_name == "blue" ? msg::BLUE : msg::YELLOW;

  // (restart kind, whose): "theirs", "ours" (judged at kick-offs only) or "both" (drop ball).
  std::map<std::pair<int, std::string>, Group> groups;
  for (const std::string& path : arguments.positional()) {
    for (const sim::RestartReadiness& phase : sim::measure_restart_readiness(path)) {
      const sim::RestartReadiness::Team& mine = team == msg::BLUE ? phase.blue : phase.yellow;
      if (!mine.judged) continue;
      const std::string whose = phase.taker == team                                       ? "ours"
                                : phase.taker == msg::BLUE || phase.taker == msg::YELLOW ? "theirs"
                                                                                         : "both";
      if (arguments.has("list")) {
        char ready[32] = "never";
        if (mine.ready_after >= 0.0) std::snprintf(ready, sizeof ready, "%.2f s", mine.ready_after);
        char ran_home[48] = ", never ran home";
        if (mine.last_robot_ran_home_after >= 0.0)
          std::snprintf(ran_home, sizeof ran_home, ", ran home after %.2f s", mine.last_robot_ran_home_after);
        char last[112] = "";
        if (mine.last_robot != 0 && phase.restart == msg::RESTART_KICKOFF)
          std::snprintf(last, sizeof last, "  last robot %u from %+.2f m in the other half%s", mine.last_robot,
                        mine.last_robot_depth, ran_home);
        else if (mine.last_robot != 0)
          std::snprintf(last, sizeof last, "  last robot %u", mine.last_robot);
        char belief[96] = "";
        if (mine.last_robot != 0 && mine.last_robot_belief_error >= 0.0) {
          std::snprintf(belief, sizeof belief, ", believed itself %.2f m off", mine.last_robot_belief_error);
          if (mine.last_robot_perceived_error >= 0.0)
            std::snprintf(belief + std::strlen(belief), sizeof belief - std::strlen(belief), " (perception %.2f m)",
                          mine.last_robot_perceived_error);
        }
        std::printf("%s  %8.2f s  %-11s %-6s  %4.1f s  ready %s  moved %u  encroached %u%s%s\n", path.c_str(), phase.t,
                    sim::Referee::restart_name(phase.restart), whose.c_str(), phase.seconds, ready, mine.repositioned,
                    mine.encroachments, last, belief);
      }
      Group& g = groups[{phase.restart, whose}];
      ++g.phases;
      g.repositioned += mine.repositioned;
      g.encroachments += mine.encroachments;
      g.seconds.push_back(phase.seconds);
      if (mine.ready_after < 0.0)
        ++g.not_ready;
      else
        g.ready_after.push_back(mine.ready_after);
    }
  }
  std::printf("%s at the restarts of %zu game log%s (ready: until every robot of it stood legally)\n",
              team_name.c_str(), arguments.positional().size(), arguments.positional().size() == 1 ? "" : "s");
  std::printf("%-12s %-6s %7s %9s %6s %10s   %-24s %s\n", "restart", "whose", "phases", "not ready", "moved",
              "encroached", "ready after s: median/p95/max", "placement s");
  for (auto& [key, g] : groups) {
    const Spread ready = spread(g.ready_after);
    std::printf("%-12s %-6s %7u %9u %6u %10u   %6.2f %6.2f %6.2f          %5.1f\n",
                sim::Referee::restart_name(static_cast<msg::RestartKind>(key.first)), key.second.c_str(), g.phases,
                g.not_ready, g.repositioned, g.encroachments, ready.median, ready.p95, ready.max,
                spread(g.seconds).median);
  }
  return 0;
}

}  // namespace robocaf::deploy
