#include "actors/team_skills/role_assigner.hpp"

#include <map>
#include <random>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

msg::LeaguePreset mirosot() { return runtime::default_match_config().league(); }

struct Pos {
  double x, y;
};

// One estimate per robot: its own pose and the ball as it sees it.
std::vector<msg::WorldEstimate> estimates(const std::map<uint32_t, Pos>& robots, Pos ball, double t = 1.0) {
  std::vector<msg::WorldEstimate> out;
  for (const auto& [id, p] : robots) {
    msg::WorldEstimate w;
    w.set_team(msg::BLUE);
    w.set_robot_id(id);
    w.set_t(t);
    w.mutable_self()->set_robot_id(id);
    w.mutable_self()->mutable_pose()->set_x(p.x);
    w.mutable_self()->mutable_pose()->set_y(p.y);
    w.mutable_self()->set_t_observed(t);
    w.mutable_ball()->set_valid(true);
    w.mutable_ball()->mutable_position()->set_x(ball.x);
    w.mutable_ball()->mutable_position()->set_y(ball.y);
    w.mutable_ball()->set_t_observed(t);
    out.push_back(w);
  }
  return out;
}

std::map<uint32_t, msg::Role> as_map(const std::vector<msg::RoleEntry>& entries) {
  std::map<uint32_t, msg::Role> m;
  for (const auto& e : entries) {
    EXPECT_EQ(m.count(e.robot_id()), 0u) << "robot " << e.robot_id() << " has two roles";
    m[e.robot_id()] = e.role();
  }
  return m;
}

int count(const std::map<uint32_t, msg::Role>& m, msg::Role role) {
  int n = 0;
  for (const auto& [id, r] : m) n += r == role;
  return n;
}

const std::vector<uint32_t> kFive{1, 2, 3, 4, 5};

TEST(RoleAssigner, FiveRobotsGetKeeperAttackerDefenderAndTwoSupporters) {
  RoleAssigner assigner(mirosot());
  // Attacking +x; the own goal is at x = -1.1.
  const std::map<uint32_t, Pos> robots{{1, {0.3, 0.3}}, {2, {-1.0, 0.05}}, {3, {-0.2, 0.0}}, {4, {-0.6, 0.3}},
                                       {5, {-0.5, -0.4}}};
  const auto entries = assigner.assign(estimates(robots, {0.2, 0.0}), kFive, true, 1.0);
  ASSERT_EQ(entries.size(), 5u);
  for (size_t i = 1; i < entries.size(); ++i) EXPECT_LT(entries[i - 1].robot_id(), entries[i].robot_id());
  const auto roles = as_map(entries);
  EXPECT_EQ(roles.at(2), msg::ROLE_KEEPER);    // nearest the own goal
  EXPECT_EQ(roles.at(3), msg::ROLE_ATTACKER);  // behind the ball; robot 1 is in front of it
  EXPECT_EQ(count(roles, msg::ROLE_DEFENDER), 1);
  EXPECT_EQ(count(roles, msg::ROLE_SUPPORTER), 2);
  EXPECT_EQ(roles.at(4), msg::ROLE_DEFENDER);   // the field robot nearest the own goal
  EXPECT_EQ(roles.at(1), msg::ROLE_SUPPORTER);  // the one farthest up-field
  EXPECT_EQ(roles.at(5), msg::ROLE_SUPPORTER);
}

TEST(RoleAssigner, AttackSideDecidesGoalsAndBehind) {
  RoleAssigner assigner(mirosot());
  const std::map<uint32_t, Pos> robots{{1, {1.0, 0.0}}, {2, {0.6, 0.0}}, {3, {-0.2, 0.0}}};
  const auto roles = as_map(assigner.assign(estimates(robots, {0.2, 0.0}), {1, 2, 3}, false, 1.0));
  EXPECT_EQ(roles.at(1), msg::ROLE_KEEPER);  // the own goal is at +x now
  EXPECT_EQ(roles.at(2), msg::ROLE_ATTACKER);
  EXPECT_EQ(roles.at(3), msg::ROLE_DEFENDER);
  EXPECT_LT(assigner.attack_cost(0.6, 0.0, 0.2, 0.0, false), assigner.attack_cost(-0.2, 0.0, 0.2, 0.0, false));
}

