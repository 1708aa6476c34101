#include "actors/coach/coach_logic.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"
#include "runtime/robot_spacing.hpp"
#include "runtime/run_off.hpp"

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
          // The keeper (lowest id) stands just in front of its own goal, a
          // little more than a radius off the line so a pose a few
          // centimetres off still has it inside the field.
          const auto& keeper = c.placements(0);
          EXPECT_EQ(keeper.robot_id(), 1u);
          const double own_goal_x = (c.attack_positive_x() ? -0.5 : 0.5) * league.field().length();
          const double off_line = std::abs(keeper.pose().x() - own_goal_x) - league.robot().radius();
          EXPECT_GE(off_line, 0.02);
          EXPECT_LE(off_line, 0.05);
          EXPECT_LT(std::abs(keeper.pose().y()), 0.5 * league.field().goal_width());
        }
      }
    }
  }
}

// Both teams placing with these formations: our wings (the spots beside the
// halfway line) are not in the lane of the other team's wings. Mirrored, a
// robot coming back from the far half to its wing met the opponent on that
// opponent's wing head on and pushed against it until the kick-off (MSL:
// most illegal kick-off positions).
TEST(CoachLogic, KickoffWingSpotsAreNotInTheOtherTeamsWingLanes) {
  for (const msg::LeaguePreset& league : {mirosot(), ssl(), runtime::preset_match_config("msl").league()}) {
    SCOPED_TRACE(league.name());
    const double r = league.robot().radius();
    std::vector<uint32_t> robots;
    for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
    auto wings = [&](const CoachLogic& coach, bool attack_positive_x, bool kicking) {
      std::vector<double> ys;
      for (const auto& p : coach.kickoff_placements(robots, attack_positive_x, kicking))
        if (std::abs(p.pose().x()) < 4.0 * r + CoachLogic::kDeeperSlots * league.field().length() &&
            std::abs(p.pose().y()) > 4.0 * r)
          ys.push_back(p.pose().y());
      return ys;
    };
    const auto ours = wings(CoachLogic(msg::BLUE, league), true, true);
    const auto theirs = wings(CoachLogic(msg::YELLOW, league), false, false);
    ASSERT_EQ(ours.size(), 2u);
    ASSERT_EQ(theirs.size(), 2u);
    for (double y : ours)
      for (double q : theirs) EXPECT_GT(std::abs(y - q), 4.0 * r) << "our wing at y " << y << ", theirs at " << q;
  }
}

// After our goal, the other team kicks off and our robots run back from the
// far half, in MSL a run of seconds. Every spot then lies well behind the
// halfway line, and the one straight behind the centre circle well behind
// it, so a robot crosses both at speed rather than braking for a spot just
// beyond them; at our own kick-off the wings stand beside the line. In
// MiroSot and SSL the run takes a second at most, and the wings stand beside
// the line at either kick-off.
TEST(CoachLogic, AtTheirKickoffOurSpotsLieWellBehindTheHalfwayLineAndTheCircle) {
  for (const msg::LeaguePreset& league : {mirosot(), ssl(), runtime::preset_match_config("msl").league()}) {
    SCOPED_TRACE(league.name());
    const double L = league.field().length(), r = league.robot().radius();
    const bool long_run = league.name() == "msl";
    const double well = long_run ? CoachLogic::kDeeperSlots * L : 0.0;
    std::vector<uint32_t> robots;
    for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
    for (bool attack_positive_x : {true, false}) {
      const CoachLogic coach(msg::BLUE, league);
      double nearest_line = 1e9;
      for (const auto& p : coach.kickoff_placements(robots, attack_positive_x, false)) {
        const double behind = attack_positive_x ? -p.pose().x() : p.pose().x();
        EXPECT_GE(behind, r + well) << "robot " << p.robot_id();
        if (std::abs(p.pose().y()) < r) {  // straight behind the circle
          EXPECT_GE(behind, league.field().center_circle_radius() + r + well) << "robot " << p.robot_id();
        }
      }
      for (const auto& p : coach.kickoff_placements(robots, attack_positive_x, true))
        if (p.robot_id() != 2)  // the kicker, at the ball
          nearest_line = std::min(nearest_line, attack_positive_x ? -p.pose().x() : p.pose().x());
      EXPECT_LT(nearest_line, r + CoachLogic::kDeeperSlots * L) << "at our kick-off the wings stand beside the line";
      if (!long_run) {
        double nearest_at_theirs = 1e9;
        for (const auto& p : coach.kickoff_placements(robots, attack_positive_x, false))
          nearest_at_theirs = std::min(nearest_at_theirs, attack_positive_x ? -p.pose().x() : p.pose().x());
        EXPECT_LT(nearest_at_theirs, r + CoachLogic::kDeeperSlots * L) << "and at theirs";
      }
    }
  }
}

// Running back from the far half to a wing near the centre circle, robots
// crossed where the kicking team gathers round the ball.
TEST(CoachLogic, AtTheirKickoffInMslTheWingsStandWideOfTheCentreCircle) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const double L = league.field().length(), W = league.field().width(), r = league.robot().radius();
  std::vector<uint32_t> robots;
  for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
  for (bool attack_positive_x : {true, false}) {
    SCOPED_TRACE(attack_positive_x ? "attacking +x" : "attacking -x");
    int wings = 0;
    for (const auto& p : CoachLogic(msg::BLUE, league).kickoff_placements(robots, attack_positive_x, false)) {
      const double behind = attack_positive_x ? -p.pose().x() : p.pose().x();
      if (behind > 2.0 * r + CoachLogic::kDeeperSlots * L || std::abs(p.pose().y()) < r) continue;
      ++wings;
      EXPECT_GE(std::abs(p.pose().y()), 0.3 * W - 1e-9) << "robot " << p.robot_id();
    }
    EXPECT_EQ(wings, 2);
  }
}

