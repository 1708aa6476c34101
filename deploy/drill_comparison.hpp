#pragma once
// Two builds' drills of the same moments, side by side: `robocaf
// kickoff-drill` and `restart-drill` write every drill's outcome into their
// summary JSON, and `--against FILE` pairs this run's drills with those of
// an earlier run (another build, the same logs and options). The drills of
// two builds start from the same moments with the same noise, so a drill
// that changed changed with the build; the columns of the table alone hide
// how many changed each way. But changed with the build is not changed by
// the rule: any change at all, down to the planner's random seed, sends
// most crowded drills down another way, sooner or later by chance (MSL, 378
// kick-off drills: a new planner seed alone made 72 sooner and 84 later, and
// robots moved in 2 -> 0 drills). So each split comes with the sign test's
// p: how likely chance alone splits so unevenly.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/drill_runner.hpp"

namespace robocaf::deploy {

/// One drill's outcome under a name that finds the same drill in another
/// run of the same logs: the drill log's stem (drill_log_stems()), which
/// goal or restart of it, and which repeat.
struct KeyedOutcome {
  std::string key;
  DrillOutcome outcome;
};

/// "seed7 goal 1 repeat 0": the key of a run's drill.
std::string drill_key(const std::string& stem, const std::string& moment, unsigned number, unsigned repeat);

/// The summary JSON's "runs": one {"key", "ready_s" (null when moved or
/// unknown), "moved", "known"} per drill, in the runs' order.
nlohmann::json outcomes_json(const std::vector<KeyedOutcome>& outcomes);
/// Those runs read back from a summary JSON (`path` names it in errors).
/// Throws std::runtime_error for a summary without "runs" (written by a
/// build from before they were) or a malformed entry.
std::vector<KeyedOutcome> outcomes_from_json(const nlohmann::json& summary, const std::string& path);

/// How the drills both runs played changed. Sooner and later count drills
/// ready in both whose times differ by more than `kSameSeconds`; the sum is
/// over those ready in both.
struct DrillComparison {
  static constexpr double kSameSeconds = 0.005;
  unsigned paired = 0, only_before = 0, only_now = 0;
  unsigned changed = 0, sooner = 0, later = 0;
  double ready_change_s = 0.0;
  unsigned moved_before = 0, moved_now = 0;  // paired drills in which the referee moved a robot
  // Of those, the drills in which it moved one in that run only.
  unsigned moved_only_before = 0, moved_only_now = 0;
  /// runtime::sign_test_p() of sooner against later, and of the drills with
  /// a robot moved in one run only: below kChanceP, a split chance alone
  /// seldom makes.
  static constexpr double kChanceP = 0.05;
  double sooner_later_p() const;
  double moved_p() const;
  struct Change {
    std::string key;
    DrillOutcome before, now;
  };
  /// The changed drills, a robot moved in one run and not the other first,
  /// then by how much the time changed; at most `keep` of them.
  std::vector<Change> biggest;
};
DrillComparison compare_drills(const std::vector<KeyedOutcome>& before, const std::vector<KeyedOutcome>& now,
                               std::size_t keep = 10);

/// The comparison as lines for the table's foot, naming `against` (the
/// earlier summary's path).
std::string comparison_text(const DrillComparison& comparison, const std::string& against);
/// And for the summary JSON ("against").
nlohmann::json comparison_json(const DrillComparison& comparison, const std::string& against);

/// Reads the earlier run's summary at `path` (for --against), before any
/// drill is played: throws std::runtime_error naming the file when it
/// cannot be read, is not JSON, or holds no runs.
std::vector<KeyedOutcome> read_drill_summary(const std::string& path);

/// --against FILE of a drill command: the earlier run's drills, read by
/// read_drill_summary() when the option is given.
struct AgainstRun {
  std::string path;
  std::vector<KeyedOutcome> outcomes;
};
std::optional<AgainstRun> against_run(const Arguments& arguments);

/// A drill command's outcomes under their drills' keys, in the runs' order:
/// `drills[i].key` and `drills[i].replayed`, unknown where `runs[i]` failed.
template <class Drill>
std::vector<KeyedOutcome> keyed_outcomes(const std::vector<Drill>& drills, const std::vector<DrillRun>& runs) {
  std::vector<KeyedOutcome> out;
  for (std::size_t i = 0; i < drills.size() && i < runs.size(); ++i)
    out.push_back({drills[i].key, runs[i].error.empty() ? drills[i].replayed : DrillOutcome{}});
  return out;
}

/// With an earlier run, the comparison of `now` against it, printed to
/// stdout (comparison_text()) and returned for the summary JSON.
std::optional<DrillComparison> report_against(const std::optional<AgainstRun>& against,
                                              const std::vector<KeyedOutcome>& now);

}  // namespace robocaf::deploy
