#include "actors/team_skills/role_agreement.hpp"

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

constexpr double kPeriod = 0.02;
const std::vector<uint32_t> kFive{1, 2, 3, 4, 5};

msg::RobotEstimate robot_at(uint32_t id, Pos p, double t) {
  msg::RobotEstimate e;
  e.set_team(msg::BLUE);
  e.set_robot_id(id);
  e.mutable_pose()->set_x(p.x);
  e.mutable_pose()->set_y(p.y);
  e.set_t_observed(t);
  return e;
}

// A robot's world estimate: itself, the ball and its view of the teammates.
msg::WorldEstimate estimate(uint32_t id, Pos self, Pos ball, const std::map<uint32_t, Pos>& mates, double t) {
  msg::WorldEstimate w;
  w.set_team(msg::BLUE);
  w.set_robot_id(id);
  w.set_t(t);
  *w.mutable_self() = robot_at(id, self, t);
  for (const auto& [mate, p] : mates)
    if (mate != id) *w.add_teammates() = robot_at(mate, p, t);
  w.mutable_ball()->set_valid(true);
  w.mutable_ball()->mutable_position()->set_x(ball.x);
  w.mutable_ball()->mutable_position()->set_y(ball.y);
  w.mutable_ball()->set_t_observed(t);
  return w;
}

RoleClaim claim(uint32_t id, uint64_t cycle, msg::Role role, Pos self, Pos ball) {
  const double t = static_cast<double>(cycle) * kPeriod;
  RoleClaim c;
  c.cycle = cycle;
  c.t = t;
  c.entry.set_robot_id(id);
  c.entry.set_role(role);
  c.basis = estimate(id, self, ball, {}, t);
  return c;
}

// Every robot of the team decides for `cycle` from the same claims and its own
// estimate (`own(id)`); returns the decisions by robot.
template <class Own>
std::map<uint32_t, RoleDecision> everyone_decides(uint64_t cycle, const std::vector<uint32_t>& team,
                                                  const std::vector<uint32_t>& present,
                                                  const std::vector<RoleClaim>& claims, Own own) {
  std::map<uint32_t, RoleDecision> out;
  for (uint32_t id : team) {
    RoleAgreement agreement(mirosot(), msg::STRATEGY_DEFAULT, id);
    out[id] = agreement.decide(cycle, static_cast<double>(cycle) * kPeriod, present, true, own(id), claims);
  }
  return out;
}

// The roles the robots actually take: each its own entry.
std::map<uint32_t, msg::Role> taken(const std::map<uint32_t, RoleDecision>& decisions) {
  std::map<uint32_t, msg::Role> roles;
  for (const auto& [id, d] : decisions)
    if (d.own) roles[id] = d.own->role();
  return roles;
}

int count(const std::map<uint32_t, msg::Role>& roles, msg::Role role) {
  int n = 0;
  for (const auto& [id, r] : roles) n += r == role;
  return n;
}

std::string serialized(const std::vector<msg::RoleEntry>& team) {
  std::string s;
  for (const auto& e : team) s += e.SerializeAsString() + "|";
  return s;
}

const Pos kBall{0.2, 0.0};

// Attacking +x: the own goal is at x = -1.1; behind the ball is x < 0.2.
std::vector<RoleClaim> five_claims(uint64_t cycle, msg::Role role2, Pos pos2, msg::Role role3, Pos pos3) {
  return {claim(1, cycle, msg::ROLE_KEEPER, {-1.0, 0.0}, kBall), claim(2, cycle, role2, pos2, kBall),
          claim(3, cycle, role3, pos3, kBall), claim(4, cycle, msg::ROLE_DEFENDER, {-0.7, 0.3}, kBall),
          claim(5, cycle, msg::ROLE_SUPPORTER, {-0.3, -0.6}, kBall)};
}