// An opponent crossing the halfway line pushes the ball off the spot and
// leans on our taker; the referee puts the ball back, not the taker. The
// taker's spot is far enough behind the ball that a push of a few
// centimetres leaves it off the ball (MSL: 0.39 m from the spot, 3 cm
// clear, two takers 3-4 cm onto the ball in 80 matches).
TEST(CoachLogic, OurKickoffTakerStandsClearOfTheBallByMoreThanAPush) {
  for (const msg::LeaguePreset& league : {mirosot(), ssl(), runtime::preset_match_config("msl").league()}) {
    SCOPED_TRACE(league.name());
    const double r = league.robot().radius(), on_ball = r + league.ball().radius();
    std::vector<uint32_t> robots;
    for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
    for (bool attack_positive_x : {true, false}) {
      const auto placements = CoachLogic(msg::BLUE, league).kickoff_placements(robots, attack_positive_x, true);
      const auto taker = std::find_if(placements.begin(), placements.end(),
                                      [](const msg::Placement& p) { return p.robot_id() == 2; });
      ASSERT_NE(taker, placements.end());
      const double clear = std::hypot(taker->pose().x(), taker->pose().y()) - on_ball;
      EXPECT_GE(clear, std::max(0.03, 0.5 * r) - 1e-9);
      EXPECT_LE(clear, 0.5 * r + 0.03) << "and near enough to take the kick-off at once";
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


// ---------------------------------------------------------------------------
// Restarts (REF_PREPARE_RESTART).

msg::LeaguePreset with_restart_distance(msg::LeaguePreset league, double d) {
  league.mutable_rules()->set_restart_distance(d);
  return league;
}

msg::GameState restart(msg::RestartKind kind, msg::Team team, double x, double y, bool blue_on_positive = false) {
  msg::GameState g = game(msg::REF_PREPARE_RESTART, msg::BLUE, blue_on_positive);
  g.set_restart(kind);
  g.set_restart_team(team);
  g.mutable_ball_spot()->set_x(x);
  g.mutable_ball_spot()->set_y(y);
  return g;
}

msg::Pose2 pose(double x, double y, double theta = 0.0) {
  msg::Pose2 p;
  p.set_x(x);
  p.set_y(y);
  p.set_theta(theta);
  return p;
}

const msg::Pose2* placement_of(const msg::CoachCommand& c, uint32_t id) {
  for (const auto& p : c.placements())
    if (p.robot_id() == id) return &p.pose();
  return nullptr;
}

// How far placing robots keep from the ball's spot: the restart distance at
// the other team's restarts and at drop balls, nothing at our own or while
// placing for kick-offs (a way round the centre circle led into the other
// half).
TEST(CoachLogic, PlacingTellsTheDistanceToKeepFromTheBallSpot) {
  const msg::LeaguePreset league = with_restart_distance(mirosot(), 0.5);
  CoachLogic coach(msg::BLUE, league);
  const std::vector<uint32_t> robots{1, 2, 3};
  for (msg::Team kicker : {msg::BLUE, msg::YELLOW})
    EXPECT_DOUBLE_EQ(coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, kicker, false), robots).keep_out_radius(),
                     0.0);
  EXPECT_DOUBLE_EQ(
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, 0.3, 0.2), robots).keep_out_radius(), 0.5);
  EXPECT_DOUBLE_EQ(
      coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, 0.3, 0.2), robots).keep_out_radius(),
      0.5);
  EXPECT_DOUBLE_EQ(
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::BLUE, 0.3, 0.2), robots).keep_out_radius(), 0.0);
  // Before the start the robots are not yet where they may stand.
  EXPECT_FALSE(coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, 0.3, 0.2), robots).waiting_for_taker());
}

double dist(const msg::Pose2& p, double x, double y) { return std::hypot(p.x() - x, p.y() - y); }

// A keeper's restart placement: just off the goal line at goal_x, within the posts.
void expect_keeper_home(const msg::CoachCommand& c, uint32_t id, double goal_x, const msg::LeaguePreset& league) {
  const msg::Pose2* p = placement_of(c, id);
  ASSERT_NE(p, nullptr) << id;
  EXPECT_LT(std::abs(p->x() - goal_x), 2.0 * league.robot().radius()) << p->ShortDebugString();
  EXPECT_LE(std::abs(p->y()), 0.5 * league.field().goal_width()) << p->ShortDebugString();
}

TEST(CoachLogic, PrepareRestartMeansPlace) {
  CoachLogic coach(msg::BLUE, mirosot());
  const auto c = coach.on_game_state(restart(msg::RESTART_THROW_IN, msg::BLUE, 0.5, 0.88), {1, 2});
  EXPECT_EQ(c.directive(), msg::COACH_PLACE);
  EXPECT_EQ(c.placements_size(), 2);
  ASSERT_TRUE(c.has_ball_spot()) << "placing robots must know where the ball will be put";
  EXPECT_DOUBLE_EQ(c.ball_spot().x(), 0.5);
  EXPECT_DOUBLE_EQ(c.ball_spot().y(), 0.88);
  EXPECT_EQ(c.restart(), msg::RESTART_THROW_IN) << "the skills place differently for kick-offs";
  EXPECT_EQ(coach.on_game_state(game(msg::REF_PREPARE_KICKOFF, msg::YELLOW, false), {1, 2}).restart(),
            msg::RESTART_KICKOFF);
}

TEST(CoachLogic, RestartTeamSendsTheNearestRobotBehindTheBall) {
  const msg::LeaguePreset league = with_restart_distance(mirosot(), 0.3);
  CoachLogic coach(msg::BLUE, league);  // blue attacks +x (not on the positive side)
  const CoachLogic::RobotPoses poses{
      {1, pose(-1.0, 0.0)}, {2, pose(0.3, 0.2, 0.4)}, {3, pose(0.42, 0.36, 1.0)}, {4, pose(-0.3, -0.3, -2.0)}};
  const double bx = 0.5, by = 0.3;
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::BLUE, bx, by), {1, 2, 3, 4}, poses);
  ASSERT_EQ(c.directive(), msg::COACH_PLACE);
  ASSERT_EQ(c.placements_size(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c.placements(i).robot_id(), static_cast<uint32_t>(i + 1));
  // Robot 3 is nearest: two radii behind the ball on the line from the +x
  // goal centre through the ball, facing that goal.
  const msg::Pose2* k = placement_of(c, 3);
  ASSERT_NE(k, nullptr);
  const double r = league.robot().radius();
  EXPECT_NEAR(dist(*k, bx, by), 2.0 * r, 1e-9);
  const double gx = 0.5 * league.field().length();
  const double to_goal = std::atan2(0.0 - k->y(), gx - k->x());
  EXPECT_NEAR(k->theta(), to_goal, 1e-9);
  EXPECT_NEAR(std::atan2(by - k->y(), bx - k->x()), to_goal, 1e-9);  // the ball is on the way
  EXPECT_GT(dist(*k, gx, 0.0), std::hypot(gx - bx, by));              // behind it, not in front
  // The keeper (lowest id) goes home; everyone else keeps place and
  // heading, even close to the ball.
  expect_keeper_home(c, 1, -0.5 * league.field().length(), league);
  for (uint32_t id : {2u, 4u}) {
    const msg::Pose2* p = placement_of(c, id);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->SerializeAsString(), poses.at(id).SerializeAsString()) << id;
  }
}

TEST(CoachLogic, OtherTeamKeepsTheRestartDistance) {
  const double d = 0.3;
  const msg::LeaguePreset league = with_restart_distance(mirosot(), d);
  CoachLogic coach(msg::YELLOW, league);
  const double bx = 0.5, by = 0.3;
  const CoachLogic::RobotPoses poses{{1, pose(1.0, 0.0, 3.0)},  {2, pose(0.6, 0.35, 3.0)},
                                     {3, pose(0.45, 0.25, 3.0)}, {4, pose(0.5, 0.3, 3.0)}};
  // Blue on the positive side: the free kick is in blue's half, far from
  // yellow's goal (no wall).
  const auto c =
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::BLUE, bx, by, true), {1, 2, 3, 4}, poses);
  ASSERT_EQ(c.placements_size(), 4);
  const auto& f = league.field();
  const double r = league.robot().radius();
  for (const auto& p : c.placements()) {
    SCOPED_TRACE(p.robot_id());
    EXPECT_GE(dist(p.pose(), bx, by), d - 1e-9);
    EXPECT_LE(std::abs(p.pose().x()), 0.5 * f.length() - r + 1e-9);
    EXPECT_LE(std::abs(p.pose().y()), 0.5 * f.width() - r + 1e-9);
  }
  for (int i = 0; i < c.placements_size(); ++i)
    for (int j = i + 1; j < c.placements_size(); ++j)
      EXPECT_GE(dist(c.placements(i).pose(), c.placements(j).pose().x(), c.placements(j).pose().y()), 2.0 * r);
  // Robot 1 keeps yellow's goal (-x).
  expect_keeper_home(c, 1, -0.5 * f.length(), league);
  // Robot 2 moves straight back to the distance plus the margin, facing the ball.
  const msg::Pose2* p2 = placement_of(c, 2);
  EXPECT_NEAR(dist(*p2, bx, by), d + coach.restart_margin(), 1e-9);
  EXPECT_NEAR(std::atan2(p2->y() - by, p2->x() - bx), std::atan2(0.05, 0.1), 1e-9);
  EXPECT_NEAR(p2->theta(), std::atan2(by - p2->y(), bx - p2->x()), 1e-9);
  // Robot 4 stood on the ball: it backs off towards its own goal (-x).
  EXPECT_LT(placement_of(c, 4)->x(), bx);
}

