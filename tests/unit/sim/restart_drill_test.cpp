// Restart drills: restarts found in a real game log file, and the drill's
// start (field turned when blue defended +x, colours kept) and opening.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "sim/restart_drill.hpp"

namespace robocaf::sim {
namespace {

// A log with a kick-off, a throw-in for yellow called in the first half
// (its state logged twice), a drop ball in the second half (blue at +x)
// and, right after it, a free kick for blue at another spot.
std::string write_log() {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("restart_drill_" + std::to_string(::getpid()) + ".rclog")).string();
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  header.mutable_config()->set_seed(9);
  runtime::GameLogWriter writer(path, header);
  auto truth = [&](double t, double blue_x) {
    msg::LogRecord r;
    r.set_t(t);
    auto* robot = r.mutable_truth()->add_robots();
    robot->set_team(msg::BLUE);
    robot->set_robot_id(4);
    robot->mutable_pose()->set_x(blue_x);
    robot->mutable_pose()->set_y(0.25);
    robot->mutable_pose()->set_theta(0.5);
    r.mutable_truth()->mutable_ball_position()->set_x(blue_x + 0.1);
    writer.append(r);
  };
  auto state = [&](double t, msg::RefereeCommand command, msg::RestartKind kind, msg::Team team, double x,
                   bool blue_positive) {
    msg::LogRecord r;
    r.set_t(t);
    auto* s = r.mutable_game_state();
    s->set_command(command);
    s->set_restart(kind);
    s->set_restart_team(team);
    s->mutable_ball_spot()->set_x(x);
    s->mutable_ball_spot()->set_y(-0.4);
    s->set_blue_on_positive_side(blue_positive);
    writer.append(r);
  };
  truth(0.0, -0.5);
  state(0.0, msg::REF_PREPARE_KICKOFF, msg::RESTART_KICKOFF, msg::BLUE, 0.0, false);
  state(5.0, msg::REF_NORMAL_START, msg::RESTART_KICKOFF, msg::BLUE, 0.0, false);
  truth(10.0, 0.6);
  state(10.02, msg::REF_PREPARE_RESTART, msg::RESTART_THROW_IN, msg::YELLOW, 0.5, false);
  truth(10.04, 0.61);
  state(10.04, msg::REF_PREPARE_RESTART, msg::RESTART_THROW_IN, msg::YELLOW, 0.5, false);
  state(12.0, msg::REF_NORMAL_START, msg::RESTART_THROW_IN, msg::YELLOW, 0.5, false);
  truth(40.0, 0.3);
  state(40.02, msg::REF_PREPARE_RESTART, msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, 0.2, true);
  state(40.04, msg::REF_PREPARE_RESTART, msg::RESTART_FREE_KICK, msg::BLUE, 0.7, true);
  writer.close();
  return path;
}

TEST(RestartDrill, FindsEachRestartTheRefereePreparedWithTheWorldBeforeIt) {
  const std::string path = write_log();
  const auto restarts = restart_moments(path);
  std::filesystem::remove(path);
  ASSERT_EQ(restarts.size(), 3u) << "no kick-off, and a restart logged twice is one";
  EXPECT_EQ(restarts[0].kind, msg::RESTART_THROW_IN);
  EXPECT_EQ(restarts[0].team, msg::YELLOW);
  EXPECT_DOUBLE_EQ(restarts[0].t, 10.02);
  EXPECT_EQ(restarts[0].number, 1u);
  EXPECT_DOUBLE_EQ(restarts[0].spot.x(), 0.5);
  EXPECT_DOUBLE_EQ(restarts[0].truth.robots(0).pose().x(), 0.6);
  EXPECT_FALSE(restarts[0].blue_on_positive_side);
  EXPECT_EQ(restarts[0].config.seed(), 9u);
  EXPECT_EQ(restarts[1].kind, msg::RESTART_DROP_BALL);
  EXPECT_TRUE(restarts[1].blue_on_positive_side);
  EXPECT_DOUBLE_EQ(restarts[1].truth.robots(0).pose().x(), 0.3);
  EXPECT_EQ(restarts[2].kind, msg::RESTART_FREE_KICK) << "called while the drop ball was prepared";
  EXPECT_EQ(restarts[2].number, 3u);
}

TEST(RestartDrill, OpensWithTheRestartAndTurnsTheFieldWhereBlueDefendedPlusX) {
  const std::string path = write_log();
  const auto restarts = restart_moments(path);
  std::filesystem::remove(path);

  // First half: blue at -x as the drill's referee has it; nothing turns.
  const RestartDrill first = restart_drill(restarts[0]);
  EXPECT_EQ(first.opening.restart(), msg::RESTART_THROW_IN);
  EXPECT_DOUBLE_EQ(first.config.sim().start_position_sd(), kDrillStartPositionSd)
      << "robots localised as in the middle of the match, not as just put down";
  EXPECT_EQ(first.opening.restart_team(), msg::YELLOW);
  EXPECT_DOUBLE_EQ(first.opening.ball_spot().x(), 0.5);
  EXPECT_DOUBLE_EQ(first.opening.ball_spot().y(), -0.4);
  EXPECT_DOUBLE_EQ(first.start.robots(0).pose().x(), 0.6);
  EXPECT_EQ(first.start.robots(0).team(), msg::BLUE);

  // Second half: blue defended +x, so robots, ball and spot turn half round.
  const RestartDrill second = restart_drill(restarts[1]);
  const auto& robot = second.start.robots(0);
  EXPECT_EQ(robot.team(), msg::BLUE) << "colours stay";
  EXPECT_DOUBLE_EQ(robot.pose().x(), -0.3);
  EXPECT_DOUBLE_EQ(robot.pose().y(), -0.25);
  EXPECT_NEAR(robot.pose().theta(), 0.5 - M_PI, 1e-12);
  EXPECT_DOUBLE_EQ(second.start.ball_position().x(), -0.4);
  EXPECT_DOUBLE_EQ(second.opening.ball_spot().x(), -0.2);
  EXPECT_DOUBLE_EQ(second.opening.ball_spot().y(), 0.4);
  EXPECT_EQ(second.opening.restart(), msg::RESTART_DROP_BALL);
  EXPECT_NE(first.config.seed(), second.config.seed()) << "each restart its own seed";
  EXPECT_EQ(restart_drill(restarts[1]).config.seed(), second.config.seed()) << "the same for every run";
}

TEST(RestartDrill, APositionThatIsNotANumberIsAnErrorNamingTheLogAndRestart) {
  RestartMoment moment;
  moment.log = "match.rclog";
  moment.number = 5;
  moment.kind = msg::RESTART_DROP_BALL;
  moment.spot.set_x(std::nan(""));
  try {
    restart_drill(moment);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("match.rclog"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("restart 5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace robocaf::sim
