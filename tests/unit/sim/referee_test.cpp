#include "sim/referee.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/config_loader.hpp"

namespace robocaf::sim {
namespace {

using Eigen::Vector2d;

// The MiroSot preset with the 2 s placement time the scripted timelines below
// are written for, whatever the shipped config chooses.
msg::MatchConfig mirosot() {
  msg::MatchConfig config = runtime::default_match_config();
  config.mutable_sim()->set_placement_seconds(2.0);
  return config;
}

msg::Pose2 pose(double x, double y, double th = 0.0) {
  msg::Pose2 p;
  p.set_x(x);
  p.set_y(y);
  p.set_theta(th);
  return p;
}

Vector2d xy(const msg::Pose2& p) { return {p.x(), p.y()}; }
Vector2d spot(const msg::GameState& s) { return {s.ball_spot().x(), s.ball_spot().y()}; }

// A MiroSot world with both teams standing on legal first-half kick-off
// places (blue defends -x and kicks off).
struct Match {
  explicit Match(const msg::MatchConfig& c = mirosot()) : cfg(c), world(c.league(), c.sim()), ref(c) {
    const auto n = c.league().team_size();
    const auto blue = Referee::kickoff_positions(c.league(), n, false, true);
    const auto yellow = Referee::kickoff_positions(c.league(), n, true, false);
    for (std::uint32_t i = 0; i < n; ++i) {
      world.add_robot(msg::BLUE, i, blue[i]);
      world.add_robot(msg::YELLOW, i, yellow[i]);
    }
  }
  // Runs physics and the referee in 20 ms cycles until time t (the first
  // cycle boundary at or after it); returns all events.
  std::vector<msg::RefereeEvent> run_until(double t) {
    std::vector<msg::RefereeEvent> all;
    while (world.time() < t - 1e-9) {
      world.run_for(0.02);
      for (auto& e : ref.update(world, world.time())) all.push_back(e);
    }
    return all;
  }
  std::vector<msg::RefereeEvent> update() { return ref.update(world, world.time()); }

  msg::MatchConfig cfg;
  Physics world;
  Referee ref;
};

std::vector<msg::RefereeEvent> of_kind(const std::vector<msg::RefereeEvent>& ev, msg::RefereeEventKind k) {
  std::vector<msg::RefereeEvent> out;
  for (const auto& e : ev)
    if (e.kind() == k) out.push_back(e);
  return out;
}

TEST(Referee, MatchStartsWithBluePreparingTheKickoff) {
  Match m;
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_PRE_GAME);
  m.world.place_ball({0.4, 0.3}, {1, 0});
  EXPECT_TRUE(m.update().empty());
  const auto& s = m.ref.state();
  EXPECT_EQ(s.stage(), msg::STAGE_FIRST_HALF);
  EXPECT_EQ(s.command(), msg::REF_PREPARE_KICKOFF);
  EXPECT_EQ(s.kickoff_team(), msg::BLUE);
  EXPECT_FALSE(s.blue_on_positive_side());
  EXPECT_DOUBLE_EQ(s.stage_time_left(), 300.0);
  EXPECT_EQ(s.robots_blue_size(), 5);
  EXPECT_EQ(s.robots_yellow_size(), 5);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0, 0));
  EXPECT_EQ(m.world.ball_velocity().norm(), 0.0);
}

TEST(Referee, KickoffFollowsThePlacementTime) {
  Match m;
  m.update();
  auto ev = m.run_until(1.98);
  EXPECT_TRUE(ev.empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_PREPARE_KICKOFF);
  ev = m.run_until(2.0);
  ASSERT_EQ(ev.size(), 1u) << (ev.empty() ? "no event" : ev[0].reason());  // legal places: nobody is moved
  EXPECT_EQ(ev[0].kind(), msg::REF_EVENT_KICKOFF);
  EXPECT_EQ(ev[0].team(), msg::BLUE);
  EXPECT_NEAR(ev[0].t(), 2.0, 1e-9);
  EXPECT_FALSE(ev[0].reason().empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
}

TEST(Referee, IllegalKickoffPlacesAreCorrectedWithAReason) {
  Match m;
  m.update();
  // Yellow defends +x and does not kick off: not inside the centre circle.
  m.world.place_robot(msg::YELLOW, 2, pose(0.1, 0.1, M_PI));
  // Blue defends -x: not in yellow's half.
  m.world.place_robot(msg::BLUE, 3, pose(0.5, 0.3));
  const auto untouched = m.world.robot_pose(msg::BLUE, 4);
  const auto ev = of_kind(m.run_until(2.0), msg::REF_EVENT_REPOSITION);
  ASSERT_EQ(ev.size(), 2u);
  const auto& lg = m.cfg.league();
  bool saw_yellow = false, saw_blue = false;
  for (const auto& e : ev) {
    EXPECT_NEAR(e.t(), 2.0, 1e-9);
    const auto p = xy(m.world.robot_pose(e.team(), e.robot_id()));
    const bool positive = e.team() == msg::YELLOW;
    const bool kicking = e.team() == msg::BLUE;
    EXPECT_LT((Referee::nearest_legal_kickoff_point(lg, p, positive, kicking) - p).norm(), 1e-9)
        << e.reason();
    if (e.team() == msg::YELLOW && e.robot_id() == 2) {
      saw_yellow = true;
      EXPECT_NE(e.reason().find("centre circle"), std::string::npos) << e.reason();
      EXPECT_GE(p.norm(), lg.field().center_circle_radius() + lg.robot().radius());
      EXPECT_GT(p.x(), 0.0);
    }
    if (e.team() == msg::BLUE && e.robot_id() == 3) {
      saw_blue = true;
      EXPECT_NE(e.reason().find("own half"), std::string::npos) << e.reason();
      EXPECT_LE(p.x(), -lg.robot().radius());
      EXPECT_NEAR(p.y(), 0.3, 1e-9);  // the nearest legal point: straight back
    }
  }
  EXPECT_TRUE(saw_yellow);
  EXPECT_TRUE(saw_blue);
  EXPECT_EQ(xy(m.world.robot_pose(msg::BLUE, 4)), xy(untouched));
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
}

TEST(Referee, BallOffTheCentreSpotIsPutBackAtKickoff) {
  Match m;
  m.update();
  m.run_until(1.0);
  m.world.place_ball({0.2, 0.1});
  const auto ev = m.run_until(2.0);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_REPOSITION).size(), 1u);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0, 0));
}

TEST(Referee, GoalCountsAndTheConcedingTeamKicksOff) {
  Match m;
  m.update();
  m.run_until(2.0);
  // +x is yellow's goal in the first half: the ball rolls in, blue scores.
  m.world.place_ball({0.9, 0.12}, {2.0, 0.0});  // past the keeper, inside the posts
  const auto ev = of_kind(m.run_until(2.2), msg::REF_EVENT_GOAL);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].team(), msg::BLUE);
  EXPECT_EQ(ev[0].score_blue(), 1u);
  EXPECT_EQ(ev[0].score_yellow(), 0u);
  EXPECT_NE(ev[0].reason().find("blue scores"), std::string::npos) << ev[0].reason();
  const auto& s = m.ref.state();
  EXPECT_EQ(s.score_blue(), 1u);
  EXPECT_EQ(s.command(), msg::REF_PREPARE_KICKOFF);
  EXPECT_EQ(s.kickoff_team(), msg::YELLOW);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0, 0));
  // After the placement time yellow kicks off.
  const auto kick = of_kind(m.run_until(4.3), msg::REF_EVENT_KICKOFF);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
}