TEST(CoachLogic, WhileTheOtherTeamHasNotTakenItsRestartTheTeamStaysPlaced) {
  const double d = 0.3;
  const msg::LeaguePreset league = with_restart_distance(mirosot(), d);
  const double bx = 0.5, by = 0.3;
  const CoachLogic::RobotPoses poses{{1, pose(1.0, 0.0, 3.0)}, {2, pose(0.6, 0.35, 3.0)}};
  msg::GameState g = restart(msg::RESTART_FREE_KICK, msg::BLUE, bx, by, true);
  g.set_command(msg::REF_NORMAL_START);
  g.set_waiting_for_taker(true);
  // Yellow waits for blue's free kick on places that keep the distance.
  const auto waiting = CoachLogic(msg::YELLOW, league).on_game_state(g, {1, 2}, poses);
  EXPECT_EQ(waiting.directive(), msg::COACH_PLACE);
  EXPECT_TRUE(waiting.waiting_for_taker()) << "the robots are not told that play has restarted";
  ASSERT_EQ(waiting.placements_size(), 2);
  for (const auto& p : waiting.placements()) EXPECT_GE(dist(p.pose(), bx, by), d - 1e-9);
  // Blue, taking it, plays.
  EXPECT_EQ(CoachLogic(msg::BLUE, league).on_game_state(g, {1, 2}, poses).directive(), msg::COACH_PLAY);
  // Once the ball is in play, yellow plays too.
  g.set_waiting_for_taker(false);
  EXPECT_EQ(CoachLogic(msg::YELLOW, league).on_game_state(g, {1, 2}, poses).directive(), msg::COACH_PLAY);
  // Their kick-off: kick-off places, out of the centre circle.
  msg::GameState k = game(msg::REF_NORMAL_START, msg::BLUE, true);
  k.set_restart(msg::RESTART_KICKOFF);
  k.set_restart_team(msg::BLUE);
  k.set_waiting_for_taker(true);
  const auto kickoff = CoachLogic(msg::YELLOW, league).on_game_state(k, {1, 2}, poses);
  EXPECT_EQ(kickoff.directive(), msg::COACH_PLACE);
  EXPECT_TRUE(kickoff.waiting_for_taker());
  ASSERT_EQ(kickoff.placements_size(), 2);
  for (const auto& p : kickoff.placements())
    EXPECT_GE(std::hypot(p.pose().x(), p.pose().y()), league.field().center_circle_radius());
  // Robots still on their way keep out of the circle: the robot's centre
  // stays a radius outside it.
  EXPECT_DOUBLE_EQ(kickoff.keep_out_radius(), league.field().center_circle_radius() + league.robot().radius());
  EXPECT_DOUBLE_EQ(CoachLogic(msg::BLUE, league).on_game_state(k, {1, 2}, poses).keep_out_radius(), 0.0);
}

TEST(CoachLogic, NearTheTouchLineTheRobotGoesAroundTheBall) {
  const double d = 0.3;
  const msg::LeaguePreset league = with_restart_distance(mirosot(), d);
  CoachLogic coach(msg::YELLOW, league);
  const double r = league.robot().radius();
  const double bx = 0.5, by = 0.9 - league.ball().radius();  // a throw-in on the +y line
  // Straight away from the ball is beyond the touch line.
  const CoachLogic::RobotPoses poses{{1, pose(1.0, 0.0, 3.0)}, {2, pose(0.52, 0.86, 3.0)}};
  // In blue's half (blue on the positive side): no wall.
  const auto c = coach.on_game_state(restart(msg::RESTART_THROW_IN, msg::BLUE, bx, by, true), {1, 2}, poses);
  const msg::Pose2* p = placement_of(c, 2);
  ASSERT_NE(p, nullptr);
  EXPECT_NEAR(dist(*p, bx, by), d + coach.restart_margin(), 1e-9);
  EXPECT_LE(p->y(), 0.9 - r + 1e-9);
  EXPECT_GT(p->x(), bx);  // on the side it stood
}

TEST(CoachLogic, DropBallKeepsBothTeamsAwayAndNobodyTakesIt) {
  const msg::LeaguePreset league = with_restart_distance(mirosot(), 0.3);
  for (msg::Team team : {msg::BLUE, msg::YELLOW}) {
    CoachLogic coach(team, league);
    const CoachLogic::RobotPoses poses{{1, pose(0.1, 0.1)}, {2, pose(-0.1, -0.1)}, {3, pose(0.0, 0.5)}};
    const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, 0.0, 0.0), {1, 2, 3},
                                       poses);
    ASSERT_EQ(c.placements_size(), 3);
    for (const auto& p : c.placements()) EXPECT_GE(dist(p.pose(), 0.0, 0.0), 0.3) << p.robot_id();
    EXPECT_EQ(placement_of(c, 3)->SerializeAsString(), poses.at(3).SerializeAsString());
  }
}

// MSL, a drop ball 0.9 m in from our goal line and 3.4 m up from its
// centre: the keeper's spot on the line from the goal centre to the ball lies
// inside the distance. It slides along its line to the distance, within the
// posts, rather than leaving its goal as the field players do.
TEST(CoachLogic, AKeeperWhoseSpotLiesInsideTheDistanceSlidesAlongItsLineToIt) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const double goal_x = 0.5 * league.field().length();
  const double keep = league.rules().restart_distance();
  CoachLogic coach(msg::BLUE, league);
  const CoachLogic::RobotPoses poses{{1, pose(goal_x - 0.27, 0.87)}, {2, pose(7.7, 1.0)}, {3, pose(5.0, 2.0)}};
  for (msg::RestartKind kind : {msg::RESTART_DROP_BALL, msg::RESTART_FREE_KICK}) {
    const msg::Team taker = kind == msg::RESTART_DROP_BALL ? msg::TEAM_UNSPECIFIED : msg::YELLOW;
    const auto c = coach.on_game_state(restart(kind, taker, goal_x - 0.87, 3.42, true), {1, 2, 3}, poses);
    expect_keeper_home(c, 1, goal_x, league);
    const msg::Pose2* k = placement_of(c, 1);
    ASSERT_NE(k, nullptr);
    EXPECT_GE(dist(*k, goal_x - 0.87, 3.42), keep) << k->ShortDebugString();
    EXPECT_LT(dist(*k, goal_x - 0.87, 3.42), keep + 2.0 * league.robot().radius()) << "no farther than it need be";
  }
}

