#include "actors/player_skills/shot_geometry.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

TEST(GoalOpenAngle, StraightInFrontIsTheAngleBetweenThePostsLessTheBall) {
  // 2 m goal seen from 4 m straight ahead: 2 atan(1/4), less asin(r/d) per post.
  const double d = std::hypot(4.0, 1.0);
  const double expected = 2.0 * std::atan(0.25) - 2.0 * std::asin(0.11 / d);
  EXPECT_NEAR(goal_open_angle({5.0, 0.0}, 9.0, 1.0, 0.11), expected, 1e-12);
  // Mirrored goal (attacking -x) is the same.
  EXPECT_NEAR(goal_open_angle({-5.0, 0.0}, -9.0, 1.0, 0.11), expected, 1e-12);
}

TEST(GoalOpenAngle, ClosesFromTheCorner) {
  // Clockwork Orange's corner ball, 0.6 m from the end line and 5.4 m to the
  // side of the goal's centre: the near post hides all but a sliver of a 2 m mouth.
  EXPECT_LT(goal_open_angle({8.4, -5.4}, 9.0, 1.0, 0.11), 0.001);
  // Two metres out in front it is wide open again.
  EXPECT_GT(goal_open_angle({7.0, -1.0}, 9.0, 1.0, 0.11), 0.5);
  // The further to the side, the narrower.
  EXPECT_GT(goal_open_angle({7.0, -2.0}, 9.0, 1.0, 0.11), goal_open_angle({7.0, -4.0}, 9.0, 1.0, 0.11));
}

TEST(GoalOpenAngle, NothingFromOnOrBehindTheGoalLineOrForABadGoal) {
  EXPECT_EQ(goal_open_angle({9.0, 0.0}, 9.0, 1.0, 0.11), 0.0);
  EXPECT_EQ(goal_open_angle({9.5, 0.0}, 9.0, 1.0, 0.11), 0.0);
  EXPECT_EQ(goal_open_angle({-9.5, 0.0}, -9.0, 1.0, 0.11), 0.0);
  EXPECT_EQ(goal_open_angle({5.0, 0.0}, 9.0, 0.0, 0.11), 0.0);
  EXPECT_EQ(goal_open_angle({5.0, 0.0}, 9.0, 1.0, 5.0), 0.0);
  EXPECT_EQ(goal_open_angle({NAN, 0.0}, 9.0, 1.0, 0.11), 0.0);
}

}  // namespace
}  // namespace robocaf::actors
