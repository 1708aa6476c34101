#include "sim/restart_readiness.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::sim {
namespace {

// Records as the world actor logs them, one control cycle at a time:
// referee events, then the game state, then the truth.
class Timeline {
 public:
  msg::LogRecord state(double t, msg::RefereeCommand command) {
    msg::LogRecord r;
    r.set_t(t);
    msg::GameState& g = *r.mutable_game_state();
    g = game;
    g.set_t(t);
    g.set_command(command);
    return r;
  }
  static msg::LogRecord truth(double t, const std::vector<std::pair<msg::Team, std::pair<double, double>>>& robots) {
    msg::LogRecord r;
    r.set_t(t);
    r.mutable_truth()->set_t(t);
    uint32_t id = 0;
    for (const auto& [team, at] : robots) {
      auto* robot = r.mutable_truth()->add_robots();
      robot->set_team(team);
      robot->set_robot_id(++id);
      robot->mutable_pose()->set_x(at.first);
      robot->mutable_pose()->set_y(at.second);
    }
    return r;
  }
  static msg::LogRecord event(double t, msg::RefereeEventKind kind, msg::Team team) {
    msg::LogRecord r;
    r.set_t(t);
    r.mutable_referee()->set_t(t);
    r.mutable_referee()->set_kind(kind);
    r.mutable_referee()->set_team(team);
    return r;
  }
  msg::GameState game;
};

const msg::LeaguePreset& msl() {
  static const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  return league;
}

using Robots = std::vector<std::pair<msg::Team, std::pair<double, double>>>;

// Yellow kicks off at 9 s after 8 s of preparation; blue defends -x. Blue's
// first robot comes back from the far half, stands legally at 2 s, steps
// onto the halfway line at 3 s and stands legally for good from 3.5 s; its
// second stood legally all along. Yellow's kicker stands by the ball, its
// other robot across the halfway line until the referee moves it. Blue then
// enters the circle before yellow has taken the kick-off.
std::vector<msg::LogRecord> kickoff_timeline() {
  Timeline line;
  line.game.set_kickoff_team(msg::YELLOW);
  line.game.set_blue_on_positive_side(false);
  std::vector<msg::LogRecord> out;
  out.push_back(line.state(0.5, msg::REF_FORCE_START));
  out.push_back(Timeline::truth(0.5, {{msg::BLUE, {5.0, 3.0}}}));
  out.push_back(line.state(1.0, msg::REF_PREPARE_KICKOFF));
  for (double t = 1.0; t < 8.99; t += 0.5) {
    const double blue_x = t < 2.0 ? 1.0 : (t >= 3.0 && t < 3.5) ? 0.0 : -0.5;
    out.push_back(Timeline::truth(t, {{msg::BLUE, {blue_x, 3.0}},
                                      {msg::BLUE, {-3.0, 0.0}},
                                      {msg::YELLOW, {0.4, 0.0}},
                                      {msg::YELLOW, {-1.0, 3.0}}}));
  }
  out.push_back(Timeline::event(9.0, msg::REF_EVENT_REPOSITION, msg::YELLOW));
  out.push_back(line.state(9.0, msg::REF_NORMAL_START));
  out.push_back(Timeline::event(9.5, msg::REF_EVENT_ENCROACHMENT, msg::BLUE));
  return out;
}

void expect_kickoff(const std::vector<RestartReadiness>& phases) {
  ASSERT_EQ(phases.size(), 1u);
  const RestartReadiness& p = phases[0];
  EXPECT_EQ(p.restart, msg::RESTART_KICKOFF);
  EXPECT_EQ(p.taker, msg::YELLOW);
  EXPECT_DOUBLE_EQ(p.t, 1.0);
  EXPECT_DOUBLE_EQ(p.seconds, 8.0);
  EXPECT_TRUE(p.blue.judged);
  EXPECT_EQ(p.blue.robots, 2u);
  EXPECT_DOUBLE_EQ(p.blue.ready_after, 2.5);
  EXPECT_EQ(p.blue.repositioned, 0u);
  EXPECT_EQ(p.blue.encroachments, 1u);
  EXPECT_EQ(p.blue.last_robot, 1u);  // back from 1 m inside yellow's half
  EXPECT_DOUBLE_EQ(p.blue.last_robot_depth, 1.0);
  EXPECT_TRUE(p.yellow.judged);
  EXPECT_EQ(p.yellow.ready_after, -1.0);
  EXPECT_EQ(p.yellow.repositioned, 1u);
  EXPECT_EQ(p.yellow.encroachments, 0u);
  EXPECT_EQ(p.yellow.last_robot, 4u);  // 1 m inside blue's half until the referee moved it
  EXPECT_DOUBLE_EQ(p.yellow.last_robot_depth, 1.0);
}

TEST(RestartReadiness, AtAKickoffATeamIsReadyWhenItsLastRobotStandsLegallyForGood) {
  RestartReadinessMeter meter(msl());
  for (const auto& record : kickoff_timeline()) meter.add(record);
  expect_kickoff(meter.phases());
}

TEST(RestartReadiness, TheLastRobotsBeliefOfItsPoseBeforeTheStartIsMeasured) {
  std::vector<msg::LogRecord> records = kickoff_timeline();
  // Yellow's robot 4, moved at the start, believed itself at (-0.2, 3) in
  // its own half at 8.2 s; it stood at (-1, 3), where perception put it.
  msg::LogRecord belief;
  belief.set_t(8.0);
  msg::SelfBelief& b = *belief.mutable_belief();
  b.set_t(8.2);
  b.set_team(msg::YELLOW);
  b.set_robot_id(4);
  b.mutable_pose()->set_x(-0.2);
  b.mutable_pose()->set_y(3.0);
  b.mutable_perceived_position()->set_x(-1.0);
  b.mutable_perceived_position()->set_y(3.0);
  b.set_t_perceived(8.0);
  const auto at = std::find_if(records.begin(), records.end(), [](const msg::LogRecord& r) {
    return r.has_truth() && r.truth().t() == 8.0;
  });
  records.insert(at + 1, belief);
  RestartReadinessMeter meter(msl());
  for (const auto& record : records) meter.add(record);
  ASSERT_EQ(meter.phases().size(), 1u);
  EXPECT_NEAR(meter.phases()[0].yellow.last_robot_belief_error, 0.8, 1e-6);
  EXPECT_NEAR(meter.phases()[0].yellow.last_robot_perceived_error, 0.0, 1e-6);
  EXPECT_EQ(meter.phases()[0].blue.last_robot_belief_error, -1.0) << "no belief of blue's robot 1 logged";
}

// Blue's free kick at (3, 0): only yellow must keep the 3 m, and is ready
// when its robot has left them; its encroachment after the start counts for
// the free kick. At the drop ball that follows both teams keep the
// distance, and the referee's move of a blue robot at its start counts for
// the drop ball, not the free kick.
TEST(RestartReadiness, AtOtherRestartsTheTeamsThatKeepTheDistanceAreJudged) {
  Timeline line;
  line.game.set_restart(msg::RESTART_FREE_KICK);
  line.game.set_restart_team(msg::BLUE);
  line.game.mutable_ball_spot()->set_x(3.0);
  RestartReadinessMeter meter(msl());
  meter.add(line.state(1.0, msg::REF_PREPARE_RESTART));
  for (double t = 1.0; t < 8.99; t += 0.5)
    meter.add(Timeline::truth(t, {{msg::BLUE, {3.3, 0.0}}, {msg::YELLOW, {t < 3.0 ? 4.0 : 7.0, 0.0}}}));
  meter.add(line.state(9.0, msg::REF_NORMAL_START));
  meter.add(Timeline::event(9.5, msg::REF_EVENT_ENCROACHMENT, msg::YELLOW));
  line.game.set_restart(msg::RESTART_DROP_BALL);
  line.game.set_restart_team(msg::TEAM_UNSPECIFIED);
  meter.add(line.state(12.0, msg::REF_PREPARE_RESTART));
  for (double t = 12.0; t < 19.99; t += 0.5)
    meter.add(Timeline::truth(t, {{msg::BLUE, {3.3, 0.0}}, {msg::YELLOW, {7.0, 0.0}}}));
  meter.add(Timeline::event(20.0, msg::REF_EVENT_REPOSITION, msg::BLUE));
  meter.add(line.state(20.0, msg::REF_FORCE_START));

  const auto& phases = meter.phases();
  ASSERT_EQ(phases.size(), 2u);
  const RestartReadiness& free_kick = phases[0];
  EXPECT_EQ(free_kick.restart, msg::RESTART_FREE_KICK);
  EXPECT_FALSE(free_kick.blue.judged);
  EXPECT_TRUE(free_kick.yellow.judged);
  EXPECT_DOUBLE_EQ(free_kick.yellow.ready_after, 2.0);
  EXPECT_EQ(free_kick.yellow.encroachments, 1u);
  EXPECT_EQ(free_kick.blue.repositioned, 0u);
  const RestartReadiness& drop_ball = phases[1];
  EXPECT_EQ(drop_ball.restart, msg::RESTART_DROP_BALL);
  EXPECT_TRUE(drop_ball.blue.judged);
  EXPECT_TRUE(drop_ball.yellow.judged);
  EXPECT_EQ(drop_ball.blue.repositioned, 1u);
  EXPECT_EQ(drop_ball.blue.ready_after, -1.0);
  EXPECT_DOUBLE_EQ(drop_ball.yellow.ready_after, 0.0);
}

// Through a real game log; a preparation the log ends in is left out.
TEST(RestartReadiness, MeasuresAGameLogAndLeavesOutAnUnfinishedPhase) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("restart_readiness_" + std::to_string(::getpid()) + ".rclog"))
          .string();
  {
    msg::LogHeader header;
    *header.mutable_config() = runtime::preset_match_config("msl");
    runtime::GameLogWriter writer(path, header);
    for (const auto& record : kickoff_timeline()) writer.append(record);
    Timeline line;
    line.game.set_kickoff_team(msg::BLUE);
    writer.append(line.state(30.0, msg::REF_PREPARE_KICKOFF));
    writer.append(Timeline::truth(30.0, {{msg::BLUE, {1.0, 3.0}}}));
    writer.close();
  }
  expect_kickoff(measure_restart_readiness(path));
  std::filesystem::remove(path);
  EXPECT_THROW(measure_restart_readiness(path), std::exception) << "a missing log is an error";
}

