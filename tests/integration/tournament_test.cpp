// `robocaf tournament` against the shipped baseline opponents, run as a user would.
#include <gtest/gtest.h>

#include <filesystem>

#include "process.hpp"

namespace robocaf::testing {
namespace {

TEST(TournamentCommand, PlaysEveryMatchInParallelAndWritesTheTally) {
  const std::string dir = temp_path("tournament_chaser");
  const std::string json = temp_path("tournament_chaser.json");
  std::filesystem::remove_all(dir);
  auto result = run("tournament --preset mirosot --opponent chaser --matches 3 --jobs 2 --half-duration 10 --log-dir " +
                    dir + " --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  auto summary = read_json(json);
  EXPECT_EQ(summary["opponent"].get<std::string>(), "chaser");
  EXPECT_EQ(summary["matches"].get<int>(), 3);
  EXPECT_EQ(summary["wins"].get<int>() + summary["draws"].get<int>() + summary["losses"].get<int>(), 3);
  ASSERT_EQ(summary["results"].size(), 3u);
  int goal_diff = 0;
  for (const auto& r : summary["results"]) {
    EXPECT_TRUE(r["ok"].get<bool>());
    EXPECT_TRUE(std::filesystem::exists(r["log"].get<std::string>()));
    goal_diff += r["score"]["ours"].get<int>() - r["score"]["opponent"].get<int>();
  }
  EXPECT_DOUBLE_EQ(summary["mean_goal_diff"].get<double>(), goal_diff / 3.0);
  EXPECT_TRUE(summary.contains("own_collisions_per_match"));
  EXPECT_TRUE(summary.contains("illegal_restart_positions"));
  EXPECT_NE(result.output.find("[3/3]"), std::string::npos) << "shows progress: " << result.output;
  EXPECT_NE(result.output.find("mean goal difference"), std::string::npos) << result.output;

  // The seeds' logs are the matches `robocaf match` would play with that config and seed.
  auto replay = run("match --config " + dir + "/match.pbtxt --seed 2 --quiet --log " + temp_path("t_seed2.rclog") +
                    " --summary-json " + temp_path("t_seed2.json"));
  ASSERT_EQ(replay.status, 0) << replay.output;
  const auto again = read_json(temp_path("t_seed2.json"));
  EXPECT_EQ(again["teams"]["yellow"].get<std::string>(), "chaser");
  EXPECT_EQ(again["score"]["blue"].get<int>(), summary["results"][1]["score"]["ours"].get<int>());
  EXPECT_EQ(again["score"]["yellow"].get<int>(), summary["results"][1]["score"]["opponent"].get<int>());
}

TEST(TournamentCommand, UnknownOpponentOrBadCountsExitWithTwo) {
  auto unknown = run("tournament --preset mirosot --opponent nobody --matches 1");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("unknown team 'nobody'"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("wall"), std::string::npos) << "names the shipped teams: " << unknown.output;
  EXPECT_EQ(run("tournament --preset mirosot --opponent wall --matches 0").status, 2);
  EXPECT_EQ(run("tournament --preset nowhere --opponent wall --matches 1").status, 2);
  EXPECT_EQ(run("tournament --preset mirosot --matches 1").status, 2);
}

}  // namespace
}  // namespace robocaf::testing
