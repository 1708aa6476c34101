#include "actors/perception/landmark_localiser.hpp"

#include <cmath>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "actors/perception/onboard_filter.hpp"
#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

msg::LeaguePreset msl() { return runtime::preset_match_config("msl").league(); }

struct Truth {
  double x, y, theta;
};

// What a robot at `truth` sees of the listed landmarks, in its own frame,
// with noise of `noise_per_metre` times the distance (as the simulator).
msg::OnboardFrame frame_seen_from(const LandmarkLocaliser& localiser, const Truth& truth,
                                  const std::vector<std::pair<msg::LandmarkKind, uint32_t>>& landmarks,
                                  double noise_per_metre = 0.0, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> unit(0.0, 1.0);
  msg::OnboardFrame frame;
  frame.set_team(msg::BLUE);
  frame.set_robot_id(1);
  const double c = std::cos(truth.theta), s = std::sin(truth.theta);
  for (const auto& [kind, index] : landmarks) {
    const Eigen::Vector2d f = *localiser.field_position(kind, index);
    const Eigen::Vector2d d(f.x() - truth.x, f.y() - truth.y);
    Eigen::Vector2d r(c * d.x() + s * d.y(), -s * d.x() + c * d.y());
    r += Eigen::Vector2d(unit(rng), unit(rng)) * noise_per_metre * r.norm();
    auto* l = frame.add_landmarks();
    l->set_kind(kind);
    l->set_index(index);
    l->mutable_position()->set_x(r.x());
    l->mutable_position()->set_y(r.y());
  }
  return frame;
}

const std::vector<std::pair<msg::LandmarkKind, uint32_t>> kPlusXGoal{{msg::LANDMARK_GOAL_POST, 0},
                                                                     {msg::LANDMARK_GOAL_POST, 1}};
const std::vector<std::pair<msg::LandmarkKind, uint32_t>> kPlusXEnd{{msg::LANDMARK_GOAL_POST, 0},
                                                                    {msg::LANDMARK_GOAL_POST, 1},
                                                                    {msg::LANDMARK_CORNER, 0},
                                                                    {msg::LANDMARK_CORNER, 1}};

// An image cannot tell the goals apart: a robot facing the -x goal reports
// its posts as if they were the +x goal's (1 left, 0 right) and symmetric.
// The prior heading picks the half turn; without the flag the indices stand.
TEST(LandmarkLocaliser, SymmetricLandmarksTakeTheReadingNearerThePriorHeading) {
  const LandmarkLocaliser localiser(msl().field());
  const Truth t{-4.0, 1.0, 2.9};  // facing the -x goal
  // Seen as the -x goal's posts 2 (left) and 3 (right), reported as 1 and 0.
  msg::OnboardFrame frame = frame_seen_from(localiser, t, {{msg::LANDMARK_GOAL_POST, 2}, {msg::LANDMARK_GOAL_POST, 3}});
  frame.mutable_landmarks(0)->set_index(1);
  frame.mutable_landmarks(1)->set_index(0);
  const auto as_indexed = localiser.locate(frame.landmarks());
  ASSERT_TRUE(as_indexed);
  EXPECT_NEAR(as_indexed->x(), -t.x, 1e-9) << "without the flag the +x goal is taken at its word";
  for (auto& l : *frame.mutable_landmarks()) l.set_symmetric(true);
  msg::Pose2 prior;
  prior.set_x(-3.0);
  prior.set_y(0.0);
  prior.set_theta(2.9 + 0.8);  // a poor prior still decides
  const auto pose = localiser.locate(frame.landmarks(), &prior);
  ASSERT_TRUE(pose);
  EXPECT_NEAR(pose->x(), t.x, 1e-9);
  EXPECT_NEAR(pose->y(), t.y, 1e-9);
  EXPECT_NEAR(runtime::wrap_angle(pose->theta() - t.theta), 0.0, 1e-9);
  // The same frame with a prior facing +x: the +x goal reading.
  prior.set_theta(-0.3);
  const auto other = localiser.locate(frame.landmarks(), &prior);
  ASSERT_TRUE(other);
  EXPECT_NEAR(other->x(), -t.x, 1e-9);
}

