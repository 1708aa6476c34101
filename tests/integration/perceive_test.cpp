// `robocaf perceive` end to end: a match's overhead camera images, rendered to
// a folder and a video, calibrated from one of them with `robocaf calibrate`,
// detected again and compared with the match's truth.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "messages/log.pb.h"
#include "process.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kEvery = 40;  // every 40th cycle (0.8 s): the ball in play in about half the frames

// A number in the table line that starts with `label`, or -1.
double table_value(const std::string& output, const std::string& label) {
  std::smatch match;
  if (!std::regex_search(output, match, std::regex(label + R"(\s+([0-9.]+))"))) return -1;
  return std::stod(match[1]);
}

class PerceiveCommand : public ::testing::Test {
 protected:
  // One match, its images and their calibration, shared by the tests.
  static void SetUpTestSuite() {
    dir_ = temp_path("perceive_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::string log = dir_ + "/match.rclog";
    setup_output_ = run("match --seed 3 --half-duration 4 --quiet --log " + log).output;
    setup_output_ += run("render " + log + " --png " + dir_ + "/png --every " + std::to_string(kEvery) +
                         " --camera overhead")
                         .output;
    setup_output_ += run("render " + log + " --video " + dir_ + "/match.avi --every " + std::to_string(kEvery) +
                         " --camera overhead")
                         .output;
    setup_output_ += run("render " + log + " --png " + dir_ + "/schematic --every 200").output;
    setup_output_ += run("calibrate " + dir_ + "/png/frame_000000.png --out " + dir_ + "/camera.pbtxt").output;

    runtime::GameLogReader reader{log};
    msg::LogRecord record;
    for (int index = 0; reader.next(record);)
      if (record.has_truth() && index++ % kEvery == 0) truths_.push_back(record.truth());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  void SetUp() override {
    ASSERT_TRUE(fs::exists(dir_ + "/camera.pbtxt")) << setup_output_;
    ASSERT_GE(truths_.size(), 10u) << setup_output_;
  }

  // Checks one JSON line (a msg::DetectionFrame) against the truth it was
  // rendered from: the one ball, and every robot with its id.
  static void expect_matches_truth(const nlohmann::json& frame, const msg::WorldTruth& truth) {
    const auto& balls = frame["balls"];
    ASSERT_EQ(balls.size(), 1u) << frame.dump();
    const double ball_error = std::hypot(balls[0]["x"].get<double>() - truth.ball_position().x(),
                                         balls[0]["y"].get<double>() - truth.ball_position().y());
    EXPECT_LT(ball_error, 0.01) << "ball in frame " << frame["frame_number"];
    for (const auto& robot : truth.robots()) {
      const auto& list = frame[robot.team() == msg::BLUE ? "robots_blue" : "robots_yellow"];
      double best = 1e9;
      for (const auto& seen : list)
        if (seen["robot_id"].get<std::uint32_t>() == robot.robot_id())
          best = std::min(best, std::hypot(seen["x"].get<double>() - robot.pose().x(),
                                           seen["y"].get<double>() - robot.pose().y()));
      EXPECT_LT(best, 0.02) << "robot " << robot.team() << "/" << robot.robot_id() << " in frame "
                            << frame["frame_number"];
    }
  }

  static std::string dir_;
  static std::string setup_output_;
  static std::vector<msg::WorldTruth> truths_;
};

std::string PerceiveCommand::dir_;
std::string PerceiveCommand::setup_output_;
std::vector<msg::WorldTruth> PerceiveCommand::truths_;

TEST_F(PerceiveCommand, FolderOfRenderedImagesGivesEveryFrameWithBallAndRobotsWhereTheyWere) {
  const std::string jsonl = dir_ + "/folder.jsonl";
  const auto result =
      run("perceive --source " + dir_ + "/png --calibration " + dir_ + "/camera.pbtxt --fps 2 --jsonl " + jsonl);
  ASSERT_EQ(result.status, 0) << result.output;
  const double frames = static_cast<double>(truths_.size());
  EXPECT_EQ(table_value(result.output, "frames read"), frames) << result.output;
  EXPECT_EQ(table_value(result.output, "frames processed"), frames) << result.output;
  EXPECT_EQ(table_value(result.output, "frames dropped"), 0.0) << "unpaced: every frame is processed";
  EXPECT_EQ(table_value(result.output, "balls per frame"), 1.0) << result.output;
  EXPECT_EQ(table_value(result.output, "robots per frame"), 10.0) << result.output;
  EXPECT_GT(table_value(result.output, "detection median"), 0.0) << result.output;

  std::ifstream in{jsonl};
  std::string line;
  std::size_t count = 0;
  while (std::getline(in, line)) {
    ASSERT_LT(count, truths_.size()) << "more lines than frames";
    const auto frame = nlohmann::json::parse(line);
    EXPECT_EQ(std::stoull(frame["frame_number"].get<std::string>()), count + 1);  // uint64 is a JSON string
    EXPECT_DOUBLE_EQ(frame["t_capture"].get<double>(), static_cast<double>(count) / 2.0) << "frame i at i / fps";
    expect_matches_truth(frame, truths_[count]);
    ++count;
  }
  EXPECT_EQ(count, truths_.size());
}

TEST_F(PerceiveCommand, VideoFileStopsAfterTheFramesAskedFor) {
  const std::string jsonl = dir_ + "/video.jsonl";
  const auto result = run("perceive --source " + dir_ + "/match.avi --calibration " + dir_ +
                          "/camera.pbtxt --frames 5 --jsonl " + jsonl);
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("video file"), std::string::npos) << result.output;
  EXPECT_EQ(table_value(result.output, "frames processed"), 5.0) << result.output;
  std::ifstream in{jsonl};
  std::string line;
  std::size_t count = 0;
  while (std::getline(in, line)) {
    const auto frame = nlohmann::json::parse(line);
    EXPECT_NEAR(frame["t_capture"].get<double>(), static_cast<double>(count) * 0.02 * kEvery, 1e-6)
        << "the video's own frame rate";
    expect_matches_truth(frame, truths_.at(count));
    ++count;
  }
  EXPECT_EQ(count, 5u);
}

TEST_F(PerceiveCommand, BadInputExitsWithTwoNamingWhatIsWrong) {
  const std::string calibration = " --calibration " + dir_ + "/camera.pbtxt";
  const auto expect_error = [](const std::string& arguments, const std::string& message) {
    const auto result = run("perceive " + arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(message), std::string::npos) << arguments << "\n" << result.output;
  };
  expect_error("--calibration " + dir_ + "/camera.pbtxt", "--source is missing");
  expect_error("--source " + dir_ + "/png", "--calibration is missing");
  expect_error("--source " + dir_ + "/nowhere" + calibration, "no such file or folder '" + dir_ + "/nowhere'");
  expect_error("--source " + dir_ + "/camera.pbtxt" + calibration,
               "cannot open video file '" + dir_ + "/camera.pbtxt'");
  expect_error("--source camera:front" + calibration, "expected camera:N");
  expect_error("--source " + dir_ + "/png --calibration " + dir_ + "/nowhere.pbtxt", dir_ + "/nowhere.pbtxt");
  expect_error("--source " + dir_ + "/png --calibration " + dir_ + "/match.rclog", dir_ + "/match.rclog");
  expect_error("--source " + dir_ + "/schematic" + calibration, "880x");
  expect_error("--source " + dir_ + "/png" + calibration + " --preset msl", "no overhead camera");
  expect_error("--source " + dir_ + "/png" + calibration + " --fps 0", "--fps");
}

}  // namespace
}  // namespace robocaf::testing
