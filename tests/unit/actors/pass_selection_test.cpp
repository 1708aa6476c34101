#include "actors/player_skills/pass_selection.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

// SSL-like sizes: goal at x = 4.5, 1 m wide; robots 0.09 m, ball 0.0215 m,
// kicks up to 6.5 m/s, rolling friction 0.3 m/s^2.
constexpr double kGoalX = 4.5, kHalfGoal = 0.5, kBall = 0.0215, kRobot = 0.09, kKick = 6.5, kFriction = 0.3;

// A wall of three robots shoulder to shoulder straight before the goal.
std::vector<ShotObstacle> wall_before_goal() {
  return {{{3.2, -0.18}, kRobot}, {{3.2, 0.0}, kRobot}, {{3.2, 0.18}, kRobot}};
}

TEST(RollingTime, MatchesTheClosedForm) {
  EXPECT_DOUBLE_EQ(rolling_time(2.0, 0.0, 3.0), 1.5);
  // v t - a t^2 / 2 = d: 2 t - 0.25 t^2 = 3 -> t = 2.
  EXPECT_NEAR(rolling_time(2.0, 0.5, 3.0), 2.0, 1e-12);
  EXPECT_EQ(rolling_time(1.0, 0.5, 2.0), std::numeric_limits<double>::infinity());  // stops after 1 m
  EXPECT_EQ(rolling_time(1.0, 0.5, 0.0), 0.0);
}

TEST(PassLane, AnOpponentOnTheLaneOrRunningToItInTimeMakesItUnsafe) {
  const Eigen::Vector2d from(0.0, 0.0), to(3.0, 0.0);
  EXPECT_TRUE(pass_lane_safe(from, to, 3.0, kFriction, {}));
  // Standing on it.
  EXPECT_FALSE(pass_lane_safe(from, to, 3.0, kFriction, {{{1.5, 0.05}, kRobot + kBall}}));
  // 0.4 m beside the end of a slow pass: it gets there first.
  EXPECT_FALSE(pass_lane_safe(from, to, 1.5, kFriction, {{{2.8, 0.4}, kRobot + kBall}}));
  // The same robot against a hard pass: the ball is long gone.
  EXPECT_TRUE(pass_lane_safe(from, to, 6.0, kFriction, {{{0.6, 2.0}, kRobot + kBall}}));
  // Far from the lane.
  EXPECT_TRUE(pass_lane_safe(from, to, 3.0, kFriction, {{{1.5, 2.5}, kRobot + kBall}}));
  // Bad input.
  EXPECT_FALSE(pass_lane_safe(from, to, 3.0, kFriction, {{{NAN, 2.5}, kRobot}}));
  EXPECT_FALSE(pass_lane_safe(from, from, 3.0, kFriction, {}));
}

TEST(ChoosePass, AWallBeforeTheGoalSendsTheBallToTheTeammateBesideIt) {
  const Eigen::Vector2d ball(1.5, 0.0);
  const std::vector<PassReceiver> mates{{2, {2.6, 1.8}}, {3, {-1.0, 0.0}}};
  const auto pass = choose_pass(ball, kGoalX, kHalfGoal, kBall, kKick, kFriction, mates, wall_before_goal());
  ASSERT_TRUE(pass.has_value());
  EXPECT_EQ(pass->receiver_id, 2u);
  EXPECT_EQ(pass->target, Eigen::Vector2d(2.6, 1.8));
  EXPECT_GT(pass->receiver_open_angle, 0.1);
  // Kicked so it still rolls at the arrival speed when it gets there.
  const double d = (pass->target - ball).norm(), v = PassParams().arrival_speed;
  EXPECT_NEAR(pass->kick_speed * pass->kick_speed - 2.0 * kFriction * d, v * v, 1e-9);
}

TEST(ChoosePass, NoPassWhenTheBallHasTheBetterShotOrTheLaneIsClosed) {
  const std::vector<PassReceiver> mates{{2, {2.6, 1.8}}};
  // An open goal from the ball: shoot.
  EXPECT_FALSE(choose_pass({2.5, 0.0}, kGoalX, kHalfGoal, kBall, kKick, kFriction, mates, {}).has_value());
  // An opponent in the lane.
  auto opponents = wall_before_goal();
  opponents.push_back({{2.05, 0.9}, kRobot});
  EXPECT_FALSE(
      choose_pass({1.5, 0.0}, kGoalX, kHalfGoal, kBall, kKick, kFriction, mates, opponents).has_value());
  // Too far for the kicker to reach at the arrival speed.
  EXPECT_FALSE(choose_pass({1.5, 0.0}, kGoalX, kHalfGoal, kBall, 2.2, kFriction, mates, wall_before_goal())
                   .has_value());
  // No kicker, no receivers, or a receiver too close.
  EXPECT_FALSE(choose_pass({1.5, 0.0}, kGoalX, kHalfGoal, kBall, 0.0, kFriction, mates, wall_before_goal())
                   .has_value());
  EXPECT_FALSE(choose_pass({1.5, 0.0}, kGoalX, kHalfGoal, kBall, kKick, kFriction, {}, wall_before_goal())
                   .has_value());
  EXPECT_FALSE(choose_pass({1.5, 0.0}, kGoalX, kHalfGoal, kBall, kKick, kFriction, {{2, {2.0, 0.5}}},
                           wall_before_goal())
                   .has_value());
}

TEST(ChoosePass, TheReceiverWithTheWidestOpenGoalWins) {
  // From near the corner the goal is a sliver; both receivers see more of
  // it, 4 from in front, 2 from a steep angle.
  const Eigen::Vector2d ball(4.0, -2.5);
  const std::vector<PassReceiver> mates{{2, {3.8, 1.6}}, {4, {2.6, 0.3}}};
  const auto pass = choose_pass(ball, kGoalX, kHalfGoal, kBall, kKick, kFriction, mates, {});
  ASSERT_TRUE(pass.has_value());
  EXPECT_EQ(pass->receiver_id, 4u);
  EXPECT_GT(pass->receiver_open_angle, goal_open_angle({3.8, 1.6}, kGoalX, kHalfGoal, kBall));
}

}  // namespace
}  // namespace robocaf::actors