TEST(LandmarkLocaliser, TwoGoalPostsFixThePoseExactly) {
  const LandmarkLocaliser localiser(msl().field());
  for (const Truth& t : {Truth{0.0, 0.0, 0.0}, Truth{3.0, -2.0, 0.4}, Truth{6.5, 4.0, -0.9}}) {
    const auto pose = localiser.locate(frame_seen_from(localiser, t, kPlusXGoal).landmarks());
    ASSERT_TRUE(pose);
    EXPECT_NEAR(pose->x(), t.x, 1e-9);
    EXPECT_NEAR(pose->y(), t.y, 1e-9);
    EXPECT_NEAR(runtime::wrap_angle(pose->theta() - t.theta), 0.0, 1e-9);
  }
}

TEST(LandmarkLocaliser, MoreLandmarksAverageOutCameraNoise) {
  const LandmarkLocaliser localiser(msl().field());
  const Truth t{2.0, 1.0, 0.2};
  double worst = 0.0, worst_angle = 0.0;
  for (uint32_t seed = 1; seed <= 50; ++seed) {
    const auto pose = localiser.locate(frame_seen_from(localiser, t, kPlusXEnd, 0.01, seed).landmarks());
    ASSERT_TRUE(pose) << seed;
    worst = std::max(worst, std::hypot(pose->x() - t.x, pose->y() - t.y));
    worst_angle = std::max(worst_angle, std::abs(runtime::wrap_angle(pose->theta() - t.theta)));
  }
  EXPECT_LT(worst, 0.25);  // landmarks 7-10 m away, 1 % noise each
  EXPECT_LT(worst_angle, 0.05);
}

TEST(LandmarkLocaliser, RefusesTooFewOrInconsistentLandmarks) {
  const LandmarkLocaliser localiser(msl().field());
  const Truth t{2.0, 1.0, 0.2};
  msg::OnboardFrame one = frame_seen_from(localiser, t, {{msg::LANDMARK_GOAL_POST, 0}});
  EXPECT_FALSE(localiser.locate(one.landmarks()));
  // A corner taken for the far post: its distance to the other post is wrong.
  msg::OnboardFrame misread = frame_seen_from(localiser, t, {{msg::LANDMARK_GOAL_POST, 1}, {msg::LANDMARK_CORNER, 0}});
  misread.mutable_landmarks(1)->set_kind(msg::LANDMARK_GOAL_POST);
  misread.mutable_landmarks(1)->set_index(0);
  EXPECT_FALSE(localiser.locate(misread.landmarks()));
  // Unknown kinds and indices are ignored, not trusted.
  msg::OnboardFrame unknown = frame_seen_from(localiser, t, kPlusXGoal);
  unknown.mutable_landmarks(0)->set_index(9);
  EXPECT_FALSE(localiser.locate(unknown.landmarks()));
}

