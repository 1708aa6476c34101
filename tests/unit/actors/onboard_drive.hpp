#pragma once
// The onboard chain without actors, for perception tests: a robot driven by
// the simulator's physics (wheel slip and heading noise, so odometry
// drifts), its camera image rendered every 0.1 s, OnboardImageDetector and
// OnboardFilter; how far the filter's pose is from the truth.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "actors/perception/onboard_filter.hpp"
#include "actors/perception/onboard_image_detector.hpp"
#include "runtime/angle.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/physics.hpp"

namespace robocaf::actors::testing {

struct OnboardDrive {
  msg::Pose2 start;                 ///< the robot's true start pose
  msg::Pose2 odometry_offset;       ///< added to odometry's pose (as after the referee moved the robot)
  double speed = 0.6;               ///< m/s amplitude of the back-and-forth drive (8 s period)
  double sway = 0.25;               ///< rad/s amplitude of the turning (5 s period)
  std::uint64_t physics_seed = 5;
};

struct OnboardDriveResult {
  std::uint64_t images = 0, images_with_goal = 0, line_points = 0;
  double first_odometry_error = 0.0;  ///< m, at the first image
  // From 5 s on (50 images to close in):
  double mean_error = 0.0, worst_error = 0.0, worst_heading_error = 0.0;  // m, m, rad
  double mean_odometry_error = 0.0;                                        // m
};

inline OnboardDriveResult drive_on_onboard_images(const msg::MatchConfig& match,
                                                  const sim::camera::OnboardImageRenderer& renderer,
                                                  const OnboardDrive& drive) {
  msg::LeaguePreset league = match.league();
  league.mutable_robot()->set_heading_noise(0.03);
  league.mutable_robot()->set_slip(0.03);
  sim::Physics physics(league, match.sim(), drive.physics_seed);
  physics.add_robot(msg::BLUE, 1, drive.start);
  physics.place_ball({0.0, -30.0});  // out of view
  OnboardImageDetector detector(league, renderer.calibration_for(msg::Pose2()), msg::ColourThresholds());
  OnboardFilter filter(msg::BLUE, 1, league, match.sim().onboard_camera().noise_per_metre());

  OnboardDriveResult out;
  double error_sum = 0.0, odometry_error_sum = 0.0;
  std::uint64_t scored = 0;
  for (int step = 0; step < 20000; ++step) {
    const double t = physics.time();
    if (step % 100 == 0) {
      const msg::WorldTruth truth = physics.truth(static_cast<std::uint64_t>(step));
      const msg::Pose2 truth_pose = truth.robots(0).pose();
      msg::Odometry odometry = physics.odometry(msg::BLUE, 1);
      auto* p = odometry.mutable_pose();
      p->set_x(p->x() + drive.odometry_offset.x());
      p->set_y(p->y() + drive.odometry_offset.y());
      p->set_theta(runtime::wrap_angle(p->theta() + drive.odometry_offset.theta()));
      filter.on_odometry(odometry);
      const OnboardDetections detections = detector.detect(renderer.render(truth, msg::BLUE, 1, ++out.images));
      out.images_with_goal += !detections.goals.empty();
      out.line_points += detections.line_points.size();
      const msg::Percept percept =
          filter.to_percept(OnboardImageDetector::to_frame(detections, out.images, t, msg::BLUE, 1));
      EXPECT_TRUE(percept.has_self_pose());
      const double odometry_error =
          std::hypot(odometry.pose().x() - truth_pose.x(), odometry.pose().y() - truth_pose.y());
      if (out.images == 1) out.first_odometry_error = odometry_error;
      if (t >= 5.0) {
        const double error =
            std::hypot(percept.self_pose().x() - truth_pose.x(), percept.self_pose().y() - truth_pose.y());
        error_sum += error;
        odometry_error_sum += odometry_error;
        out.worst_error = std::max(out.worst_error, error);
        out.worst_heading_error = std::max(
            out.worst_heading_error, std::abs(runtime::wrap_angle(percept.self_pose().theta() - truth_pose.theta())));
        ++scored;
      }
    }
    msg::RobotCommand command;
    command.set_team(msg::BLUE);
    command.set_robot_id(1);
    const double pi = 3.14159265358979323846;
    const double v = drive.speed * std::sin(2 * pi * t / 8.0), omega = drive.sway * std::sin(2 * pi * t / 5.0);
    const double half_base = 0.5 * league.robot().wheel_base();
    command.mutable_wheels()->set_left(v - half_base * omega);
    command.mutable_wheels()->set_right(v + half_base * omega);
    physics.set_command(msg::BLUE, 1, command, t);
    physics.step(0.001);
  }
  if (scored > 0) {
    out.mean_error = error_sum / static_cast<double>(scored);
    out.mean_odometry_error = odometry_error_sum / static_cast<double>(scored);
  }
  return out;
}

}  // namespace robocaf::actors::testing