TEST(Referee, AfterAGoalARobotOnTheCentreSpotIsMovedOffItAndTheBallLiesStill) {
  // A robot standing where the ball was put shoved it off at once (MSL: it
  // rolled into the other half at 2.3 m/s during the placement).
  Match m;
  m.update();
  m.run_until(2.0);
  m.world.place_robot(msg::YELLOW, 3, pose(0.05, 0.02, M_PI));
  m.world.place_ball({0.9, 0.12}, {2.0, 0.0});
  const auto ev = m.run_until(2.2);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_GOAL).size(), 1u);
  const auto moved = of_kind(ev, msg::REF_EVENT_SPOT_CLEARED);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].team(), msg::YELLOW);
  EXPECT_EQ(moved[0].robot_id(), 3u);
  EXPECT_NE(moved[0].reason().find("centre spot"), std::string::npos) << moved[0].reason();
  const double gap = xy(m.world.robot_pose(msg::YELLOW, 3)).norm();
  EXPECT_GT(gap, m.cfg.league().robot().radius() + m.cfg.league().ball().radius());
  m.run_until(3.0);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0, 0));
  EXPECT_EQ(m.ref.state().command(), msg::REF_PREPARE_KICKOFF);
}

TEST(Referee, GoalIsSeenEvenIfTheBallBouncesOutBetweenUpdates) {
  Match m;
  m.update();
  m.run_until(2.0);
  // Into blue's goal (-x) and out again within one long gap between updates.
  m.world.place_ball({-0.95, 0.12}, {-3.0, 0.0});
  m.world.run_for(0.25);
  EXPECT_EQ(m.world.ball_in_goal(), 0);
  const auto ev = of_kind(m.update(), msg::REF_EVENT_GOAL);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].team(), msg::YELLOW);
  EXPECT_EQ(m.ref.state().score_yellow(), 1u);
  EXPECT_EQ(m.ref.state().kickoff_team(), msg::BLUE);
}

TEST(Referee, ShotsAtTheOpponentGoalAreReported) {
  Match m;
  m.update();
  m.run_until(2.0);
  // Blue attacks +x in the first half: blue 3 drives through the ball at
  // the goal, aiming past the keeper at (1.1, 0.13).
  const Vector2d ball(0.6, -0.15);
  const Vector2d dir = (Vector2d(1.1, 0.13) - ball).normalized();
  const Vector2d start = ball - 0.25 * dir;
  m.world.place_robot(msg::BLUE, 3, pose(start.x(), start.y(), std::atan2(dir.y(), dir.x())));
  m.world.place_ball(ball);
  msg::RobotCommand go;
  go.mutable_wheels()->set_left(1.5);
  go.mutable_wheels()->set_right(1.5);
  std::vector<msg::RefereeEvent> shots;
  while (m.world.time() < 3.5) {
    m.world.set_command(msg::BLUE, 3, go, m.world.time());
    m.world.run_for(0.02);
    for (const auto& e : of_kind(m.update(), msg::REF_EVENT_SHOT)) shots.push_back(e);
  }
  ASSERT_GE(m.world.shot_count(), 1u);
  ASSERT_EQ(shots.size(), 1u);
  EXPECT_EQ(shots[0].team(), msg::BLUE);
  EXPECT_EQ(shots[0].robot_id(), 3u);
  EXPECT_NE(shots[0].reason().find("+x goal"), std::string::npos) << shots[0].reason();
}

TEST(Referee, NoGoalWhileTheBallIsDead) {
  Match m;
  m.update();
  m.world.place_ball({1.2, 0.1});  // in a goal during the kick-off preparation
  const auto ev = m.run_until(1.0);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_GOAL).empty());
  EXPECT_EQ(m.ref.state().score_blue(), 0u);
}

TEST(Referee, HalvesEndSwitchSidesAndTheMatchEnds) {
  auto cfg = mirosot();
  cfg.set_half_duration(5.0);
  Match m(cfg);
  m.update();
  const auto ev = m.run_until(6.98);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_HALF_END).empty());
  EXPECT_NEAR(m.ref.state().stage_time_left(), 0.0, 0.021);

  auto ev2 = m.run_until(7.0);  // 2 s placement + 5 s of play
  auto half_end = of_kind(ev2, msg::REF_EVENT_HALF_END);
  ASSERT_EQ(half_end.size(), 1u);
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_HALF_TIME);
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  EXPECT_FALSE(m.ref.state().blue_on_positive_side());

  ev2 = m.run_until(8.0);
  const auto sw = of_kind(ev2, msg::REF_EVENT_SIDE_SWITCH);
  ASSERT_EQ(sw.size(), 1u);
  EXPECT_TRUE(m.ref.state().blue_on_positive_side());
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_SECOND_HALF);
  EXPECT_EQ(m.ref.state().command(), msg::REF_PREPARE_KICKOFF);
  EXPECT_EQ(m.ref.state().kickoff_team(), msg::YELLOW);
  EXPECT_DOUBLE_EQ(m.ref.state().stage_time_left(), 5.0);

  // Every robot has to change halves: the placement time plus a run the
  // field's length at top speed.
  const double crossing = cfg.league().field().length() / cfg.league().robot().max_speed();
  ASSERT_GT(crossing, 0.5);
  ev2 = m.run_until(10.0);
  EXPECT_TRUE(of_kind(ev2, msg::REF_EVENT_KICKOFF).empty()) << "kick-off before the robots could change halves";
  // Both teams now stand in the wrong halves: the referee moves all of them.
  ev2 = m.run_until(10.0 + crossing);
  EXPECT_EQ(of_kind(ev2, msg::REF_EVENT_REPOSITION).size(), 10u);
  const auto kick = of_kind(ev2, msg::REF_EVENT_KICKOFF);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  for (const RobotKey& k : m.world.robot_keys()) {
    const double x = m.world.robot_pose(k.team, k.id).x();
    EXPECT_EQ(x > 0, k.team == msg::BLUE) << k.id;
  }

  ev2 = m.run_until(15.0 + crossing);
  const auto end = of_kind(ev2, msg::REF_EVENT_MATCH_END);
  ASSERT_EQ(end.size(), 1u);
  EXPECT_NE(end[0].reason().find("draw"), std::string::npos) << end[0].reason();
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_POST_GAME);
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  EXPECT_TRUE(m.run_until(16.0 + crossing).empty());
}

TEST(Referee, ClockRunsOnlyWhileTheBallIsInPlay) {
  Match m;
  m.update();
  m.run_until(1.5);
  EXPECT_DOUBLE_EQ(m.ref.state().stage_time_left(), 300.0);
  m.run_until(3.0);
  EXPECT_NEAR(m.ref.state().stage_time_left(), 299.0, 1e-6);
  // A goal stops the clock during the next placement.
  m.world.place_ball({1.2, 0.1});
  m.run_until(3.02);
  const double left = m.ref.state().stage_time_left();
  m.run_until(4.5);
  EXPECT_DOUBLE_EQ(m.ref.state().stage_time_left(), left);
}

TEST(Referee, UntouchedBallIsAFreeBallOnTheNearestSpot) {
  Match m;
  m.update();
  m.run_until(2.0);                 // kick-off at t = 2
  m.world.place_ball({0.3, -0.2});  // nobody goes near it
  auto ev = m.run_until(11.98);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_STALEMATE).empty());
  ev = m.run_until(12.02);
  const auto st = of_kind(ev, msg::REF_EVENT_STALEMATE);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_NEAR(st[0].t(), 12.0, 0.021);
  EXPECT_NE(st[0].reason().find("touched"), std::string::npos) << st[0].reason();
  EXPECT_EQ(m.world.ball_position(), Vector2d(0.55, -0.45));
  EXPECT_EQ(m.ref.state().command(), msg::REF_FORCE_START);
  // The cause, then the restart it leads to in MiroSot.
  const auto fb = of_kind(ev, msg::REF_EVENT_FREE_BALL);
  ASSERT_EQ(fb.size(), 1u);
  EXPECT_EQ(fb[0].team(), msg::TEAM_UNSPECIFIED);
  EXPECT_NE(fb[0].reason().find("(0.550, -0.450)"), std::string::npos) << fb[0].reason();
  EXPECT_EQ(m.ref.state().restart(), msg::RESTART_FREE_BALL);
  EXPECT_EQ(m.ref.state().restart_team(), msg::TEAM_UNSPECIFIED);
  EXPECT_EQ(spot(m.ref.state()), Vector2d(0.55, -0.45));
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_DROP_BALL).empty());
  // The stalemate clock starts again from the free ball.
  ev = m.run_until(21.9);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_STALEMATE).empty());
}

