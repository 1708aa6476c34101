#include "actors/player_skills/shot_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "tests/unit/actors/geometry_test_helpers.hpp"

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

using testing::segment_distance;

TEST(OpenGoalGaps, WithoutObstaclesTheWholeMouthIsOneGap) {
  const auto gaps = open_goal_gaps({5.0, 0.5}, 9.0, 1.0, 0.11, {});
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_NEAR(gaps[0].angle, goal_open_angle({5.0, 0.5}, 9.0, 1.0, 0.11), 1e-12);
  EXPECT_GT(gaps[0].low_y, -1.0);
  EXPECT_LT(gaps[0].high_y, 1.0);
  EXPECT_LT(gaps[0].low_y, gaps[0].aim_y);
  EXPECT_LT(gaps[0].aim_y, gaps[0].high_y);
  EXPECT_TRUE(gaps[0].low_at_post && gaps[0].high_at_post);
}

TEST(OpenGoalGaps, AKeeperInTheMiddleLeavesTwoGapsThatMissIt) {
  const Eigen::Vector2d ball(6.0, 0.0);
  const ShotObstacle keeper{{8.7, 0.0}, 0.25};
  const auto gaps = open_goal_gaps(ball, 9.0, 1.0, 0.11, {keeper});
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_LT(gaps[0].high_y, 0.0);
  EXPECT_GT(gaps[1].low_y, 0.0);
  EXPECT_NEAR(gaps[0].angle, gaps[1].angle, 1e-9);  // symmetric
  // The outer edges are the posts', the inner ones the keeper's shadow's.
  EXPECT_TRUE(gaps[0].low_at_post && !gaps[0].high_at_post);
  EXPECT_TRUE(!gaps[1].low_at_post && gaps[1].high_at_post);
  for (const auto& g : gaps) {
    // The middle clears the keeper, an edge grazes it.
    EXPECT_GT(segment_distance(ball, {9.0, g.aim_y}, keeper.centre), 0.36);
    const double inner = g.low_y > 0.0 ? g.low_y : g.high_y;
    EXPECT_NEAR(segment_distance(ball, {9.0, inner}, keeper.centre), 0.36, 1e-6);
  }
}

TEST(OpenGoalGaps, TheGoalAtMinusXIsTheMirrorImage) {
  const ShotObstacle keeper{{8.7, 0.3}, 0.25};
  const auto plus = open_goal_gaps({6.0, -0.2}, 9.0, 1.0, 0.11, {keeper});
  const auto minus = open_goal_gaps({-6.0, -0.2}, -9.0, 1.0, 0.11, {{{-8.7, 0.3}, 0.25}});
  ASSERT_EQ(plus.size(), minus.size());
  for (size_t i = 0; i < plus.size(); ++i) {
    EXPECT_NEAR(plus[i].low_y, minus[i].low_y, 1e-12);
    EXPECT_NEAR(plus[i].high_y, minus[i].high_y, 1e-12);
    EXPECT_NEAR(plus[i].aim_y, minus[i].aim_y, 1e-12);
  }
}

TEST(OpenGoalGaps, RobotsBehindTheBallOrBeyondTheGoalLineCastNoShadow) {
  const auto free = open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, {});
  const auto with = open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, {{{4.0, 0.0}, 0.25}, {{9.5, 0.0}, 0.1}});
  ASSERT_EQ(with.size(), 1u);
  EXPECT_NEAR(with[0].angle, free[0].angle, 1e-12);
}

TEST(OpenGoalGaps, AWallOrARobotAtTheBallClosesTheGoal) {
  // Three robots shoulder to shoulder before a 2 m goal.
  const std::vector<ShotObstacle> wall{{{7.0, -0.5}, 0.25}, {{7.0, 0.0}, 0.25}, {{7.0, 0.5}, 0.25}};
  EXPECT_TRUE(open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, wall).empty());
  EXPECT_TRUE(open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, {{{5.3, 0.0}, 0.25}}).empty());
  EXPECT_TRUE(open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, {{{NAN, 0.0}, 0.25}}).empty());
}

TEST(OpenGoalGaps, EveryGapsMiddleClearsEveryObstacle) {
  // Robots scattered before the goal: wherever the gaps are, a ball sent
  // along any gap's middle passes every robot by more than the two radii.
  const Eigen::Vector2d ball(5.5, 0.7);
  std::vector<ShotObstacle> robots;
  for (int i = 0; i < 40; ++i)
    robots.push_back({{6.5 + 0.06 * ((i * 37) % 40), -2.0 + 0.1 * ((i * 13) % 40)}, 0.09});
  int gaps_seen = 0;
  for (size_t n = 1; n <= robots.size(); n += 3) {
    const std::vector<ShotObstacle> some(robots.begin(), robots.begin() + static_cast<long>(n));
    for (const auto& g : open_goal_gaps(ball, 9.0, 1.0, 0.021, some)) {
      EXPECT_GT(g.angle, 0.0);
      ++gaps_seen;
      for (const auto& o : some) EXPECT_GT(segment_distance(ball, {9.0, g.aim_y}, o.centre), 0.111 - 1e-9);
    }
  }
  EXPECT_GT(gaps_seen, 10);
}

TEST(WellInsideOpenGap, KeepsAQuarterOfTheGapFromAShadowAndTheMarginFromEveryEdge) {
  // A keeper in the middle of a 2 m goal, the ball 4 m out: two gaps, each
  // from a post to the keeper's shadow.
  const auto gaps = open_goal_gaps({5.0, 0.0}, 9.0, 1.0, 0.11, {{{8.7, 0.0}, 0.25}});
  ASSERT_EQ(gaps.size(), 2u);
  const GoalGap& right = gaps[1];
  ASSERT_TRUE(right.high_at_post);
  ASSERT_FALSE(right.low_at_post);
  const double quarter = 0.25 * (right.high_y - right.low_y);
  // By the keeper's shadow: a quarter of the gap is kept, margin or not.
  EXPECT_FALSE(well_inside_open_gap(gaps, right.low_y + 0.9 * quarter));
  EXPECT_TRUE(well_inside_open_gap(gaps, right.low_y + 1.1 * quarter));
  // By the post: no margin of its own, or the margin asked for.
  EXPECT_TRUE(well_inside_open_gap(gaps, right.high_y - 0.01));
  EXPECT_FALSE(well_inside_open_gap(gaps, right.high_y - 0.01, 0.1));
  EXPECT_TRUE(well_inside_open_gap(gaps, right.high_y - 0.11, 0.1));
  // A margin wider than the quarter rules at the shadow too.
  EXPECT_FALSE(well_inside_open_gap(gaps, right.low_y + 1.1 * quarter, 1.2 * quarter));
  // In the keeper's shadow, past a post, or nowhere at all: never.
  EXPECT_FALSE(well_inside_open_gap(gaps, 0.0));
  EXPECT_FALSE(well_inside_open_gap(gaps, 1.5));
  EXPECT_FALSE(well_inside_open_gap(gaps, NAN));
  EXPECT_FALSE(well_inside_open_gap({}, 0.5));
}

}  // namespace
}  // namespace robocaf::actors
