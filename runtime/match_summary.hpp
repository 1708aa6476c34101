#pragma once
// The result of a match, computed from its game log alone, so a result can be
// recomputed (and checked) from any log long after the match ran.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "messages/geometry.pb.h"

namespace robocaf::runtime {

struct MatchSummary {
  struct Goal {
    double t = 0;                                 // simulated seconds
    msg::Team team = msg::TEAM_UNSPECIFIED;       // the scoring team
    uint32_t robot_id = 0;                        // 0: unknown
  };

  std::string blue_name = "blue";                 // from the log header's config
  std::string yellow_name = "yellow";
  uint32_t score_blue = 0;
  uint32_t score_yellow = 0;
  std::vector<Goal> goals;
  uint32_t shots_blue = 0;
  uint32_t shots_yellow = 0;
  /// True when shots come from REF_EVENT_SHOT events, false when detected
  /// from the ball's motion (see summarize_log).
  bool shots_from_referee = false;
  /// Fraction of WorldTruth samples in which blue had possession; meaningful
  /// only when possession_samples > 0.
  double possession_blue = 0;
  uint64_t possession_samples = 0;
  /// Contacts between two robots of the same team: their centres coming
  /// within two radii (plus 2 mm) in a WorldTruth sample; a pair counts again
  /// only after it has been more than 1 cm farther apart than that.
  uint32_t own_collisions_blue = 0;
  uint32_t own_collisions_yellow = 0;
  /// REF_EVENT_REPOSITION events (a robot of the team was out of its legal
  /// place when the referee restarted play and had to be moved) and
  /// REF_EVENT_ENCROACHMENT events (it came too close to the ball before the
  /// other team took its restart).
  uint32_t illegal_restart_positions_blue = 0;
  uint32_t illegal_restart_positions_yellow = 0;
  double sim_seconds = 0;                         // time of the last record
  bool finished = false;                          // a REF_EVENT_MATCH_END was logged
  bool log_truncated = false;                     // the log's last record was cut short
};

/// Reads the game log at `path` (throws GameLogError / std::runtime_error).
///
/// Definitions:
/// - goals and score: REF_EVENT_GOAL events; the event's team is the scoring team.
/// - possession: over WorldTruth records, the team whose nearest robot is closer
///   to the ball (a team with no robot on the field never has it; exact ties and
///   samples without robots count for nobody).
/// - shots: REF_EVENT_SHOT events if the log has any. Otherwise from WorldTruth:
///   a shot is a ball-speed jump of at least 0.5 m/s between consecutive truth
///   samples after which the ball heads into the opponent goal mouth (its line of
///   travel crosses the goal line within the posts, plus a ball radius) and
///   would reach the goal line before rolling to a stop. It is credited to the
///   team of the robot nearest the ball; a ball heading into the team's own goal
///   is not a shot. Sides follow GameState.blue_on_positive_side (default:
///   blue defends -x). A team's shots count once per 0.5 s.
/// - own collisions and illegal restart positions: see the fields above.
MatchSummary summarize_log(const std::string& path);

/// Extra top-level entries for summary_json, added by the caller (wall time,
/// log path and hash, message counts...).
struct SummaryExtras {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> strings;
  /// Emitted as the object "messages_per_kind".
  std::map<std::string, uint64_t> messages_per_kind;
};

/// The summary as a JSON document:
///   {"score": {"blue": 2, "yellow": 1},
///    "goals": [{"t": 12.3, "team": "blue", "robot_id": 3}, ...],
///    "shots": {"blue": 5, "yellow": 3, "source": "referee"|"ball_motion"},
///    "possession": {"blue": 0.55, "yellow": 0.45} (null when no samples),
///    "own_collisions": {"blue": 0, "yellow": 3},
///    "illegal_restart_positions": {"blue": 0, "yellow": 1},
///    "sim_seconds": 600.0, "finished": true, "log_truncated": false,
///    "teams": {"blue": "<name>", "yellow": "<name>"},
///    ...extras}
/// Throws std::invalid_argument when an extra key collides with a built-in one.
std::string summary_json(const MatchSummary& summary, const SummaryExtras& extras = {}, int indent = 2);

/// A small text table of the result for a terminal.
std::string format_result_table(const MatchSummary& summary);

}  // namespace robocaf::runtime