TEST(Referee, FreeBallMovesRobotsOffTheSpot) {
  Match m;
  m.update();
  m.run_until(2.0);
  m.world.place_robot(msg::YELLOW, 3, pose(0.56, 0.44, M_PI));
  m.world.place_ball({0.3, 0.2});
  const auto ev = m.run_until(12.02);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_STALEMATE).size(), 1u);
  // Standing on the spot is no illegal position: the robot is moved aside, not repositioned.
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_REPOSITION).empty());
  const auto moved = of_kind(ev, msg::REF_EVENT_SPOT_CLEARED);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].team(), msg::YELLOW);
  EXPECT_EQ(moved[0].robot_id(), 3u);
  const double gap = (xy(m.world.robot_pose(msg::YELLOW, 3)) - Vector2d(0.55, 0.45)).norm();
  EXPECT_GT(gap, m.cfg.league().robot().radius() + m.cfg.league().ball().radius());
  EXPECT_EQ(m.world.ball_position(), Vector2d(0.55, 0.45));
}

TEST(Referee, BallStuckInACornerIsAStalemateThoughTouched) {
  Match m;
  m.update();
  m.run_until(2.0);
  // Blue 1 keeps pushing the ball into the corner: touched all the time.
  m.world.place_ball({1.05, 0.85});
  m.world.place_robot(msg::BLUE, 1, pose(0.95, 0.75, M_PI / 4));
  msg::RobotCommand push;
  push.mutable_wheels()->set_left(0.5);
  push.mutable_wheels()->set_right(0.5);
  std::vector<msg::RefereeEvent> st;
  while (m.world.time() < 12.5 && st.empty()) {
    m.world.set_command(msg::BLUE, 1, push, m.world.time());
    m.world.run_for(0.02);
    st = of_kind(m.ref.update(m.world, m.world.time()), msg::REF_EVENT_STALEMATE);
    EXPECT_TRUE(m.world.touched_since(m.world.time() - 0.05) || m.world.time() < 2.5);
  }
  ASSERT_EQ(st.size(), 1u);
  EXPECT_NE(st[0].reason().find("stuck"), std::string::npos) << st[0].reason();
  EXPECT_NEAR(st[0].t(), 12.0, 0.5);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0.55, 0.45));
}

TEST(Referee, DefaultKickoffPositionsAreLegalForEveryLeague) {
  auto mi = mirosot().league();
  msg::LeaguePreset ssl = mi;
  ssl.set_team_size(6);
  ssl.mutable_field()->set_length(9.0);
  ssl.mutable_field()->set_width(6.0);
  ssl.mutable_field()->set_center_circle_radius(0.5);
  ssl.mutable_field()->set_goal_area_depth(1.0);
  ssl.mutable_robot()->set_radius(0.09);
  msg::LeaguePreset msl = mi;
  msl.mutable_field()->set_length(18.0);
  msl.mutable_field()->set_width(12.0);
  msl.mutable_field()->set_center_circle_radius(2.0);
  msl.mutable_robot()->set_radius(0.26);
  for (const auto& lg : {mi, ssl, msl}) {
    for (bool positive : {false, true}) {
      for (bool kicking : {false, true}) {
        const auto poses = Referee::kickoff_positions(lg, lg.team_size(), positive, kicking);
        ASSERT_EQ(poses.size(), lg.team_size());
        for (std::size_t i = 0; i < poses.size(); ++i) {
          const Vector2d p = xy(poses[i]);
          EXPECT_LT((Referee::nearest_legal_kickoff_point(lg, p, positive, kicking) - p).norm(), 1e-9)
              << lg.field().length() << " " << i;
          EXPECT_NEAR(std::cos(poses[i].theta()), positive ? -1.0 : 1.0, 1e-12);  // face the opponents
          for (std::size_t j = i + 1; j < poses.size(); ++j) {
            EXPECT_GE((p - xy(poses[j])).norm(), 2 * lg.robot().radius());
          }
        }
        // One kicker right behind the ball.
        const Vector2d kicker = xy(poses[1]);
        if (kicking) {
          EXPECT_LT(kicker.norm(), lg.robot().radius() + lg.ball().radius() + 0.05);
        }
      }
    }
  }
}

TEST(Referee, FreeBallSpotIsTheNearestQuadrantSpot) {
  const auto f = mirosot().league().field();
  EXPECT_EQ(Referee::free_ball_spot(f, {0.1, 0.1}), Vector2d(0.55, 0.45));
  EXPECT_EQ(Referee::free_ball_spot(f, {-1.0, 0.3}), Vector2d(-0.55, 0.45));
  EXPECT_EQ(Referee::free_ball_spot(f, {-0.2, -0.8}), Vector2d(-0.55, -0.45));
  EXPECT_EQ(Referee::free_ball_spot(f, {1.0, -0.01}), Vector2d(0.55, -0.45));
}

TEST(Referee, RejectsANonPositiveHalfDuration) {
  auto cfg = mirosot();
  cfg.set_half_duration(0);
  EXPECT_THROW({ Referee r(cfg); }, std::invalid_argument);
}


// ---------------------------------------------------------------------------
// Rules per league. The scripted situations below use MiroSot's proportions
// with the league switches set by hand, so they do not depend on the shipped
// SSL or MSL presets.

constexpr double kRestartDistance = 0.3;

// An open field (SSL and MSL style): the ball can leave it, stalemates are
// drop balls, pushing is checked.
msg::MatchConfig open_field() {
  msg::MatchConfig config = mirosot();
  auto* f = config.mutable_league()->mutable_field();
  f->set_walls(false);
  f->set_boundary_width(0.3);
  auto* rules = config.mutable_league()->mutable_rules();
  rules->set_stalemate_restart(msg::STALEMATE_DROP_BALL);
  rules->set_max_defenders_in_goal_area(1);
  rules->set_pushing_seconds(1.0);
  rules->set_pushing_speed(0.3);
  rules->set_restart_distance(kRestartDistance);
  return config;
}

// MiroSot with walls and the goal-area rule, pushing unchecked.
msg::MatchConfig walled_field() {
  msg::MatchConfig config = mirosot();
  config.mutable_league()->mutable_field()->set_walls(true);
  auto* rules = config.mutable_league()->mutable_rules();
  rules->set_stalemate_restart(msg::STALEMATE_FREE_BALL);
  rules->set_max_defenders_in_goal_area(1);
  rules->set_pushing_seconds(0.0);
  rules->set_restart_distance(0.15);
  return config;
}

bool mentions(const msg::RefereeEvent& e, const std::string& text) {
  return e.reason().find(text) != std::string::npos;
}

// Robot (team, id) takes a run-up and drives through the ball at `ball`
// along `dir` until it touches it, then brakes; physics and the referee run
// until time `until`. Returns every event.
std::vector<msg::RefereeEvent> push_ball(Match& m, msg::Team team, std::uint32_t id, Vector2d ball,
                                         Vector2d dir, double until) {
  dir.normalize();
  const auto& lg = m.cfg.league();
  const Vector2d start = ball - dir * (lg.robot().radius() + lg.ball().radius() + 0.1);
  m.world.place_robot(team, id, pose(start.x(), start.y(), std::atan2(dir.y(), dir.x())));
  m.world.place_ball(ball);
  const double t0 = m.world.time();
  msg::RobotCommand go, stop;
  go.mutable_wheels()->set_left(1.0);
  go.mutable_wheels()->set_right(1.0);
  stop.mutable_wheels();
  std::vector<msg::RefereeEvent> all;
  while (m.world.time() < until - 1e-9) {
    const Touch& touch = m.world.last_touch();
    const bool touched = m.world.touched_since(t0) && touch.team == team && touch.robot_id == id;
    m.world.set_command(team, id, touched ? stop : go, m.world.time());
    m.world.run_for(0.02);
    for (auto& e : m.update()) all.push_back(e);
  }
  return all;
}