// MSL restart drill of seed 108, a drop ball 0.57 m in from our goal line:
// the keeper's slide along its line ends at the distance exactly, and for
// 5-8 % of ball spots the rounding put it a hair inside. The keeper was
// then sent as a field player to the nearest free point, 3 m out past its
// teammates, and the referee moved it. It stays home whatever the rounding.
TEST(CoachLogic, AKeeperSlidToTheDistanceStaysHomeWhateverTheRounding) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const double goal_x = -0.5 * league.field().length();
  const CoachLogic::RobotPoses poses{{1, pose(-8.728, -0.870)}, {2, pose(-3.041, 0.687)}, {3, pose(-7.735, -2.124)},
                                     {4, pose(-7.731, -1.122)}, {5, pose(-8.800, -3.126)}};
  const std::vector<msg::Pose2> opponents{pose(-8.47, -3.94), pose(-8.03, -3.56), pose(-8.94, -3.61),
                                          pose(-9.45, -3.84), pose(-8.98, -4.21)};
  int sent_away = 0;
  for (int k = 0; k < 400; ++k) {
    const double bx = -8.426 + 1e-6 * (k % 20), by = -3.516 + 1e-6 * (k / 20);
    CoachLogic coach(msg::BLUE, league);
    const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by), {1, 2, 3, 4, 5},
                                       poses, opponents);
    const msg::Pose2* keeper = placement_of(c, 1);
    ASSERT_NE(keeper, nullptr);
    if (std::abs(keeper->x() - goal_x) > 2.0 * league.robot().radius()) ++sent_away;
    EXPECT_GE(dist(*keeper, bx, by), league.rules().restart_distance()) << keeper->ShortDebugString();
  }
  EXPECT_EQ(sent_away, 0) << "of 400 ball spots a micrometre apart";
}

TEST(CoachLogic, RestartWithoutPosesUsesTheFormation) {
  for (const msg::LeaguePreset& base : {mirosot(), ssl()}) {
    const msg::LeaguePreset league = with_restart_distance(base, 0.5);
    std::vector<uint32_t> robots;
    for (uint32_t id = 1; id <= league.team_size(); ++id) robots.push_back(id);
    const double bx = -0.2 * league.field().length(), by = 0.1;
    // Yellow attacks +x with blue on the positive side.
    CoachLogic taker(msg::YELLOW, league), other(msg::BLUE, league);
    const auto t = taker.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by, true), robots);
    const auto o = other.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by, true), robots);
    ASSERT_EQ(t.placements_size(), static_cast<int>(robots.size()));
    ASSERT_EQ(o.placements_size(), static_cast<int>(robots.size()));
    // The second lowest id takes it, behind the ball facing +x.
    const msg::Pose2* k = placement_of(t, 2);
    EXPECT_NEAR(dist(*k, bx, by), 2.0 * league.robot().radius(), 1e-9);
    EXPECT_LT(k->x(), bx);
    for (const auto& p : o.placements()) EXPECT_GE(dist(p.pose(), bx, by), 0.5) << p.robot_id();
  }
}

TEST(CoachLogic, ARobotJustOutsideTheRestartDistanceStillMovesToTheMargin) {
  // It may be settling inwards, or its pose estimate may be a little off:
  // the referee measures where it really is.
  const double d = 0.3;
  const msg::LeaguePreset league = with_restart_distance(mirosot(), d);
  CoachLogic coach(msg::YELLOW, league);
  const CoachLogic::RobotPoses poses{{1, pose(1.0, 0.0, 3.0)}, {2, pose(0.5 + d + 0.005, 0.3, 3.0)}};
  // In blue's half (blue on the positive side): no wall, the robot just moves out.
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::BLUE, 0.5, 0.3, true), {1, 2}, poses);
  const msg::Pose2* p = placement_of(c, 2);
  ASSERT_NE(p, nullptr);
  EXPECT_NEAR(dist(*p, 0.5, 0.3), d + coach.restart_margin(), 1e-9);
}

// A robot sent to the restart distance plus the margin stops a little
// either side of it, and its pose estimate wavers as much. Just short, it
// stays where it stands: moved on, with a teammate standing at the nearest
// point, it was sent round the ball every other cycle (MSL, near our goal).
// Short by more than that, it still moves out to the margin.
TEST(CoachLogic, ARobotThatReachedTheMarginStaysThoughItStandsAFewCentimetresShort) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const double short_by = 0.9 * CoachLogic::kStayFraction * coach.restart_margin();
  const double bx = 5.0, by = 0.0;  // their free kick in their half: no wall
  // Robot 2 straight behind the ball from robot 3, 3 on the line from the
  // ball to robot 2 beyond it: the nearest point at `keep` is taken by 3.
  const CoachLogic::RobotPoses reached{{1, pose(-8.7, 0.0)}, {2, pose(bx - keep + short_by, 0.0, 0.3)},
                                       {3, pose(bx - keep - 0.2, 0.1)}};
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by), {1, 2, 3}, reached);
  EXPECT_EQ(placement_of(c, 2)->SerializeAsString(), reached.at(2).SerializeAsString());
  CoachLogic::RobotPoses inside = reached;
  inside[2] = pose(bx - keep + 2.0 * short_by, 0.0, 0.3);
  const auto moved = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by), {1, 2, 3}, inside);
  EXPECT_NEAR(dist(*placement_of(moved, 2), bx, by), keep, 1e-9);
}

// A robot sent out to the distance keeps its spot while it turns and runs
// there; made afresh from where it stands each cycle, the spot swung with
// the robot's heading and with the robots about it (MSL drop balls).
TEST(CoachLogic, WithinOneRestartARobotKeepsTheSpotAtTheDistanceItWasSentTo) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const msg::GameState drop = restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, 0.0, 0.0);
  auto spot_of_two = [&](const msg::GameState& g, const msg::Pose2& two, const std::vector<msg::Pose2>& opponents) {
    const auto c = coach.on_game_state(g, {1, 2}, {{1, pose(-8.7, 0.0)}, {2, two}}, opponents);
    const msg::Pose2* p = placement_of(c, 2);
    return p != nullptr ? std::make_pair(p->x(), p->y()) : std::make_pair(std::nan(""), std::nan(""));
  };
  // Straight away from the ball.
  const auto first = spot_of_two(drop, pose(1.0, 0.0), {});
  EXPECT_NEAR(first.first, keep, 1e-9);
  EXPECT_NEAR(first.second, 0.0, 1e-9);
  // Swerving on its way: afresh, the spot would lie straight away from the
  // ball again, 1.9 m off the first; it is kept.
  EXPECT_EQ(spot_of_two(drop, pose(1.0, 0.6), {}), first);
  // An opponent comes to stand on it: a free spot instead, away from it.
  const auto round_opponent = spot_of_two(drop, pose(1.0, 0.6), {pose(keep, 0.1)});
  EXPECT_GE(std::hypot(round_opponent.first - keep, round_opponent.second - 0.1), 2.0 * league.robot().radius());
  EXPECT_NEAR(std::hypot(round_opponent.first, round_opponent.second), keep, 1e-9);
  // Pushed round to the ball's other side: a spot more than four radii
  // further than a fresh one is given up.
  const auto far_side = spot_of_two(drop, pose(-1.0, 0.5), {});
  EXPECT_LT(far_side.first, 0.0);
  // A new restart starts afresh.
  const auto next = spot_of_two(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, 0.5, 0.0), pose(1.0, 0.6), {});
  EXPECT_NEAR(std::atan2(next.second, next.first - 0.5), std::atan2(0.6, 0.5), 1e-9);
}

