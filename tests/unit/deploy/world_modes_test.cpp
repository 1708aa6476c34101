// The world actor's modes on a real in-process system: camera frame rate and
// latency, the SSL and MSL presets, and scripted scenarios.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <cmath>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "deploy/local_match.hpp"
#include "messages/game.pb.h"
#include "messages/health.pb.h"
#include "messages/log.pb.h"
#include "runtime/proto_inspect.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "sim/scenarios.hpp"

namespace robocaf::deploy {
namespace {

struct LogContents {
  std::vector<msg::LogRecord> detections;
  std::vector<msg::LogRecord> truths;
  msg::GameState last_state;
};

// The farthest any robot got from where it stood in the first truth record.
double farthest_robot_move(const LogContents& log) {
  const auto& first = log.truths.front().truth();
  const auto& last = log.truths.back().truth();
  double moved = 0.0;
  for (int i = 0; i < first.robots_size(); ++i)
    moved = std::max(moved, std::hypot(last.robots(i).pose().x() - first.robots(i).pose().x(),
                                       last.robots(i).pose().y() - first.robots(i).pose().y()));
  return moved;
}

LogContents read_log(const std::string& path) {
  LogContents out;
  runtime::GameLogReader reader{path};
  msg::LogRecord record;
  while (reader.next(record)) {
    if (record.has_detection()) out.detections.push_back(record);
    if (record.has_truth()) out.truths.push_back(record);
    if (record.has_game_state()) out.last_state = record.game_state();
  }
  return out;
}

TEST(WorldModes, CameraFrameRateAndLatencyAreHonoured) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_half_duration(2);
  options.match.mutable_sim()->mutable_global_camera()->set_frame_rate(30);
  options.match.mutable_sim()->mutable_global_camera()->set_latency(0.05);
  options.log_path = ::testing::TempDir() + "robocaf_camera_timing.rclog";
  {
    LocalMatch match{options};
    ASSERT_EQ(match.wait(), "");
  }
  const LogContents log = read_log(options.log_path);
  ASSERT_GT(log.detections.size(), 60u);
  for (size_t i = 1; i < log.detections.size(); ++i) {
    const auto& prev = log.detections[i - 1].detection();
    const auto& cur = log.detections[i].detection();
    EXPECT_EQ(cur.frame_number(), prev.frame_number() + 1);
    // Captures every 1/30 s, rounded to the 1 ms physics step.
    EXPECT_NEAR(cur.t_capture() - prev.t_capture(), 1.0 / 30, 0.0011);
  }
  for (const auto& record : log.detections) {
    // Delivered at the first 20 ms cycle boundary at least 50 ms after capture.
    const double age = record.t() - record.detection().t_capture();
    EXPECT_GE(age, 0.05 - 1e-9);
    EXPECT_LT(age, 0.05 + 0.02 + 1e-9);
  }
}

void expect_short_match_finishes(const std::string& preset) {
  LocalMatchOptions options;
  options.match = runtime::preset_match_config(preset);
  options.match.set_half_duration(3);
  options.log_path = ::testing::TempDir() + "robocaf_" + preset + ".rclog";
  {
    LocalMatch match{options};
    ASSERT_EQ(match.wait(), "");
  }
  const LogContents log = read_log(options.log_path);
  EXPECT_EQ(log.last_state.stage(), msg::STAGE_POST_GAME);
  ASSERT_FALSE(log.truths.empty());
  EXPECT_EQ(log.truths.back().truth().robots_size(), static_cast<int>(2 * options.match.league().team_size()));
  // Robots moved: someone is away from its kick-off spot by the end.
  EXPECT_GT(farthest_robot_move(log), 0.2);
}

TEST(WorldModes, SslMatchPlaysToTheEnd) { expect_short_match_finishes("ssl"); }

TEST(WorldModes, MslMatchWithOnboardCamerasPlaysToTheEnd) { expect_short_match_finishes("msl"); }

TEST(WorldModes, PerceptionOnRenderedImagesPlaysTheMatch) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_half_duration(3);
  options.match.mutable_sim()->set_perception_on_images(true);
  options.log_path = ::testing::TempDir() + "robocaf_images.rclog";
  {
    LocalMatch match{options};
    ASSERT_EQ(match.wait(), "");
  }
  const LogContents log = read_log(options.log_path);
  EXPECT_EQ(log.last_state.stage(), msg::STAGE_POST_GAME);
  EXPECT_TRUE(log.detections.empty()) << "perception got images, not simulated detections";
  // Robots found themselves and the ball in the pixels: they went for it.
  ASSERT_FALSE(log.truths.empty());
  EXPECT_GT(farthest_robot_move(log), 0.2) << "without a self pose from the images no robot would move";
}