// Every robot of `team` at least `d` from p (centre to centre).
void expect_all_away(const Match& m, msg::Team team, const Vector2d& p, double d) {
  for (const RobotKey& k : m.world.robot_keys()) {
    if (k.team != team) continue;
    EXPECT_GE((xy(m.world.robot_pose(k.team, k.id)) - p).norm(), d - 1e-9) << k.id;
  }
}

TEST(RefereeRules, BallOverTheTouchLineIsAThrowInForTheOtherTeam) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  const double clock = m.ref.state().stage_time_left();
  // Blue 2 sends the ball over the +y touch line at x = 0.3.
  const auto ev = push_ball(m, msg::BLUE, 2, {0.3, 0.7}, {0, 1}, 4.0);
  const auto out = of_kind(ev, msg::REF_EVENT_BALL_OUT);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].team(), msg::BLUE);
  EXPECT_EQ(out[0].robot_id(), 2u);
  EXPECT_TRUE(mentions(out[0], "+y touch line")) << out[0].reason();
  EXPECT_TRUE(mentions(out[0], "blue 2")) << out[0].reason();
  const auto throw_in = of_kind(ev, msg::REF_EVENT_THROW_IN);
  ASSERT_EQ(throw_in.size(), 1u);
  EXPECT_EQ(throw_in[0].team(), msg::YELLOW);
  EXPECT_TRUE(mentions(throw_in[0], "throw-in for yellow")) << throw_in[0].reason();
  // BALL_OUT comes first, then the restart.
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (ev[i].kind() == msg::REF_EVENT_THROW_IN) {
      ASSERT_GT(i, 0u);
      EXPECT_EQ(ev[i - 1].kind(), msg::REF_EVENT_BALL_OUT);
    }
  }
  const auto& s = m.ref.state();
  EXPECT_EQ(s.command(), msg::REF_PREPARE_RESTART);
  EXPECT_EQ(s.restart(), msg::RESTART_THROW_IN);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  const double rb = m.cfg.league().ball().radius();
  EXPECT_NEAR(spot(s).x(), 0.3, 0.01);  // where it crossed the line
  EXPECT_DOUBLE_EQ(spot(s).y(), 0.9 - rb);  // on the line, moved in by the ball radius
  EXPECT_LT((m.world.ball_position() - spot(s)).norm(), 1e-9);
  // The clock stood still during the restart.
  EXPECT_DOUBLE_EQ(s.stage_time_left(), clock - (throw_in[0].t() - 2.0));

  // After the placement time, blue robots keep the restart distance and
  // yellow takes the throw-in.
  const double decided = throw_in[0].t();
  const auto start = m.run_until(decided + 2.0);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_EQ(m.ref.state().restart_team(), msg::YELLOW);
  const auto moved = of_kind(start, msg::REF_EVENT_REPOSITION);
  ASSERT_FALSE(moved.empty());
  for (const auto& e : moved) {
    EXPECT_EQ(e.team(), msg::BLUE) << e.reason();
    EXPECT_TRUE(mentions(e, "closer than 0.30 m")) << e.reason();
    EXPECT_TRUE(mentions(e, "throw-in")) << e.reason();
  }
  expect_all_away(m, msg::BLUE, spot(s), kRestartDistance);
  EXPECT_LT((m.world.ball_position() - spot(s)).norm(), 1e-9);
  EXPECT_DOUBLE_EQ(m.ref.state().stage_time_left(), clock - (decided - 2.0));
}

TEST(RefereeRules, OverTheGoalLineByTheAttackersIsAGoalKick) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  // First half: yellow defends +x; blue puts the ball over yellow's goal
  // line beside the goal, on the +y side.
  const auto ev = push_ball(m, msg::BLUE, 3, {0.95, 0.5}, {1, 0}, 4.0);
  const auto out = of_kind(ev, msg::REF_EVENT_BALL_OUT);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(mentions(out[0], "+x goal line (yellow's)")) << out[0].reason();
  const auto kick = of_kind(ev, msg::REF_EVENT_GOAL_KICK);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_GOAL).empty());
  const auto& s = m.ref.state();
  EXPECT_EQ(s.restart(), msg::RESTART_GOAL_KICK);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  const auto& lg = m.cfg.league();
  const Vector2d expected = Referee::goal_kick_spot(lg, 1, 1);
  EXPECT_EQ(spot(s), expected);
  // Level with the goal area's front edge, beside it on the +y side.
  EXPECT_DOUBLE_EQ(expected.x(), 1.1 - lg.field().goal_area_depth());
  EXPECT_DOUBLE_EQ(expected.y(), 0.5 * lg.field().goal_area_width() + 2 * lg.robot().radius());
  EXPECT_EQ(Referee::goal_area_side(lg.field(), expected), 0);
  m.run_until(kick[0].t() + 2.0);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  expect_all_away(m, msg::BLUE, expected, kRestartDistance);
}

TEST(RefereeRules, OverTheOwnGoalLineIsACornerKick) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  // Yellow 3 puts the ball over its own goal line (+x) on the -y side.
  const auto ev = push_ball(m, msg::YELLOW, 3, {0.95, -0.5}, {1, 0}, 4.0);
  const auto out = of_kind(ev, msg::REF_EVENT_BALL_OUT);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].team(), msg::YELLOW);
  EXPECT_EQ(out[0].robot_id(), 3u);
  const auto corner = of_kind(ev, msg::REF_EVENT_CORNER_KICK);
  ASSERT_EQ(corner.size(), 1u);
  EXPECT_EQ(corner[0].team(), msg::BLUE);
  const double rb = m.cfg.league().ball().radius();
  const auto& s = m.ref.state();
  EXPECT_EQ(s.restart(), msg::RESTART_CORNER_KICK);
  EXPECT_EQ(s.restart_team(), msg::BLUE);
  EXPECT_EQ(spot(s), Vector2d(1.1 - rb, -(0.9 - rb)));  // the nearer corner, moved in
  EXPECT_LT((m.world.ball_position() - spot(s)).norm(), 1e-9);
  m.run_until(corner[0].t() + 2.0);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  expect_all_away(m, msg::YELLOW, spot(s), kRestartDistance);
}

TEST(RefereeRules, BallIntoTheGoalOfAnOpenFieldIsAGoalNotOut) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  m.world.place_ball({0.9, 0.12}, {2.0, 0.0});  // between the posts of +x
  const auto ev = m.run_until(2.4);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_BALL_OUT).empty());
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_GOAL).size(), 1u);
  EXPECT_EQ(m.ref.state().score_blue(), 1u);
}

TEST(RefereeRules, UntouchedBallOutIsADropBall) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  ASSERT_FALSE(m.world.last_touch().valid);
  m.world.place_ball({-0.4, -0.8}, {0.0, -1.5});  // nobody has touched it yet
  const auto ev = m.run_until(2.5);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_BALL_OUT).size(), 1u);
  const auto drop = of_kind(ev, msg::REF_EVENT_DROP_BALL);
  ASSERT_EQ(drop.size(), 1u);
  EXPECT_EQ(drop[0].team(), msg::TEAM_UNSPECIFIED);
  EXPECT_EQ(m.ref.state().restart(), msg::RESTART_DROP_BALL);
  EXPECT_NEAR(spot(m.ref.state()).x(), -0.4, 1e-9);
  // Either team may play it: both keep the distance, then FORCE_START.
  m.world.place_robot(msg::YELLOW, 3, pose(-0.3, -0.7));
  m.world.place_robot(msg::BLUE, 3, pose(-0.5, -0.7));
  const auto start = m.run_until(drop[0].t() + 2.0);
  EXPECT_EQ(of_kind(start, msg::REF_EVENT_REPOSITION).size(), 2u);
  EXPECT_EQ(m.ref.state().command(), msg::REF_FORCE_START);
  expect_all_away(m, msg::BLUE, spot(m.ref.state()), kRestartDistance);
  expect_all_away(m, msg::YELLOW, spot(m.ref.state()), kRestartDistance);
}