TEST(OnboardFilter, LandmarksPullDriftedOdometryBackOntoTheField) {
  const auto league = msl();
  OnboardFilter filter(msg::BLUE, 1, league, 0.01);
  const LandmarkLocaliser localiser(league.field());
  const Truth truth{3.0, -1.5, 0.3};
  // Odometry believes the robot is 0.8 m and 0.25 rad off (slip, or the
  // referee moved it).
  msg::Odometry odometry;
  odometry.mutable_pose()->set_x(2.4);
  odometry.mutable_pose()->set_y(-0.9);
  odometry.mutable_pose()->set_theta(0.05);
  filter.on_odometry(odometry);
  msg::OnboardFrame blind;
  blind.set_team(msg::BLUE);
  blind.set_robot_id(1);
  EXPECT_NEAR(filter.to_percept(blind).self_pose().x(), 2.4, 1e-12) << "nothing seen: odometry as it is";
  msg::Percept p;
  for (uint32_t k = 0; k < 40; ++k) p = filter.to_percept(frame_seen_from(localiser, truth, kPlusXEnd, 0.01, k + 1));
  EXPECT_TRUE(p.self_dead_reckoned());
  ASSERT_EQ(p.self_covariance_size(), 9) << "the pose comes with its uncertainty";
  EXPECT_LT(std::sqrt(p.self_covariance(0)), 0.05);
  EXPECT_NEAR(p.self_pose().x(), truth.x, 0.08);
  EXPECT_NEAR(p.self_pose().y(), truth.y, 0.08);
  EXPECT_NEAR(runtime::wrap_angle(p.self_pose().theta() - truth.theta), 0.0, 0.02);
  // The correction stays when the landmarks go out of view, and follows odometry.
  odometry.mutable_pose()->set_x(2.5);  // odometry says 0.1 m forward along its (wrong) heading
  filter.on_odometry(odometry);
  const msg::Percept later = filter.to_percept(blind);
  EXPECT_NEAR(std::hypot(later.self_pose().x() - p.self_pose().x(), later.self_pose().y() - p.self_pose().y()), 0.1,
              0.01);
}

// A robot put down by hand starts a few decimetres uncertain, and so
// counts as lost until it sees lines (SkillParams::lost_position_sd); a
// drill's robots, starting where they stood in a match, start as certain as
// they were there (sim.start_position_sd).
TEST(OnboardFilter, SelfLocalisationStartsAsUncertainAsTheMatchSays) {
  msg::Odometry odometry;
  odometry.mutable_pose()->set_x(2.4);
  odometry.mutable_pose()->set_y(-0.9);
  msg::OnboardFrame blind;
  blind.set_team(msg::BLUE);
  blind.set_robot_id(1);
  auto start_sd = [&](OnboardFilter filter) {
    filter.on_odometry(odometry);
    const msg::Percept p = filter.to_percept(blind);
    EXPECT_EQ(p.self_covariance_size(), 9);
    return p.self_covariance_size() == 9 ? std::sqrt(p.self_covariance(0)) : -1.0;
  };
  EXPECT_NEAR(start_sd(OnboardFilter(msg::BLUE, 1, msl(), 0.01)), SelfLocaliserParams{}.start_position_sd, 1e-12);
  EXPECT_NEAR(start_sd(OnboardFilter(msg::BLUE, 1, msl(), 0.01, 0.05)), 0.05, 1e-12);
  EXPECT_NEAR(start_sd(OnboardFilter(msg::BLUE, 1, msl(), 0.01, 0.0)), SelfLocaliserParams{}.start_position_sd, 1e-12)
      << "0: the default";
}

TEST(OnboardFilter, BumperContactAheadStopsTheSelfPose) {
  OnboardFilter filter(msg::BLUE, 1, msl(), 0.01);
  msg::Odometry odometry;
  odometry.mutable_pose()->set_x(1.0);
  filter.on_odometry(odometry);
  auto* ahead = odometry.add_bumper();
  ahead->set_x(1.0);
  odometry.mutable_pose()->set_x(1.5);
  filter.on_odometry(odometry);
  msg::OnboardFrame blind;
  blind.set_team(msg::BLUE);
  blind.set_robot_id(1);
  EXPECT_NEAR(filter.to_percept(blind).self_pose().x(), 1.0, 1e-9);
  odometry.clear_bumper();
  odometry.mutable_pose()->set_x(2.0);
  filter.on_odometry(odometry);
  EXPECT_NEAR(filter.to_percept(blind).self_pose().x(), 1.5, 1e-9);
}

