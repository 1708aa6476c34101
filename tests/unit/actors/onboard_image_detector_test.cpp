// Onboard image perception on images the simulator renders from hand-made
// scenes (MSL preset: its camera, lighting gradient and pixel noise).
#include "actors/perception/onboard_image_detector.hpp"

#include <cmath>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/robot_markings.hpp"
#include "sim/random.hpp"
#include "tests/unit/actors/geometry_test_helpers.hpp"
#include "tests/unit/actors/onboard_drive.hpp"

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The observer stands somewhere on the field, not at the origin, so the
// detector's answer (robot frame) and the scene (field frame) differ.
const msg::Pose2& observer_pose() {
  static const msg::Pose2 pose = [] {
    msg::Pose2 p;
    p.set_x(-2.0);
    p.set_y(1.0);
    p.set_theta(0.7);
    return p;
  }();
  return pose;
}

// Robot frame -> field frame of the observer.
Eigen::Vector2d to_field(const Eigen::Vector2d& ego) { return testing::to_field(observer_pose(), ego); }

void add_robot(msg::WorldTruth& truth, msg::Team team, std::uint32_t id, const Eigen::Vector2d& field, double theta) {
  auto* r = truth.add_robots();
  r->set_team(team);
  r->set_robot_id(id);
  r->mutable_pose()->set_x(field.x());
  r->mutable_pose()->set_y(field.y());
  r->mutable_pose()->set_theta(theta);
}

class OnboardImageDetectorTest : public ::testing::Test {
 protected:
  OnboardImageDetectorTest()
      : match_(runtime::preset_match_config("msl")),
        renderer_(match_.league(), match_.sim().onboard_camera(),
                  sim::derive_seed(match_.seed(), sim::camera::kOnboardImageStream)),
        detector_(match_.league(), renderer_.calibration_for(msg::Pose2()), msg::ColourThresholds()) {}

  // A scene with the observer (blue 1) and the ball at robot-frame `ball`.
  msg::WorldTruth scene(const Eigen::Vector2d& ball) const {
    msg::WorldTruth truth;
    add_robot(truth, msg::BLUE, 1, {observer_pose().x(), observer_pose().y()}, observer_pose().theta());
    const Eigen::Vector2d b = to_field(ball);
    truth.mutable_ball_position()->set_x(b.x());
    truth.mutable_ball_position()->set_y(b.y());
    return truth;
  }

  OnboardDetections detect(const msg::WorldTruth& truth, std::uint64_t frame = 1) {
    return detector_.detect(renderer_.render(truth, msg::BLUE, 1, frame));
  }

  msg::MatchConfig match_;
  sim::camera::OnboardImageRenderer renderer_;
  OnboardImageDetector detector_;
};

TEST_F(OnboardImageDetectorTest, BandHeightsMatchSimulator) {
  EXPECT_EQ(OnboardImageDetector::kBandBottom, sim::camera::kTeamBandBottom);
  EXPECT_EQ(OnboardImageDetector::kBandTop, sim::camera::kTeamBandTop);
}

TEST_F(OnboardImageDetectorTest, BallInViewIsFoundWithinTwoPercentOfItsDistance) {
  std::uint64_t frame = 1;
  for (double distance : {0.8, 1.5, 3.0, 5.0, 7.5}) {
    for (double bearing : {-0.45, -0.2, 0.0, 0.25, 0.45}) {
      const Eigen::Vector2d ball = distance * Eigen::Vector2d(std::cos(bearing), std::sin(bearing));
      const OnboardDetections d = detect(scene(ball), frame++);
      SCOPED_TRACE("distance " + std::to_string(distance) + " m, bearing " + std::to_string(bearing) + " rad");
      ASSERT_EQ(d.balls.size(), 1u);
      const double error = (d.balls[0].position - ball).norm();
      EXPECT_LT(error, 0.02 * distance);
      EXPECT_FALSE(d.balls[0].clipped);
      EXPECT_FALSE(d.balls[0].occluded);
      EXPECT_GT(d.balls[0].confidence, 0.7);
      EXPECT_TRUE(d.robots.empty());
    }
  }
}

TEST_F(OnboardImageDetectorTest, NoBallInViewGivesNoCandidate) {
  // Behind, just behind the robot's back, and beside (outside the 1.2 rad
  // field of view).
  for (const Eigen::Vector2d& ball : {Eigen::Vector2d(-2.0, 0.3), Eigen::Vector2d(-0.36, 0.0), Eigen::Vector2d(0.5, 3.0),
                                      Eigen::Vector2d(1.0, -2.5)}) {
    SCOPED_TRACE("ball at " + std::to_string(ball.x()) + ", " + std::to_string(ball.y()));
    EXPECT_TRUE(detect(scene(ball)).balls.empty());
  }
}

TEST_F(OnboardImageDetectorTest, RobotsInViewAreNoBallsAndAreFound) {
  msg::WorldTruth truth = scene({-3.0, 0.0});  // ball behind
  const Eigen::Vector2d blue{3.0, 1.0}, yellow{5.0, -1.2};
  add_robot(truth, msg::BLUE, 2, to_field(blue), 0.3);
  add_robot(truth, msg::YELLOW, 4, to_field(yellow), -2.0);
  const OnboardDetections d = detect(truth);
  EXPECT_TRUE(d.balls.empty());
  ASSERT_EQ(d.robots.size(), 2u);
  for (const auto& r : d.robots) {
    const Eigen::Vector2d truth_position = r.team == msg::BLUE ? blue : yellow;
    EXPECT_LT((r.position - truth_position).norm(), 0.05 * truth_position.norm()) << msg::Team_Name(r.team);
  }
}