TEST(RefereeRules, WalledFieldNeverPutsTheBallOut) {
  Match m(walled_field());
  m.update();
  m.run_until(2.0);
  std::vector<msg::RefereeEvent> ev;
  auto add = [&](const std::vector<msg::RefereeEvent>& more) { ev.insert(ev.end(), more.begin(), more.end()); };
  // Blue touches it towards the +y wall; then hard shots at walls and corners.
  add(push_ball(m, msg::BLUE, 2, {0.3, 0.7}, {0, 1}, 3.0));
  m.world.place_ball({0.5, -0.6}, {0.0, -3.0});
  add(m.run_until(3.5));
  m.world.place_ball({0.9, 0.6}, {3.0, 2.0});
  add(m.run_until(4.0));
  m.world.place_ball({-0.9, -0.5}, {-3.0, -0.5});
  add(m.run_until(4.5));
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_BALL_OUT).empty());
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_THROW_IN).empty());
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_CORNER_KICK).empty());
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_GOAL_KICK).empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
}

TEST(RefereeRules, StalemateOnAnOpenFieldIsADropBallWhereTheBallIs) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  const Vector2d ball(0.75, -0.6);  // away from everyone but yellow 3
  m.world.place_ball(ball);
  m.world.place_robot(msg::YELLOW, 3, pose(0.85, -0.6, M_PI));  // within the restart distance
  auto ev = m.run_until(12.02);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_STALEMATE).size(), 1u);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_FREE_BALL).empty());
  const auto drop = of_kind(ev, msg::REF_EVENT_DROP_BALL);
  ASSERT_EQ(drop.size(), 1u);
  EXPECT_TRUE(mentions(drop[0], "(0.750, -0.600)")) << drop[0].reason();
  const auto& s = m.ref.state();
  EXPECT_EQ(s.command(), msg::REF_PREPARE_RESTART);
  EXPECT_EQ(s.restart(), msg::RESTART_DROP_BALL);
  EXPECT_EQ(s.restart_team(), msg::TEAM_UNSPECIFIED);
  EXPECT_EQ(spot(s), ball);
  EXPECT_EQ(m.world.ball_position(), ball);
  ev = m.run_until(drop[0].t() + 2.0);
  const auto moved = of_kind(ev, msg::REF_EVENT_REPOSITION);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].team(), msg::YELLOW);
  EXPECT_EQ(moved[0].robot_id(), 3u);
  EXPECT_NEAR((xy(m.world.robot_pose(msg::YELLOW, 3)) - ball).norm(), kRestartDistance, 0.01);
  EXPECT_NEAR(m.world.robot_pose(msg::YELLOW, 3).y(), ball.y(), 1e-6);  // straight back
  EXPECT_EQ(m.ref.state().command(), msg::REF_FORCE_START);
}

TEST(RefereeRules, TooManyDefendersInTheGoalAreaIsAFreeKick) {
  Match m(walled_field());
  m.update();
  m.run_until(2.0);
  // First half: blue defends -x; its keeper stands in the goal area already.
  const auto& lg = m.cfg.league();
  ASSERT_EQ(Referee::goal_area_side(lg.field(), xy(m.world.robot_pose(msg::BLUE, 0))), -1);
  m.world.place_robot(msg::BLUE, 3, pose(-1.02, 0.15));
  ASSERT_EQ(Referee::goal_area_side(lg.field(), xy(m.world.robot_pose(msg::BLUE, 3))), -1);
  // A robot near the spot, closer than the restart distance.
  m.world.place_robot(msg::BLUE, 4, pose(-0.72, 0.05));
  auto ev = m.run_until(2.46);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_FOUL_GOAL_AREA).empty());  // the grace time
  ev = m.run_until(2.54);
  const auto foul = of_kind(ev, msg::REF_EVENT_FOUL_GOAL_AREA);
  ASSERT_EQ(foul.size(), 1u);
  EXPECT_EQ(foul[0].team(), msg::BLUE);
  EXPECT_TRUE(mentions(foul[0], "2 robots (0, 3)")) << foul[0].reason();
  EXPECT_TRUE(mentions(foul[0], "-x")) << foul[0].reason();
  const auto kick = of_kind(ev, msg::REF_EVENT_FREE_KICK);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  const auto& s = m.ref.state();
  EXPECT_EQ(s.command(), msg::REF_PREPARE_RESTART);
  EXPECT_EQ(s.restart(), msg::RESTART_FREE_KICK);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  // In front of the goal area's front edge midpoint by the restart distance
  // plus a robot radius.
  const double x = -(1.1 - lg.field().goal_area_depth() - 0.15 - lg.robot().radius());
  EXPECT_NEAR(spot(s).x(), x, 1e-9);
  EXPECT_DOUBLE_EQ(spot(s).y(), 0.0);
  // At the restart blue 4 keeps its distance and blue 3 leaves the area;
  // the keeper stays.
  const auto keeper = xy(m.world.robot_pose(msg::BLUE, 0));
  ev = m.run_until(kick[0].t() + 2.0);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  expect_all_away(m, msg::BLUE, spot(s), 0.15);
  EXPECT_EQ(Referee::goal_area_side(lg.field(), xy(m.world.robot_pose(msg::BLUE, 3))), 0);
  EXPECT_EQ(xy(m.world.robot_pose(msg::BLUE, 0)), keeper);
  bool saw3 = false, saw4 = false;
  for (const auto& e : of_kind(ev, msg::REF_EVENT_REPOSITION)) {
    saw3 |= e.robot_id() == 3 && mentions(e, "goal area");
    saw4 |= e.robot_id() == 4 && mentions(e, "closer than");
  }
  EXPECT_TRUE(saw3);
  EXPECT_TRUE(saw4);
  // Nobody is called again once play runs.
  ev = m.run_until(m.world.time() + 1.0);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_FOUL_GOAL_AREA).empty());
}

TEST(RefereeRules, BrushingTheGoalAreaIsNoFoulAndZeroMeansUnchecked) {
  Match m(walled_field());
  m.update();
  m.run_until(2.0);
  m.world.place_robot(msg::YELLOW, 3, pose(1.02, 0.15));  // yellow defends +x
  auto ev = m.run_until(2.3);
  m.world.place_robot(msg::YELLOW, 3, pose(0.6, 0.15));
  ev = m.run_until(3.5);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_FOUL_GOAL_AREA).empty());

  auto cfg = walled_field();
  cfg.mutable_league()->mutable_rules()->set_max_defenders_in_goal_area(0);
  Match u(cfg);
  u.update();
  u.run_until(2.0);
  u.world.place_robot(msg::YELLOW, 3, pose(1.02, 0.15));
  u.world.place_robot(msg::YELLOW, 4, pose(1.02, -0.15));
  EXPECT_TRUE(of_kind(u.run_until(4.0), msg::REF_EVENT_FOUL_GOAL_AREA).empty());
}