TEST(RoleAssigner, DoesNotFlapUnderNoise) {
  RoleAssigner assigner(mirosot());
  // Robots 3 and 4 are almost equally placed for the ball.
  std::map<uint32_t, Pos> robots{{1, {-1.0, 0.0}}, {2, {-0.7, 0.0}}, {3, {-0.3, 0.1}}, {4, {-0.3, -0.1}},
                                 {5, {0.5, 0.5}}};
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.01);  // five times MiroSot's detection noise
  std::map<uint32_t, msg::Role> first;
  for (int k = 0; k < 500; ++k) {
    std::map<uint32_t, Pos> noisy = robots;
    for (auto& [id, p] : noisy) {
      p.x += noise(rng);
      p.y += noise(rng);
    }
    const auto roles = as_map(assigner.assign(estimates(noisy, {0.0, noise(rng)}, k * 0.02), kFive, true, k * 0.02));
    EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1);
    EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
    if (k == 0)
      first = roles;
    else
      ASSERT_EQ(roles, first) << "roles changed at step " << k;
  }
}

TEST(RoleAssigner, ClearlyBetterRobotTakesOverAttack) {
  RoleAssigner assigner(mirosot());
  std::map<uint32_t, Pos> robots{{1, {-1.0, 0.0}}, {2, {-0.3, 0.0}}, {3, {-0.8, 0.6}}};
  EXPECT_EQ(as_map(assigner.assign(estimates(robots, {0.0, 0.0}), {1, 2, 3}, true, 1.0)).at(2), msg::ROLE_ATTACKER);
  // The ball rolls next to robot 3: robot 2 is now far worse off, and robot
  // 3 takes over once that has held for kConfirmSeconds.
  const double confirm = RoleAssigner::kConfirmSeconds;
  for (double t = 1.0; t < 1.0 + confirm - 0.01; t += 0.02)
    ASSERT_EQ(as_map(assigner.assign(estimates(robots, {-0.6, 0.6}, t), {1, 2, 3}, true, t)).at(2), msg::ROLE_ATTACKER)
        << "switched after " << t - 1.0 << " s";
  const auto roles =
      as_map(assigner.assign(estimates(robots, {-0.6, 0.6}, 1.0 + confirm), {1, 2, 3}, true, 1.0 + confirm));
  EXPECT_EQ(roles.at(3), msg::ROLE_ATTACKER);
  EXPECT_EQ(roles.at(2), msg::ROLE_DEFENDER);
  EXPECT_EQ(roles.at(1), msg::ROLE_KEEPER);  // sticky
}

TEST(RoleAssigner, AttackerWithTheBallAtItsFrontCostsLessThanARobotAMetreAway) {
  // MSL: big robots, so a robot on the ball stands nearer it than the point
  // behind it. It used to count as on the wrong side (a 1.8 m detour).
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  RoleAssigner assigner(league);
  const double contact = league.robot().radius() + league.ball().radius();
  // Ball at (2, 0), attacking +x: on the ball from behind, and a metre away.
  const double on_ball = assigner.attack_cost(2.0 - contact, 0.0, 2.0, 0.0, true);
  EXPECT_LT(on_ball, 0.3);
  EXPECT_LT(on_ball, assigner.attack_cost(1.0, 1.0, 2.0, 0.0, true));
  // In front of the ball it still goes round: well over the straight way to
  // the point behind the ball (1.5 clear distances behind it).
  const double straight = contact + 1.5 * (contact + 0.02);
  EXPECT_GT(assigner.attack_cost(2.0 + contact, 0.0, 2.0, 0.0, true), straight + contact);
}

TEST(RoleAssigner, BigRobotsKeepTheirDefenderAcrossARobotDiameter) {
  // MSL: the current defender keeps its role against a supporter up to a
  // robot diameter (0.5 m) nearer the goal, not just 0.1 m.
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  RoleAssigner assigner(league);
  // Own goal at x = -9; ball far up-field. Robot 4 starts nearest the goal.
  std::map<uint32_t, Pos> robots{{1, {-8.8, 0.0}}, {2, {3.0, 0.0}}, {3, {0.0, 3.0}}, {4, {-6.0, 0.0}}, {5, {-5.0, 1.0}}};
  ASSERT_EQ(as_map(assigner.assign(estimates(robots, {4.0, 0.0}, 1.0), kFive, true, 1.0)).at(4), msg::ROLE_DEFENDER);
  robots[5] = {-6.3, 0.0};  // 0.3 m nearer than the defender, for two seconds
  for (double t = 1.0; t < 3.0; t += 0.02) {
    const auto roles = as_map(assigner.assign(estimates(robots, {4.0, 0.0}, t), kFive, true, t));
    ASSERT_EQ(roles.at(4), msg::ROLE_DEFENDER) << "at " << t << " s";
    ASSERT_EQ(roles.at(5), msg::ROLE_SUPPORTER) << "at " << t << " s";
  }
  robots[5] = {-7.0, 0.0};  // a diameter and more nearer: it takes over
  std::map<uint32_t, msg::Role> roles;
  for (double t = 3.0; t < 3.5; t += 0.02) roles = as_map(assigner.assign(estimates(robots, {4.0, 0.0}, t), kFive, true, t));
  EXPECT_EQ(roles.at(5), msg::ROLE_DEFENDER);
  EXPECT_EQ(roles.at(4), msg::ROLE_SUPPORTER);
}

