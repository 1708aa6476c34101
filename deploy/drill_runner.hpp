#pragma once
// What `robocaf kickoff-drill` and `robocaf restart-drill` share: playing
// many one-placement matches through real actors, a few at a time, and
// summing up how a team stood at each.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "deploy/cli.hpp"
#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"
#include "sim/lead_in.hpp"
#include "sim/restart_readiness.hpp"

namespace robocaf::deploy {

/// s of the logged play before each drill's moment its world plays first
/// (--lead-in; sim::LeadInCycle): as long as a robot with an onboard camera
/// remembers an opponent out of view (WorldTrackerParams). MSL kick-off
/// drills of 20 matches came within 0.1 s of the logged kick-off in 54 %
/// of goals with it, 27 % without; 6 s gave no more (51 %).
constexpr double kDefaultLeadInSeconds = 3.0;

/// The options both drill commands take: --team (team_option()), --jobs J
/// (default one per core), --log-dir DIR (default a temporary folder
/// named after the command, deleted afterwards), --lead-in S (default
/// kDefaultLeadInSeconds, 0 to 60) and --repeats K (default 1, 1 to 1000).
/// Throws UsageError for a bad value. The folder is made by run_drills(),
/// once there is a drill to play: a log that cannot be read leaves nothing
/// behind.
struct DrillOptions {
  std::string team_name;
  msg::Team team = msg::BLUE;
  std::uint64_t jobs = 1;
  bool keep_logs = false;  // --log-dir given
  std::filesystem::path dir;
  double lead_in_seconds = 0.0;  // --lead-in (sim::LeadInCycle)
  unsigned repeats = 1;          // --repeats: drills per moment, each drawing its own noise
  /// --from, --to: only the moments of the match between these times (s of
  /// match time, both included); default every one.
  double from_seconds = 0.0;
  double to_seconds = std::numeric_limits<double>::infinity();
  bool windowed = false;  // either given
  bool within(double t) const { return t >= from_seconds && t <= to_seconds; }
};
DrillOptions drill_options(const Arguments& arguments, const std::string& command);
/// The --from/--to window in words: "between 120 and 150 s", "from 120 s
/// on", "up to 150 s".
std::string window_text(const DrillOptions& options);

/// For each game log given, what its drills' logs are named after: the
/// file's stem, with its folder's name before it where another log given has
/// the same stem ("A81-seed81" beside "B81-seed81"), and its place among the
/// logs (from 1) after that where the two still agree. Different logs thus
/// never write the same drill log.
std::vector<std::string> drill_log_stems(const std::vector<std::string>& paths);

/// How one team stood at one kick-off or restart.
struct DrillOutcome {
  bool known = false;
  double ready_after = -1.0;  // -1: the referee moved one of its robots
  unsigned moved = 0;
  unsigned last_robot = 0;
};
DrillOutcome outcome_of(const sim::RestartReadiness& phase, msg::Team team);
/// "2.31 s", "moved 1", or "-" when unknown.
std::string ready_text(const DrillOutcome& outcome);

/// Outcomes summed up: how many, not ready, moved, and the spread of the
/// times the ready ones took.
struct DrillColumn {
  unsigned restarts = 0, not_ready = 0, moved = 0;
  std::vector<double> ready;
  void add(const DrillOutcome& outcome);
  double quantile(double q) const;
  /// quantile(q) for a table, "%.2f", or "-" when none was ready (no time
  /// to take a quantile of).
  std::string quantile_text(double q) const;
  unsigned over(double seconds) const;
};

/// One drill: a match that starts from `start` and ends as play starts.
struct DrillRun {
  msg::MatchConfig config;
  msg::WorldTruth start;
  std::optional<msg::GameState> opening_restart;  // none: blue's kick-off
  sim::LeadIn lead_in;                            // WorldOptions::lead_in, shared by repeats
  unsigned repeat = 0;                            // which of a moment's repeats (repeated())
  std::string log;  // its game log
  // Out: the drill's one phase, or why it failed.
  std::optional<sim::RestartReadiness> phase;
  std::string error;
};

/// The runs of one moment: `repeats` copies of `run`. The first is `run`
/// itself; the k-th after it draws its own noise (its seed derived from
/// `run`'s and k) and writes its log as LOG-rK.rclog beside `run`'s. A drill
/// decided by a centimetre in a scrum goes either way with the noise, so
/// repeats tell how often a start goes wrong, not whether its one draw did.
std::vector<DrillRun> repeated(const DrillRun& run, unsigned repeats);

/// "  repeat K" for a run's list line where drills are repeated, else "".
std::string repeat_text(const DrillRun& run, const DrillOptions& options);

/// Told of a run, by its index, once it and every run before it are done
/// (played, or failed before or while playing): in the runs' order, one at
/// a time, while later runs still play.
using DrillDone = std::function<void(size_t index)>;

/// Which runs to tell of (DrillDone) as they finish in any order: each once
/// it and every run before it are done, in order.
class DoneInOrder {
 public:
  explicit DoneInOrder(size_t runs) : done_(runs, 0) {}
  /// Marks run `i` done; the runs to tell of now, in order (none where one
  /// before `i` is still playing, or `i` was marked before).
  std::vector<size_t> mark(size_t i);

 private:
  std::vector<char> done_;
  size_t told_ = 0;  // runs 0 .. told_ - 1 have been handed out
};

/// Plays every run that has no error yet (`jobs` at a time, each in its own actor system with one
/// worker thread, so a log is the same whatever `jobs` is), printing
/// "[k/n]" lines to stderr and calling `in_order` for each run (see
/// DrillDone): a long drill's lines appear as it goes, in the same order
/// whatever `jobs` is. Makes the logs' folders first; deletes each log
/// unless `keep_logs`.
void run_drills(std::vector<DrillRun>& runs, std::uint64_t jobs, bool keep_logs, const DrillDone& in_order = {});

}  // namespace robocaf::deploy
