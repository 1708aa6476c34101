#include "actors/player_skills/kickoff_return.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

// MSL: own half x > 0, 0.25 m robots.
HalfwayCrossing msl_crossing() {
  HalfwayCrossing c;
  c.own_side = 1.0;
  c.robot_radius = 0.25;
  c.max_angle = 0.2;
  c.lead = 1.0;
  c.back_margin = 0.1;
  return c;
}

TEST(HalfwayCrossingPoint, ScorerAtTheOtherGoalRunsNearlyStraightBackNotDiagonallyToItsSlot) {
  // After a goal at the -x end: the slot lies 4 m to the side.
  const V self(-8.8, 0.6), slot(3.0, -3.4);
  const auto cross = halfway_crossing_point(self, slot, msl_crossing());
  ASSERT_TRUE(cross.has_value());
  // A lead past the legal depth, so the robot crosses at speed.
  EXPECT_DOUBLE_EQ(cross->x(), 0.25 + 1.0);
  // Leaning towards the slot by the angle allowed, no more.
  EXPECT_NEAR(cross->y(), 0.6 - std::tan(0.2) * (1.25 + 8.8), 1e-12);
  // The way there is shorter across the line than the diagonal to the slot:
  // measured to where the robot stands legally (x = radius) on each way.
  const double legal = 0.25;
  const double via_cross = (*cross - self).norm() * (legal - self.x()) / (cross->x() - self.x());
  const double via_slot = (slot - self).norm() * (legal - self.x()) / (slot.x() - self.x());
  EXPECT_LT(via_cross, via_slot - 0.3);  // 9.23 m against 9.56 m: 0.17 s at 2 m/s
}

TEST(HalfwayCrossingPoint, SlotWithinTheAngleIsHeadedForDirectly) {
  const V self(-4.0, 2.0), slot(2.0, 2.5);
  const auto cross = halfway_crossing_point(self, slot, msl_crossing());
  ASSERT_TRUE(cross.has_value());
  EXPECT_DOUBLE_EQ(cross->y(), 2.5);
  // A slot shallower than the lead is the crossing point's depth.
  const auto shallow = halfway_crossing_point(self, V(0.8, 2.5), msl_crossing());
  ASSERT_TRUE(shallow.has_value());
  EXPECT_DOUBLE_EQ(shallow->x(), 0.8);
}

TEST(HalfwayCrossingPoint, NoneOnceBackInTheOwnHalf) {
  EXPECT_FALSE(halfway_crossing_point(V(0.36, 0.0), V(3.0, 4.0), msl_crossing()).has_value());
  EXPECT_FALSE(halfway_crossing_point(V(5.0, -1.0), V(3.0, 4.0), msl_crossing()).has_value());
  // Straddling the line, or its centre short of the margin: not yet back.
  EXPECT_TRUE(halfway_crossing_point(V(0.3, 0.0), V(3.0, 4.0), msl_crossing()).has_value());
  // A slot on the line itself (the kicker's, behind the ball): the slot it is.
  EXPECT_FALSE(halfway_crossing_point(V(-3.0, 0.0), V(0.3, 0.0), msl_crossing()).has_value());
}

TEST(HalfwayCrossingPoint, MirroredForTheOtherSide) {
  HalfwayCrossing c = msl_crossing();
  c.own_side = -1.0;
  const auto cross = halfway_crossing_point(V(8.8, -0.6), V(-3.0, 3.4), c);
  ASSERT_TRUE(cross.has_value());
  EXPECT_DOUBLE_EQ(cross->x(), -1.25);
  EXPECT_NEAR(cross->y(), -0.6 + std::tan(0.2) * 10.05, 1e-12);
}

TEST(HalfwayCrossingPoint, NoneNearTheCentreCircleWhereTheKickingTeamGathers) {
  HalfwayCrossing c = msl_crossing();
  c.circle_radius = 3.4;
  // Running back down the middle towards a slot on the -y side: the slot.
  EXPECT_FALSE(halfway_crossing_point(V(-6.0, 0.3), V(3.0, -3.6), c).has_value());
  // Leaning in towards the circle from the wing: the slot.
  EXPECT_FALSE(halfway_crossing_point(V(-4.0, 1.7), V(3.3, 3.6), c).has_value());
  // Wide of it: the crossing point.
  const auto wide = halfway_crossing_point(V(-8.8, -1.4), V(3.3, -3.6), c);
  ASSERT_TRUE(wide.has_value());
  EXPECT_GE(wide->norm(), 3.4);
}

}  // namespace
}  // namespace robocaf::actors