TEST(RoleAssigner, CostSpikesShorterThanTheConfirmTimeChangeNoRole) {
  RoleAssigner assigner(mirosot());
  std::map<uint32_t, Pos> robots{{1, {-1.0, 0.0}}, {2, {-0.3, 0.0}}, {3, {-0.5, 0.5}}, {4, {-0.8, -0.3}},
                                 {5, {0.5, 0.5}}};
  std::map<uint32_t, msg::Role> first;
  const int spike_cycles = static_cast<int>(RoleAssigner::kConfirmSeconds / 0.02) - 2;
  for (int k = 0; k < 300; ++k) {
    const double t = 0.02 * k;
    // Every second, for a little under the confirm time, the ball is seen
    // at robot 3 (a wrong detection) and robot 5 looks nearest its own goal.
    const bool spike = k % 50 >= 10 && k % 50 < 10 + spike_cycles;
    std::map<uint32_t, Pos> seen = robots;
    if (spike) seen[5] = {-0.95, 0.25};
    const auto roles = as_map(assigner.assign(estimates(seen, spike ? Pos{-0.45, 0.5} : Pos{0.0, 0.0}, t), kFive, true, t));
    if (k == 0)
      first = roles;
    else
      ASSERT_EQ(roles, first) << "roles changed at " << t << " s";
  }
  EXPECT_EQ(first.at(2), msg::ROLE_ATTACKER);
  EXPECT_EQ(first.at(4), msg::ROLE_DEFENDER);
}

TEST(RoleAssigner, KeeperIsStickyAndReplacedWhenAbsent) {
  RoleAssigner assigner(mirosot());
  std::map<uint32_t, Pos> robots{{1, {-1.0, 0.0}}, {2, {0.0, 0.0}}, {3, {-0.5, 0.5}}};
  EXPECT_EQ(as_map(assigner.assign(estimates(robots, {0.5, 0.0}), {1, 2, 3}, true, 1.0)).at(1), msg::ROLE_KEEPER);
  robots[1] = {0.8, 0.0};  // the keeper wandered off: still keeper
  EXPECT_EQ(as_map(assigner.assign(estimates(robots, {0.5, 0.0}), {1, 2, 3}, true, 1.0)).at(1), msg::ROLE_KEEPER);
  const auto roles = as_map(assigner.assign(estimates(robots, {0.5, 0.0}), {2, 3}, true, 1.0));  // robot 1 removed
  EXPECT_EQ(roles.size(), 2u);
  EXPECT_EQ(roles.at(3), msg::ROLE_KEEPER);
  EXPECT_EQ(roles.at(2), msg::ROLE_ATTACKER);
}

TEST(RoleAssigner, FewRobotsAndMissingEstimates) {
  RoleAssigner assigner(mirosot());
  EXPECT_TRUE(assigner.assign({}, {}, true, 1.0).empty());
  auto one = as_map(assigner.assign({}, {7}, true, 1.0));
  EXPECT_EQ(one.at(7), msg::ROLE_KEEPER);
  assigner.reset();
  // Nobody has published anything yet: still exactly one keeper and one attacker, by id.
  const auto roles = as_map(assigner.assign({}, {4, 2, 9, 2}, true, 1.0));
  ASSERT_EQ(roles.size(), 3u);
  EXPECT_EQ(roles.at(2), msg::ROLE_KEEPER);
  EXPECT_EQ(roles.at(4), msg::ROLE_ATTACKER);
  EXPECT_EQ(roles.at(9), msg::ROLE_DEFENDER);
}

TEST(RoleAssigner, TeammateViewLocatesARobotWithoutItsOwnEstimate) {
  RoleAssigner assigner(mirosot());
  auto ests = estimates({{1, {-1.0, 0.0}}, {2, {0.6, 0.0}}}, {0.2, 0.0});
  auto* seen = ests[0].add_teammates();  // robot 1 sees robot 3 right behind the ball
  seen->set_robot_id(3);
  seen->mutable_pose()->set_x(0.05);
  seen->set_t_observed(1.0);
  const auto roles = as_map(assigner.assign(ests, {1, 2, 3}, true, 1.0));
  EXPECT_EQ(roles.at(3), msg::ROLE_ATTACKER);
}

