#include "deploy/tournament.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace robocaf::deploy {

msg::MatchConfig tournament_match_config(const msg::MatchConfig& preset, const msg::TeamConfig& ours,
                                         const msg::TeamConfig& opponent, uint64_t seed, double half_duration) {
  msg::MatchConfig match = preset;
  *match.mutable_blue() = ours;
  *match.mutable_yellow() = opponent;
  match.set_seed(seed);
  if (half_duration > 0) match.set_half_duration(half_duration);
  return match;
}

TournamentTally tally(const std::vector<TournamentMatch>& matches) {
  TournamentTally t;
  long goal_diff = 0;
  uint64_t own_collisions = 0;
  for (const auto& m : matches) {
    if (!m.ok) {
      ++t.failed;
      continue;
    }
    ++t.matches;
    const auto& s = m.summary;
    t.goals_for += s.score_blue;
    t.goals_against += s.score_yellow;
    goal_diff += static_cast<long>(s.score_blue) - static_cast<long>(s.score_yellow);
    if (s.score_blue > s.score_yellow) ++t.wins;
    else if (s.score_blue == s.score_yellow) ++t.draws;
    else ++t.losses;
    own_collisions += s.own_collisions_blue;
    t.illegal_restart_positions += s.illegal_restart_positions_blue;
    t.opponent_illegal_restart_positions += s.illegal_restart_positions_yellow;
  }
  if (t.matches > 0) {
    t.mean_goal_diff = static_cast<double>(goal_diff) / t.matches;
    t.own_collisions_per_match = static_cast<double>(own_collisions) / t.matches;
  }
  return t;
}

std::string format_tournament_table(const std::vector<TournamentMatch>& matches, const TournamentTally& t,
                                    const std::string& our_name, const std::string& opponent_name) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%8s  %7s  %-6s  %12s  %12s  %8s\n", "seed", "score", "result", "own contacts",
                "repositioned", "wall s");
  out += line;
  for (const auto& m : matches) {
    if (!m.ok) {
      std::snprintf(line, sizeof line, "%8llu  failed: %s\n", static_cast<unsigned long long>(m.seed), m.error.c_str());
      out += line;
      continue;
    }
    const auto& s = m.summary;
    const char* result = s.score_blue > s.score_yellow ? "win" : s.score_blue == s.score_yellow ? "draw" : "loss";
    std::snprintf(line, sizeof line, "%8llu  %3u-%-3u  %-6s  %12u  %12u  %8.1f\n",
                  static_cast<unsigned long long>(m.seed), s.score_blue, s.score_yellow, result,
                  s.own_collisions_blue, s.illegal_restart_positions_blue, m.wall_seconds);
    out += line;
  }
  std::snprintf(line, sizeof line,
                "%s vs %s: %u matches, %u wins, %u draws, %u losses (%.0f %% wins), goals %u-%u, "
                "mean goal difference %+.2f\n",
                our_name.c_str(), opponent_name.c_str(), t.matches, t.wins, t.draws, t.losses,
                t.matches ? 100.0 * t.wins / t.matches : 0.0, t.goals_for, t.goals_against, t.mean_goal_diff);
  out += line;
  std::snprintf(line, sizeof line,
                "own collisions per match %.2f, illegal restart positions %u (opponent %u)%s\n",
                t.own_collisions_per_match, t.illegal_restart_positions, t.opponent_illegal_restart_positions,
                t.failed ? ", FAILED MATCHES" : "");
  out += line;
  if (t.failed) {
    std::snprintf(line, sizeof line, "%u match(es) failed\n", t.failed);
    out += line;
  }
  return out;
}

std::string tournament_json(const std::vector<TournamentMatch>& matches, const TournamentTally& t,
                            const std::string& preset, const std::string& our_name, const std::string& opponent_name) {
  using nlohmann::json;
  json j;
  j["preset"] = preset;
  j["team"] = our_name;
  j["opponent"] = opponent_name;
  j["matches"] = t.matches;
  j["failed"] = t.failed;
  j["wins"] = t.wins;
  j["draws"] = t.draws;
  j["losses"] = t.losses;
  j["goals_for"] = t.goals_for;
  j["goals_against"] = t.goals_against;
  j["mean_goal_diff"] = t.mean_goal_diff;
  j["own_collisions_per_match"] = t.own_collisions_per_match;
  j["illegal_restart_positions"] = t.illegal_restart_positions;
  j["opponent_illegal_restart_positions"] = t.opponent_illegal_restart_positions;
  json results = json::array();
  for (const auto& m : matches) {
    json r;
    r["seed"] = m.seed;
    r["ok"] = m.ok;
    r["log"] = m.log;
    r["wall_seconds"] = m.wall_seconds;
    if (m.ok) {
      r["score"] = {{"ours", m.summary.score_blue}, {"opponent", m.summary.score_yellow}};
      r["own_collisions"] = m.summary.own_collisions_blue;
      r["illegal_restart_positions"] = m.summary.illegal_restart_positions_blue;
    } else {
      r["error"] = m.error;
    }
    results.push_back(std::move(r));
  }
  j["results"] = std::move(results);
  return j.dump(2);
}

}  // namespace robocaf::deploy
