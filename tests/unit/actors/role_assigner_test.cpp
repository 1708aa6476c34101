#include "actors/team_skills/role_assigner.hpp"

#include <map>
#include <random>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

msg::LeaguePreset mirosot() { return runtime::default_match_config().league(); }

using V = Eigen::Vector2d;

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

// Index and count of each robot's place within its role.
std::map<uint32_t, std::pair<msg::Role, uint32_t>> places(const std::vector<msg::RoleEntry>& entries) {
  std::map<uint32_t, std::pair<msg::Role, uint32_t>> m;
  for (const auto& e : entries) m[e.robot_id()] = {e.role(), e.role_index()};
  return m;
}

TEST(RoleAssigner, DefendersAndSupportersTakeThePlacesNearestThemInTotal) {
  // MSL vs chaser: two supporters stood in line, the one behind with the
  // place beyond the other (places went by id), and they pushed into each
  // other for 15 s. Attacking +x, ball in the opponents' corner.
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const Formation formation(league);
  RoleAssigner assigner(league);
  const V ball(8.5, -5.4);
  const int side = formation.support_side(0, ball.y());
  const V wide = formation.supporter(ball, true, side, 0, 2, 2), follow = formation.supporter(ball, true, side, 1, 2, 2);
  const V defender = formation.defender(ball, true);
  // Robot 2 just short of the follow spot, robot 3 just short of the wide
  // one: by id robot 2 would go wide, past robot 3 going the other way.
  const V at2 = follow + (follow - wide).normalized() * 0.5, at3 = wide + (wide - follow).normalized() * 0.5;
  const std::map<uint32_t, Pos> robots{{1, {-8.7, 0.0}},
                                       {2, {at2.x(), at2.y()}},
                                       {3, {at3.x(), at3.y()}},
                                       {4, {defender.x() - 0.3, defender.y()}},
                                       {5, {ball.x() - 0.4, ball.y()}}};
  const auto got = places(assigner.assign(estimates(robots, {ball.x(), ball.y()}), kFive, true, 1.0));
  EXPECT_EQ(got.at(1).first, msg::ROLE_KEEPER);
  EXPECT_EQ(got.at(5).first, msg::ROLE_ATTACKER);
  EXPECT_EQ(got.at(4).first, msg::ROLE_DEFENDER);
  EXPECT_EQ(got.at(2), std::make_pair(msg::ROLE_SUPPORTER, 1u));  // follow
  EXPECT_EQ(got.at(3), std::make_pair(msg::ROLE_SUPPORTER, 0u));  // wide
}

TEST(RoleAssigner, DefenderAndSupporterBesideEachOtherDoNotSwapSides) {
  // MSL vs chaser: the ball at our goal line beside the goal area; the
  // defender's spot and the supporter's were both on the area's edge, each
  // on the other robot's side. By distance to the goal the roles flapped
  // between the two and they met; by distance to the spots each takes its
  // own side. Attacking -x: our goal is at +9.
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const Formation formation(league);
  RoleAssigner assigner(league);
  const V ball(8.6, -2.7);
  const V defender = formation.defender(ball, false);
  const V below(defender.x() - 0.1, defender.y() + 0.5);  // on the defender spot's side
  const V above(defender.x() - 0.3, defender.y() + 1.5);  // further along the edge
  const std::map<uint32_t, Pos> robots{
      {1, {8.7, -0.9}}, {2, {3.2, 1.7}}, {3, {above.x(), above.y()}}, {4, {8.3, -2.3}}, {5, {below.x(), below.y()}}};
  for (double t = 1.0; t < 4.0; t += 0.02) {
    const auto roles = as_map(assigner.assign(estimates(robots, {ball.x(), ball.y()}, t), kFive, false, t));
    ASSERT_EQ(roles.at(5), msg::ROLE_DEFENDER) << "at " << t << " s";
    ASSERT_EQ(roles.at(3), msg::ROLE_SUPPORTER) << "at " << t << " s";
  }
}

