// `robocaf launch` end to end: 13 processes on loopback, one of them killed.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <cstdlib>
#include <future>
#include <thread>

#include "messages/log.pb.h"
#include "process.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::testing {
namespace {

// The pid of the node process whose --config names `node_config`, found like a
// user would. The pattern brackets one character so that it does not match the
// shell popen starts to run pgrep (its command line holds the pattern itself).
pid_t pid_of_node(const std::string& node_config) {
  std::string pattern = node_config;
  pattern.replace(0, 1, "[" + pattern.substr(0, 1) + "]");
  std::string command = "pgrep -f -- ' node --config .*" + pattern + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return 0;
  char line[64] = {};
  pid_t pid = 0;
  if (fgets(line, sizeof line, pipe)) pid = static_cast<pid_t>(std::atol(line));
  pclose(pipe);
  return pid;
}

TEST(DistributedMatch, ThirteenProcessesSurviveAKilledRobotAndFinish) {
  const std::string json = temp_path("dist.json");
  const std::string log = temp_path("dist.rclog");
  const std::string config = std::string(ROBOCAF_SOURCE_DIR) + "/configs/deploy/local-5v5.pbtxt";
  auto match = std::async(std::launch::async, [&] {
    return run("launch " + config + " --half-duration 20 --summary-json " + json + " --log " + log +
               " --log-dir " + temp_path("launch-logs"));
  });

  // Wait until play has begun, then kill one robot computer outright.
  pid_t victim = 0;
  for (int i = 0; i < 300 && victim == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    victim = pid_of_node("blue-3.pbtxt");
  }
  ASSERT_NE(victim, 0) << "the blue-3 node never started";
  std::this_thread::sleep_for(std::chrono::seconds(12));
  victim = pid_of_node("blue-3.pbtxt");
  ASSERT_NE(victim, 0) << "the blue-3 node ended on its own";
  ASSERT_EQ(kill(victim, SIGKILL), 0);

  auto result = match.get();
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("restarted blue-3"), std::string::npos) << result.output;
  auto summary = read_json(json);
  EXPECT_TRUE(summary["finished"].get<bool>());
  // 40 s of play is too short to count on a goal from the first skills (a
  // 600 s match has about four); the ball must at least be played at a goal.
  EXPECT_GT(summary["shots"]["blue"].get<int>() + summary["shots"]["yellow"].get<int>() +
                summary["score"]["blue"].get<int>() + summary["score"]["yellow"].get<int>(), 0);
  EXPECT_GE(summary["sim_seconds"].get<double>(), 40.0);
  EXPECT_LE(summary["sim_seconds"].get<double>(), 70.0);

  // The restarted robot rejoined: it is listed on the field again and moves.
  runtime::GameLogReader reader{log};
  msg::LogRecord record;
  bool absent = false, back = false;
  double moved_after_return = 0, x_at_return = 0;
  while (reader.next(record)) {
    if (record.has_game_state()) {
      bool listed = false;
      for (auto id : record.game_state().robots_blue()) listed = listed || id == 3;
      if (!listed && record.game_state().stage() != msg::STAGE_PRE_GAME) absent = true;
      if (absent && listed && !back) back = true;
    }
    if (back && record.has_truth()) {
      for (const auto& robot : record.truth().robots()) {
        if (robot.team() != msg::BLUE || robot.robot_id() != 3) continue;
        if (moved_after_return == 0 && x_at_return == 0) x_at_return = robot.pose().x() + 1e-9;
        moved_after_return = std::max(moved_after_return, std::hypot(robot.pose().x() - x_at_return, 0.0));
      }
    }
  }
  EXPECT_TRUE(absent) << "the killed robot was never reported off the field";
  EXPECT_TRUE(back) << "the restarted robot never rejoined its team";
  EXPECT_GT(moved_after_return, 0.05) << "the restarted robot did not move";
}

TEST(DistributedMatch, BadDeployAndNodeConfigsExitWithTwo) {
  const std::string deploy = temp_path("bad-deploy.pbtxt");
  std::ofstream{deploy} << "processes { name: \"world\" node_config: \"w.pbtxt\" respawn: maybe }\n";
  auto bad_deploy = run("launch " + deploy);
  EXPECT_EQ(bad_deploy.status, 2);
  EXPECT_NE(bad_deploy.output.find(deploy + ":1:"), std::string::npos) << bad_deploy.output;

  auto no_config = run("node");
  EXPECT_EQ(no_config.status, 2);
  EXPECT_NE(no_config.output.find("--config"), std::string::npos);

  const std::string node = temp_path("bad-node.pbtxt");
  std::ofstream{node} << "name: \"blue-1\"\ndirectory_port: 70000\nteam: BLUE\n";
  auto bad_port = run("node --config " + node);
  EXPECT_EQ(bad_port.status, 2);
  EXPECT_NE(bad_port.output.find("directory_port"), std::string::npos) << bad_port.output;
}

}  // namespace
}  // namespace robocaf::testing
