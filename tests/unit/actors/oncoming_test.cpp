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

TEST(KeepRightZones, CloseTheWayOnTheLeftOfOneComingHeadOn) {
  const double r = 0.25;
  // Travelling +x, one coming -x slightly to our right.
  const auto zones = keep_right_zones(V(0, 0), V(1.9, 0), V(2.0, -0.1), V(-1.9, 0.2), r, 2.0, 0.8);
  ASSERT_EQ(zones.size(), 4u);  // every 0.5 m out to 2 m
  for (size_t i = 0; i < zones.size(); ++i) {
    EXPECT_NEAR(zones[i].centre.x(), 2.0, 1e-12);
    EXPECT_NEAR(zones[i].centre.y(), -0.1 + 0.5 * (i + 1), 1e-12);  // on our left (+y)
    EXPECT_EQ(zones[i].radius, r);
    EXPECT_EQ(zones[i].body, 0.0);
  }
  // Its own rule, from its side, closes the way on its left: our right of
  // it, which is where its body leaves us the way.
  const auto theirs = keep_right_zones(V(2.0, -0.1), V(-1.9, 0.2), V(0, 0), V(1.9, 0), r, 2.0, 0.8);
  ASSERT_FALSE(theirs.empty());
  for (const auto& zone : theirs) EXPECT_LT(zone.centre.y(), 0.0);
}

TEST(KeepRightZones, NoneUnlessMovingAndMeetingHeadOnAhead) {
  const double r = 0.25;
  // Crossing at right angles.
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(1.9, 0), V(2, -2), V(0, 1.9), r, 2.0, 0.8).empty());
  // Going the same way.
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(1.9, 0), V(2, 0), V(1.0, 0), r, 2.0, 0.8).empty());
  // Coming the other way but behind us.
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(1.9, 0), V(-2, 0), V(-1.9, 0), r, 2.0, 0.8).empty());
  // Either standing.
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(0, 0), V(2, 0), V(-1.9, 0), r, 2.0, 0.8).empty());
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(1.9, 0), V(2, 0), V(0, 0), r, 2.0, 0.8).empty());
  EXPECT_TRUE(keep_right_zones(V(0, 0), V(1.9, 0), V(2, 0), V(NAN, 0), r, 2.0, 0.8).empty());
}

}  // namespace
}  // namespace robocaf::actors