TEST(RoleAssigner, CurrentPlacesHoldUntilAnotherAssignmentSavesARobotDiameterEach) {
  // MSL: each robot's own place counts a robot diameter (0.5 m) nearer, so
  // two robots swap only when the swap saves each that much on average.
  const msg::LeaguePreset league = runtime::preset_match_config("msl").league();
  const Formation formation(league);
  RoleAssigner assigner(league);
  const V ball(4.0, 0.0);
  const V defender = formation.defender(ball, true);
  const int side = formation.support_side(0, ball.y());
  const V follow = formation.supporter(ball, true, side, 1, 2, 3);
  const V wide = formation.supporter(ball, true, side, 0, 2, 3);
  const V along = (follow - defender).normalized();
  // Robot 4 at the defender's spot, robot 5 at the follow spot, robot 3 wide.
  std::map<uint32_t, Pos> robots{{1, {-8.8, 0.0}}, {2, {3.0, 0.0}}, {3, {wide.x(), wide.y()}}};
  auto put = [&](uint32_t id, const V& p) { robots[id] = Pos{p.x(), p.y()}; };
  put(4, defender);
  put(5, follow);
  ASSERT_EQ(as_map(assigner.assign(estimates(robots, {ball.x(), ball.y()}, 1.0), kFive, true, 1.0)).at(4),
            msg::ROLE_DEFENDER);
  // Both on the line between the two spots, robot 4 0.4 m nearer the follow
  // spot than robot 5: swapping saves 0.8 m, less than two diameters.
  const double gap = (follow - defender).norm();
  put(4, defender + along * (0.5 * gap + 0.2));
  put(5, defender + along * (0.5 * gap - 0.2));
  for (double t = 1.0; t < 3.0; t += 0.02) {
    const auto roles = as_map(assigner.assign(estimates(robots, {ball.x(), ball.y()}, t), kFive, true, t));
    ASSERT_EQ(roles.at(4), msg::ROLE_DEFENDER) << "at " << t << " s";
    ASSERT_EQ(roles.at(5), msg::ROLE_SUPPORTER) << "at " << t << " s";
  }
  // 0.8 m apart: the swap saves 1.6 m, and comes after kConfirmSeconds,
  // not before.
  put(4, defender + along * (0.5 * gap + 0.4));
  put(5, defender + along * (0.5 * gap - 0.4));
  const double start = 3.0;
  std::map<uint32_t, msg::Role> roles;
  for (double t = start; t < start + RoleAssigner::kConfirmSeconds - 0.03; t += 0.02) {
    roles = as_map(assigner.assign(estimates(robots, {ball.x(), ball.y()}, t), kFive, true, t));
    ASSERT_EQ(roles.at(4), msg::ROLE_DEFENDER) << "swapped after " << t - start << " s";
  }
  for (double t = start + RoleAssigner::kConfirmSeconds; t < start + 0.5; t += 0.02)
    roles = as_map(assigner.assign(estimates(robots, {ball.x(), ball.y()}, t), kFive, true, t));
  EXPECT_EQ(roles.at(5), msg::ROLE_DEFENDER);
  EXPECT_EQ(roles.at(4), msg::ROLE_SUPPORTER);
}

TEST(RoleAssigner, CostSpikesShorterThanTheConfirmTimeChangeNoRole) {
  std::map<uint32_t, Pos> robots{{1, {-1.0, 0.0}}, {2, {-0.3, 0.0}}, {3, {-0.5, 0.5}}, {4, {-0.8, -0.3}},
                                 {5, {0.5, 0.5}}};
  // Every second, for a little under the confirm time, the ball is seen
  // at robot 3 (a wrong detection) and robot 5 jumps next to robot 4.
  std::map<uint32_t, Pos> spiked = robots;
  spiked[5] = {-0.75, -0.25};
  const Pos spiked_ball{-0.45, 0.5};
  {
    // The spike alone would change roles: the test can fail.
    RoleAssigner fresh(mirosot());
    const auto calm = as_map(fresh.assign(estimates(robots, {0.0, 0.0}), kFive, true, 0.0));
    fresh.reset();
    ASSERT_NE(as_map(fresh.assign(estimates(spiked, spiked_ball), kFive, true, 0.0)), calm);
  }
  RoleAssigner assigner(mirosot());
  std::map<uint32_t, msg::Role> first;
  const int spike_cycles = static_cast<int>(RoleAssigner::kConfirmSeconds / 0.02) - 2;
  for (int k = 0; k < 300; ++k) {
    const double t = 0.02 * k;
    const bool spike = k % 50 >= 10 && k % 50 < 10 + spike_cycles;
    const auto roles = as_map(
        assigner.assign(estimates(spike ? spiked : robots, spike ? spiked_ball : Pos{0.0, 0.0}, t), kFive, true, t));
    if (k == 0)
      first = roles;
    else
      ASSERT_EQ(roles, first) << "roles changed at " << t << " s";
  }
  EXPECT_EQ(first.at(2), msg::ROLE_ATTACKER);
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
