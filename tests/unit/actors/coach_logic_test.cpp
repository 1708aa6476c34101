#include "actors/coach/coach_logic.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

msg::LeaguePreset mirosot() { return runtime::default_match_config().league(); }

// RoboCup SSL division B proportions, to see that nothing assumes MiroSot.
msg::LeaguePreset ssl() {
  msg::LeaguePreset l;
  l.set_name("ssl-b");
  auto* f = l.mutable_field();
  f->set_length(9.0);
  f->set_width(6.0);
  f->set_goal_width(1.0);
  f->set_center_circle_radius(0.5);
  f->set_goal_area_depth(1.0);
  f->set_goal_area_width(2.0);
  l.mutable_robot()->set_radius(0.09);
  l.mutable_ball()->set_radius(0.0215);
  l.set_team_size(6);
  return l;
}

msg::GameState game(msg::RefereeCommand command, msg::Team kickoff, bool blue_on_positive) {
  msg::GameState g;
  g.set_cycle(12);
  g.set_t(3.5);
  g.set_stage(msg::STAGE_FIRST_HALF);
  g.set_command(command);
  g.set_kickoff_team(kickoff);
  g.set_blue_on_positive_side(blue_on_positive);
  return g;
}

TEST(CoachLogic, RefereeCommandsMapToDirectives) {
  CoachLogic coach(msg::BLUE, mirosot());
  const std::vector<uint32_t> robots{1, 2};
  EXPECT_EQ(coach.on_game_state(game(msg::REF_HALT, msg::BLUE, false), robots).directive(), msg::COACH_HOLD);
  EXPECT_EQ(coach.on_game_state(game(msg::REF_STOP, msg::BLUE, false), robots).directive(), msg::COACH_HOLD);
  EXPECT_EQ(coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, msg::BLUE, false), robots).directive(),
            msg::COACH_PLACE);
  EXPECT_EQ(coach.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), robots).directive(), msg::COACH_PLAY);
  EXPECT_EQ(coach.on_game_state(game(msg::REF_FORCE_START, msg::BLUE, false), robots).directive(), msg::COACH_PLAY);
  msg::GameState half_time = game(msg::REF_NORMAL_START, msg::BLUE, false);
  half_time.set_stage(msg::STAGE_HALF_TIME);
  EXPECT_EQ(coach.on_game_state(half_time, robots).directive(), msg::COACH_HOLD);
  msg::GameState over = game(msg::REF_FORCE_START, msg::BLUE, false);
  over.set_stage(msg::STAGE_POST_GAME);
  EXPECT_EQ(coach.on_game_state(over, robots).directive(), msg::COACH_HOLD);

  const msg::CoachCommand c = coach.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), {3, 1, 3});
  EXPECT_EQ(c.cycle(), 12u);
  EXPECT_DOUBLE_EQ(c.t(), 3.5);
  EXPECT_EQ(c.team(), msg::BLUE);
  ASSERT_EQ(c.robots_present_size(), 2);
  EXPECT_EQ(c.robots_present(0), 1u);
  EXPECT_EQ(c.robots_present(1), 3u);
  EXPECT_EQ(c.placements_size(), 0);  // only when placing
}

TEST(CoachLogic, TeamsAttackTheSideTheyDoNotDefend) {
  CoachLogic blue(msg::BLUE, mirosot()), yellow(msg::YELLOW, mirosot());
  const std::vector<uint32_t> robots{1};
  // Blue on the positive side defends +x, so it attacks -x; yellow the opposite.
  EXPECT_FALSE(blue.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, true), robots).attack_positive_x());
  EXPECT_TRUE(yellow.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, true), robots).attack_positive_x());
  EXPECT_TRUE(blue.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), robots).attack_positive_x());
  EXPECT_FALSE(yellow.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), robots).attack_positive_x());
  EXPECT_TRUE(blue.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), robots).we_kick_off());
  EXPECT_FALSE(yellow.on_game_state(game(msg::REF_NORMAL_START, msg::BLUE, false), robots).we_kick_off());
}

