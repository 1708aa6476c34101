#include "actors/player_skills/intercept.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

TEST(RollingBall, StopsWhereFrictionSaysAndStaysThere) {
  RollingBall ball{V(1.0, 2.0), V(3.0, 4.0), 0.5};  // 5 m/s: stops after 10 s and 25 m
  EXPECT_DOUBLE_EQ(ball.stop_time(), 10.0);
  EXPECT_TRUE(ball.at(10.0).isApprox(V(1.0 + 15.0, 2.0 + 20.0)));
  EXPECT_TRUE(ball.at(30.0).isApprox(ball.at(10.0)));
  // Halfway in time it has gone three quarters of the way.
  EXPECT_TRUE(ball.at(5.0).isApprox(V(1.0 + 0.75 * 15.0, 2.0 + 0.75 * 20.0)));
  EXPECT_TRUE(ball.at(0.0).isApprox(ball.position));

  RollingBall frictionless{V::Zero(), V(1.0, 0.0), 0.0};
  EXPECT_EQ(frictionless.stop_time(), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(frictionless.at(7.0).isApprox(V(7.0, 0.0)));
  EXPECT_EQ(RollingBall{}.stop_time(), 0.0);
}

TEST(InterceptRobot, TimeToIsTurnThenSpeedUpThenCruise) {
  InterceptRobot robot;
  robot.max_speed = 2.0;
  robot.max_acceleration = 1.0;
  robot.max_omega = 2.0;
  // Straight ahead, 1 m: still speeding up, sqrt(2 d / a).
  EXPECT_NEAR(robot.time_to(V(1.0, 0.0)), std::sqrt(2.0), 1e-12);
  // 10 m: 2 s up to speed (2 m), then 8 m at 2 m/s.
  EXPECT_NEAR(robot.time_to(V(10.0, 0.0)), 2.0 + 4.0, 1e-12);
  // Behind it: half a turn at 2 rad/s first.
  EXPECT_NEAR(robot.time_to(V(-10.0, 0.0)), M_PI / 2.0 + 6.0, 1e-12);
  // An omni robot does not turn.
  robot.omni = true;
  EXPECT_NEAR(robot.time_to(V(-10.0, 0.0)), 6.0, 1e-12);
  // Already moving at top speed towards the point.
  robot.velocity = V(-2.0, 0.0);
  EXPECT_NEAR(robot.time_to(V(-10.0, 0.0)), 5.0, 1e-12);
  // Within reach: there already.
  robot.reach = 11.0;
  EXPECT_EQ(robot.time_to(V(-10.0, 0.0)), 0.0);
}

InterceptRobot omni_robot(V position) {
  InterceptRobot r;
  r.position = position;
  r.omni = true;
  r.max_speed = 2.0;
  r.max_acceleration = 2.0;
  r.reach = 0.1;
  return r;
}

TEST(EarliestIntercept, MeetsABallRollingAcrossInFrontAtTheEarliestReachablePoint) {
  // A ball rolls along y = 0 from x = -3 at 1.5 m/s; the robot waits at
  // (0, 1). It cannot be at the ball early on (too far), so the intercept is
  // where both arrive together.
  const InterceptRobot robot = omni_robot(V(0.0, 1.0));
  const RollingBall ball{V(-3.0, 0.0), V(1.5, 0.0), 0.1};
  const auto hit = earliest_intercept(robot, ball, 5.0);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(robot.time_to(hit->point), hit->t, 2e-3);  // both there at once
  EXPECT_TRUE(hit->point.isApprox(ball.at(hit->t)));
  // And not a moment earlier.
  EXPECT_GT(robot.time_to(ball.at(hit->t - 0.01)), hit->t - 0.01);
  // The robot meets it before it passes: in front of the robot's x.
  EXPECT_LT(hit->point.x(), 0.0);
  EXPECT_GT(hit->point.x(), -3.0);
}

TEST(EarliestIntercept, ChasingBeatsAimingAtWhereTheBallIsNow) {
  // A ball rolling away from the robot: the point to head for is ahead of it.
  const InterceptRobot robot = omni_robot(V(0.0, 0.0));
  const RollingBall ball{V(1.0, 0.0), V(1.0, 0.0), 0.2};
  const auto hit = earliest_intercept(robot, ball, 10.0);
  ASSERT_TRUE(hit);
  EXPECT_GT(hit->point.x(), 1.5);
  EXPECT_NEAR(robot.time_to(hit->point), hit->t, 2e-3);
}

TEST(EarliestIntercept, ABallWithinReachIsMetNowAndAnEscapingOneNotAtAll) {
  InterceptRobot robot = omni_robot(V(0.0, 0.0));
  const auto now = earliest_intercept(robot, RollingBall{V(0.05, 0.0), V(1.0, 0.0), 0.1}, 2.0);
  ASSERT_TRUE(now);
  EXPECT_EQ(now->t, 0.0);
  // Faster than the robot and no friction: never within the horizon.
  EXPECT_FALSE(earliest_intercept(robot, RollingBall{V(1.0, 0.0), V(3.0, 0.0), 0.0}, 3.0));
  // Non-finite input.
  EXPECT_FALSE(earliest_intercept(robot, RollingBall{V(NAN, 0.0), V(1.0, 0.0), 0.1}, 3.0));
  robot.heading = INFINITY;
  EXPECT_FALSE(earliest_intercept(robot, RollingBall{V(1.0, 0.0), V(1.0, 0.0), 0.1}, 3.0));
}

TEST(EarliestIntercept, ADifferentialRobotPaysForItsTurn) {
  InterceptRobot facing = omni_robot(V(0.0, 0.0));
  facing.omni = false;
  facing.max_omega = 3.0;
  InterceptRobot facing_away = facing;
  facing_away.heading = M_PI;
  const RollingBall ball{V(2.0, 0.5), V(0.0, 0.5), 0.1};
  const auto a = earliest_intercept(facing, ball, 10.0), b = earliest_intercept(facing_away, ball, 10.0);
  ASSERT_TRUE(a && b);
  EXPECT_GT(b->t, a->t + 0.5);
}

}  // namespace
}  // namespace robocaf::actors
