// The covariance tool recovers the covariance the simulated camera was given.
#include <gtest/gtest.h>

#include <cmath>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "runtime/noise_covariance.hpp"
#include "sim/global_camera.hpp"
#include "sim/physics.hpp"

namespace robocaf::runtime {
namespace {

// A log of `frames` detections of a still world seen through `noise`, with
// the truth records a simulated match writes; the ball rolls for the first
// `rolling_frames` of them.
std::string write_log(const msg::NoiseSpec& noise, int frames, int rolling_frames, const std::string& name) {
  const auto config = default_match_config();
  sim::Physics world(config.league(), config.sim());
  msg::Pose2 pose;
  pose.set_x(0.3);
  pose.set_y(-0.2);
  pose.set_theta(3.1);  // near the wrap: the tool must average headings on the circle
  world.add_robot(msg::BLUE, 2, pose);
  world.place_ball({-0.5, 0.4}, rolling_frames > 0 ? Eigen::Vector2d(0.3, 0.0) : Eigen::Vector2d::Zero());
  sim::GlobalCamera camera(config.league().field(), noise, 5);
  msg::LogHeader header;
  *header.mutable_config() = config;
  const std::string path = ::testing::TempDir() + name;
  GameLogWriter log(path, header);
  for (int k = 0; k < frames; ++k) {
    if (k == rolling_frames) world.place_ball(world.ball_position());  // stops it
    world.step(0.02);
    msg::LogRecord truth;
    truth.set_t(world.time());
    *truth.mutable_truth() = world.truth(static_cast<uint64_t>(k));
    log.append(truth);
    msg::LogRecord detection;
    detection.set_t(world.time());
    *detection.mutable_detection() = camera.observe(truth.truth(), static_cast<uint64_t>(k) + 1, world.time());
    log.append(detection);
  }
  log.close();
  return path;
}

TEST(NoiseCovariance, RecoversTheCameraCovarianceOfAStillRobot) {
  msg::NoiseSpec noise;
  for (double v : {4e-6, 1.5e-6, 0.0, 1.5e-6, 2.25e-6, 0.0, 0.0, 0.0, 4e-4}) noise.add_robot_covariance(v);
  for (double v : {1e-6, 0.0, 0.0, 1e-6}) noise.add_ball_covariance(v);
  const auto path = write_log(noise, 6000, 0, "still_robot.rclog");
  const auto e = estimate_detection_noise(path, parse_noise_subject("blue/2"));
  ASSERT_EQ(e.covariance.rows(), 3);
  EXPECT_EQ(e.samples, 6000u);
  EXPECT_NEAR(e.mean(0), 0.3, 1e-4);
  EXPECT_NEAR(std::abs(e.mean(2)), 3.1, 1e-3) << "the heading mean is taken on the circle";
  EXPECT_NEAR(e.covariance(0, 0), 4e-6, 0.1 * 4e-6);
  EXPECT_NEAR(e.covariance(1, 1), 2.25e-6, 0.1 * 2.25e-6);
  EXPECT_NEAR(e.covariance(0, 1), 1.5e-6, 0.1 * 4e-6);
  EXPECT_NEAR(e.covariance(2, 2), 4e-4, 0.1 * 4e-4) << "headings near pi are not split by the wrap";
}

TEST(NoiseCovariance, LeavesOutDetectionsWhileTheTruthMoves) {
  msg::NoiseSpec noise;
  noise.set_ball_position_sd(0.002);
  const auto path = write_log(noise, 3000, 50, "rolling_ball.rclog");
  const auto e = estimate_detection_noise(path, parse_noise_subject("ball"));
  EXPECT_GE(e.rejected_moving, 49u);
  EXPECT_NEAR(std::sqrt(e.covariance(0, 0)), 0.002, 0.0002) << "rolling would inflate the x variance";
  EXPECT_NEAR(std::sqrt(e.covariance(1, 1)), 0.002, 0.0002);
}

TEST(NoiseCovariance, BadSubjectsAndEmptyWindowsAreErrors) {
  EXPECT_THROW(parse_noise_subject("red/2"), std::invalid_argument);
  EXPECT_THROW(parse_noise_subject("blue/"), std::invalid_argument);
  EXPECT_THROW(parse_noise_subject("blue/x"), std::invalid_argument);
  msg::NoiseSpec noise;
  const auto path = write_log(noise, 10, 0, "short.rclog");
  EXPECT_THROW(estimate_detection_noise(path, parse_noise_subject("ball"), 100.0, 200.0), std::runtime_error);
  EXPECT_THROW(estimate_detection_noise(path, parse_noise_subject("yellow/4")), std::runtime_error);
}

TEST(NoiseCovariance, AnObjectMovedBetweenStillStretchesMeasuresOnlyNoise) {
  // No truth in the log (a real field): the ball stands at one place, then
  // is carried 1 m and stands again; pooling about each stretch's own mean
  // keeps the carry out of the noise.
  msg::NoiseSpec noise;
  noise.set_ball_position_sd(0.003);
  const auto config = default_match_config();
  sim::GlobalCamera camera(config.league().field(), noise, 9);
  msg::LogHeader header;
  const std::string path = ::testing::TempDir() + "carried_ball.rclog";
  GameLogWriter log(path, header);
  msg::WorldTruth truth;
  for (int k = 0; k < 2000; ++k) {
    truth.mutable_ball_position()->set_x(k < 1000 ? -0.5 : 0.5);
    msg::LogRecord detection;
    detection.set_t(0.02 * k);
    *detection.mutable_detection() = camera.observe(truth, static_cast<uint64_t>(k) + 1, 0.02 * k);
    log.append(detection);
  }
  log.close();
  const auto e = estimate_detection_noise(path, parse_noise_subject("ball"));
  EXPECT_EQ(e.stretches, 2u);
  EXPECT_NEAR(std::sqrt(e.covariance(0, 0)), 0.003, 0.0003);
  EXPECT_NEAR(std::sqrt(e.covariance(1, 1)), 0.003, 0.0003);
}

}  // namespace
}  // namespace robocaf::runtime