TEST(CoachLogic, AtOurRestartRobotsOnTheBallOrInTheTakersWayMakeRoom) {
  const msg::LeaguePreset league = with_restart_distance(mirosot(), 0.3);
  CoachLogic coach(msg::BLUE, league);  // attacks +x
  const double r = league.robot().radius(), bx = 0.5, by = 0.3;
  // Robot 2 is nearest and takes it; robot 3 stands on the ball's far side,
  // touching it; robot 4 stands where the taker will (behind the ball).
  const CoachLogic::RobotPoses poses{{1, pose(-1.0, 0.0)},
                                     {2, pose(bx + 0.06, by, 3.0)},
                                     {3, pose(bx + 0.062, by + 0.01, 3.0)},
                                     {4, pose(bx - 2.0 * r, by - 0.1 * r)}};
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::BLUE, bx, by), {1, 2, 3, 4}, poses);
  const msg::Pose2* k = placement_of(c, 2);
  ASSERT_NE(k, nullptr);
  EXPECT_NEAR(dist(*k, bx, by), 2.0 * r, 1e-9);
  for (uint32_t id : {3u, 4u}) {
    const msg::Pose2* p = placement_of(c, id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_GE(dist(*p, bx, by), 0.3) << id;
    EXPECT_GE(dist(*p, k->x(), k->y()), 2.0 * r) << id;
  }
  expect_keeper_home(c, 1, -0.5 * league.field().length(), league);
}

TEST(CoachLogic, OnlyAsManyRobotsAsTheRulesAllowStayInTheOwnGoalArea) {
  msg::LeaguePreset league = with_restart_distance(ssl(), 0.5);
  league.mutable_rules()->set_max_defenders_in_goal_area(1);
  CoachLogic coach(msg::BLUE, league);  // defends -x: goal area x < -3.5, |y| < 1
  const CoachLogic::RobotPoses poses{
      {1, pose(-4.3, 0.1)}, {2, pose(-3.8, -0.4)}, {3, pose(-3.9, 0.5)}, {4, pose(1.0, 1.0)}};
  // The other team's free kick far away: nobody is near the ball.
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, 3.0, -2.0), {1, 2, 3, 4}, poses);
  ASSERT_EQ(c.placements_size(), 4);
  expect_keeper_home(c, 1, -4.5, league);
  EXPECT_EQ(placement_of(c, 4)->SerializeAsString(), poses.at(4).SerializeAsString());
  for (uint32_t id : {2u, 3u}) {
    const msg::Pose2* p = placement_of(c, id);
    ASSERT_NE(p, nullptr);
    const bool inside = p->x() < -3.5 && std::abs(p->y()) < 1.0;
    EXPECT_FALSE(inside) << id << " at " << p->ShortDebugString();
    EXPECT_LT(dist(*p, poses.at(id).x(), poses.at(id).y()), 1.0) << id << ": just out, not across the field";
  }
  EXPECT_GE(dist(*placement_of(c, 2), placement_of(c, 3)->x(), placement_of(c, 3)->y()), 2.0 * 0.09);
}

TEST(CoachLogic, TheirRestartInOurHalfGetsAWallBetweenBallAndGoal) {
  const double d = 0.5;
  msg::LeaguePreset league = with_restart_distance(ssl(), d);
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double r = league.robot().radius();
  const double bx = -2.9, by = 0.4;  // just outside blue's defense area
  const CoachLogic::RobotPoses poses{{1, pose(-4.3, 0.0)}, {2, pose(-1.0, 2.0)}, {3, pose(-2.0, -1.5)},
                                     {4, pose(2.0, 0.5)},  {5, pose(3.0, -1.0)}, {6, pose(-0.5, -2.5)}};
  const auto c =
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by), {1, 2, 3, 4, 5, 6}, poses);
  ASSERT_EQ(c.placements_size(), 6);
  expect_keeper_home(c, 1, -4.5, league);
  // Two robots side by side across the line from the ball to the goal centre.
  const double ux = -4.5 - bx, uy = -by, n = std::hypot(ux, uy);
  int in_wall = 0;
  for (const auto& p : c.placements()) {
    if (p.robot_id() == 1) continue;
    const double along = ((p.pose().x() - bx) * ux + (p.pose().y() - by) * uy) / n;
    const double across = std::abs((p.pose().x() - bx) * uy - (p.pose().y() - by) * ux) / n;
    if (across < 1.5 * r && along > 0.0) {
      ++in_wall;
      EXPECT_GE(dist(p.pose(), bx, by), d) << p.robot_id();
      EXPECT_NEAR(p.pose().theta(), std::atan2(by - p.pose().y(), bx - p.pose().x()), 1e-9) << "faces the ball";
    }
  }
  EXPECT_EQ(in_wall, 2);
  // The nearest two field players form it; the far ones keep their places.
  EXPECT_NE(placement_of(c, 3)->SerializeAsString(), poses.at(3).SerializeAsString());
  for (uint32_t id : {4u, 5u})
    EXPECT_EQ(placement_of(c, id)->SerializeAsString(), poses.at(id).SerializeAsString()) << id;
  // In their own half the other team gets no wall from us.
  const auto far =
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, -bx, by), {1, 2, 3, 4, 5, 6}, poses);
  for (uint32_t id : {2u, 3u, 6u})
    EXPECT_EQ(placement_of(far, id)->SerializeAsString(), poses.at(id).SerializeAsString()) << id;
}

// A spot next to an opponent is never reached: the robot stops short of it,
// inside the distance. Movers and the wall keep clear of the opponents.
TEST(CoachLogic, NoRobotIsSentOntoAnOpponent) {
  const double d = 0.5;
  const msg::LeaguePreset league = with_restart_distance(ssl(), d);
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double r = league.robot().radius();
  const double keep = d + coach.restart_margin();
  const CoachLogic::RobotPoses poses{{1, pose(-4.3, 0.0)}, {2, pose(1.8, 0.0)}, {3, pose(-1.0, 2.0)},
                                     {4, pose(-2.0, -1.5)}};
  // Their free kick in their half: robot 2 backs off straight towards -x...
  const auto alone = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, 2.0, 0.0), {1, 2, 3, 4}, poses);
  EXPECT_NEAR(placement_of(alone, 2)->x(), 2.0 - keep, 1e-9);
  EXPECT_NEAR(placement_of(alone, 2)->y(), 0.0, 1e-9);
  // ...unless an opponent stands there.
  const std::vector<msg::Pose2> opponents{pose(2.0 - keep + 0.04, 0.05), pose(2.6, 0.3)};
  const auto c =
      coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, 2.0, 0.0), {1, 2, 3, 4}, poses, opponents);
  const msg::Pose2* p2 = placement_of(c, 2);
  ASSERT_NE(p2, nullptr);
  EXPECT_GE(dist(*p2, 2.0, 0.0), keep - 1e-9);
  for (const auto& o : opponents) EXPECT_GE(dist(*p2, o.x(), o.y()), 2.0 * r + coach.restart_margin() - 1e-9);
  EXPECT_LT(dist(*p2, 1.8, 0.0), 1.0) << "the nearest free point, not across the field";

  // Their free kick in our half: an opponent on one wall spot leaves it out.
  const double bx = -2.9, by = 0.4;
  const auto wall = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by), {1, 2, 3, 4}, poses);
  const double wall_distance = std::hypot(keep, 0.5 * runtime::teammate_keep(league) + 0.001);  // side by side
  std::vector<msg::Pose2> on_wall;
  for (const auto& p : wall.placements())
    if (p.robot_id() != 1 && std::abs(dist(p.pose(), bx, by) - wall_distance) < 1e-9) on_wall.push_back(p.pose());
  ASSERT_EQ(on_wall.size(), 2u);
  const auto blocked = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by), {1, 2, 3, 4},
                                           poses, {on_wall[0]});
  for (const auto& p : blocked.placements()) {
    if (p.robot_id() == 1) continue;
    EXPECT_GE(dist(p.pose(), on_wall[0].x(), on_wall[0].y()), 2.0 * r + coach.restart_margin() - 1e-9)
        << p.robot_id();
  }
}

