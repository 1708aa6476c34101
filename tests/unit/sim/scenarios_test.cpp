// The physics scenarios against the Clockwork Orange figures (closed form for
// the kick, the real robot's spread for the straight drive).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/unit/sim/sim_test_helpers.hpp"
#include "sim/physics.hpp"
#include "sim/scenarios.hpp"

namespace robocaf::sim {
namespace {

using namespace robocaf::sim::testing;

TEST(Scenarios, KickRolldownStopsAfterElevenMetresAndFifteenSeconds) {
  const msg::ScenarioResult r = run_physics_scenario("kick-rolldown", 1);
  ASSERT_TRUE(r.success()) << r.reason();
  // v0 = 1.5 m/s, a = 0.1 m/s^2: d = v0^2 / 2a = 11.25 m, t = v0 / a = 15 s.
  EXPECT_NEAR(r.metrics().at("stop_distance_m"), 11.25, 0.01 * 11.25);
  EXPECT_NEAR(r.metrics().at("stop_time_s"), 15.0, 0.01 * 15.0);
}

TEST(Scenarios, DriveStraightMatchesTheRealRobotWithinItsSpread) {
  std::vector<double> distance, drift;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const msg::ScenarioResult r = run_physics_scenario("drive-straight", seed);
    ASSERT_TRUE(r.success()) << r.reason();
    EXPECT_NEAR(r.metrics().at("odometry_mm"), 7000.0, 1.0) << "the robot stops by its odometry";
    distance.push_back(r.metrics().at("distance_mm"));
    drift.push_back(r.metrics().at("drift_mm"));
  }
  // Clockwork Orange, real robot, 10 runs: 6946 mm (sd 20) along, 267 mm
  // (sd 92) to the left.
  EXPECT_NEAR(mean(distance), 6946.0, 60.0);
  EXPECT_GT(mean(drift), 267.0 - 92.0);
  EXPECT_LT(mean(drift), 267.0 + 92.0);
  EXPECT_GT(sample_sd(drift), 30.0) << "noise on the angular velocity spreads the runs sideways";
  EXPECT_LT(sample_sd(drift), 200.0);
}

TEST(Scenarios, SameSeedSameRun) {
  const auto a = run_physics_scenario("drive-straight", 7);
  const auto b = run_physics_scenario("drive-straight", 7);
  const auto c = run_physics_scenario("drive-straight", 8);
  EXPECT_EQ(a.metrics().at("drift_mm"), b.metrics().at("drift_mm"));
  EXPECT_NE(a.metrics().at("drift_mm"), c.metrics().at("drift_mm"));
}

TEST(Scenarios, UnknownOrMismatchedNamesAreRejected) {
  EXPECT_EQ(find_scenario("no-such"), nullptr);
  EXPECT_THROW(scenario_config("no-such", 1), std::invalid_argument);
  EXPECT_THROW(run_physics_scenario("ball-to-goal", 1), std::invalid_argument);
  EXPECT_THROW(skill_scenario_script("kick-rolldown", 1), std::invalid_argument);
  for (const auto& info : scenario_catalog()) EXPECT_NE(find_scenario(info.name), nullptr);
}

TEST(Scenarios, SkillScriptsPlaceTheClockworkOrangeSetUp) {
  const auto script = skill_scenario_script("ball-to-goal-facing-away", 1);
  ASSERT_EQ(script->robots.size(), 1u);
  EXPECT_DOUBLE_EQ(script->robots[0].pose.x(), -3.5);
  EXPECT_DOUBLE_EQ(script->robots[0].pose.y(), 1.5);
  EXPECT_NEAR(script->robots[0].pose.theta(), -M_PI / 2, 1e-12);
  EXPECT_EQ(script->robots[0].role, msg::ROLE_ATTACKER);
  EXPECT_DOUBLE_EQ(script->time_limit, 30.0);
}

TEST(Scenarios, PassPastWallIsWonByAPassReceivedAndLostToTheWall) {
  const auto script = skill_scenario_script("pass-past-wall", 1);
  ASSERT_EQ(script->robots.size(), 5u);
  int defenders = 0;
  for (const auto& r : script->robots) defenders += r.team == msg::YELLOW && r.role == msg::ROLE_DEFENDER;
  EXPECT_EQ(defenders, 2);
  const msg::MatchConfig config = scenario_config("pass-past-wall", 1);
  Physics world(config.league(), config.sim(), 1);
  for (const auto& r : script->robots) world.add_robot(r.team, r.id, r.pose);
  world.place_ball({script->ball_position.x(), script->ball_position.y()});
  EXPECT_FALSE(script->judge(world).has_value());
  // Blue 2 receives: the ball rolls into it.
  const msg::Pose2 mate = world.robot_pose(msg::BLUE, 2);
  const double reach = config.league().robot().radius() + config.league().ball().radius();
  world.place_ball({mate.x() - reach - 0.05, mate.y()}, {1.0, 0.0});
  world.run_for(0.2);
  auto result = script->judge(world);
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(result->success());
  EXPECT_EQ(result->reason(), "pass received by blue 2");
  // A defender of the wall touches it first.
  Physics lost(config.league(), config.sim(), 1);
  for (const auto& r : script->robots) lost.add_robot(r.team, r.id, r.pose);
  const msg::Pose2 defender = lost.robot_pose(msg::YELLOW, 2);
  lost.place_ball({defender.x() - reach - 0.05, defender.y()}, {1.0, 0.0});
  lost.run_for(0.2);
  result = script->judge(lost);
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(result->success());
  EXPECT_EQ(result->reason(), "yellow 2 touched the ball first");
}

}  // namespace
}  // namespace robocaf::sim