// Blue 3 drives into yellow 3 standing in its way at `speed`; returns the
// events until `until`.
std::vector<msg::RefereeEvent> drive_into(Match& m, double speed, double until) {
  const double r = m.cfg.league().robot().radius();
  m.world.place_robot(msg::BLUE, 3, pose(-0.3, 0.6, 0.0));
  m.world.place_robot(msg::YELLOW, 3, pose(-0.3 + 2 * r + 0.02, 0.6, M_PI));
  msg::RobotCommand go;
  go.mutable_wheels()->set_left(speed);
  go.mutable_wheels()->set_right(speed);
  std::vector<msg::RefereeEvent> all;
  while (m.world.time() < until - 1e-9) {
    m.world.set_command(msg::BLUE, 3, go, m.world.time());
    m.world.run_for(0.02);
    for (auto& e : m.update()) all.push_back(e);
  }
  return all;
}

TEST(RefereeRules, PushingAnOpponentIsAFreeKickForTheOtherTeam) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  m.world.place_ball({0.3, -0.2});
  const auto ev = drive_into(m, 0.6, 4.0);
  const auto foul = of_kind(ev, msg::REF_EVENT_FOUL_PUSHING);
  ASSERT_EQ(foul.size(), 1u);
  EXPECT_EQ(foul[0].team(), msg::BLUE);
  EXPECT_EQ(foul[0].robot_id(), 3u);
  EXPECT_TRUE(mentions(foul[0], "blue 3 pushed yellow 3")) << foul[0].reason();
  // Blue 3 accelerates at 1 m/s^2: in contact after 0.2 s (20 mm), faster
  // than 0.3 m/s into yellow 3 from 0.3 s, then a second of pushing.
  EXPECT_NEAR(foul[0].t(), 2.0 + 0.3 + 1.0, 0.03);
  const auto kick = of_kind(ev, msg::REF_EVENT_FREE_KICK);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  const auto& s = m.ref.state();
  EXPECT_EQ(s.restart(), msg::RESTART_FREE_KICK);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  EXPECT_EQ(spot(s), Vector2d(0.3, -0.2));  // the ball's position
}

TEST(RefereeRules, SlowContactIsNoPushingAndMiroSotDoesNotCheckIt) {
  Match slow(open_field());
  slow.update();
  slow.run_until(2.0);
  EXPECT_TRUE(of_kind(drive_into(slow, 0.2, 5.0), msg::REF_EVENT_FOUL_PUSHING).empty());

  Match walled(walled_field());  // pushing_seconds 0: unchecked
  walled.update();
  walled.run_until(2.0);
  EXPECT_TRUE(of_kind(drive_into(walled, 0.6, 5.0), msg::REF_EVENT_FOUL_PUSHING).empty());
}

msg::ManualRefereeCommand manual(msg::RefereeCommand c, msg::Team team = msg::TEAM_UNSPECIFIED) {
  msg::ManualRefereeCommand m;
  m.set_command(c);
  m.set_team(team);
  m.set_reason("test");
  return m;
}

TEST(RefereeManual, HaltStopsPlayAndTheClockUntilAStart) {
  Match m;
  m.update();
  m.run_until(3.0);
  auto ev = m.ref.apply_manual(manual(msg::REF_HALT), m.world, m.world.time());
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind(), msg::REF_EVENT_MANUAL);
  EXPECT_TRUE(mentions(ev[0], "manual HALT")) << ev[0].reason();
  EXPECT_TRUE(mentions(ev[0], "test")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  m.update();
  const double left = m.ref.state().stage_time_left();
  m.world.place_ball({0.3, 0.3});
  EXPECT_TRUE(m.run_until(20.0).empty());  // no stalemate, no clock
  EXPECT_DOUBLE_EQ(m.ref.state().stage_time_left(), left);
  // Play was running when it stopped: nobody's restart to resume.
  ev = m.ref.apply_manual(manual(msg::REF_NORMAL_START), m.world, m.world.time());
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_TRUE(mentions(ev[0], "refused")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  ev = m.ref.apply_manual(manual(msg::REF_FORCE_START), m.world, m.world.time());
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_FALSE(mentions(ev[0], "refused")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_FORCE_START);
  EXPECT_EQ(m.ref.state().restart_team(), msg::TEAM_UNSPECIFIED);
  m.run_until(21.0);
  EXPECT_NEAR(m.ref.state().stage_time_left(), left - 1.0, 0.021);
  // Already in play: a second start is refused.
  ev = m.ref.apply_manual(manual(msg::REF_NORMAL_START, msg::BLUE), m.world, m.world.time());
  EXPECT_TRUE(mentions(ev[0], "already in play")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_FORCE_START);
}

TEST(RefereeManual, KickoffForTheNamedTeamAndStartDuringPreparation) {
  Match m;
  m.update();
  m.run_until(3.0);
  auto ev = m.ref.apply_manual(manual(msg::REF_PREPARE_KICKOFF), m.world, m.world.time());
  EXPECT_TRUE(mentions(ev[0], "refused")) << ev[0].reason();  // whose kick-off?
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);

  m.world.place_ball({0.4, 0.2}, {0.5, 0.0});
  ev = m.ref.apply_manual(manual(msg::REF_PREPARE_KICKOFF, msg::YELLOW), m.world, m.world.time());
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].team(), msg::YELLOW);
  EXPECT_EQ(m.ref.state().command(), msg::REF_PREPARE_KICKOFF);
  EXPECT_EQ(m.ref.state().kickoff_team(), msg::YELLOW);
  EXPECT_EQ(m.ref.state().restart(), msg::RESTART_KICKOFF);
  EXPECT_EQ(m.world.ball_position(), Vector2d(0, 0));
  // Yellow stands legally in the first half's +x side: the referee's kick-off follows.
  const double t0 = m.world.time();
  const auto kick = of_kind(m.run_until(t0 + 2.0), msg::REF_EVENT_KICKOFF);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);

  // A human's start during a preparation starts it at once, for its team.
  m.ref.apply_manual(manual(msg::REF_PREPARE_KICKOFF, msg::BLUE), m.world, m.world.time());
  m.run_until(m.world.time() + 0.5);
  ev = m.ref.apply_manual(manual(msg::REF_NORMAL_START), m.world, m.world.time());
  EXPECT_FALSE(mentions(ev[0], "refused")) << ev[0].reason();
  EXPECT_TRUE(mentions(ev[0], "kick-off taken by blue")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_EQ(m.ref.state().restart_team(), msg::BLUE);
}

TEST(RefereeManual, StopDuringARestartKeepsItAndFreeKickByHand) {
  Match m(open_field());
  m.update();
  m.run_until(2.0);
  m.world.place_ball({-0.5, 0.4});
  auto ev = m.ref.apply_manual(manual(msg::REF_PREPARE_RESTART, msg::BLUE), m.world, m.world.time());
  ASSERT_GE(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind(), msg::REF_EVENT_MANUAL);
  EXPECT_EQ(of_kind(ev, msg::REF_EVENT_FREE_KICK).size(), 1u);
  EXPECT_EQ(m.ref.state().restart(), msg::RESTART_FREE_KICK);
  EXPECT_EQ(m.ref.state().restart_team(), msg::BLUE);
  EXPECT_EQ(spot(m.ref.state()), Vector2d(-0.5, 0.4));
  // STOP during the placement: the restart waits; NORMAL_START resumes it for blue.
  m.ref.apply_manual(manual(msg::REF_STOP), m.world, m.world.time());
  EXPECT_EQ(m.ref.state().command(), msg::REF_STOP);
  EXPECT_TRUE(m.run_until(m.world.time() + 3.0).empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_STOP);
  ev = m.ref.apply_manual(manual(msg::REF_NORMAL_START), m.world, m.world.time());
  EXPECT_TRUE(mentions(ev[0], "free kick taken by blue")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_EQ(m.ref.state().restart_team(), msg::BLUE);
}

TEST(RefereeManual, NothingButHaltOutsideTheHalves) {
  auto cfg = mirosot();
  cfg.set_half_duration(1.0);
  Match m(cfg);
  // Before the first update the match has not begun.
  auto ev = m.ref.apply_manual(manual(msg::REF_NORMAL_START, msg::BLUE), m.world, 0.0);
  EXPECT_TRUE(mentions(ev[0], "refused")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_PRE_GAME);
  m.update();
  m.run_until(3.0);  // 2 s placement + 1 s of play
  ASSERT_EQ(m.ref.state().stage(), msg::STAGE_HALF_TIME);
  const msg::GameState before = m.ref.state();
  for (auto c : {msg::REF_NORMAL_START, msg::REF_FORCE_START, msg::REF_STOP, msg::REF_PREPARE_KICKOFF,
                 msg::REF_PREPARE_RESTART}) {
    ev = m.ref.apply_manual(manual(c, msg::BLUE), m.world, m.world.time());
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind(), msg::REF_EVENT_MANUAL);
    EXPECT_TRUE(mentions(ev[0], "refused: it is half time")) << ev[0].reason();
    EXPECT_EQ(m.ref.state().SerializeAsString(), before.SerializeAsString());
  }
  ev = m.ref.apply_manual(manual(msg::REF_HALT), m.world, m.world.time());
  EXPECT_FALSE(mentions(ev[0], "refused")) << ev[0].reason();
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  // The break still ends and the second half begins on time.
  m.run_until(4.0);
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_SECOND_HALF);
  EXPECT_EQ(m.ref.state().command(), msg::REF_PREPARE_KICKOFF);
}

