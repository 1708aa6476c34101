// Kick-off drills: goals found in a real game log file, and the drill's start
// and config (colours swapped, field turned when the scorers defended -x).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "sim/kickoff_drill.hpp"
#include "sim/restart_drill.hpp"

namespace robocaf::sim {
namespace {

msg::RobotTruth robot(msg::Team team, uint32_t id, double x, double y, double theta) {
  msg::RobotTruth r;
  r.set_team(team);
  r.set_robot_id(id);
  r.mutable_pose()->set_x(x);
  r.mutable_pose()->set_y(y);
  r.mutable_pose()->set_theta(theta);
  return r;
}

// A log with two goals by blue (one each half, the sides switched between)
// and one by yellow.
std::string write_log() {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("kickoff_drill_" + std::to_string(::getpid()) + ".rclog")).string();
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  header.mutable_config()->set_seed(7);
  header.mutable_config()->mutable_blue()->set_name("ours");
  header.mutable_config()->mutable_yellow()->set_name("theirs");
  runtime::GameLogWriter writer(path, header);
  auto state = [&](double t, bool blue_positive) {
    msg::LogRecord r;
    r.set_t(t);
    r.mutable_game_state()->set_blue_on_positive_side(blue_positive);
    writer.append(r);
  };
  auto truth = [&](double t, double blue_x) {
    msg::LogRecord r;
    r.set_t(t);
    *r.mutable_truth()->add_robots() = robot(msg::BLUE, 2, blue_x, 0.3, 0.5);
    *r.mutable_truth()->add_robots() = robot(msg::YELLOW, 1, -0.1, -0.2, 0.0);
    r.mutable_truth()->mutable_ball_position()->set_x(blue_x);
    writer.append(r);
  };
  auto goal = [&](double t, msg::Team team, uint32_t id) {
    msg::LogRecord r;
    r.set_t(t);
    r.mutable_referee()->set_kind(msg::REF_EVENT_GOAL);
    r.mutable_referee()->set_team(team);
    r.mutable_referee()->set_robot_id(id);
    writer.append(r);
  };
  state(0.0, false);
  truth(10.0, 0.7);
  goal(10.02, msg::BLUE, 2);
  truth(20.0, 0.1);
  goal(20.02, msg::YELLOW, 1);
  state(30.0, true);
  truth(40.0, -0.7);
  goal(40.02, msg::BLUE, 2);
  writer.close();
  return path;
}

TEST(KickoffDrill, FindsEachGoalOfTheTeamWithTheWorldJustBeforeIt) {
  const std::string path = write_log();
  const auto goals = goal_moments(path, msg::BLUE);
  ASSERT_EQ(goals.size(), 2u);
  EXPECT_DOUBLE_EQ(goals[0].t, 10.02);
  EXPECT_EQ(goals[0].number, 1u);
  EXPECT_EQ(goals[0].scorer_robot, 2u);
  EXPECT_FALSE(goals[0].scorer_on_positive_side);
  EXPECT_DOUBLE_EQ(goals[0].truth.robots(0).pose().x(), 0.7);
  EXPECT_EQ(goals[1].number, 2u);
  EXPECT_TRUE(goals[1].scorer_on_positive_side) << "the sides switched at half time";
  EXPECT_DOUBLE_EQ(goals[1].truth.robots(0).pose().x(), -0.7);
  EXPECT_EQ(goals[1].config.seed(), 7u);
  const auto theirs = goal_moments(path, msg::YELLOW);
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_TRUE(theirs[0].scorer_on_positive_side);
  std::filesystem::remove(path);
}

TEST(KickoffDrill, ScorersPlayYellowOnThePositiveSideAndTheOthersKickOff) {
  const std::string path = write_log();
  const auto goals = goal_moments(path, msg::BLUE);
  std::filesystem::remove(path);

  // First half: blue scored attacking +x; as yellow it must defend +x, so
  // the field turns half round.
  const KickoffDrill first = kickoff_drill(goals[0]);
  EXPECT_EQ(first.config.yellow().name(), "ours");
  EXPECT_EQ(first.config.blue().name(), "theirs");
  EXPECT_DOUBLE_EQ(first.config.sim().start_position_sd(), kDrillStartPositionSd)
      << "robots localised as in the middle of the match, not as just put down";
  ASSERT_EQ(first.start.robots_size(), 2);
  const auto& scorer = first.start.robots(0);
  EXPECT_EQ(scorer.team(), msg::YELLOW);
  EXPECT_EQ(scorer.robot_id(), 2u);
  EXPECT_DOUBLE_EQ(scorer.pose().x(), -0.7) << "deep in the other half, which is now -x";
  EXPECT_DOUBLE_EQ(scorer.pose().y(), -0.3);
  EXPECT_NEAR(scorer.pose().theta(), 0.5 - M_PI, 1e-12);
  EXPECT_EQ(first.start.robots(1).team(), msg::BLUE);
  EXPECT_DOUBLE_EQ(first.start.ball_position().x(), -0.7);

  // Second half: blue already defended +x; nothing turns.
  const KickoffDrill second = kickoff_drill(goals[1]);
  EXPECT_DOUBLE_EQ(second.start.robots(0).pose().x(), -0.7);
  EXPECT_DOUBLE_EQ(second.start.robots(0).pose().y(), 0.3);
  EXPECT_DOUBLE_EQ(second.start.robots(0).pose().theta(), 0.5);
  EXPECT_NE(first.config.seed(), second.config.seed()) << "each goal its own seed";
  EXPECT_EQ(kickoff_drill(goals[1]).config.seed(), second.config.seed()) << "the same for every run";
}

TEST(KickoffDrill, APositionThatIsNotANumberIsAnErrorNamingTheLogAndGoal) {
  GoalMoment goal;
  goal.log = "match.rclog";
  goal.number = 3;
  *goal.truth.add_robots() = robot(msg::BLUE, 1, std::nan(""), 0.0, 0.0);
  try {
    kickoff_drill(goal);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("match.rclog"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("goal 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace robocaf::sim