std::string file_bytes(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// MSL on every robot's rendered onboard camera image: it plays to the end,
// the robots find the ball and each other in the pixels (they move, and
// someone touches the ball), and the same seed gives the same log byte for
// byte whatever the thread count. (How close the robots' own poses stay to
// the truth on these images is GoalPostDetectorTest's, which can see them.)
TEST(WorldModes, MslOnOnboardImagesPlaysReproducibly) {
  auto run = [](unsigned threads, const std::string& name) {
    LocalMatchOptions options;
    options.match = runtime::preset_match_config("msl");
    options.match.set_half_duration(2);
    options.match.mutable_sim()->set_placement_seconds(2);  // ten images a cycle: keep the match short
    options.match.mutable_sim()->set_perception_on_images(true);
    options.worker_threads = threads;
    options.log_path = ::testing::TempDir() + name;
    LocalMatch match{options};
    EXPECT_EQ(match.wait(), "");
    return options.log_path;
  };
  const std::string one = run(1, "robocaf_msl_images_1.rclog");
  const std::string two = run(2, "robocaf_msl_images_2.rclog");
  const LogContents log = read_log(one);
  EXPECT_EQ(log.last_state.stage(), msg::STAGE_POST_GAME);
  EXPECT_TRUE(log.detections.empty());
  ASSERT_FALSE(log.truths.empty());
  EXPECT_GT(farthest_robot_move(log), 0.5) << "robots that see nothing in their images stand still";
  const std::string bytes = file_bytes(one);
  EXPECT_GT(bytes.size(), 10000u);
  EXPECT_TRUE(bytes == file_bytes(two)) << "same seed, different thread count, different log";
}

TEST(WorldModes, ManualRefereeCommandThroughTheCoachReachesTheLog) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_half_duration(20);
  options.log_path = ::testing::TempDir() + "robocaf_manual.rclog";
  {
    LocalMatch match{options};
    caf::actor coach;
    for (int i = 0; i < 200 && !coach; ++i) {
      auto [roster, handles] = registered_actors(match.system(), match.directory());
      for (int k = 0; k < roster.entries_size(); ++k)
        if (roster.entries(k).address().team() == msg::BLUE && roster.entries(k).address().kind() == msg::ACTOR_COACH)
          coach = handles[static_cast<size_t>(k)];
      if (!coach) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(coach);
    msg::ManualRefereeCommand stop;
    stop.set_command(msg::REF_STOP);
    stop.set_reason("a human saw a robot fall over");
    caf::anon_send(coach, stop);
    // A stopped game waits for a human to restart it, as on a real field;
    // without this the match never ends when the stop lands after kick-off.
    msg::ManualRefereeCommand restart;
    restart.set_command(msg::REF_FORCE_START);
    restart.set_reason("play on");
    caf::anon_send(coach, restart);
    ASSERT_EQ(match.wait(), "");
  }
  runtime::GameLogReader reader{options.log_path};
  msg::LogRecord record;
  bool manual = false;
  while (reader.next(record))
    if (record.has_referee() && record.referee().kind() == msg::REF_EVENT_MANUAL)
      manual = manual || record.referee().reason().find("a human saw a robot fall over") != std::string::npos;
  EXPECT_TRUE(manual) << "the manual command did not reach the referee's log";
}

TEST(WorldModes, ScenarioRunsTheRealRobotAndIsReproducible) {
  auto run = [](uint64_t seed) {
    LocalMatchOptions options;
    options.match = sim::scenario_config("ball-to-goal", seed);
    options.scenario = sim::skill_scenario_script("ball-to-goal", seed);
    LocalMatch match{options};
    return match.wait_scenario();
  };
  const msg::ScenarioResult a = run(3);
  const msg::ScenarioResult b = run(3);
  EXPECT_EQ(a.name(), "ball-to-goal");
  EXPECT_EQ(a.seed(), 3u);
  EXPECT_FALSE(a.reason().empty());
  EXPECT_GT(a.time(), 0.5) << "the robot had to drive to the ball first";
  EXPECT_LE(a.time(), 30.0 + 1e-9);
  EXPECT_EQ(a.success(), b.success());
  EXPECT_EQ(a.time(), b.time());
  EXPECT_EQ(a.reason(), b.reason());
}

}  // namespace
}  // namespace robocaf::deploy
