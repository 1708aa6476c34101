#include "actors/player_skills/circle_escape.hpp"

#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

// MSL sizes: 0.25 m robots, 3 m restart distance.
constexpr double kBodyGap = 0.51;  // two radii and a centimetre
constexpr double kExit = 3.19;

bool way_keeps_off(const Escape& escape, const EscapeScene& scene) {
  for (size_t k = 1; k < escape.way.size(); ++k) {
    for (const auto& o : scene.keep_off) {
      const double limit = std::min(o.radius, (scene.start - o.centre).norm());
      // Grid points, so allow one cell's rounding where the start was inside.
      if ((escape.way[k] - o.centre).norm() < limit - 1e-9) return false;
    }
  }
  return true;
}

EscapeScene open_scene(const V& start) {
  EscapeScene scene;
  scene.start = start;
  scene.centre = V(0.0, 0.0);
  scene.exit_radius = kExit;
  return scene;
}

TEST(CircleEscape, OnAnOpenFieldGoesStraightOut) {
  EscapeScene scene = open_scene(V(1.0, 0.0));
  const auto escape = escape_circle(scene);
  ASSERT_TRUE(escape);
  EXPECT_GE(escape->way.back().norm(), kExit);
  EXPECT_NEAR(escape->length, kExit - 1.0, 0.1);
  EXPECT_NEAR(escape->way.back().y(), 0.0, 0.1);
  // The whole way is in sight: head straight for its end.
  EXPECT_LT((escape->head_for - escape->way.back()).norm(), 1e-9);
}

TEST(CircleEscape, BearingWeightLeavesOnThePlacesSide) {
  EscapeScene scene = open_scene(V(0.5, 0.0));
  scene.preferred_bearing = M_PI;  // the place lies beyond the far side
  scene.bearing_weight = kExit;
  const auto escape = escape_circle(scene);
  ASSERT_TRUE(escape);
  EXPECT_LT(escape->way.back().x(), 0.0) << "left on the near side, far from the place";
  scene.bearing_weight = 0.0;
  EXPECT_GT(escape_circle(scene)->way.back().x(), 0.0);
}

TEST(CircleEscape, FindsTheGapInARingOfOpponents) {
  // Opponents shoulder to shoulder round the circle at 3.25 m, but for a
  // gap on the far side: the way goes across the circle to it.
  EscapeScene scene = open_scene(V(2.6, 0.0));
  const double ring = 3.25;
  const int n = 40;
  for (int k = 0; k < n; ++k) {
    const double a = 2.0 * M_PI * k / n;
    if (std::abs(std::remainder(a - M_PI, 2.0 * M_PI)) < 0.35) continue;
    scene.keep_off.push_back({ring * V(std::cos(a), std::sin(a)), kBodyGap});
  }
  const auto escape = escape_circle(scene);
  ASSERT_TRUE(escape);
  EXPECT_LT(escape->way.back().x(), -2.5) << "exit at " << escape->way.back().transpose();
  EXPECT_TRUE(way_keeps_off(*escape, scene));
  // The straight line to where it heads keeps off every opponent.
  for (const auto& o : scene.keep_off) {
    const V d = escape->head_for - scene.start;
    const double s = std::clamp((o.centre - scene.start).dot(d) / d.squaredNorm(), 0.0, 1.0);
    EXPECT_GE((scene.start + s * d - o.centre).norm(), o.radius - 1e-9);
  }
}

TEST(CircleEscape, WedgedInAPocketGoesRoundNotThrough) {
  // MSL seed 19's drop ball: the robot 2.99 m from the spot, touching two
  // opponents standing at 3.24 m either side of the straight way out.
  EscapeScene scene = open_scene(V(-2.77, -1.15).normalized() * 2.99);
  const V out = scene.start.normalized();
  const V across(-out.y(), out.x());
  scene.keep_off.push_back({out * 3.24 + across * 0.43, kBodyGap});
  scene.keep_off.push_back({out * 3.24 - across * 0.43, kBodyGap});
  const auto escape = escape_circle(scene);
  ASSERT_TRUE(escape);
  EXPECT_TRUE(way_keeps_off(*escape, scene));
  // Not between the two.
  const V end = escape->way.back();
  EXPECT_GT(std::min((end - scene.keep_off[0].centre).norm(), (end - scene.keep_off[1].centre).norm()),
            kBodyGap - 1e-9);
  EXPECT_GE(end.norm(), kExit);
}

TEST(CircleEscape, ShutInFindsNoWay) {
  EscapeScene scene = open_scene(V(0.0, 0.0));
  for (int k = 0; k < 24; ++k) {
    const double a = 2.0 * M_PI * k / 24;
    scene.keep_off.push_back({1.0 * V(std::cos(a), std::sin(a)), kBodyGap});
  }
  EXPECT_FALSE(escape_circle(scene));
}

TEST(CircleEscape, KeepsToTheFreeSpace) {
  // Near a line: the field ends 1 m beside the centre, so the exit lies
  // along the line, not across it.
  EscapeScene scene = open_scene(V(0.0, 0.5));
  scene.space = {Eigen::AlignedBox2d(V(-10.0, -10.0), V(10.0, 1.0))};
  const auto escape = escape_circle(scene);
  ASSERT_TRUE(escape);
  for (const V& q : escape->way) EXPECT_LE(q.y(), 1.0 + 1e-9);
  EXPECT_GE(escape->way.back().norm(), kExit);
}

TEST(CircleEscape, AStartAlreadyOutIsItsOwnWay) {
  const auto escape = escape_circle(open_scene(V(4.0, 0.0)));
  ASSERT_TRUE(escape);
  EXPECT_EQ(escape->length, 0.0);
  EXPECT_EQ(escape->head_for, V(4.0, 0.0));
}

TEST(CircleEscape, BadSceneThrows) {
  EscapeScene scene = open_scene(V(0.0, 0.0));
  scene.exit_radius = 0.0;
  EXPECT_THROW(escape_circle(scene), std::invalid_argument);
  scene.exit_radius = 1.0;
  scene.cell = -0.1;
  EXPECT_THROW(escape_circle(scene), std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::actors