TEST(RoleAssigner, SixRobotsSplitEvenly) {
  RoleAssigner assigner(mirosot());
  std::map<uint32_t, Pos> robots;
  for (uint32_t id = 1; id <= 6; ++id) robots[id] = {-1.0 + 0.3 * id, 0.1 * id};
  const auto roles = as_map(assigner.assign(estimates(robots, {0.0, 0.0}), {1, 2, 3, 4, 5, 6}, true, 1.0));
  EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1);
  EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
  EXPECT_EQ(count(roles, msg::ROLE_DEFENDER), 2);
  EXPECT_EQ(count(roles, msg::ROLE_SUPPORTER), 2);
}

}  // namespace
}  // namespace robocaf::actors

namespace robocaf::actors {
namespace {

TEST(RoleAssignerStrategies, ChaserMakesEveryRobotAnAttacker) {
  RoleAssigner assigner(mirosot(), msg::STRATEGY_CHASER);
  const std::map<uint32_t, Pos> robots{{1, {0.3, 0.3}}, {2, {-1.0, 0.05}}, {3, {-0.2, 0.0}}, {4, {-0.6, 0.3}},
                                       {5, {0.5, -0.4}}};
  const auto entries = assigner.assign(estimates(robots, {0.0, 0.0}), kFive, true, 1.0);
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(count(as_map(entries), msg::ROLE_ATTACKER), 5);
  for (const auto& e : entries) {
    EXPECT_EQ(e.role_count(), 5u);
    EXPECT_EQ(e.role_index(), e.robot_id() - 1);  // by id
  }
}

TEST(RoleAssignerStrategies, WallKeepsAKeeperAndNumbersDefendersRightToLeftFromTheGoal) {
  RoleAssigner assigner(mirosot(), msg::STRATEGY_WALL);
  // Robot 2 is nearest the own goal at -x: keeper. The others' lateral order
  // seen from that goal (left = +y when attacking +x): 4 (y -0.5), 1, 5, 3 (y 0.6).
  const std::map<uint32_t, Pos> robots{{1, {0.3, -0.1}}, {2, {-1.0, 0.05}}, {3, {-0.2, 0.6}}, {4, {-0.6, -0.5}},
                                       {5, {0.5, 0.2}}};
  auto entries = assigner.assign(estimates(robots, {0.4, 0.0}), kFive, true, 1.0);
  auto roles = as_map(entries);
  EXPECT_EQ(roles[2], msg::ROLE_KEEPER);
  EXPECT_EQ(count(roles, msg::ROLE_DEFENDER), 4);
  EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 0);
  std::map<uint32_t, uint32_t> index;
  for (const auto& e : entries)
    if (e.role() == msg::ROLE_DEFENDER) {
      EXPECT_EQ(e.role_count(), 4u);
      index[e.robot_id()] = e.role_index();
    }
  EXPECT_EQ(index, (std::map<uint32_t, uint32_t>{{4, 0}, {1, 1}, {5, 2}, {3, 3}}));
  // Attacking -x the goal is at +x and the same robots read left to right:
  // the order reverses (the keeper stays: keepers are sticky).
  entries = assigner.assign(estimates(robots, {0.4, 0.0}), kFive, false, 1.0);
  index.clear();
  for (const auto& e : entries)
    if (e.role() == msg::ROLE_DEFENDER) index[e.robot_id()] = e.role_index();
  EXPECT_EQ(index, (std::map<uint32_t, uint32_t>{{4, 3}, {1, 2}, {5, 1}, {3, 0}}));
}

TEST(RoleAssignerStrategies, DefaultStrategyGivesEveryRoleItsOwnCount) {
  RoleAssigner assigner(mirosot());
  const std::map<uint32_t, Pos> robots{{1, {0.3, 0.3}}, {2, {-1.0, 0.05}}, {3, {-0.2, 0.0}}, {4, {-0.6, 0.3}},
                                       {5, {0.5, -0.4}}, {6, {-0.7, -0.3}}};
  const auto entries = assigner.assign(estimates(robots, {0.0, 0.0}), {1, 2, 3, 4, 5, 6}, true, 1.0);
  std::map<msg::Role, uint32_t> seen;
  for (const auto& e : entries) {
    ++seen[e.role()];
    EXPECT_LT(e.role_index(), e.role_count());
  }
  for (const auto& e : entries) EXPECT_EQ(e.role_count(), seen[e.role()]) << e.robot_id();
  EXPECT_EQ(seen[msg::ROLE_DEFENDER], 2u);
}

}  // namespace
}  // namespace robocaf::actors