// A wall spot just outside the goal area lies where the robots' skills keep
// field players out (two radii round the area where the rules limit
// defenders in it): it was never reached, and the robot stood inside the
// distance (MSL corner kicks). No field player is sent there.
TEST(CoachLogic, WallSpotsStayOutOfTheGoalAreasSurroundings) {
  msg::LeaguePreset league = with_restart_distance(ssl(), 1.0);
  league.mutable_robot()->set_radius(0.25);  // MSL-sized robots: wide surroundings
  league.mutable_rules()->set_max_defenders_in_goal_area(1);
  CoachLogic coach(msg::BLUE, league);  // defends -x: goal area x < -3.5, |y| < 1
  const double r = league.robot().radius();
  const CoachLogic::RobotPoses poses{{1, pose(-4.2, 0.0)}, {2, pose(-2.5, -1.8)}, {3, pose(-1.0, 2.0)},
                                     {4, pose(1.0, -1.0)}};
  // Their corner-like free kick near our goal line: the wall spot between
  // ball and goal would lie about 1.43 m off the axis, inside 1.0 + 2r.
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, -4.1, -2.7), {1, 2, 3, 4}, poses);
  ASSERT_EQ(c.placements_size(), 4);
  for (const auto& p : c.placements()) {
    if (p.robot_id() == 1) continue;
    const bool near_area = p.pose().x() < -3.5 + 2.0 * r && std::abs(p.pose().y()) < 1.0 + 2.0 * r;
    EXPECT_FALSE(near_area) << p.robot_id() << " at " << p.pose().ShortDebugString();
    EXPECT_GE(dist(p.pose(), -4.1, -2.7), 1.0) << p.robot_id();
  }
}

// The player skills go round a teammate at teammate_keep: a spot nearer to
// one is never reached, and the robot stood short of it, inside the distance
// (MSL drop balls). Spots handed out keep that distance; a wall still lets no
// ball through.
TEST(CoachLogic, SpotsKeepTheDistanceTheSkillsKeepFromTeammates) {
  msg::LeaguePreset league = with_restart_distance(ssl(), 1.0);
  league.mutable_field()->set_length(18.0);
  league.mutable_field()->set_width(12.0);
  league.mutable_robot()->set_radius(0.25);  // MSL
  league.mutable_ball()->set_radius(0.11);
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double keep = 1.0 + coach.restart_margin();
  const double mates = runtime::teammate_keep(league);
  // Robot 2 stands on the distance; robot 3 is at the ball on the same side,
  // so straight back would put it on robot 2 and it goes round the ball.
  const double bx = 2.0, by = 1.0;
  const CoachLogic::RobotPoses poses{
      {1, pose(-8.6, 0.0)}, {2, pose(bx + keep + 0.01, by)}, {3, pose(bx + 0.3, by + 0.01)}, {4, pose(-3.0, -4.0)}};
  const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by), {1, 2, 3, 4},
                                     poses);
  const msg::Pose2* p3 = placement_of(c, 3);
  ASSERT_NE(p3, nullptr);
  EXPECT_GE(dist(*p3, bx, by), keep - 1e-9);
  EXPECT_GE(dist(*p3, bx + keep + 0.01, by), mates) << p3->ShortDebugString();
  EXPECT_LT(dist(*p3, bx + keep + 0.01, by), 2.0 * mates) << "still the nearest free point";

  // Their free kick in our half: the two in the wall stand teammate_keep
  // apart, with a gap narrower than the ball.
  const auto wall = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, -4.0, 2.0), {1, 2, 3, 4}, poses);
  std::vector<msg::Pose2> on_wall;
  for (const auto& p : wall.placements())
    if (p.robot_id() != 1 && std::abs(dist(p.pose(), -4.0, 2.0) - keep) < 0.1) on_wall.push_back(p.pose());
  ASSERT_EQ(on_wall.size(), 2u);
  const double apart = dist(on_wall[0], on_wall[1].x(), on_wall[1].y());
  EXPECT_GE(apart, mates);
  EXPECT_LT(apart - 2.0 * league.robot().radius(), 2.0 * league.ball().radius());
}

// Distance from (x, y) to the segment from a to b.
double dist_to_segment(double x, double y, const msg::Pose2& a, const msg::Pose2& b) {
  const double dx = b.x() - a.x(), dy = b.y() - a.y();
  const double s = std::clamp(((x - a.x()) * dx + (y - a.y()) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
  return std::hypot(x - a.x() - s * dx, y - a.y() - s * dy);
}

TEST(CoachLogic, ATeammateStandingInTheWayOutOfTheRobotAtTheBallStepsAside) {
  // A drop ball by the corner flag (MSL proportions): three teammates
  // already out stand side by side on the distance with opponents at both
  // ends, a wall round the corner, and robot 3 is still at the ball.
  msg::LeaguePreset league = with_restart_distance(ssl(), 1.0);
  league.mutable_field()->set_length(18.0);
  league.mutable_field()->set_width(12.0);
  league.mutable_robot()->set_radius(0.25);
  league.mutable_ball()->set_radius(0.11);
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double keep = 1.0 + coach.restart_margin();
  const double gap = runtime::teammate_keep(league) + 0.02;
  const double bx = 8.4, by = 5.4;
  auto on_rim = [&](double degrees, double radius) {
    const double a = degrees * M_PI / 180.0;
    return pose(bx + radius * std::cos(a), by + radius * std::sin(a));
  };
  const double standing = keep + 0.02;
  const CoachLogic::RobotPoses poses{{1, pose(-8.6, 0.0)},
                                     {2, on_rim(192.0, standing)},
                                     {3, on_rim(225.0, 0.1)},
                                     {4, on_rim(225.0, standing)},
                                     {5, on_rim(258.0, standing)}};
  const std::vector<msg::Pose2> opponents{on_rim(160.0, standing), on_rim(290.0, standing)};
  const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by), {1, 2, 3, 4, 5},
                                     poses, opponents);
  const msg::Pose2* p3 = placement_of(c, 3);
  const msg::Pose2* p4 = placement_of(c, 4);
  ASSERT_NE(p3, nullptr);
  ASSERT_NE(p4, nullptr);
  EXPECT_GE(dist(*p3, bx, by), keep - 1e-9);
  // Its lane: from where it stands to its spot, less the gap at the end.
  const msg::Pose2& from = poses.at(3);
  const double length = dist(*p3, from.x(), from.y());
  ASSERT_GT(length, gap);
  msg::Pose2 lane_end;
  lane_end.set_x(from.x() + (p3->x() - from.x()) * (length - gap) / length);
  lane_end.set_y(from.y() + (p3->y() - from.y()) * (length - gap) / length);
  // Robot 4 stood in it and steps aside, to a spot where it may stand; the
  // two beside it, out of the lane, stay.
  EXPECT_LT(dist_to_segment(poses.at(4).x(), poses.at(4).y(), from, lane_end), gap) << "the scene's premise";
  EXPECT_GE(dist_to_segment(p4->x(), p4->y(), from, lane_end), gap) << p4->ShortDebugString();
  EXPECT_GE(dist(*p4, bx, by), keep - 1e-9);
  for (uint32_t id : {2u, 5u})
    EXPECT_EQ(placement_of(c, id)->SerializeAsString(), poses.at(id).SerializeAsString()) << id;
  for (uint32_t id : {2u, 4u, 5u}) {
    const msg::Pose2* p = placement_of(c, id);
    EXPECT_GE(dist(*p, p3->x(), p3->y()), gap) << id;
  }

  // Once robot 3 is out, nobody's way is blocked and robot 4 may stay where
  // it went.
  CoachLogic::RobotPoses out = poses;
  out[3] = *p3;
  out[4] = *p4;
  const auto after = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by),
                                         {1, 2, 3, 4, 5}, out, opponents);
  for (uint32_t id : {2u, 3u, 4u, 5u})
    EXPECT_EQ(placement_of(after, id)->SerializeAsString(), out.at(id).SerializeAsString()) << id;
}

