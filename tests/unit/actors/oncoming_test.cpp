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

}  // namespace
}  // namespace robocaf::actors