TEST(RefereeRules, BallSpotsAreLegalOnEveryLeagueField) {
  // SSL division B proportions, set here so nothing depends on the preset.
  msg::LeaguePreset ssl = mirosot().league();
  auto* f = ssl.mutable_field();
  f->set_length(9.0);
  f->set_width(6.0);
  f->set_goal_width(1.0);
  f->set_goal_area_depth(1.0);
  f->set_goal_area_width(2.0);
  ssl.mutable_robot()->set_radius(0.09);
  ssl.mutable_ball()->set_radius(0.0215);
  for (const auto& lg : {mirosot().league(), ssl}) {
    const auto& fg = lg.field();
    const double l2 = 0.5 * fg.length(), w2 = 0.5 * fg.width(), rb = lg.ball().radius();
    for (int gs : {-1, 1}) {
      for (int ys : {-1, 1}) {
        const Vector2d g = Referee::goal_kick_spot(lg, gs, ys);
        EXPECT_EQ(Referee::goal_area_side(fg, g), 0);
        EXPECT_DOUBLE_EQ(g.x(), gs * (l2 - fg.goal_area_depth()));
        EXPECT_GT(ys * g.y(), 0.5 * fg.goal_area_width() + lg.robot().radius());
        EXPECT_LE(std::abs(g.y()), w2 - rb);
      }
      // Inside the goal area: out over the nearer edge.
      const Vector2d in(gs * (l2 - 0.05), 0.1);
      const Vector2d out = Referee::legal_ball_spot(lg, in);
      EXPECT_EQ(Referee::goal_area_side(fg, out), 0);
      EXPECT_LT((out - in).norm(), fg.goal_area_depth() + 0.5 * fg.goal_area_width());
    }
    // Outside the field: just inside it.
    EXPECT_EQ(Referee::legal_ball_spot(lg, {0.2, w2 + 0.3}), Vector2d(0.2, w2 - rb));
    EXPECT_EQ(Referee::legal_ball_spot(lg, {0.2, 0.1}), Vector2d(0.2, 0.1));
    EXPECT_EQ(Referee::goal_area_side(fg, {l2 - 0.01, 0.0}), 1);
    EXPECT_EQ(Referee::goal_area_side(fg, {-l2 - 0.05, 0.0}), -1);  // in the goal counts
    EXPECT_EQ(Referee::goal_area_side(fg, {0.0, 0.0}), 0);
  }
}

TEST(RefereeRules, RejectsNegativeRules) {
  auto cfg = open_field();
  cfg.mutable_league()->mutable_rules()->set_restart_distance(-1.0);
  EXPECT_THROW({ Referee r(cfg); }, std::invalid_argument);
}

// A throw-in for yellow at (0.3, 0.9 - ball radius), just started: the
// scripted run of BallOverTheTouchLineIsAThrowInForTheOtherTeam.
Vector2d start_yellow_throw_in(Match& m) {
  m.update();
  m.run_until(2.0);
  const auto ev = push_ball(m, msg::BLUE, 2, {0.3, 0.7}, {0, 1}, 4.0);
  const auto throw_in = of_kind(ev, msg::REF_EVENT_THROW_IN);
  EXPECT_EQ(throw_in.size(), 1u);
  m.run_until(throw_in.at(0).t() + 2.0);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  return spot(m.ref.state());
}

TEST(RefereeOpening, AMatchOpeningWithARestartPreparesItInsteadOfTheKickoff) {
  Match m(open_field());
  const Vector2d corner(0.6, -0.5);
  m.ref.open_with_restart(msg::RESTART_THROW_IN, msg::YELLOW, corner);
  // Blue 2 stands on the spot; yellow 3 far from it, blue 1 within the
  // distance; no robot is on the centre spot's kick-off places moved.
  m.world.place_robot(msg::BLUE, 2, pose(corner.x(), corner.y()));
  m.world.place_robot(msg::BLUE, 1, pose(0.7, -0.4));
  const Vector2d yellow3 = xy(m.world.robot_pose(msg::YELLOW, 3));
  auto ev = m.update();
  const auto& s = m.ref.state();
  EXPECT_EQ(s.stage(), msg::STAGE_FIRST_HALF);
  EXPECT_EQ(s.command(), msg::REF_PREPARE_RESTART);
  EXPECT_EQ(s.restart(), msg::RESTART_THROW_IN);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  EXPECT_FALSE(s.blue_on_positive_side());
  EXPECT_EQ(spot(s), corner);
  EXPECT_EQ(m.world.ball_position(), corner);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_THROW_IN).size(), 1u);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_SPOT_CLEARED).size(), 1u);
  EXPECT_EQ(of_kind(ev, msg::REF_EVENT_SPOT_CLEARED)[0].robot_id(), 2u);
  EXPECT_EQ(xy(m.world.robot_pose(msg::YELLOW, 3)), yellow3);
  // After the placement time the team keeping its distance is moved out
  // and the restart team starts.
  ev = m.run_until(m.cfg.sim().placement_seconds() + 0.02);
  EXPECT_GE((xy(m.world.robot_pose(msg::BLUE, 1)) - corner).norm(), kRestartDistance - 1e-6);
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_EQ(m.ref.state().restart_team(), msg::YELLOW);
}

TEST(RefereeOpening, OnlyRestartsWithASpotMayOpenAMatchAndOnlyBeforeItBegins) {
  Match m;
  EXPECT_THROW(m.ref.open_with_restart(msg::RESTART_KICKOFF, msg::BLUE, {0, 0}), std::invalid_argument);
  EXPECT_THROW(m.ref.open_with_restart(msg::RESTART_FREE_BALL, msg::BLUE, {0, 0}), std::invalid_argument);
  EXPECT_THROW(m.ref.open_with_restart(msg::RESTART_FREE_KICK, msg::TEAM_UNSPECIFIED, {0, 0}), std::invalid_argument);
  EXPECT_THROW(m.ref.open_with_restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, {NAN, 0}),
               std::invalid_argument);
  m.ref.open_with_restart(msg::RESTART_DROP_BALL, msg::BLUE, {0.2, 0.1});
  m.update();
  EXPECT_EQ(m.ref.state().restart(), msg::RESTART_DROP_BALL);
  EXPECT_EQ(m.ref.state().restart_team(), msg::TEAM_UNSPECIFIED) << "a drop ball is nobody's";
  EXPECT_THROW(m.ref.open_with_restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, {0, 0}), std::invalid_argument);
}