// Whether p lies in the goal area at -x grown by `grow` (its centre, as the
// referee judges it).
bool in_minus_x_goal_area(const msg::Pose2& p, const msg::LeaguePreset& league, double grow) {
  const auto& f = league.field();
  return p.x() < -0.5 * f.length() + f.goal_area_depth() + grow && std::abs(p.y()) < 0.5 * f.goal_area_width() + grow;
}

// The other team's corner kick by our goal (MSL, from a restart drill):
// three of ours inside the circle round the corner flag, opponents touching
// the one furthest out on the field side. The crescent between the circle
// and our goal area is their way out; sent round the far side of the ball
// instead, past the opponents, robot 5 turned from one spot to the next
// for 8 s and the referee moved it.
TEST(CoachLogic, InsideTheCircleByOurCornerTheWayOutLiesBesideTheGoalAreaNotPastTheOpponents) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x: goal area x < -8.25, |y| < 1.95
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const double r = league.robot().radius();
  const double bx = -8.5, by = 5.5;
  const CoachLogic::RobotPoses poses{{1, pose(-8.70, 0.75)},
                                     {2, pose(-3.34, 1.47)},
                                     {3, pose(-9.38, 5.58)},
                                     {4, pose(-8.48, 2.85)},
                                     {5, pose(-7.73, 3.43)}};
  const std::vector<msg::Pose2> opponents{pose(-6.75, 2.21), pose(-6.29, 1.40), pose(-8.38, 5.76),
                                          pose(-7.17, 3.01), pose(-7.20, 3.72)};
  const auto c = coach.on_game_state(restart(msg::RESTART_CORNER_KICK, msg::YELLOW, bx, by), {1, 2, 3, 4, 5},
                                     poses, opponents);
  for (uint32_t id : {3u, 4u, 5u}) {
    const msg::Pose2* p = placement_of(c, id);
    ASSERT_NE(p, nullptr);
    EXPECT_GE(dist(*p, bx, by), keep - 1e-9) << id;
    // Never in the area, and no nearer it than a radius.
    EXPECT_FALSE(in_minus_x_goal_area(*p, league, r)) << id << " at " << p->ShortDebugString();
  }
  // Robot 5's straight way to its spot passes no opponent (bodies apart),
  // and is short.
  const msg::Pose2* p5 = placement_of(c, 5);
  for (const msg::Pose2& o : opponents)
    EXPECT_GE(dist_to_segment(o.x(), o.y(), poses.at(5), *p5), 2.0 * r)
        << "past the opponent at " << o.ShortDebugString() << " to " << p5->ShortDebugString();
  EXPECT_LT(dist(*p5, -7.73, 3.43), 1.5) << p5->ShortDebugString();
}

// MSL vs chaser, a free kick for a goal-area foul (ours, defending +x),
// in front of the area: robot 4 stands in our area beside the keeper,
// three opponents on its left, nobody on its right. The area's
// surroundings and the circle left free points only beyond the opponents;
// sent out past them, it was boxed in in the area until the referee moved
// it. It goes out by the right, beside the area.
TEST(CoachLogic, ARobotInOurGoalAreaAtAFreeKickBeforeItLeavesBesideTheAreaNotPastOpponents) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const double r = league.robot().radius();
  const double bx = 5.0, by = 0.0;
  const CoachLogic::RobotPoses poses{{1, pose(8.72, 0.82)},
                                     {2, pose(7.70, -0.91)},
                                     {3, pose(0.0, -3.0)},
                                     {4, pose(8.30, 0.13)},
                                     {5, pose(7.59, 0.88)}};
  const std::vector<msg::Pose2> opponents{pose(7.90, 0.49), pose(8.95, 1.38), pose(8.18, 1.13), pose(6.98, 0.45)};
  const auto c = coach.on_game_state(restart(msg::RESTART_FREE_KICK, msg::YELLOW, bx, by, /*blue_on_positive=*/true),
                                     {1, 2, 3, 4, 5}, poses, opponents);
  const msg::Pose2* p4 = placement_of(c, 4);
  ASSERT_NE(p4, nullptr);
  EXPECT_GE(dist(*p4, bx, by), keep - 1e-9);
  EXPECT_LT(p4->y(), 0.0) << "out by the crowded side: " << p4->ShortDebugString();
  for (const msg::Pose2& o : opponents)
    EXPECT_GE(dist_to_segment(o.x(), o.y(), poses.at(4), *p4), 2.0 * r)
        << "past the opponent at " << o.ShortDebugString() << " to " << p4->ShortDebugString();
}

// Leaving our goal area by its nearer side, where an opponent stands: by
// the front, a few centimetres further, clear of it; and that point stays
// while the robot moves (straight out, the point followed it).
TEST(CoachLogic, ARobotLeavingOurGoalAreaGoesToAFreePointOfItsEdgeAndKeepsIt) {
  const msg::LeaguePreset league = runtime::preset_match_config("ssl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x: goal area x < -3.5, |y| < 1
  const double r = league.robot().radius();
  CoachLogic::RobotPoses poses{{1, pose(-4.4, 0.0)}, {2, pose(-3.62, -0.90)}, {3, pose(0.0, 1.0)}, {4, pose(1.0, -1.0)}};
  const std::vector<msg::Pose2> opponents{pose(-3.62, -1.30)};
  const msg::GameState g = restart(msg::RESTART_FREE_KICK, msg::YELLOW, 2.0, 0.0);
  const msg::CoachCommand c = coach.on_game_state(g, {1, 2, 3, 4}, poses, opponents);
  const msg::Pose2* first = placement_of(c, 2);
  ASSERT_NE(first, nullptr);
  const msg::Pose2 p2 = *first;
  const bool near_area = p2.x() < -3.5 + 2.0 * r && std::abs(p2.y()) < 1.0 + 2.0 * r;
  EXPECT_FALSE(near_area) << p2.ShortDebugString();
  EXPECT_LT(dist(p2, -3.62, -0.90), 0.6) << "just out: " << p2.ShortDebugString();
  EXPECT_GE(dist(p2, -3.62, -1.30), 2.0 * r + coach.restart_margin()) << p2.ShortDebugString();
  for (const double y : {-0.85, -0.80, -0.95}) {
    poses[2] = pose(-3.60, y);
    const msg::CoachCommand next = coach.on_game_state(g, {1, 2, 3, 4}, poses, opponents);
    const msg::Pose2* again = placement_of(next, 2);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->SerializeAsString(), p2.SerializeAsString()) << "standing at y = " << y;
  }
}