TEST(RoleAgreement, TwoRobotsClaimingTheAttackerResolveToTheCheaperOne) {
  // Robot 3 stands right behind the ball, robot 2 far from it: 3 keeps the role
  // although 2 has the lower id.
  const auto claims = five_claims(9, msg::ROLE_ATTACKER, {-0.5, 0.5}, msg::ROLE_ATTACKER, {0.05, 0.0});
  const auto decisions = everyone_decides(10, kFive, kFive, claims, [](uint32_t) { return std::nullopt; });
  const auto roles = taken(decisions);
  EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
  EXPECT_EQ(roles.at(3), msg::ROLE_ATTACKER);
  EXPECT_NE(roles.at(2), msg::ROLE_ATTACKER);
  EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1);
}

TEST(RoleAgreement, TwoAttackersAtTheSameCostResolveToTheLowerId) {
  // Mirror images about the ball's line: the same cost.
  const auto claims = five_claims(9, msg::ROLE_ATTACKER, {-0.1, -0.25}, msg::ROLE_ATTACKER, {-0.1, 0.25});
  const auto roles = taken(everyone_decides(10, kFive, kFive, claims, [](uint32_t) { return std::nullopt; }));
  EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
  EXPECT_EQ(roles.at(2), msg::ROLE_ATTACKER);
}

TEST(RoleAgreement, OfTwoKeepersTheOneNearerItsGoalKeepsTheRole) {
  auto claims = five_claims(9, msg::ROLE_KEEPER, {-1.05, 0.1}, msg::ROLE_ATTACKER, {0.05, 0.0});
  claims[0] = claim(1, 9, msg::ROLE_KEEPER, {-0.6, 0.0}, kBall);  // robot 1 further out
  const auto roles = taken(everyone_decides(10, kFive, kFive, claims, [](uint32_t) { return std::nullopt; }));
  EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1);
  EXPECT_EQ(roles.at(2), msg::ROLE_KEEPER);
  EXPECT_NE(roles.at(1), msg::ROLE_KEEPER);
}

TEST(RoleAgreement, AnAbsentTeammatesRoleIsTakenOver) {
  const auto claims = five_claims(9, msg::ROLE_SUPPORTER, {-0.1, 0.3}, msg::ROLE_ATTACKER, {0.05, 0.0});
  // Robot 3, the attacker, is no longer present (its computer went down).
  const std::vector<uint32_t> present{1, 2, 4, 5};
  const auto decisions = everyone_decides(10, kFive, present, claims, [](uint32_t) { return std::nullopt; });
  const auto roles = taken(decisions);
  EXPECT_FALSE(decisions.at(3).own) << "a robot that is not present takes no role";
  EXPECT_EQ(roles.size(), 4u);
  EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
  EXPECT_EQ(roles.at(2), msg::ROLE_ATTACKER) << "the next cheapest robot attacks";
  EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1);
  for (const auto& [id, d] : decisions) EXPECT_EQ(serialized(d.team), serialized(decisions.at(1).team)) << id;
}

TEST(RoleAgreement, ASilentTeammateIsPlacedByTheOwnViewAndHoldsNoRole) {
  // Robot 3 claimed the attacker 0.62 s ago (more than kClaimTimeout) and has
  // been silent since; the others claimed in the last cycle.
  ASSERT_LT(RoleAgreement::kClaimTimeout, 0.62);
  auto claims = five_claims(39, msg::ROLE_SUPPORTER, {-0.1, 0.3}, msg::ROLE_ATTACKER, {0.05, 0.0});
  claims[2] = claim(3, 9, msg::ROLE_ATTACKER, {0.05, 0.0}, kBall);
  // Every robot sees robot 3 far from the ball now: robot 2 attacks.
  const std::map<uint32_t, Pos> view{{3, {-0.9, -0.7}}};
  auto own = [&](uint32_t id) {
    const Pos self = id == 3 ? view.at(3) : Pos{0.0, 0.0};  // only robot 3's own self is used
    return std::optional{estimate(id, self, kBall, view, 0.78)};
  };
  auto roles = taken(everyone_decides(40, kFive, kFive, claims, own));
  EXPECT_EQ(roles.at(2), msg::ROLE_ATTACKER);
  EXPECT_NE(roles.at(3), msg::ROLE_ATTACKER);
  // Had the stale claim counted, robot 3 would have stayed the attacker.
  claims[2] = claim(3, 39, msg::ROLE_ATTACKER, {0.05, 0.0}, kBall);
  roles = taken(everyone_decides(40, kFive, kFive, claims, own));
  EXPECT_EQ(roles.at(3), msg::ROLE_ATTACKER);
}