TEST(RefereeRestartTaker, CloserThanTheDistanceBeforeTheTakerPlaysIsAnEncroachment) {
  Match m(open_field());
  const Vector2d ball = start_yellow_throw_in(m);
  EXPECT_TRUE(m.ref.state().waiting_for_taker());
  // Blue 3 walks up to the ball before yellow has touched it.
  m.world.place_robot(msg::BLUE, 3, pose(ball.x() + 0.2, ball.y() - 0.1));
  auto ev = m.run_until(m.world.time() + 0.02);
  const auto foul = of_kind(ev, msg::REF_EVENT_ENCROACHMENT);
  ASSERT_EQ(foul.size(), 1u);
  EXPECT_EQ(foul[0].team(), msg::BLUE) << foul[0].reason();
  EXPECT_EQ(foul[0].robot_id(), 3u);
  EXPECT_TRUE(mentions(foul[0], "closer than 0.30 m")) << foul[0].reason();
  EXPECT_TRUE(mentions(foul[0], "before yellow took the throw-in")) << foul[0].reason();
  // It is sent back out of the distance; the throw-in is still yellow's to take.
  EXPECT_GE((xy(m.world.robot_pose(msg::BLUE, 3)) - ball).norm(), kRestartDistance - 1e-9);
  const auto& s = m.ref.state();
  EXPECT_EQ(s.command(), msg::REF_NORMAL_START);
  EXPECT_EQ(s.restart(), msg::RESTART_THROW_IN);
  EXPECT_EQ(s.restart_team(), msg::YELLOW);
  EXPECT_TRUE(s.waiting_for_taker());
}

TEST(RefereeRestartTaker, PlayingTheBallBeforeTheTakerIsAnEncroachment) {
  // No distance to keep, so only the touch counts.
  msg::MatchConfig config = open_field();
  config.mutable_league()->mutable_rules()->set_restart_distance(0.0);
  Match m(config);
  const Vector2d ball = start_yellow_throw_in(m);
  auto ev = push_ball(m, msg::BLUE, 3, ball, {0, -1}, m.world.time() + 0.5);
  for (const auto& e : m.run_until(m.world.time() + 0.3)) ev.push_back(e);
  const auto foul = of_kind(ev, msg::REF_EVENT_ENCROACHMENT);
  ASSERT_FALSE(foul.empty());
  EXPECT_EQ(foul[0].team(), msg::BLUE);
  EXPECT_TRUE(mentions(foul[0], "blue 3 played the ball before yellow took the throw-in")) << foul[0].reason();
  // The ball goes back on its spot and the throw-in is still yellow's.
  EXPECT_LT((m.world.ball_position() - ball).norm(), Referee::kInPlayDistance + 0.02);
  EXPECT_TRUE(m.ref.state().waiting_for_taker());
  EXPECT_EQ(m.ref.state().restart_team(), msg::YELLOW);
}

TEST(RefereeRestartTaker, OnceTheTakerMovedTheBallBothTeamsMayPlayIt) {
  Match m(open_field());
  const Vector2d ball = start_yellow_throw_in(m);
  // Yellow 2 plays the ball in, away from the line.
  auto ev = push_ball(m, msg::YELLOW, 2, ball, {0.2, -1}, m.world.time() + 1.0);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_ENCROACHMENT).empty());
  EXPECT_FALSE(m.ref.state().waiting_for_taker());
  // Now blue may come as close as it likes.
  m.world.place_robot(msg::BLUE, 3, pose(m.world.ball_position().x() + 0.1, m.world.ball_position().y() - 0.1));
  ev = m.run_until(m.world.time() + 0.1);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_ENCROACHMENT).empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
}

TEST(RefereeRestartTaker, ARestartNotTakenIsInPlayAfterTheTimeout) {
  msg::MatchConfig config = open_field();
  config.mutable_league()->mutable_rules()->set_restart_timeout(3.0);
  Match m(config);
  start_yellow_throw_in(m);
  const double started = m.world.time();
  auto ev = m.run_until(started + 2.9);
  EXPECT_TRUE(m.ref.state().waiting_for_taker());
  ev = m.run_until(started + 3.02);
  const auto in_play = of_kind(ev, msg::REF_EVENT_BALL_IN_PLAY);
  ASSERT_EQ(in_play.size(), 1u);
  EXPECT_EQ(in_play[0].team(), msg::YELLOW);
  EXPECT_TRUE(mentions(in_play[0], "within 3 s")) << in_play[0].reason();
  EXPECT_FALSE(m.ref.state().waiting_for_taker());
}

TEST(RefereeRestartTaker, TheStalemateClockStartsAgainWhenARestartNotTakenComesIntoPlay) {
  // MSL has 10 s for both. Counted from the restart's start, the stalemate
  // fell on the timeout itself, so the team kept off the ball until then
  // never got to play it: a drop ball followed every restart the chaser did
  // not take (119 of 620 stalemates in 20 matches), and the timeout never
  // put a ball in play.
  msg::MatchConfig config = open_field();
  config.mutable_league()->mutable_rules()->set_restart_timeout(3.0);
  config.mutable_sim()->set_stalemate_seconds(3.0);
  Match m(config);
  start_yellow_throw_in(m);
  const double started = m.world.time();
  auto ev = m.run_until(started + 3.02);
  ASSERT_EQ(of_kind(ev, msg::REF_EVENT_BALL_IN_PLAY).size(), 1u);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_STALEMATE).empty());
  EXPECT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  // Nobody plays it: a stalemate the full time after the timeout, not before.
  ev = m.run_until(started + 5.9);
  EXPECT_TRUE(of_kind(ev, msg::REF_EVENT_STALEMATE).empty());
  ev = m.run_until(started + 6.1);
  EXPECT_EQ(of_kind(ev, msg::REF_EVENT_STALEMATE).size(), 1u);
}

TEST(RefereeRestartTaker, EnteringTheCentreCircleBeforeTheKickoffIsTakenIsAnEncroachment) {
  Match m;
  m.update();
  m.run_until(2.0);
  ASSERT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_TRUE(m.ref.state().waiting_for_taker());
  // Yellow (not kicking off) 1 steps into the circle, in its own half.
  m.world.place_robot(msg::YELLOW, 1, pose(0.5 * m.cfg.league().field().center_circle_radius(), 0.2));
  const auto ev = m.run_until(2.04);
  const auto foul = of_kind(ev, msg::REF_EVENT_ENCROACHMENT);
  ASSERT_EQ(foul.size(), 1u);
  EXPECT_EQ(foul[0].team(), msg::YELLOW);
  EXPECT_TRUE(mentions(foul[0], "centre circle")) << foul[0].reason();
  const double keep_out = m.cfg.league().field().center_circle_radius() + m.cfg.league().robot().radius();
  EXPECT_GE(xy(m.world.robot_pose(msg::YELLOW, 1)).norm(), keep_out - 1e-9);
  EXPECT_GT(xy(m.world.robot_pose(msg::YELLOW, 1)).x(), 0.0);  // its own half
  EXPECT_TRUE(m.ref.state().waiting_for_taker());
}

TEST(RefereeRestartTaker, ZeroTimeoutPutsTheBallInPlayAtOnce) {
  msg::MatchConfig config = mirosot();
  config.mutable_league()->mutable_rules()->set_restart_timeout(0.0);
  Match m(config);
  m.update();
  m.run_until(2.0);
  ASSERT_EQ(m.ref.state().command(), msg::REF_NORMAL_START);
  EXPECT_FALSE(m.ref.state().waiting_for_taker());
  m.world.place_robot(msg::YELLOW, 1, pose(0.05, 0.2));
  EXPECT_TRUE(of_kind(m.run_until(2.1), msg::REF_EVENT_ENCROACHMENT).empty());
}

}  // namespace
}  // namespace robocaf::sim