// MSL restart drill, a drop ball by our corner flag: robot 3 was sent
// beside our goal area, a radius clear of it, and stands there legally.
// Counted as standing in the area's surroundings it had to leave them, back
// inside the distance; when an opponent came near it was sent round the
// ball, through the area, where the referee found it. It stays.
TEST(CoachLogic, ARobotStandingLegallyBesideOurGoalAreaStaysWhenLeavingItsSurroundingsWouldTakeItInsideTheDistance) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double bx = -8.5, by = -5.5;
  const CoachLogic::RobotPoses poses{{1, pose(-8.70, -0.76)},
                                     {2, pose(0.0, 0.0)},
                                     {3, pose(-8.51, -2.25, 1.57)},
                                     {4, pose(-7.12, -2.54)},
                                     {5, pose(-6.45, -2.93)}};
  const std::vector<msg::Pose2> opponents{pose(-7.91, -2.17), pose(-5.40, -3.73), pose(-8.45, -6.23)};
  const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by), {1, 2, 3, 4, 5},
                                     poses, opponents);
  const msg::Pose2* p3 = placement_of(c, 3);
  ASSERT_NE(p3, nullptr);
  EXPECT_EQ(p3->SerializeAsString(), poses.at(3).SerializeAsString()) << p3->ShortDebugString();
  // Out of the way: standing robots one too many in the area are moved off.
  const double r = league.robot().radius();
  for (const auto& p : c.placements()) {
    if (p.robot_id() == 1) continue;
    EXPECT_FALSE(in_minus_x_goal_area(p.pose(), league, r)) << p.robot_id() << " at " << p.pose().ShortDebugString();
  }
}

// The other team's corner kick by our goal (MSL restart drill, seed 100 at
// 1753.8 s): robot 5 stands beyond our end line beside the goal, in the
// goal area as the referee counts it, the keeper in there too. Opponents
// stand between it and the field. Every free spot in the field lay past
// them; sent there, it stood still walled in for 8 s and the referee moved
// it as one too many in the area. It goes along the run-off beyond the
// line, out of the area.
TEST(CoachLogic, ARobotBeyondOurEndLineWalledInByOpponentsGetsASpotOutThere) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x: goal area x < -8.25, |y| < 1.95
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const double r = league.robot().radius();
  const double bx = -8.5, by = 5.5;
  const CoachLogic::RobotPoses poses{{1, pose(-8.71, 0.83)},
                                     {2, pose(-2.92, -2.23)},
                                     {3, pose(-7.71, 0.80)},
                                     {4, pose(-6.41, 0.80)},
                                     {5, pose(-9.40, 1.72)}};
  const std::vector<msg::Pose2> opponents{pose(0.48, 1.89), pose(-8.68, 1.47), pose(-7.33, 2.95), pose(-8.82, 2.20),
                                          pose(-8.20, 2.60)};
  const auto c = coach.on_game_state(restart(msg::RESTART_CORNER_KICK, msg::YELLOW, bx, by), {1, 2, 3, 4, 5},
                                     poses, opponents);
  const msg::Pose2* p5 = placement_of(c, 5);
  ASSERT_NE(p5, nullptr);
  EXPECT_GE(dist(*p5, bx, by), keep - 1e-9);
  EXPECT_FALSE(in_minus_x_goal_area(*p5, league, r)) << p5->ShortDebugString();
  // Within the strip the skills plan in.
  EXPECT_GE(p5->x(), -0.5 * league.field().length() - runtime::run_off(league) + r - 1e-9);
  // Its straight way there passes no opponent (bodies apart), and is short.
  for (const msg::Pose2& o : opponents)
    EXPECT_GE(dist_to_segment(o.x(), o.y(), poses.at(5), *p5), 2.0 * r)
        << "past the opponent at " << o.ShortDebugString() << " to " << p5->ShortDebugString();
  EXPECT_LT(dist(*p5, -9.40, 1.72), 1.5) << p5->ShortDebugString();
  // Robots standing in the field are still given spots in it.
  for (uint32_t id : {2u, 3u, 4u}) {
    const msg::Pose2* p = placement_of(c, id);
    ASSERT_NE(p, nullptr);
    EXPECT_LE(std::abs(p->x()), 0.5 * league.field().length() - r + 1e-9) << id;
    EXPECT_LE(std::abs(p->y()), 0.5 * league.field().width() - r + 1e-9) << id;
  }
}

// A drop ball by our corner flag (MSL restart drill, seed 82 at 2027.8 s):
// robot 5 stands beyond our end line next to the ball, not in our goal
// area. Sent along the run-off behind our goal it took 7.4 s; its spot is
// in the field, as for any robot not leaving our goal area.
TEST(CoachLogic, ARobotBeyondTheLinesButNotInOurGoalAreaGetsASpotInTheField) {
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  CoachLogic coach(msg::BLUE, league);  // defends -x
  const double keep = league.rules().restart_distance() + coach.restart_margin();
  const double r = league.robot().radius();
  const double bx = -8.41, by = 5.32;
  const CoachLogic::RobotPoses poses{{1, pose(-8.73, 0.87)},
                                     {2, pose(-7.47, 3.51)},
                                     {3, pose(-8.10, 2.74)},
                                     {4, pose(-3.01, 1.12)},
                                     {5, pose(-9.08, 5.26)}};
  const std::vector<msg::Pose2> opponents{pose(-8.31, 5.91), pose(-8.74, 6.32), pose(-7.95, 5.56), pose(-8.71, 5.60)};
  const auto c = coach.on_game_state(restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, bx, by), {1, 2, 3, 4, 5},
                                     poses, opponents);
  const msg::Pose2* p5 = placement_of(c, 5);
  ASSERT_NE(p5, nullptr);
  EXPECT_GE(dist(*p5, bx, by), keep - 1e-9);
  EXPECT_LE(std::abs(p5->x()), 0.5 * league.field().length() - r + 1e-9) << p5->ShortDebugString();
  EXPECT_LE(std::abs(p5->y()), 0.5 * league.field().width() - r + 1e-9) << p5->ShortDebugString();
}

TEST(CoachLogic, CornerKickTakerMayStandOutsideTheField) {
  msg::LeaguePreset league = with_restart_distance(ssl(), 0.5);
  league.mutable_field()->set_boundary_width(0.3);
  CoachLogic coach(msg::BLUE, league);  // attacks +x
  const double bx = 4.5 - 0.0215, by = -(3.0 - 0.0215);
  const CoachLogic::RobotPoses poses{{1, pose(-4.4, 0.0)}, {2, pose(3.5, -2.5)}};
  const auto c = coach.on_game_state(restart(msg::RESTART_CORNER_KICK, msg::BLUE, bx, by), {1, 2}, poses);
  const msg::Pose2* k = placement_of(c, 2);
  ASSERT_NE(k, nullptr);
  EXPECT_LT(k->y(), by);                        // beyond the touch line, behind the ball
  EXPECT_GE(k->y(), -(3.0 + 0.3 - 0.09) - 1e-9);  // but inside the arena
  EXPECT_NEAR(dist(*k, bx, by), 0.18, 1e-9);
}

}  // namespace
}  // namespace robocaf::actors
