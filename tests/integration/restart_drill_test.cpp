// `robocaf restart-drill` on a game log file, run as a user would: the drill
// plays the restart through real actors from where the log's robots stood.
#include <gtest/gtest.h>

#include <filesystem>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "process.hpp"

namespace robocaf::testing {
namespace {

// A game log in which the referee drops the ball at 200.02 s, 0.3 of the
// field's length along +x, beside blue 3 (second half: blue defends +x).
msg::LogHeader drop_ball_log(const std::string& path) {
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  const double x = 0.3 * header.config().league().field().length();
  {
    runtime::GameLogWriter writer(path, header);
    // Second half (blue defends +x): blue 3 stands beside the ball, which
    // the referee drops where it is.
    msg::LogRecord truth;
    truth.set_t(200.0);
    auto* robot = truth.mutable_truth()->add_robots();
    robot->set_team(msg::BLUE);
    robot->set_robot_id(3);
    robot->mutable_pose()->set_x(x + 0.1);
    robot->mutable_pose()->set_y(0.2);
    truth.mutable_truth()->mutable_ball_position()->set_x(x);
    writer.append(truth);
    msg::LogRecord state;
    state.set_t(200.02);
    auto* game = state.mutable_game_state();
    game->set_command(msg::REF_PREPARE_RESTART);
    game->set_restart(msg::RESTART_DROP_BALL);
    game->mutable_ball_spot()->set_x(x);
    game->set_blue_on_positive_side(true);
    writer.append(state);
    writer.close();
  }
  return header;
}

TEST(RestartDrillCommand, ReplaysADropBallFromWhereTheRobotsStood) {
  const std::string log = temp_path("restart_drill_source.rclog");
  const std::string dir = temp_path("restart_drill_logs");
  const std::string json = temp_path("restart_drill.json");
  std::filesystem::remove_all(dir);
  const msg::LogHeader header = drop_ball_log(log);
  const double x = 0.3 * header.config().league().field().length();
  auto result = run("restart-drill " + log + " --jobs 1 --list --log-dir " + dir + " --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  auto summary = read_json(json);
  EXPECT_EQ(summary["drills"].get<int>(), 1);
  EXPECT_EQ(summary["failed"].get<int>(), 0);
  EXPECT_EQ(summary["drill"]["restarts"].get<int>(), 1);
  EXPECT_EQ(summary["by_restart"]["drop ball"]["drill"]["restarts"].get<int>(), 1);
  EXPECT_EQ(summary["logged"]["restarts"].get<int>(), 0) << "the source log ends before play restarted";
  EXPECT_NE(result.output.find("restart 1 at"), std::string::npos) << result.output;
  ASSERT_EQ(summary["runs"].size(), 1u);
  EXPECT_EQ(summary["runs"][0]["key"].get<std::string>(),
            std::filesystem::path(log).stem().string() + " restart 1 repeat 0");
  EXPECT_TRUE(summary["runs"][0]["known"].get<bool>());

  // The drill's own log: blue 3 starts turned half round (blue at -x in the
  // first half), the referee drops the ball at the turned spot, and the
  // match ends as play starts, after the placement time.
  const std::string drill_log = dir + "/" + std::filesystem::path(log).stem().string() + "-restart1.rclog";
  ASSERT_TRUE(std::filesystem::exists(drill_log));
  runtime::GameLogReader reader(drill_log);
  msg::LogRecord record;
  bool first_truth = true, first_state = true;
  msg::GameState last_state;
  double last_t = 0.0;
  while (reader.next(record)) {
    last_t = record.t();
    if (record.has_game_state()) {
      last_state = record.game_state();
      if (first_state) {
        first_state = false;
        EXPECT_EQ(last_state.command(), msg::REF_PREPARE_RESTART);
        EXPECT_EQ(last_state.restart(), msg::RESTART_DROP_BALL);
        EXPECT_NEAR(last_state.ball_spot().x(), -x, 1e-9);
        EXPECT_FALSE(last_state.blue_on_positive_side());
      }
    }
    if (!record.has_truth() || !first_truth) continue;
    first_truth = false;
    bool found = false;
    for (const auto& robot : record.truth().robots()) {
      if (robot.team() != msg::BLUE || robot.robot_id() != 3) continue;
      found = true;
      EXPECT_NEAR(robot.pose().x(), -x - 0.1, 1e-9);
      EXPECT_NEAR(robot.pose().y(), -0.2, 1e-9);
    }
    EXPECT_TRUE(found);
  }
  EXPECT_FALSE(first_state);
  EXPECT_EQ(last_state.command(), msg::REF_FORCE_START);
  EXPECT_NEAR(last_t, header.config().sim().placement_seconds(), 0.1);
}

TEST(RestartDrillCommand, FromAndToDrillOnlyTheRestartsCalledBetweenThem) {
  const std::string log = temp_path("restart_window_source.rclog");
  drop_ball_log(log);
  const std::string json = temp_path("restart_window.json");
  auto result = run("restart-drill " + log + " --jobs 1 --from 150 --to 250 --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(read_json(json)["drills"].get<int>(), 1);
  result = run("restart-drill " + log + " --to 100");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("no restart to drill up to 100 s"), std::string::npos) << result.output;
}

TEST(RestartDrillCommand, AnUnknownRestartIsAnErrorThatNamesIt) {
  auto result = run("restart-drill some.rclog --restart penalty");
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("penalty"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace robocaf::testing
