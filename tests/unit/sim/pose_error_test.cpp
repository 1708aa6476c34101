#include "sim/pose_error.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "runtime/angle.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::sim {
namespace {

msg::LogRecord truth(double t, double x, double theta) {
  msg::LogRecord r;
  r.set_t(t);
  r.mutable_truth()->set_t(t);
  auto* robot = r.mutable_truth()->add_robots();
  robot->set_team(msg::BLUE);
  robot->set_robot_id(3);
  robot->mutable_pose()->set_x(x);
  robot->mutable_pose()->set_y(1.0);
  robot->mutable_pose()->set_theta(theta);
  return r;
}

msg::LogRecord belief(double logged_at, double t, double x, double y, double theta, uint32_t id = 3) {
  msg::LogRecord r;
  r.set_t(logged_at);
  msg::SelfBelief& b = *r.mutable_belief();
  b.set_t(t);
  b.set_team(msg::BLUE);
  b.set_robot_id(id);
  b.mutable_pose()->set_x(x);
  b.mutable_pose()->set_y(y);
  b.mutable_pose()->set_theta(theta);
  b.set_position_sd(0.004);
  b.set_localisation_sd(0.2);
  return r;
}

TEST(PoseErrorMeter, ABeliefPredictedAheadWaitsForTheTruthOfItsTimeAndMeetsItInterpolated) {
  PoseErrorMeter meter;
  meter.add(truth(0.0, 0.0, runtime::kPi - 0.1));
  // Logged in the first cycle, predicted to 0.05 s: the robot, running 2 m/s
  // along x, stands at 0.1 then; believed 0.3 m ahead and 0.4 m aside.
  meter.add(belief(0.0, 0.05, 0.4, 1.4, -runtime::kPi + 0.1));
  EXPECT_TRUE(meter.samples().empty()) << "no truth reaches 0.05 s yet";
  meter.add(truth(0.1, 0.2, -runtime::kPi + 0.1));
  ASSERT_EQ(meter.samples().size(), 1u);
  const PoseErrorSample& s = meter.samples()[0];
  EXPECT_EQ(s.team, msg::BLUE);
  EXPECT_EQ(s.robot_id, 3u);
  EXPECT_DOUBLE_EQ(s.t, 0.05);
  EXPECT_NEAR(s.error, 0.5, 1e-6);  // floats in the log
  // The truth turned through pi (0.2 rad the short way), so it points at pi
  // exactly at 0.05 s: the belief is 0.1 rad off, not 2 pi - 0.1.
  EXPECT_NEAR(s.heading_error, 0.1, 1e-6);
  EXPECT_NEAR(s.position_sd, 0.004, 1e-8);
  EXPECT_NEAR(s.localisation_sd, 0.2, 1e-7);
  EXPECT_DOUBLE_EQ(s.perceived_error, -1.0) << "perception gave no pose";
  EXPECT_EQ(meter.beliefs(), 1u);
  EXPECT_EQ(meter.unmatched(), 0u);
}

TEST(PoseErrorMeter, PerceptionsPoseMeetsTheTruthAtItsCaptureTime) {
  PoseErrorMeter meter;
  meter.add(truth(0.0, 0.0, 0.0));
  meter.add(truth(0.1, 0.2, 0.0));
  // The world model believes the robot where it stands at 0.15 s (0.3),
  // perception put it at 0.1 when it was at 0.06 (captured at 0.03 s): the
  // world model had it right from a pose 4 cm off.
  msg::LogRecord r = belief(0.1, 0.15, 0.3, 1.0, 0.0);
  r.mutable_belief()->mutable_perceived_position()->set_x(0.1);
  r.mutable_belief()->mutable_perceived_position()->set_y(1.0);
  r.mutable_belief()->set_t_perceived(0.03);
  meter.add(r);
  meter.add(truth(0.2, 0.4, 0.0));
  ASSERT_EQ(meter.samples().size(), 1u);
  EXPECT_NEAR(meter.samples()[0].error, 0.0, 1e-6);
  EXPECT_NEAR(meter.samples()[0].perceived_error, 0.04, 1e-6);
}

TEST(PoseErrorMeter, BeliefsOfRobotsTheTruthLacksOrOlderThanTheTruthKeptAreUnmatched) {
  PoseErrorMeter meter;
  for (int i = 0; i <= 20; ++i) meter.add(truth(0.1 * i, 0.0, 0.0));
  meter.add(belief(2.0, 2.0, 0.0, 1.0, 0.0, 4));  // no robot 4 on the field
  meter.add(belief(2.0, 0.5, 0.0, 1.0, 0.0));     // 1.5 s before the newest truth
  meter.add(belief(2.0, 2.05, 0.0, 1.0, 0.0));    // waits for the truth
  meter.add(truth(2.1, 0.0, 0.0));
  EXPECT_EQ(meter.beliefs(), 3u);
  EXPECT_EQ(meter.samples().size(), 1u);
  EXPECT_EQ(meter.unmatched(), 2u);
}

TEST(PoseErrorEpisodes, RunsOverTheThresholdJoinAcrossShortGapsPerRobot) {
  std::vector<PoseErrorSample> samples;
  auto add = [&](uint32_t id, double t, double error, double sd) {
    PoseErrorSample s;
    s.team = msg::BLUE;
    s.robot_id = id;
    s.t = t;
    s.error = error;
    s.position_sd = sd;
    samples.push_back(s);
  };
  add(2, 10.0, 0.6, 0.01);
  add(1, 10.0, 0.7, 0.01);
  add(2, 10.5, 0.2, 0.01);  // under: a gap of 1 s, shorter than 1.5 s
  add(2, 11.0, 0.9, 0.02);
  add(2, 13.0, 0.8, 0.01);  // 2 s later: a new episode
  add(1, 10.5, 0.1, 0.01);
  const auto episodes = pose_error_episodes(samples, 0.5, 1.5);
  ASSERT_EQ(episodes.size(), 3u);
  EXPECT_EQ(episodes[0].robot_id, 1u);
  EXPECT_DOUBLE_EQ(episodes[0].begin, 10.0);
  EXPECT_DOUBLE_EQ(episodes[0].end, 10.0);
  EXPECT_EQ(episodes[1].robot_id, 2u);
  EXPECT_DOUBLE_EQ(episodes[1].begin, 10.0);
  EXPECT_DOUBLE_EQ(episodes[1].end, 11.0);
  EXPECT_DOUBLE_EQ(episodes[1].max_error, 0.9);
  EXPECT_DOUBLE_EQ(episodes[1].t_max, 11.0);
  EXPECT_DOUBLE_EQ(episodes[1].position_sd_at_max, 0.02);
  EXPECT_DOUBLE_EQ(episodes[2].begin, 13.0);
}

TEST(MeasurePoseError, ReadsAGameLogFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("pose_error_" + std::to_string(::getpid()) + ".rclog")).string();
  {
    msg::LogHeader header;
    runtime::GameLogWriter writer(path, header);
    writer.append(truth(0.0, 0.0, 0.0));
    writer.append(belief(0.0, 0.1, 0.0, 2.0, 0.0));
    writer.append(truth(0.1, 0.0, 0.0));
    writer.append(belief(0.1, 0.3, 0.0, 1.0, 0.0));
    writer.append(truth(0.2, 0.0, 0.0));
    writer.append(truth(0.3, 0.0, 0.0));
  }
  const PoseErrorLog log = measure_pose_error(path);
  std::filesystem::remove(path);
  EXPECT_EQ(log.beliefs, 2u);
  EXPECT_NEAR(log.sample_period, 0.2, 1e-12);
  ASSERT_EQ(log.samples.size(), 2u);
  EXPECT_NEAR(log.samples[0].error, 1.0, 1e-6);
  EXPECT_NEAR(log.samples[1].error, 0.0, 1e-6);
}

}  // namespace
}  // namespace robocaf::sim
