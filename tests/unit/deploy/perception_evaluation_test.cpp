// Image perception on a real (short) match's rendered frames meets issue 4's
// accuracy targets.
#include <gtest/gtest.h>

#include "deploy/local_match.hpp"
#include "deploy/perception_evaluation.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::deploy {
namespace {

TEST(PerceptionEvaluation, OverheadMiroSotMeetsTheAccuracyTargets) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_seed(5);
  options.match.set_half_duration(4);
  options.log_path = ::testing::TempDir() + "robocaf_eval_perception.rclog";
  {
    LocalMatch match{options};
    ASSERT_EQ(match.wait(), "");
  }
  const PerceptionScores s = evaluate_overhead_perception(options.log_path, 3);
  EXPECT_GT(s.frames, 100u);
  EXPECT_LT(s.ball_rmse_mm, 5.0);
  EXPECT_GT(s.ball_found, 0.99);
  EXPECT_LT(s.robot_rmse_mm, 5.0);
  EXPECT_LT(s.heading_rmse_deg, 2.0);
  EXPECT_GE(s.id_accuracy, 0.999);
  EXPECT_EQ(s.false_robots, 0u);
  EXPECT_LT(s.tracked_ball_median_mm, 10.0);
}

TEST(PerceptionEvaluation, OnboardLeagueIsRefused) {
  LocalMatchOptions options;
  options.match = runtime::preset_match_config("msl");
  options.match.set_half_duration(1);
  options.log_path = ::testing::TempDir() + "robocaf_eval_msl.rclog";
  {
    LocalMatch match{options};
    ASSERT_EQ(match.wait(), "");
  }
  EXPECT_THROW(evaluate_overhead_perception(options.log_path), std::runtime_error);
}

}  // namespace
}  // namespace robocaf::deploy