TEST(RestartReadiness, AtAKickoffTheLastRobotsRunHomeIsTimed) {
  // Blue defends -x. Its robot 1 stands 8 m inside yellow's half, edges
  // homewards at 0.5 m/s from 2 s into the phase (a quarter of the MSL top
  // speed: not yet running), and runs home at 1.5 m/s from 3 s; robot 2
  // stood in its half all along and ran about there at 1.5 m/s.
  Timeline line;
  line.game.set_kickoff_team(msg::YELLOW);
  line.game.set_blue_on_positive_side(false);
  std::vector<msg::LogRecord> records;
  records.push_back(line.state(1.0, msg::REF_PREPARE_KICKOFF));
  double x = 8.0;
  for (double t = 1.0; t < 8.99; t += 0.5) {
    const double vx = t >= 4.0 ? -1.5 : t >= 3.0 ? -0.5 : 0.0;
    msg::LogRecord r = Timeline::truth(t, {{msg::BLUE, {x, 3.0}}, {msg::BLUE, {-3.0, 0.0}}});
    r.mutable_truth()->mutable_robots(0)->mutable_velocity()->set_x(vx);
    r.mutable_truth()->mutable_robots(1)->mutable_velocity()->set_x(1.5);
    records.push_back(r);
    x += 0.5 * vx;
  }
  records.push_back(line.state(9.0, msg::REF_NORMAL_START));
  RestartReadinessMeter meter(msl());
  for (const auto& record : records) meter.add(record);
  ASSERT_EQ(meter.phases().size(), 1u);
  const RestartReadiness::Team& blue = meter.phases()[0].blue;
  EXPECT_EQ(blue.last_robot, 1u);
  EXPECT_DOUBLE_EQ(blue.last_robot_depth, 8.0);
  EXPECT_DOUBLE_EQ(blue.last_robot_ran_home_after, 3.0);
  // A robot that never ran home says so.
  for (auto& record : records)
    if (record.has_truth()) record.mutable_truth()->mutable_robots(0)->mutable_velocity()->set_x(-0.5);
  RestartReadinessMeter crawling(msl());
  for (const auto& record : records) crawling.add(record);
  ASSERT_EQ(crawling.phases().size(), 1u);
  EXPECT_DOUBLE_EQ(crawling.phases()[0].blue.last_robot_ran_home_after, -1.0);
}

}  // namespace
}  // namespace robocaf::sim