// Blue robot 1's onboard filter at odometry (1, 0) facing +x, and a frame
// of its camera seeing a yellow robot at `robot` and the ball at `ball`
// (robot frame).
struct SeenContactScene {
  SeenContactScene(const msg::LeaguePreset& league, const Eigen::Vector2d& robot,
                   const std::optional<Eigen::Vector2d>& ball)
      : filter(msg::BLUE, 1, league, 0.0) {
    odometry.mutable_pose()->set_x(1.0);
    filter.on_odometry(odometry);
    frame.set_team(msg::BLUE);
    frame.set_robot_id(1);
    auto* seen = frame.add_robots();
    seen->set_team(msg::YELLOW);
    seen->mutable_position()->set_x(robot.x());
    seen->mutable_position()->set_y(robot.y());
    if (ball) {
      frame.add_balls()->mutable_position()->set_x(ball->x());
      frame.mutable_balls(0)->mutable_position()->set_y(ball->y());
    }
    filter.to_percept(frame);
  }
  // The self pose after the wheels turned on to odometry x = `x`, the same frame seen.
  msg::Pose2 after_driving_to(double x) {
    odometry.mutable_pose()->set_x(x);
    filter.on_odometry(odometry);
    return filter.to_percept(frame).self_pose();
  }
  OnboardFilter filter;
  msg::Odometry odometry;
  msg::OnboardFrame frame;
};

// A robot the camera sees touching ours, or with a ball jammed between the
// two (which touches neither bumper), blocks odometry's motion towards it as
// a bumper contact does. One a hand's width away does not: the robot drives
// on towards it (MSL: taking it for a contact froze the self pose, and the
// robot struck its teammate at 0.8 m/s believing it 0.3 m away).
TEST(OnboardFilter, OnlyARobotSeenTouchingOrJammedAgainstTheBallBlocksOdometry) {
  const auto league = msl();
  const double r = league.robot().radius(), rb = league.ball().radius();
  struct Case {
    const char* name;
    double robot_at;
    std::optional<double> ball_at;
    bool blocks;
  };
  const Case cases[] = {
      {"touching", 2.0 * r + 0.01, std::nullopt, true},
      {"ball jammed between", 2.0 * r + 2.0 * rb, r + rb, true},
      {"a hand's width away", 2.0 * r + 0.15, std::nullopt, false},
      {"ball in the mouth, robot farther", 2.0 * r + 2.0 * rb + 0.3, r + rb, false},
      {"far", 2.0, std::nullopt, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::optional<Eigen::Vector2d> ball;
    if (c.ball_at) ball = Eigen::Vector2d(*c.ball_at, 0.0);
    SeenContactScene scene(league, Eigen::Vector2d(c.robot_at, 0.0), ball);
    EXPECT_NEAR(scene.after_driving_to(1.1).x(), c.blocks ? 1.0 : 1.1, 1e-9);
  }
}

// Pushing the ball into a robot beyond it at an angle, the robot stops at
// the ball as at a wall across the ball's direction. Blocked along the
// other robot's direction instead, odometry's push slid the estimate
// sideways (MSL vs chaser, seed 62: 2 m in 40 s while the robot stood).
TEST(OnboardFilter, ABallJammedAtAnAngleStopsOdometryAcrossTheBallNotTheRobotBeyond) {
  const auto league = msl();
  const double r = league.robot().radius(), rb = league.ball().radius();
  // The ball just left of straight ahead; the opponent beyond it, 0.9 rad
  // to the right of the ball, 0.4 rad to the right of ours.
  const Eigen::Vector2d ball = (r + rb) * Eigen::Vector2d(std::cos(0.09), std::sin(0.09));
  const Eigen::Vector2d beyond = ball + (r + rb - 0.001) * Eigen::Vector2d(std::cos(-0.9), std::sin(-0.9));
  SeenContactScene scene(league, beyond, ball);
  const msg::Pose2 pose = scene.after_driving_to(1.1);  // the wheels turned 0.1 m forward
  // Along the ball's face: 0.1 sin(0.09) = 9 mm; along the other robot's, 39 mm.
  EXPECT_LT(std::hypot(pose.x() - 1.0, pose.y()), 0.0095);
}

}  // namespace
}  // namespace robocaf::actors
