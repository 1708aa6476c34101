#pragma once
// A tournament: N matches of our team against one opponent with different
// seeds, and the tally over them (`robocaf tournament`). The tally is a plain
// class over match summaries, so it can be checked without playing.

#include <cstdint>
#include <string>
#include <vector>

#include "messages/config.pb.h"
#include "runtime/match_summary.hpp"

namespace robocaf::deploy {

/// The match config of one tournament match: the league preset with `ours` as
/// blue and `opponent` as yellow (sides and kick-off alternate inside the
/// match), `seed`, and `half_duration` when > 0.
msg::MatchConfig tournament_match_config(const msg::MatchConfig& preset, const msg::TeamConfig& ours,
                                         const msg::TeamConfig& opponent, uint64_t seed, double half_duration);

/// One finished (or failed) match as the tally sees it. Ours is always blue.
struct TournamentMatch {
  uint64_t seed = 0;
  bool ok = false;          // the match finished and its log was read
  std::string error;        // why not, when !ok
  runtime::MatchSummary summary;
  double wall_seconds = 0;
  std::string log;
};

/// Totals over the matches that finished; failed ones are counted apart.
struct TournamentTally {
  uint32_t matches = 0;     // finished
  uint32_t failed = 0;
  uint32_t wins = 0, draws = 0, losses = 0;
  uint32_t goals_for = 0, goals_against = 0;
  double mean_goal_diff = 0;
  double own_collisions_per_match = 0;   // ours: contacts between two of our robots
  uint32_t illegal_restart_positions = 0;  // ours: robots the referee had to move at a restart
  uint32_t opponent_illegal_restart_positions = 0;
};

TournamentTally tally(const std::vector<TournamentMatch>& matches);

/// The result table: one row per match, then the totals.
std::string format_tournament_table(const std::vector<TournamentMatch>& matches, const TournamentTally& totals,
                                    const std::string& our_name, const std::string& opponent_name);

/// The summary JSON: {"preset", "team", "opponent", "matches", "failed",
/// "wins", "draws", "losses", "mean_goal_diff", "own_collisions_per_match",
/// "illegal_restart_positions", "goals_for", "goals_against",
/// "results": [{"seed", "ok", "score": {"ours", "opponent"}, "own_collisions",
/// "illegal_restart_positions", "wall_seconds", "log", "error"?}, ...]}.
std::string tournament_json(const std::vector<TournamentMatch>& matches, const TournamentTally& totals,
                            const std::string& preset, const std::string& our_name, const std::string& opponent_name);

}  // namespace robocaf::deploy