TEST(RoleAgreement, ClaimsOfTheCurrentCycleAreNotYetCommon) {
  // A fast teammate's claim for cycle 10 may reach some robots before they
  // decide cycle 10 and others after: it must not count.
  auto claims = five_claims(9, msg::ROLE_SUPPORTER, {-0.1, 0.3}, msg::ROLE_ATTACKER, {0.05, 0.0});
  RoleAgreement agreement(mirosot(), msg::STRATEGY_DEFAULT, 2);
  const auto before = agreement.decide(10, 0.2, kFive, true, std::nullopt, claims);
  claims.push_back(claim(2, 10, msg::ROLE_ATTACKER, {-0.1, 0.3}, kBall));
  const auto after = agreement.decide(10, 0.2, kFive, true, std::nullopt, claims);
  EXPECT_EQ(serialized(before.team), serialized(after.team));
  EXPECT_EQ(before.own->role(), msg::ROLE_SUPPORTER);
}

TEST(RoleAgreement, TheClaimCarriesTheOwnRoleAndTheFreshOwnEstimate) {
  const auto claims = five_claims(9, msg::ROLE_SUPPORTER, {-0.1, 0.3}, msg::ROLE_ATTACKER, {0.05, 0.0});
  RoleAgreement agreement(mirosot(), msg::STRATEGY_DEFAULT, 3);
  const auto own = estimate(3, {0.07, 0.01}, {0.21, 0.02}, {{1, {-1, 0}}}, 0.2);
  const auto decision = agreement.decide(10, 0.2, kFive, true, own, claims);
  ASSERT_TRUE(decision.own);
  EXPECT_EQ(decision.claim.entry.SerializeAsString(), decision.own->SerializeAsString());
  EXPECT_EQ(decision.claim.cycle, 10u);
  EXPECT_EQ(decision.claim.basis.robot_id(), 3u);
  EXPECT_DOUBLE_EQ(decision.claim.basis.self().pose().x(), 0.07);
  EXPECT_DOUBLE_EQ(decision.claim.basis.ball().position().y(), 0.02);
  EXPECT_EQ(decision.claim.basis.teammates_size(), 0) << "the claim carries only what the costs need";
}

// The core property: the same claims give every robot the same team, whatever
// each robot's own (fresher, noisier) estimate says, so the roles the robots
// take are exactly one of each unique role.
TEST(RoleAgreement, SameClaimsGiveTheSameTeamOnEveryRobot) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> x(-1.0, 1.0), y(-0.8, 0.8), noise(-0.05, 0.05);
  std::uniform_int_distribution<int> role(1, 4);
  for (int trial = 0; trial < 200; ++trial) {
    const Pos ball{x(random), y(random)};
    std::vector<RoleClaim> claims;
    std::map<uint32_t, Pos> truth;
    for (uint32_t id : kFive) {
      truth[id] = {x(random), y(random)};
      // Arbitrary, even contradictory, claimed roles: several keepers or attackers.
      claims.push_back(claim(id, 9, static_cast<msg::Role>(role(random)), truth[id], ball));
    }
    auto own = [&](uint32_t id) {
      std::map<uint32_t, Pos> seen;
      for (auto [mate, p] : truth) seen[mate] = {p.x + noise(random), p.y + noise(random)};
      return std::optional{estimate(id, seen[id], {ball.x + noise(random), ball.y + noise(random)}, seen, 0.2)};
    };
    const auto decisions = everyone_decides(10, kFive, kFive, claims, own);
    for (const auto& [id, d] : decisions)
      ASSERT_EQ(serialized(d.team), serialized(decisions.at(1).team)) << "trial " << trial << ", robot " << id;
    const auto roles = taken(decisions);
    ASSERT_EQ(roles.size(), 5u);
    EXPECT_EQ(count(roles, msg::ROLE_KEEPER), 1) << "trial " << trial;
    EXPECT_EQ(count(roles, msg::ROLE_ATTACKER), 1) << "trial " << trial;
    // And again: a decision depends on its arguments only.
    RoleAgreement again(mirosot(), msg::STRATEGY_DEFAULT, 4);
    EXPECT_EQ(serialized(again.decide(10, 0.2, kFive, true, own(4), claims).team), serialized(decisions.at(4).team));
  }
}

