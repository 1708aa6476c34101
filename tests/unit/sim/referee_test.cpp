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

  // Both teams now stand in the wrong halves: the referee moves all of them.
  ev2 = m.run_until(10.0);
  EXPECT_EQ(of_kind(ev2, msg::REF_EVENT_REPOSITION).size(), 10u);
  const auto kick = of_kind(ev2, msg::REF_EVENT_KICKOFF);
  ASSERT_EQ(kick.size(), 1u);
  EXPECT_EQ(kick[0].team(), msg::YELLOW);
  for (const RobotKey& k : m.world.robot_keys()) {
    const double x = m.world.robot_pose(k.team, k.id).x();
    EXPECT_EQ(x > 0, k.team == msg::BLUE) << k.id;
  }

  ev2 = m.run_until(15.0);
  const auto end = of_kind(ev2, msg::REF_EVENT_MATCH_END);
  ASSERT_EQ(end.size(), 1u);
  EXPECT_NE(end[0].reason().find("draw"), std::string::npos) << end[0].reason();
  EXPECT_EQ(m.ref.state().stage(), msg::STAGE_POST_GAME);
  EXPECT_EQ(m.ref.state().command(), msg::REF_HALT);
  EXPECT_TRUE(m.run_until(16.0).empty());
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
  const auto moved = of_kind(ev, msg::REF_EVENT_REPOSITION);
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

}  // namespace
}  // namespace robocaf::sim
