#include "actors/player_skills/bang_bang.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

TEST(BangBang1D, RestToRestShortOfTopSpeedIsATriangle) {
  const BangBang1D move(0.0, 0.0, 1.0, {3.0, 2.0, 2.0});
  // Peak sqrt(a d) = sqrt(2) at half way, reached after sqrt(2) / 2 s.
  EXPECT_NEAR(move.duration(), std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(move.position(0.5 * move.duration()), 0.5, 1e-9);
  EXPECT_NEAR(move.velocity(0.5 * move.duration()), std::sqrt(2.0), 1e-9);
  EXPECT_DOUBLE_EQ(move.position(10.0), 1.0);
  EXPECT_DOUBLE_EQ(move.velocity(10.0), 0.0);
}

TEST(BangBang1D, LongMoveCruisesAtTopSpeed) {
  // 2 s up to 2 m/s (2 m), 3 s at 2 m/s (6 m), 2 s down (2 m).
  const BangBang1D move(0.0, 0.0, -10.0, {2.0, 1.0, 1.0});
  EXPECT_NEAR(move.duration(), 7.0, 1e-9);
  EXPECT_NEAR(move.velocity(3.5), -2.0, 1e-9);
  EXPECT_NEAR(move.position(2.0), -2.0, 1e-9);
}

TEST(BangBang1D, SlowsDownHarderThanItSpeedsUp) {
  // Speeding up at 3 to 2 m/s takes 2/3 s (2/3 m), braking at 6 1/3 s (1/3 m).
  const BangBang1D move(0.0, 0.0, 1.0, {3.0, 3.0, 6.0});
  EXPECT_NEAR(move.duration(), 1.0, 1e-9);
  EXPECT_NEAR(move.velocity(2.0 / 3.0), 2.0, 1e-9);
}

TEST(BangBang1D, MovingAwayStopsFirstThenComesBack) {
  const BangBang1D move(0.0, -1.0, 1.0, {3.0, 1.0, 1.0});
  // 1 s to rest at -0.5, then 1.5 m from rest: 2 sqrt(1.5) s.
  EXPECT_NEAR(move.duration(), 1.0 + 2.0 * std::sqrt(1.5), 1e-9);
  EXPECT_NEAR(move.position(1.0), -0.5, 1e-9);
  EXPECT_NEAR(move.velocity(1.0), 0.0, 1e-9);
}

TEST(BangBang1D, TooFastToStopOvershootsByItsBrakingDistanceOnly) {
  const BangBang1D move(0.0, 2.0, 1.0, {3.0, 1.0, 1.0});
  // 2 s braking to rest at 2, 2 s back over the metre.
  EXPECT_NEAR(move.duration(), 4.0, 1e-9);
  EXPECT_NEAR(move.position(2.0), 2.0, 1e-9);
}

TEST(BangBang1D, StartAboveTopSpeedSlowsToIt) {
  const BangBang1D move(0.0, 3.0, 20.0, {2.0, 1.0, 1.0});
  EXPECT_NEAR(move.velocity(1.0), 2.0, 1e-9);
  EXPECT_NEAR(move.velocity(5.0), 2.0, 1e-9);
  EXPECT_NEAR(move.position(move.duration()), 20.0, 1e-9);
}

TEST(BangBang1D, RandomMovesKeepTheirLimitsAndEndAtRestOnTheTarget) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-5.0, 5.0), vel(-3.0, 3.0), lim(0.5, 4.0);
  for (int k = 0; k < 500; ++k) {
    const double s0 = pos(rng), v0 = vel(rng), s1 = pos(rng);
    const MotionLimits limits{lim(rng), lim(rng), lim(rng)};
    const BangBang1D move(s0, v0, s1, limits);
    SCOPED_TRACE(::testing::Message() << "s0 " << s0 << " v0 " << v0 << " s1 " << s1);
    const double dt = 1e-3;
    double s = s0;
    for (double t = 0.0; t < move.duration() + 0.1; t += dt) {
      const double v = move.velocity(t), next = move.velocity(t + dt);
      EXPECT_LE(std::abs(v), std::max(limits.max_speed, std::abs(v0)) + 1e-9);
      const double a = std::abs(next - v) / dt;
      // Speeding up within speed_up, slowing down within slow_down; a
      // step through rest may hold some of each.
      if (v * next > 0.0 && std::abs(next) > std::abs(v)) EXPECT_LE(a, limits.speed_up + 1e-6);
      else if (v * next > 0.0) EXPECT_LE(a, limits.slow_down + 1e-6);
      else EXPECT_LE(a, std::max(limits.speed_up, limits.slow_down) + 1e-6);
      s += 0.5 * (v + next) * dt;
    }
    EXPECT_NEAR(s, s1, 1e-3) << "velocity does not integrate to the target";
    EXPECT_NEAR(move.position(move.duration()), s1, 1e-9);
    EXPECT_EQ(move.velocity(move.duration()), 0.0);
  }
}