// Cycle by cycle, as in a match: robots move, each announces what it decided,
// and the next cycle every robot decides from those claims. From the first
// cycle on they agree, and they decide what the central assigner decides on
// the claimed positions.
TEST(RoleAgreement, OverAMatchTheRobotsAgreeEveryCycleAndMatchTheCentralAssigner) {
  std::mt19937 random(5);
  std::normal_distribution<double> step(0.0, 0.02), noise(0.0, 0.03);
  std::map<uint32_t, Pos> truth{{1, {-1.0, 0.0}}, {2, {-0.5, 0.4}}, {3, {-0.2, -0.3}}, {4, {-0.6, -0.2}},
                                {5, {0.1, 0.5}}};
  Pos ball{0.0, 0.0};
  std::map<uint32_t, RoleAgreement> robots;
  for (uint32_t id : kFive) robots.emplace(id, RoleAgreement(mirosot(), msg::STRATEGY_DEFAULT, id));
  RoleAssigner central(mirosot());
  std::vector<RoleClaim> claims;
  std::map<uint32_t, std::optional<msg::WorldEstimate>> estimates;  // of the cycle before
  int attacker_changes = 0;
  uint32_t last_attacker = 0;
  for (uint64_t cycle = 0; cycle < 500; ++cycle) {
    const double t = static_cast<double>(cycle) * kPeriod;
    // Central, on what the claims say (the positions the robots announced).
    std::vector<msg::WorldEstimate> claimed;
    for (const auto& c : claims) claimed.push_back(c.basis);
    const auto expected = central.assign(claimed, kFive, true, t);

    std::vector<RoleClaim> next;
    std::map<uint32_t, msg::Role> roles;
    for (auto& [id, agreement] : robots) {
      const RoleDecision d = agreement.decide(cycle, t, kFive, true, estimates[id], claims);
      ASSERT_EQ(serialized(d.team), serialized(expected)) << "cycle " << cycle << ", robot " << id;
      roles[id] = d.own->role();
      next.push_back(d.claim);
    }
    ASSERT_EQ(count(roles, msg::ROLE_KEEPER), 1);
    ASSERT_EQ(count(roles, msg::ROLE_ATTACKER), 1);
    for (auto& [id, r] : roles)
      if (r == msg::ROLE_ATTACKER && id != last_attacker) {
        ++attacker_changes;
        last_attacker = id;
      }
    claims = std::move(next);
    // The world moves on; every robot sees it with its own noise.
    ball = {ball.x + 3 * step(random), ball.y + 3 * step(random)};
    for (auto& [id, p] : truth) p = {p.x + step(random), p.y + step(random)};
    for (uint32_t id : kFive) {
      std::map<uint32_t, Pos> seen;
      for (auto [mate, p] : truth) seen[mate] = {p.x + noise(random), p.y + noise(random)};
      estimates[id] = estimate(id, truth[id], {ball.x + noise(random), ball.y + noise(random)}, seen, t);
    }
  }
  EXPECT_GT(attacker_changes, 1) << "the ball wandered; the attacker should have changed hands";
  EXPECT_LT(attacker_changes, 50) << "hysteresis: the attacker should not flap";
}

}  // namespace
}  // namespace robocaf::actors