void expect_legal_formation(const msg::LeaguePreset& league, const msg::CoachCommand& c, bool kicking) {
  const double sign = c.attack_positive_x() ? 1.0 : -1.0;  // own half: sign * x < 0
  const auto& f = league.field();
  const double r = league.robot().radius();
  int near_ball = 0;
  for (const auto& p : c.placements()) {
    const double x = p.pose().x(), y = p.pose().y();
    SCOPED_TRACE("robot " + std::to_string(p.robot_id()) + " at " + std::to_string(x) + "," + std::to_string(y));
    EXPECT_LT(sign * x, 0.0);                                // own half
    EXPECT_GE(sign * x, -0.5 * f.length());                  // on the field
    EXPECT_LE(std::abs(y), 0.5 * f.width() - r);
    EXPECT_NEAR(p.pose().theta(), c.attack_positive_x() ? 0.0 : 3.14159265358979, 1e-6);  // facing the opponent goal
    const double d = std::hypot(x, y);
    if (d < f.center_circle_radius() + r) {
      ++near_ball;
      EXPECT_TRUE(kicking);
      EXPECT_LT(d, league.ball().radius() + r + 0.05);  // just behind the ball
      EXPECT_LE(sign * x, -(league.ball().radius() + r));
    }
  }
  EXPECT_EQ(near_ball, kicking ? 1 : 0);
  // No two robots on top of each other.
  for (int i = 0; i < c.placements_size(); ++i)
    for (int j = i + 1; j < c.placements_size(); ++j)
      EXPECT_GT(std::hypot(c.placements(i).pose().x() - c.placements(j).pose().x(),
                           c.placements(i).pose().y() - c.placements(j).pose().y()),
                2.0 * r);
}

TEST(CoachLogic, KickoffPlacementsForBothSidesAndLeagues) {
  for (const msg::LeaguePreset& league : {mirosot(), ssl()}) {
    for (bool blue_positive : {false, true}) {
      for (msg::Team kicker : {msg::BLUE, msg::YELLOW}) {
        for (msg::Team team : {msg::BLUE, msg::YELLOW}) {
          CoachLogic coach(team, league);
          std::vector<uint32_t> robots;
          for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
          const msg::CoachCommand c = coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, kicker, blue_positive), robots);
          SCOPED_TRACE(league.name() + (blue_positive ? " blue+" : " blue-") + (kicker == team ? " kicking" : " defending"));
          ASSERT_EQ(c.placements_size(), static_cast<int>(league.team_size()));
          expect_legal_formation(league, c, kicker == team);
          // The keeper (lowest id) stands just in front of its own goal.
          const auto& keeper = c.placements(0);
          EXPECT_EQ(keeper.robot_id(), 1u);
          const double own_goal_x = (c.attack_positive_x() ? -0.5 : 0.5) * league.field().length();
          EXPECT_LT(std::abs(keeper.pose().x() - own_goal_x), league.robot().radius() + 0.02);
          EXPECT_LT(std::abs(keeper.pose().y()), 0.5 * league.field().goal_width());
        }
      }
    }
  }
}

TEST(CoachLogic, PlacementsOnlyForPresentRobots) {
  CoachLogic coach(msg::YELLOW, mirosot());
  const msg::CoachCommand c = coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, msg::BLUE, false), {5, 2, 4});
  ASSERT_EQ(c.placements_size(), 3);
  EXPECT_EQ(c.placements(0).robot_id(), 2u);
  EXPECT_EQ(c.placements(1).robot_id(), 4u);
  EXPECT_EQ(c.placements(2).robot_id(), 5u);
  expect_legal_formation(mirosot(), c, false);
  EXPECT_EQ(coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, msg::BLUE, false), {}).placements_size(), 0);
}

TEST(CoachLogic, ManyRobotsStillFitTheOwnHalf) {
  msg::LeaguePreset league = ssl();
  CoachLogic coach(msg::BLUE, league);
  std::vector<uint32_t> robots;
  for (uint32_t id = 0; id < 11; ++id) robots.push_back(id);
  const msg::CoachCommand c = coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, msg::YELLOW, true), robots);
  ASSERT_EQ(c.placements_size(), 11);
  expect_legal_formation(league, c, false);
}

}  // namespace
}  // namespace robocaf::actors
