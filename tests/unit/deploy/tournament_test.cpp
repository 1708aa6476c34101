#include "deploy/tournament.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runtime/config_loader.hpp"

namespace robocaf::deploy {
namespace {

TournamentMatch finished(uint64_t seed, uint32_t ours, uint32_t theirs, uint32_t contacts = 0, uint32_t moved = 0) {
  TournamentMatch m;
  m.seed = seed;
  m.ok = true;
  m.summary.score_blue = ours;
  m.summary.score_yellow = theirs;
  m.summary.own_collisions_blue = contacts;
  m.summary.own_collisions_yellow = 7;  // the opponent's contacts are not ours
  m.summary.illegal_restart_positions_blue = moved;
  m.summary.illegal_restart_positions_yellow = 1;
  m.summary.finished = true;
  return m;
}

TEST(Tournament, TallyCountsResultsFromOurSideAndSkipsFailedMatches) {
  TournamentMatch failed;
  failed.seed = 4;
  failed.error = "exit status 1";
  const std::vector<TournamentMatch> matches{finished(1, 5, 0, 1), finished(2, 2, 2), finished(3, 0, 1, 2, 3), failed};
  const TournamentTally t = tally(matches);
  EXPECT_EQ(t.matches, 3u);
  EXPECT_EQ(t.failed, 1u);
  EXPECT_EQ(t.wins, 1u);
  EXPECT_EQ(t.draws, 1u);
  EXPECT_EQ(t.losses, 1u);
  EXPECT_EQ(t.goals_for, 7u);
  EXPECT_EQ(t.goals_against, 3u);
  EXPECT_DOUBLE_EQ(t.mean_goal_diff, 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(t.own_collisions_per_match, 1.0);
  EXPECT_EQ(t.illegal_restart_positions, 3u);
  EXPECT_EQ(t.opponent_illegal_restart_positions, 3u);

  const auto j = nlohmann::json::parse(tournament_json(matches, t, "mirosot", "robocaf", "chaser"));
  EXPECT_EQ(j["wins"].get<int>(), 1);
  EXPECT_EQ(j["draws"].get<int>(), 1);
  EXPECT_EQ(j["losses"].get<int>(), 1);
  EXPECT_DOUBLE_EQ(j["mean_goal_diff"].get<double>(), 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(j["own_collisions_per_match"].get<double>(), 1.0);
  EXPECT_EQ(j["illegal_restart_positions"].get<int>(), 3);
  ASSERT_EQ(j["results"].size(), 4u);
  EXPECT_FALSE(j["results"][3]["ok"].get<bool>());
  EXPECT_EQ(j["results"][3]["error"].get<std::string>(), "exit status 1");

  const std::string table = format_tournament_table(matches, t, "robocaf", "chaser");
  EXPECT_NE(table.find("5-0"), std::string::npos) << table;
  EXPECT_NE(table.find("failed: exit status 1"), std::string::npos) << table;
  EXPECT_NE(table.find("1 wins, 1 draws, 1 losses"), std::string::npos) << table;
}

TEST(Tournament, NoFinishedMatchGivesZerosNotNaN) {
  const TournamentTally t = tally({});
  EXPECT_EQ(t.matches, 0u);
  EXPECT_EQ(t.mean_goal_diff, 0.0);
  EXPECT_EQ(t.own_collisions_per_match, 0.0);
}

TEST(Tournament, MatchConfigPutsUsInBlueAndTheOpponentInYellow) {
  const auto preset = runtime::preset_match_config("ssl");
  const auto config =
      tournament_match_config(preset, runtime::team_config("default"), runtime::team_config("wall"), 9, 30.0);
  EXPECT_EQ(config.blue().strategy(), msg::STRATEGY_DEFAULT);
  EXPECT_EQ(config.yellow().strategy(), msg::STRATEGY_WALL);
  EXPECT_EQ(config.yellow().name(), "wall");
  EXPECT_EQ(config.seed(), 9u);
  EXPECT_DOUBLE_EQ(config.half_duration(), 30.0);
  EXPECT_EQ(config.league().name(), "ssl");
  EXPECT_DOUBLE_EQ(tournament_match_config(preset, {}, {}, 1, 0.0).half_duration(), preset.half_duration());
}

}  // namespace
}  // namespace robocaf::deploy