TEST_F(OnboardImageDetectorTest, BallCutByTheImageBorderIsFitted) {
  // Half out of the left edge (the half fov is 0.6 rad); cut by the bottom
  // edge just in front of the robot; and in its mouth (robot radius 0.25 m
  // plus ball radius 0.11 m), where only a sliver of the ball's top shows.
  for (const Eigen::Vector2d& ball : {Eigen::Vector2d(2.5 * std::cos(0.6), 2.5 * std::sin(0.6)),
                                      Eigen::Vector2d(0.52, 0.1), Eigen::Vector2d(0.36, 0.0)}) {
    SCOPED_TRACE("ball at " + std::to_string(ball.x()) + ", " + std::to_string(ball.y()));
    const OnboardDetections d = detect(scene(ball));
    ASSERT_EQ(d.balls.size(), 1u);
    EXPECT_TRUE(d.balls[0].clipped);
    EXPECT_TRUE(d.balls[0].fitted);
    EXPECT_LT((d.balls[0].position - ball).norm(), 0.02 * ball.norm());
    EXPECT_LT(d.balls[0].confidence, 0.9);
  }
}

TEST_F(OnboardImageDetectorTest, BallHalfBehindARobotIsFittedOnItsFreeOutline) {
  // A yellow robot at 2 m straight ahead, the ball 4 m away just beside the
  // line of sight past the robot's edge: the robot hides part of it.
  const Eigen::Vector2d robot{2.0, 0.0};
  const double edge = std::asin(0.25 / 2.0);
  const Eigen::Vector2d ball = 4.0 * Eigen::Vector2d(std::cos(edge + 0.01), std::sin(edge + 0.01));
  msg::WorldTruth truth = scene(ball);
  add_robot(truth, msg::YELLOW, 3, to_field(robot), kPi / 2);
  const OnboardDetections d = detect(truth);
  ASSERT_EQ(d.balls.size(), 1u);
  EXPECT_TRUE(d.balls[0].occluded);
  EXPECT_TRUE(d.balls[0].fitted);
  EXPECT_LT((d.balls[0].position - ball).norm(), 0.02 * ball.norm());
}

TEST_F(OnboardImageDetectorTest, FrameCarriesBallsAndRobotsInTheRobotFrame) {
  msg::WorldTruth truth = scene({3.0, 0.5});
  add_robot(truth, msg::YELLOW, 2, to_field({4.0, -1.0}), 0.0);
  const OnboardDetections d = detect(truth);
  const msg::OnboardFrame frame = OnboardImageDetector::to_frame(d, 7, 1.5, msg::BLUE, 1);
  EXPECT_EQ(frame.frame_number(), 7u);
  EXPECT_EQ(frame.t_capture(), 1.5);
  EXPECT_EQ(frame.team(), msg::BLUE);
  EXPECT_EQ(frame.robot_id(), 1u);
  ASSERT_EQ(frame.balls_size(), 1);
  EXPECT_NEAR(frame.balls(0).position().x(), 3.0, 0.06);
  EXPECT_NEAR(frame.balls(0).position().y(), 0.5, 0.06);
  ASSERT_EQ(frame.robots_size(), 1);
  EXPECT_EQ(frame.robots(0).team(), msg::YELLOW);
  EXPECT_EQ(frame.robots(0).robot_id(), 0u);
}

TEST_F(OnboardImageDetectorTest, RejectsImagesOfAnotherSizeOrType) {
  EXPECT_THROW(detector_.detect(cv::Mat(480, 640, CV_8UC1, cv::Scalar(0))), std::invalid_argument);
  EXPECT_THROW(detector_.detect(cv::Mat(240, 320, CV_8UC3, cv::Scalar(0, 0, 0))), std::invalid_argument);
}

// The onboard chain without actors, away from the goals: a robot driven by
// the simulator's physics (wheel slip and heading noise, so odometry
// drifts) near the halfway line, looking at a touch line, its camera image
// rendered every 0.1 s, OnboardImageDetector, OnboardFilter. No goal is in
// view: only the field lines the detector finds hold the pose. Odometry
// starts 0.3 m and 0.05 rad off.
TEST_F(OnboardImageDetectorTest, FieldLinesInTheImagesHoldThePoseWithoutAGoalInView) {
  // Back and forth along y near the halfway line, swaying +-0.3 rad: the
  // touch line, the halfway line and the centre circle stay in view.
  testing::OnboardDrive drive;
  drive.start.set_x(-1.0);
  drive.start.set_y(2.5);
  drive.start.set_theta(kPi / 2);
  drive.odometry_offset.set_x(0.2);
  drive.odometry_offset.set_y(-0.22);
  drive.odometry_offset.set_theta(0.05);
  drive.sway = 0.3;
  drive.physics_seed = 7;
  const testing::OnboardDriveResult r = testing::drive_on_onboard_images(match_, renderer_, drive);
  std::cout << r.images << " images, " << r.line_points << " line points, " << r.images_with_goal
            << " with a goal; after 5 s position error mean " << r.mean_error << " m, worst " << r.worst_error
            << " m, heading worst " << r.worst_heading_error << " rad; odometry alone mean "
            << r.mean_odometry_error << " m\n";
  EXPECT_EQ(r.images_with_goal, 0u) << "a goal came into view: the test is about lines";
  EXPECT_GT(r.line_points, 10 * r.images) << "the lines were in view";
  EXPECT_LT(r.mean_error, 0.05);
  EXPECT_LT(r.mean_error, 0.25 * r.mean_odometry_error);
  EXPECT_LT(r.worst_error, 0.15);
  EXPECT_LT(r.worst_heading_error, 0.03);
}

}  // namespace
}  // namespace robocaf::actors