TEST(BangBang2D, BothAxesArriveTogetherWithinTheLimitsOfTheWhole) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(-3.0, 3.0), vel(-1.5, 1.5);
  const MotionLimits limits{3.0, 3.0, 6.0};
  for (int k = 0; k < 200; ++k) {
    const Eigen::Vector2d p0(pos(rng), pos(rng)), p1(pos(rng), pos(rng));
    const Eigen::Vector2d v0 = k % 2 == 0 ? Eigen::Vector2d::Zero() : Eigen::Vector2d(vel(rng), vel(rng));
    const BangBang2D move(p0, v0, p1, limits);
    const double T = move.duration();
    EXPECT_LT((move.position(T) - p1).norm(), 1e-9);
    // Neither axis is there early: they share the limits to arrive at once.
    const Eigen::Vector2d late = move.position(0.99 * T) - p1;
    EXPECT_GT(std::abs(late.x()), 0.0);
    EXPECT_GT(std::abs(late.y()), 0.0);
    const double dt = 1e-3;
    for (double t = 0.0; t < T; t += dt) {
      // cos^2 + sin^2 = 1: from rest the whole speed stays within the
      // top speed, and the whole acceleration within the larger limit.
      if (v0.isZero()) {
        EXPECT_LE(move.velocity(t).norm(), limits.max_speed + 1e-9);
      }
      EXPECT_LE((move.velocity(t + dt) - move.velocity(t)).norm() / dt, limits.slow_down + 1e-6);
    }
  }
}

TEST(BangBang2D, RunningAcrossItsWayItBrakesThatMotionAtOnce) {
  // SSL vs chaser, seed 23: running at 1.74 m/s along -x, 0.75 m short of
  // its place along x and 1.7 m along y. Steering the velocity at the
  // target carried it 0.65 m past the place along x, over the halfway
  // line; braking x at once (with the share of the limits that lets y
  // arrive at the same time) keeps its 0.09 m body in its half.
  const Eigen::Vector2d p0(0.93, -0.69), v0(-1.74, -0.70), p1(0.18, -2.40);
  const BangBang2D move(p0, v0, p1, {3.0, 3.0, 6.0});
  double least_x = p0.x();
  for (double t = 0.0; t <= move.duration(); t += 0.005) least_x = std::min(least_x, move.position(t).x());
  EXPECT_GT(least_x, 0.09);
  EXPECT_LT(move.velocity(0.1).x(), 0.0);
  EXPECT_GT(move.velocity(0.1).x(), v0.x()) << "x is not braked at once";
}

TEST(BangBang2D, AnAxisWithNothingToDoLeavesTheOtherTheWholeLimits) {
  const BangBang2D move(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 1), {3.0, 2.0, 2.0});
  EXPECT_NEAR(move.duration(), std::sqrt(2.0), 1e-4);
}

}  // namespace
}  // namespace robocaf::actors
