#include "actors/player_skills/oncoming.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

TEST(OnCollisionCourse, HeadOnAndCrossingYesRunningPastOrApartNo) {
  const double reach = 0.6, horizon = 1.0;
  // Head on, 2 m apart, closing at 4 m/s: they meet in half a second.
  EXPECT_TRUE(on_collision_course(V(0, 0), V(2, 0), V(2, 0.1), V(-2, 0), reach, horizon));
  // The same 0.7 m to the side: they run past each other.
  EXPECT_FALSE(on_collision_course(V(0, 0), V(2, 0), V(2, 0.7), V(-2, 0), reach, horizon));
  // Too far to meet within the horizon: 6 m apart at 4 m/s.
  EXPECT_FALSE(on_collision_course(V(0, 0), V(2, 0), V(6, 0), V(-2, 0), reach, horizon));
  // Moving apart, or side by side at the same speed.
  EXPECT_FALSE(on_collision_course(V(0, 0), V(-2, 0), V(2, 0), V(2, 0), reach, horizon));
  EXPECT_FALSE(on_collision_course(V(0, 0), V(2, 0), V(0, 0.4), V(2, 0), reach, horizon));
  // One standing in the way of the other: a non-finite velocity stands.
  EXPECT_TRUE(on_collision_course(V(0, 0), V(NAN, 0), V(1, 0), V(-2, 0), reach, horizon));
}

TEST(WayAhead, BodiesARadiusApartAlongWhereItGoesLeavingTheStartFree) {
  const double r = 0.25;
  // 1 m/s for 1 s: four bodies 0.25 m apart, the last where it will be.
  const std::vector<CircleObstacle> way = way_ahead(V(2, 0), V(0, 1), r, 1.0, V(-5, 0), 0.6);
  ASSERT_EQ(way.size(), 4u);
  for (size_t k = 0; k < way.size(); ++k) {
    EXPECT_NEAR(way[k].centre.x(), 2.0, 1e-12);
    EXPECT_NEAR(way[k].centre.y(), 0.25 * double(k + 1), 1e-12);
    EXPECT_EQ(way[k].radius, r);
    EXPECT_LT(way[k].body, 0.0) << "a body, not a zone";
  }
  // 0.9 m: still at most a radius apart (four, 0.225 m).
  EXPECT_EQ(way_ahead(V(2, 0), V(0, 0.9), r, 1.0, V(-5, 0), 0.6).size(), 4u);
  // Coming at the start (0, 0) from (2, 0) for 2 s, on past it to (-2, 0):
  // the way ends before it comes within 0.6 m of the start.
  const std::vector<CircleObstacle> at_us = way_ahead(V(2, 0), V(-2, 0), r, 2.0, V(0, 0), 0.6);
  ASSERT_EQ(at_us.size(), 5u);
  for (const CircleObstacle& o : at_us) EXPECT_GT(o.centre.x(), 0.6);
  EXPECT_NEAR(at_us.back().centre.x(), 0.75, 1e-12);
  // Standing, not a number, or no time: nothing ahead of it.
  EXPECT_EQ(way_ahead(V(2, 0), V(0, 0), r, 1.0, V(-5, 0), 0.6).size(), 0u);
  EXPECT_TRUE(way_ahead(V(2, 0), V(NAN, 1), r, 1.0, V(-5, 0), 0.6).empty());
  EXPECT_TRUE(way_ahead(V(2, 0), V(0, 1), r, 0.0, V(-5, 0), 0.6).empty());
}

}  // namespace
}  // namespace robocaf::actors
