#include "actors/team_skills/formation.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"
#include "runtime/robot_spacing.hpp"

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

TEST(Formation, DefenderStandsOnTheBallGoalLineOutsideTheGoalArea) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const Formation formation(league);
  const V own(-9.0, 0.0);
  // Ball up-field: 40 % of the way to the goal, on the line.
  const V ball(3.0, 2.0);
  const V spot = formation.defender(ball, true);
  EXPECT_NEAR((spot - ball).norm(), 0.4 * (own - ball).norm(), 1e-9);
  EXPECT_NEAR(std::abs((spot - ball).normalized().dot((own - ball).normalized())), 1.0, 1e-9);
  // Ball at our goal line: no deeper than the kept distance from the area.
  const V deep = formation.defender(V(-8.6, -2.7), true);
  EXPECT_NEAR(deep.x(), own.x() + league.field().goal_area_depth() + formation.goal_area_keep(), 1e-9);
  // Attacking -x mirrors it.
  const V mirrored = formation.defender(V(-3.0, 2.0), false);
  EXPECT_NEAR(mirrored.x(), -spot.x(), 1e-9);
  EXPECT_NEAR(mirrored.y(), spot.y(), 1e-9);
}

TEST(Formation, WallSlotsStandATeammateKeepApartRightToLeft) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const Formation formation(league);
  const V ball(0.0, 0.0);
  const V right = formation.wall_slot(ball, true, 0, 2), left = formation.wall_slot(ball, true, 1, 2);
  EXPECT_NEAR((left - right).norm(), runtime::teammate_keep(league) + 0.002, 1e-9);
  EXPECT_LT(right.y(), left.y());  // attacking +x, left seen from the own goal is +y
  const double edge = -9.0 + league.field().goal_area_depth() + formation.goal_area_keep();
  EXPECT_NEAR(right.x(), edge, 1e-9);
}

TEST(Formation, SupportersKeepToTheOpenSideWithADeadBand) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();  // 12 m wide
  const Formation formation(league);
  EXPECT_EQ(formation.support_side(0, 3.0), -1);   // ball on +y: the open side is -y
  EXPECT_EQ(formation.support_side(-1, -1.0), -1); // within the middle tenth: kept
  EXPECT_EQ(formation.support_side(-1, -1.3), 1);  // beyond it: changes
  const V ball(-3.0, 3.0);  // in our half: beyond the reach of the up-field limit below
  const V wide = formation.supporter(ball, true, -1, 0, 2, 4), follow = formation.supporter(ball, true, -1, 1, 2, 4);
  EXPECT_GT(wide.x(), ball.x() + 5.0);   // 30 % of 18 m up-field
  EXPECT_LT(wide.y(), ball.y() - 4.0);   // 35 % of 12 m towards the open side
  EXPECT_LT(follow.x(), ball.x());       // just behind the ball
  EXPECT_LT(follow.y(), ball.y());       // on the inner side
  // A lone supporter: wide with an odd id, follow with an even one; the
  // alternative is the other.
  EXPECT_EQ(formation.supporter(ball, true, -1, 0, 1, 3), wide);
  EXPECT_EQ(formation.supporter(ball, true, -1, 0, 1, 4), follow);
  EXPECT_EQ(formation.lone_supporter_alternative(ball, true, -1, 3), follow);
  // Never beyond the goal area's depth or the touch lines.
  const V corner = formation.supporter(V(8.0, 5.5), true, -1, 1, 2, 4);
  EXPECT_LE(corner.x(), 9.0 - league.field().goal_area_depth() - league.robot().radius());
  EXPECT_LE(std::abs(corner.y()), 6.0 - league.robot().radius());
}

TEST(Formation, WhereTheRunBackToAKickOffIsLongSupportersStayWithinAQuarterOfTheFieldUpField) {
  // MSL (18 m, 2 m/s): half the field takes 4.5 s at top speed.
  const msg::LeaguePreset msl = runtime::preset_match_config("msl").league();
  const Formation formation(msl);
  const double limit = 0.25 * msl.field().length();
  for (const bool positive : {true, false}) {
    const double a = positive ? 1.0 : -1.0;
    const V ball(a * 6.0, 2.0);
    for (uint32_t index = 0; index < 3; ++index) {
      const V spot = formation.supporter(ball, positive, -1, index, 3, 4);
      EXPECT_NEAR(a * spot.x(), limit, 1e-9) << "index " << index << (positive ? " +x" : " -x");
    }
  }
  // Defending, the limit does not pull supporters up-field: the follow spot
  // deep in our half stays just behind the ball.
  const V deep = formation.supporter(V(-7.0, 2.0), true, -1, 1, 2, 4);
  EXPECT_NEAR(deep.x(), -7.3, 1e-9);
  // Where the run back takes about a second (SSL), the wide spot stays 30 %
  // of the field up-field of the ball.
  const msg::LeaguePreset ssl = runtime::preset_match_config("ssl").league();
  const V wide = Formation(ssl).supporter(V(0.0, 1.0), true, -1, 0, 2, 4);
  EXPECT_NEAR(wide.x(), 0.3 * ssl.field().length(), 1e-9);
  EXPECT_GT(wide.x(), 0.25 * ssl.field().length());
}

}  // namespace
}  // namespace robocaf::actors
