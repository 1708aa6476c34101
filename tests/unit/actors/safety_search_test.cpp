#include "actors/player_skills/safety_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "actors/player_skills/skill_controller.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

using V = Eigen::Vector2d;

constexpr double kRadius = 0.09;  // SSL
constexpr double kMargin = 0.01;
constexpr double kKeep = 2.0 * kRadius + kMargin;

DssRobot robot(V position, V velocity, V desired = V::Zero()) {
  DssRobot r;
  r.position = position;
  r.velocity = velocity;
  r.desired_acceleration = desired;
  r.max_acceleration = 3.0;
  r.max_deceleration = 3.0;
  r.radius = kRadius;
  return r;
}

DssParams params(double dt = 0.02) {
  DssParams p;
  p.dt = dt;
  p.margin = kMargin;
  return p;
}

// The model written out independently of SafetySearch: `a` for dt, then
// braking at max_deceleration along the velocity until stopped.
V position_at(const DssRobot& r, const V& a, double dt, double t) {
  if (t <= dt) return r.position + r.velocity * t + 0.5 * a * t * t;
  const V p1 = r.position + r.velocity * dt + 0.5 * a * dt * dt;
  const V u = r.velocity + a * dt;
  const double speed = u.norm();
  if (speed == 0.0) return p1;
  const double tb = std::min(t - dt, speed / r.max_deceleration);
  return p1 + u * tb - 0.5 * r.max_deceleration * u / speed * tb * tb;
}

double horizon(const DssRobot& r, const V& a, double dt) {
  return dt + (r.velocity + a * dt).norm() / r.max_deceleration;
}

// Smallest distance between the two trajectories, sampled densely.
double sampled_min_distance(const DssRobot& a, const V& acc_a, const DssRobot& b, const V& acc_b, double dt,
                            double step = 1e-4) {
  const double end = std::max(horizon(a, acc_a, dt), horizon(b, acc_b, dt)) + step;
  double best = std::numeric_limits<double>::infinity();
  for (double t = 0.0; t <= end; t += step)
    best = std::min(best, (position_at(a, acc_a, dt, t) - position_at(b, acc_b, dt, t)).norm());
  return best;
}

V brake(const DssRobot& r, double dt) {
  const double s = r.velocity.norm();
  return s == 0.0 ? V::Zero() : V(-r.velocity / s * std::min(r.max_deceleration, s / dt));
}

// --- the check ------------------------------------------------------------------------

TEST(SafetySearchQuartic, ExpansionEqualsTheSquaredDistance) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int i = 0; i < 200; ++i) {
    const V P(u(rng), u(rng)), Vel(u(rng), u(rng)), A(u(rng), u(rng));
    const double t = 0.5 * (u(rng) + 3.0);
    const auto c = distance_squared_coefficients(P, Vel, A);
    const double poly = (((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0];
    const double direct = (P + Vel * t + A * t * t).squaredNorm();
    EXPECT_NEAR(poly, direct, 1e-9 * (1.0 + direct)) << i;
  }
}

TEST(SafetySearchQuartic, MinimumOverAWindowMatchesDenseSampling) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int i = 0; i < 300; ++i) {
    const V P(u(rng), u(rng)), Vel(u(rng), u(rng)), A(u(rng), u(rng));
    const double T = 0.75 * (u(rng) + 2.0);
    double sampled = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= 20000; ++k) {
      const double t = T * k / 20000.0;
      sampled = std::min(sampled, (P + Vel * t + A * t * t).squaredNorm());
    }
    const double exact = min_distance_squared(P, Vel, A, T);
    EXPECT_LE(exact, sampled + 1e-12) << i;  // the true minimum is never above a sample
    EXPECT_NEAR(std::sqrt(exact), std::sqrt(sampled), 2e-3) << i;
  }
}

TEST(SafetySearchQuartic, MinimumOutsideTheWindowIsIgnored) {
  // Heading straight at the origin: closest at t = 1, past the window's end.
  const V P(-1.0, 0.0), Vel(1.0, 0.0), A(0.0, 0.0);
  EXPECT_NEAR(min_distance_squared(P, Vel, A, 0.5), 0.25, 1e-12);
  EXPECT_NEAR(min_distance_squared(P, Vel, A, 2.0), 0.0, 1e-12);
  // A quartic touching zero exactly at a split point of its derivative.
  EXPECT_NEAR(min_distance_squared(V(0.0, 0.0), V(0.0, 0.0), V(1.0, 0.0), 1.0), 0.0, 1e-15);
}

TEST(SafetySearchCheck, PairClearanceAgreesWithSimulatedTrajectories) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(-0.8, 0.8), vel(-2.5, 2.5), acc(-3.0, 3.0);
  const SafetySearch dss(params());
  int conflicts = 0;
  for (int i = 0; i < 400; ++i) {
    const DssRobot a = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    const DssRobot b = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    const V aa(acc(rng), acc(rng)), ab = i % 2 ? V(acc(rng), acc(rng)) : brake(b, 0.02);
    const double d0 = (a.position - b.position).norm();
    const double required = std::min(kKeep, d0);
    const double sampled = sampled_min_distance(a, aa, b, ab, 0.02) - required;
    const double clearance = dss.pair_clearance(a, aa, b, ab);
    // Exact, or a lower bound when the pair is far apart; never optimistic.
    EXPECT_LE(clearance, sampled + 1e-9) << i;
    if (sampled < 0.05) {
      EXPECT_NEAR(clearance, sampled, 2e-3) << i;
    }
    if (clearance < 0.0) ++conflicts;
  }
  EXPECT_GT(conflicts, 20);  // the cases exercise collisions, not only misses
}

TEST(SafetySearchCheck, ClosestApproachInsideTheStepIsCaught) {
  // A slow control loop (0.5 s step) and a robot driving past a still one
  // 12 cm to the side: at the start and the end of the step, and where it
  // stops, they are far apart, but half-way through the step it passes
  // 3 cm into the teammate.
  const double dt = 0.5;
  const DssRobot runner = robot(V(-0.5, 0.12), V(2.0, 0.0));
  const DssRobot still = robot(V(0.0, 0.0), V(0.0, 0.0));
  const V coast = V::Zero();
  for (double t : {0.0, dt, horizon(runner, coast, dt)})
    ASSERT_GT((position_at(runner, coast, dt, t) - still.position).norm(), kKeep) << t;
  ASSERT_LT(sampled_min_distance(runner, coast, still, coast, dt), kKeep);

  const SafetySearch dss(params(dt));
  EXPECT_LT(dss.pair_clearance(runner, coast, still, coast), -0.05);
  const DssDecision d = dss.safe_acceleration(runner, {still});
  EXPECT_TRUE(d.changed);
  ASSERT_TRUE(d.safe);
  EXPECT_LE(d.acceleration.norm(), 3.0 + 1e-9);
  EXPECT_GE(sampled_min_distance(runner, d.acceleration, still, V::Zero(), dt), kKeep - 1e-4);
  // It swerves away from the teammate: braking alone would still reach it.
  EXPECT_GT(d.acceleration.y(), 0.0);
}

TEST(SafetySearchCheck, ClosestApproachInsideTheBrakePhaseIsCaught) {
  // Robots on neighbouring lanes, 10 cm apart, passing each other fast:
  // every segment boundary (start, end of step, each stop) is far apart, the
  // collision is in the middle of the both-braking segment.
  const double dt = 0.02;
  const DssRobot a = robot(V(-0.5, 0.05), V(3.0, 0.0));
  const DssRobot b = robot(V(0.5, -0.05), V(-3.0, 0.0));
  const V ba = brake(a, dt), bb = brake(b, dt);
  for (double t : {0.0, dt, horizon(a, ba, dt), horizon(b, bb, dt)})
    ASSERT_GT((position_at(a, ba, dt, t) - position_at(b, bb, dt, t)).norm(), kKeep) << t;
  const SafetySearch dss(params(dt));
  EXPECT_LT(dss.pair_clearance(a, ba, b, bb), -0.05);
  EXPECT_NEAR(dss.pair_clearance(a, ba, b, bb), sampled_min_distance(a, ba, b, bb, dt) - kKeep, 1e-3);
}

TEST(SafetySearchCheck, RootsBeyondASegmentWindowAreNoFalseAlarm) {
  const double dt = 0.02;
  const SafetySearch dss(params(dt));
  const DssRobot still = robot(V(0.0, 0.0), V(0.0, 0.0));

  // Moving away and braking: the brake phase's polynomial, followed past the
  // stop, turns round and runs through the teammate. Only its window counts.
  const DssRobot leaving = robot(V(0.3, 0.0), V(1.0, 0.0));
  const double stop = 1.0 / leaving.max_deceleration;
  const V p1 = position_at(leaving, V::Zero(), dt, dt);
  const V brake_half_acceleration(-0.5 * leaving.max_deceleration, 0.0);
  EXPECT_LT((p1 + leaving.velocity * (3.0 * stop) + brake_half_acceleration * 9.0 * stop * stop).norm(), kKeep);
  // Closest at the start, 30 cm apart.
  EXPECT_NEAR(dss.pair_clearance(leaving, V::Zero(), still, V::Zero()), 0.3 - kKeep, 1e-9);
  EXPECT_FALSE(dss.safe_acceleration(leaving, {still}).changed);

  // Speeding up towards a teammate 1 m away: the step's polynomial reaches it
  // after half a second, but the step lasts 20 ms and the brake stops the
  // robot 0.8 m short.
  const DssRobot coming = robot(V(-1.0, 0.0), V(1.0, 0.0), V(3.0, 0.0));
  const auto c = distance_squared_coefficients(coming.position - still.position, coming.velocity,
                                               0.5 * coming.desired_acceleration);
  const double t = 0.5;
  EXPECT_LT((((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0], kKeep * kKeep);
  const DssDecision d = dss.safe_acceleration(coming, {still});
  EXPECT_FALSE(d.changed);
  EXPECT_TRUE(d.safe);
  EXPECT_EQ(d.acceleration, coming.desired_acceleration);
}

// --- the search -------------------------------------------------------------------------

TEST(SafetySearch, RobotsMovingApartKeepTheirDesiredAcceleration) {
  const std::vector<DssRobot> robots = {robot(V(-0.3, 0.0), V(-1.0, 0.0), V(-2.0, 0.5)),
                                        robot(V(0.3, 0.0), V(1.0, 0.0), V(2.0, 0.0))};
  const SafetySearch dss(params());
  for (const auto& d : dss.search(robots)) {
    EXPECT_FALSE(d.changed);
    EXPECT_TRUE(d.safe);
    EXPECT_TRUE(d.inputs_valid);
  }
  EXPECT_EQ(dss.search(robots)[0].acceleration, robots[0].desired_acceleration);
  EXPECT_EQ(dss.search(robots)[1].acceleration, robots[1].desired_acceleration);
  const DssDecision alone = dss.safe_acceleration(robots[0], {robots[1]});
  EXPECT_FALSE(alone.changed);
  EXPECT_EQ(alone.acceleration, robots[0].desired_acceleration);
  // Without teammates nothing can collide.
  const DssDecision nobody = dss.safe_acceleration(robots[0], {});
  EXPECT_FALSE(nobody.changed);
  EXPECT_TRUE(std::isinf(nobody.clearance));
}

TEST(SafetySearch, StillRobotsStayAndDodgeATeammateThatCannotStop) {
  const SafetySearch dss(params());
  const DssRobot a = robot(V(0.0, 0.0), V(0.0, 0.0));
  const DssRobot b = robot(V(0.5, 0.0), V(0.0, 0.0));
  const DssDecision stays = dss.safe_acceleration(a, {b});
  EXPECT_FALSE(stays.changed);
  EXPECT_TRUE(stays.safe);
  // A teammate 0.5 m away at 2 m/s brakes over 0.67 m, through the still
  // robot. Within one step (and its own brake) the still robot cannot get
  // clear: nothing is safe, and it takes the least bad: sideways (the
  // teammate would stop beyond it, so backing off gains nothing).
  const DssRobot coming = robot(V(0.5, 0.0), V(-2.0, 0.0));
  const DssDecision d = dss.safe_acceleration(a, {coming});
  EXPECT_TRUE(d.changed);
  EXPECT_FALSE(d.safe);
  EXPECT_NEAR(std::abs(d.acceleration.y()), 3.0, 1e-9);
  EXPECT_GT(d.clearance, dss.pair_clearance(a, V::Zero(), coming, dss.brake_acceleration(coming)));
  // Slower, it stops short of the contact if the still one backs off a little
  // (a step at the limit, then braking: about 1.2 mm).
  const DssRobot slower = robot(V(0.5, 0.0), V(-std::sqrt(2.0 * 3.0 * (0.5 - kKeep + 0.0008)), 0.0));
  const DssDecision d2 = dss.safe_acceleration(a, {slower});
  EXPECT_TRUE(d2.changed);
  EXPECT_TRUE(d2.safe);
  EXPECT_LT(d2.acceleration.x(), 0.0);
  EXPECT_GE(sampled_min_distance(a, d2.acceleration, slower, dss.brake_acceleration(slower), 0.02), kKeep - 1e-5);
}

// Drives `robots` with a double integrator for `seconds`, every 20 ms asking
// each for the acceleration towards its own goal at 2 m/s, filtered by DSS
// (centralised, or each robot alone against braking teammates); returns the
// smallest distance between any two robots, checked ten times per step.
double drive(std::vector<DssRobot> robots, const std::vector<V>& goals, bool use_dss, bool centralised,
             int* changes = nullptr, double seconds = 2.0, bool teammates_finish_step = false) {
  const double dt = 0.02;
  DssParams dss_params = params(dt);
  dss_params.teammates_finish_step = teammates_finish_step;
  const SafetySearch dss(dss_params);
  double closest = std::numeric_limits<double>::infinity();
  for (int k = 0; k * dt < seconds; ++k) {
    for (std::size_t i = 0; i < robots.size(); ++i) {
      const V to_goal = goals[i] - robots[i].position;
      const V v_target = to_goal.norm() > 1e-9 ? V(to_goal.normalized() * std::min(2.0, 2.0 * to_goal.norm()))
                                               : V::Zero();
      V a = (v_target - robots[i].velocity) / dt;
      if (a.norm() > 3.0) a *= 3.0 / a.norm();
      robots[i].desired_acceleration = a;
    }
    std::vector<V> chosen(robots.size());
    if (!use_dss) {
      for (std::size_t i = 0; i < robots.size(); ++i) chosen[i] = robots[i].desired_acceleration;
    } else if (centralised) {
      const auto decisions = dss.search(robots);
      for (std::size_t i = 0; i < robots.size(); ++i) {
        chosen[i] = decisions[i].acceleration;
        if (changes && decisions[i].changed) ++*changes;
      }
    } else {
      for (std::size_t i = 0; i < robots.size(); ++i) {
        std::vector<DssRobot> mates;
        for (std::size_t j = 0; j < robots.size(); ++j)
          if (j != i) mates.push_back(robots[j]);
        const DssDecision d = dss.safe_acceleration(robots[i], mates);
        chosen[i] = d.acceleration;
        if (changes && d.changed) ++*changes;
      }
    }
    for (int s = 1; s <= 10; ++s) {
      const double t = dt * s / 10.0;
      for (std::size_t i = 0; i < robots.size(); ++i)
        for (std::size_t j = i + 1; j < robots.size(); ++j) {
          const V pi = robots[i].position + robots[i].velocity * t + 0.5 * chosen[i] * t * t;
          const V pj = robots[j].position + robots[j].velocity * t + 0.5 * chosen[j] * t * t;
          closest = std::min(closest, (pi - pj).norm());
        }
    }
    for (std::size_t i = 0; i < robots.size(); ++i) {
      EXPECT_LE(chosen[i].norm(), 3.0 + 1e-9);
      robots[i].position += robots[i].velocity * dt + 0.5 * chosen[i] * dt * dt;
      robots[i].velocity += chosen[i] * dt;
    }
  }
  return closest;
}

TEST(SafetySearch, HeadOnRobotsNeverComeCloserThanTwoRadii) {
  // Two robots at 2 m/s swapping places along (almost) the same line.
  const std::vector<DssRobot> robots = {robot(V(-1.0, 0.01), V(2.0, 0.0)), robot(V(1.0, -0.01), V(-2.0, 0.0))};
  const std::vector<V> goals = {V(1.5, 0.01), V(-1.5, -0.01)};
  ASSERT_LT(drive(robots, goals, false, true), 0.05);  // without DSS they crash
  for (bool centralised : {true, false}) {
    int changes = 0;
    EXPECT_GE(drive(robots, goals, true, centralised, &changes), 2.0 * kRadius) << centralised;
    EXPECT_GT(changes, 0);
  }
}

// Six robots on a circle, each driving for the opposite point.
void crowd_crossing_the_centre(std::vector<DssRobot>& robots, std::vector<V>& goals) {
  for (int i = 0; i < 6; ++i) {
    const double angle = 2.0 * M_PI * i / 6.0 + 0.05 * i;
    const V p(std::cos(angle), std::sin(angle));
    robots.push_back(robot(p, -1.5 * p));
    goals.push_back(-1.2 * p);
  }
}

TEST(SafetySearch, CrowdCrossingTheCentreNeverCollides) {
  std::vector<DssRobot> robots;
  std::vector<V> goals;
  crowd_crossing_the_centre(robots, goals);
  ASSERT_LT(drive(robots, goals, false, true), 2.0 * kRadius);
  EXPECT_GE(drive(robots, goals, true, true, nullptr, 3.0), 2.0 * kRadius);
}

TEST(SafetySearch, RobotsDecidingAloneNeverCollideWhenTheyAllowForTeammatesSteps) {
  // The crowd again, every robot deciding on its own at the same time, as
  // each robot's player skills do; both models of a teammate keep a crowd of
  // six crossing apart, and finishing the step leaves more room.
  std::vector<DssRobot> robots;
  std::vector<V> goals;
  crowd_crossing_the_centre(robots, goals);
  const double finishing = drive(robots, goals, true, false, nullptr, 3.0, true);
  EXPECT_GE(finishing, 2.0 * kRadius);
  EXPECT_GE(finishing, drive(robots, goals, true, false, nullptr, 3.0, false) - 1e-9);
  // Two robots closing at right angles on one point.
  const std::vector<DssRobot> pair = {robot(V(-0.6, 0.0), V(1.5, 0.0)), robot(V(0.0, -0.6), V(0.0, 1.5))};
  const std::vector<V> pair_goals = {V(0.8, 0.0), V(0.0, 0.8)};
  ASSERT_LT(drive(pair, pair_goals, false, false), 2.0 * kRadius);
  EXPECT_GE(drive(pair, pair_goals, true, false, nullptr, 2.0, true), 2.0 * kRadius);
}

TEST(SafetySearch, CentralisedChoicesAreSafeAgainstEachOther) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> pos(-1.0, 1.0), vel(-2.0, 2.0), acc(-3.0, 3.0);
  const SafetySearch dss(params());
  for (int scene = 0; scene < 40; ++scene) {
    std::vector<DssRobot> robots;
    while (robots.size() < 8) {
      const DssRobot r = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)), V(acc(rng), acc(rng)));
      bool apart = true;
      for (const auto& o : robots) apart = apart && (o.position - r.position).norm() > kKeep;
      if (apart) robots.push_back(r);
    }
    const auto decisions = dss.search(robots);
    for (std::size_t i = 0; i < robots.size(); ++i)
      for (std::size_t j = i + 1; j < robots.size(); ++j) {
        if (!decisions[i].safe || !decisions[j].safe) continue;
        EXPECT_GE(dss.pair_clearance(robots[i], decisions[i].acceleration, robots[j], decisions[j].acceleration),
                  -1e-6)
            << scene << " " << i << " " << j;
      }
  }
}

TEST(SafetySearch, ClosestSafeAccelerationIsCloserThanFullBrake) {
  // A teammate standing 0.5 m ahead: full speed on would hit it, but the
  // answer is the closest safe choice, not simply the brake.
  const SafetySearch dss(params());
  DssRobot me = robot(V(0.0, 0.0), V(2.0, 0.0), V(3.0, 0.0));
  me.max_deceleration = 6.0;  // brakes over 0.33 m, 0.36 m to go
  const DssRobot mate = robot(V(0.55, 0.0), V(0.0, 0.0));
  const DssDecision d = dss.safe_acceleration(me, {mate});
  ASSERT_TRUE(d.changed);
  ASSERT_TRUE(d.safe);
  EXPECT_LT((d.acceleration - me.desired_acceleration).norm(),
            (dss.brake_acceleration(me) - me.desired_acceleration).norm());
  EXPECT_GE(sampled_min_distance(me, d.acceleration, mate, V::Zero(), 0.02), kKeep - 1e-4);
}

TEST(SafetySearch, DifferentialRobotOnlyGetsAccelerationsAlongItsAxis) {
  const SafetySearch dss(params());
  DssRobot me = robot(V(0.0, 0.0), V(1.5, 0.0), V(3.0, 0.0));
  me.drive_axis = V(1.0, 0.0);
  const DssRobot mate = robot(V(0.6, 0.02), V(0.0, 0.0));
  const DssDecision d = dss.safe_acceleration(me, {mate});
  ASSERT_TRUE(d.changed);
  EXPECT_TRUE(d.safe);
  EXPECT_NEAR(d.acceleration.y(), 0.0, 1e-12);
  EXPECT_LT(d.acceleration.x(), 1.0);  // it has to speed up less, or slow down
  EXPECT_GE(sampled_min_distance(me, d.acceleration, mate, V::Zero(), 0.02), kKeep - 1e-4);
}

// --- robots already overlapping ---------------------------------------------------------

TEST(SafetySearch, OverlappingRobotsNeverMoveCloserAndPreferMovingApart) {
  const SafetySearch dss(params());
  const DssRobot mate = robot(V(0.1, 0.0), V(0.0, 0.0));  // 10 cm apart, radii 9 cm each
  // Wanting to move in: replaced by something that increases the separation.
  const DssRobot in = robot(V(0.0, 0.0), V(0.0, 0.0), V(2.0, 0.0));
  const DssDecision d = dss.safe_acceleration(in, {mate});
  EXPECT_TRUE(d.changed);
  EXPECT_TRUE(d.safe);
  EXPECT_GE(sampled_min_distance(in, d.acceleration, mate, V::Zero(), 0.02), 0.1 - 1e-6);
  EXPECT_GT((position_at(in, d.acceleration, 0.02, 1.0) - mate.position).norm(), 0.1 + 1e-5);
  // Moving out already, or staying: kept.
  const DssRobot out = robot(V(0.0, 0.0), V(0.0, 0.0), V(-2.0, 0.5));
  EXPECT_FALSE(dss.safe_acceleration(out, {mate}).changed);
  const DssRobot stay = robot(V(0.0, 0.0), V(0.0, 0.0));
  EXPECT_FALSE(dss.safe_acceleration(stay, {mate}).changed);
  // Exactly on top of each other: any direction, but a finite answer.
  const DssRobot on_top = robot(V(0.1, 0.0), V(0.5, 0.0), V(1.0, 1.0));
  const DssDecision d2 = dss.safe_acceleration(on_top, {mate});
  EXPECT_TRUE(std::isfinite(d2.acceleration.x()) && std::isfinite(d2.acceleration.y()));
  EXPECT_TRUE(std::isfinite(d2.clearance));
}

TEST(SafetySearch, OverlappingRobotsDrivenTogetherSeparate) {
  std::vector<DssRobot> robots = {robot(V(0.0, 0.0), V(0.0, 0.0)), robot(V(0.12, 0.03), V(0.0, 0.0))};
  const std::vector<V> goals = {V(1.0, 0.0), V(-1.0, 0.0)};  // each wants to go through the other
  const double start = (robots[0].position - robots[1].position).norm();
  for (bool centralised : {true, false}) EXPECT_GE(drive(robots, goals, true, centralised, nullptr, 1.0), start - 1e-6);
}

// A differential robot (MSL size) whose drive axis is `axis` and whose place
// lies along it, a standing teammate 0.68 m off: their doubts (0.03 and
// 0.15 m) overlap. It drives there under the search for `seconds`; returns
// how far from its place it ends, and the least distance between the
// centres on the way.
std::pair<double, double> drive_past_a_teammate(double slack, const V& axis, const V& place, double seconds) {
  DssParams p = params();
  p.margin = 0.015;
  p.overlap_slack = slack;
  const SafetySearch dss(p);
  DssRobot me = robot(V(7.36, -2.87), V::Zero());
  me.radius = 0.25 + 0.03;
  me.doubt = 0.03;
  me.drive_axis = axis;
  me.max_acceleration = 2.0;
  me.max_deceleration = 2.4;
  DssRobot mate = robot(V(6.70, -2.71), V::Zero());
  mate.radius = 0.25 + 0.15;
  mate.doubt = 0.15;
  mate.max_acceleration = 2.0;
  mate.max_deceleration = 2.4;
  double least = (me.position - mate.position).norm();
  for (double t = 0.0; t < seconds; t += p.dt) {
    const V to_place = place - me.position;
    const double along = to_place.dot(me.drive_axis);
    const double wanted = std::clamp(1.5 * along, -0.5, 0.5);
    const double now = me.velocity.dot(me.drive_axis);
    me.desired_acceleration = me.drive_axis * std::clamp((wanted - now) / p.dt, -2.4, 2.0);
    const V a = dss.safe_acceleration(me, {mate}).acceleration;
    me.position += me.velocity * p.dt + 0.5 * a * p.dt * p.dt;
    me.velocity += a * p.dt;
    least = std::min(least, (me.position - mate.position).norm());
  }
  return {(place - me.position).norm(), least};
}

TEST(SafetySearch, RobotsOverlappingOnlyByTheirDoubtMayPassByWithTheSlackNotCloseIn) {
  // MSL throw-in (seed 32): the place straight behind, the way passing the
  // teammate a few centimetres nearer than where it starts.
  const V place(7.36, -2.446), facing(0.0, -1.0);
  const auto [left_without, least_without] = drive_past_a_teammate(0.0, facing, place, 3.0);
  EXPECT_GT(left_without, 0.3) << "without the slack it stands: the scene no longer tests anything";
  EXPECT_GE(least_without, (V(7.36, -2.87) - V(6.70, -2.71)).norm() - 1e-6);
  const auto [left_with, least_with] = drive_past_a_teammate(0.015, facing, place, 3.0);
  EXPECT_LT(left_with, 0.05);
  EXPECT_GE(least_with, 2.0 * 0.25 + 0.015 - 1e-6);
  // A place on the far side of the teammate, straight through it: closing
  // in, not passing by, so no slack; it comes no nearer at all.
  const V at_mate = (V(6.70, -2.71) - V(7.36, -2.87)).normalized();
  const auto [left_through, least_through] = drive_past_a_teammate(0.015, at_mate, V(6.70, -2.71) + at_mate, 3.0);
  EXPECT_GT(left_through, 0.9);
  EXPECT_GE(least_through, (V(7.36, -2.87) - V(6.70, -2.71)).norm() - 1e-6);
  // A doubt bigger than the robot's whole radius is no input to trust.
  DssRobot odd = robot(V(0.0, 0.0), V::Zero());
  odd.doubt = 2.0 * kRadius;
  EXPECT_FALSE(SafetySearch(params()).safe_acceleration(odd, {}).inputs_valid);
}

// --- bad input -----------------------------------------------------------------------

TEST(SafetySearch, NonFiniteInputBrakesWithoutThrowing) {
  const SafetySearch dss(params());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const DssRobot mate = robot(V(1.0, 0.0), V(0.0, 0.0));
  auto finite = [](const DssDecision& d) {
    return std::isfinite(d.acceleration.x()) && std::isfinite(d.acceleration.y());
  };

  // Own position unknown: brake.
  DssRobot me = robot(V(nan, 0.0), V(1.0, 0.0), V(2.0, 0.0));
  DssDecision d = dss.safe_acceleration(me, {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_FALSE(d.safe);
  EXPECT_TRUE(d.changed);
  EXPECT_TRUE(d.acceleration.isApprox(V(-3.0, 0.0)));
  // Own velocity unknown: no direction to brake in, zero (and inputs_valid false).
  me = robot(V(0.0, 0.0), V(inf, 0.0), V(2.0, 0.0));
  d = dss.safe_acceleration(me, {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_TRUE(finite(d));
  EXPECT_EQ(d.acceleration, V::Zero());
  // Desired acceleration non-finite.
  me = robot(V(0.0, 0.0), V(1.0, 0.0), V(nan, 0.0));
  d = dss.safe_acceleration(me, {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_TRUE(d.acceleration.isApprox(V(-3.0, 0.0)));
  // A teammate somewhere unknown: brake too.
  me = robot(V(0.0, 0.0), V(1.0, 0.0), V(2.0, 0.0));
  d = dss.safe_acceleration(me, {robot(V(nan, nan), V(0.0, 0.0))});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_TRUE(d.acceleration.isApprox(V(-3.0, 0.0)));
  // A robot that cannot brake is not valid either.
  me.max_deceleration = 0.0;
  d = dss.safe_acceleration(me, {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_TRUE(finite(d));
  // The centralised search: one bad robot stops everyone, nobody gets NaN.
  const auto all = dss.search({robot(V(0.0, 0.0), V(1.0, 0.0)), robot(V(0.0, 1.0), V(0.0, nan)), mate});
  for (const auto& one : all) {
    EXPECT_FALSE(one.inputs_valid);
    EXPECT_TRUE(finite(one));
  }
  // Bad parameters.
  DssParams bad = params();
  bad.dt = nan;
  const SafetySearch broken(bad);
  d = broken.safe_acceleration(robot(V(0.0, 0.0), V(1.0, 0.0)), {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_TRUE(finite(d));
  EXPECT_FALSE(std::isfinite(broken.pair_clearance(me, V::Zero(), mate, V::Zero())));
}

// --- turning ----------------------------------------------------------------------------

// The turning model written out independently of SafetySearch, as a
// velocity over time: over the step (v0 + a t) turned by w t; then braking
// at max_deceleration along the path, the curvature w / |u| of the end of
// the step kept (u the velocity then).
V turning_velocity_at(const DssRobot& r, const V& a, double dt, double t) {
  auto turned = [](const V& x, double angle) { return V(Eigen::Rotation2Dd(angle) * x); };
  if (t <= dt) return turned(r.velocity + a * t, r.turn_rate * t);
  const V u = turned(r.velocity + a * dt, r.turn_rate * dt);
  const double speed = u.norm();
  const double tau = t - dt;
  if (speed == 0.0 || tau >= speed / r.max_deceleration) return V::Zero();
  const double travelled = speed * tau - 0.5 * r.max_deceleration * tau * tau;
  return turned(u / speed, r.turn_rate / speed * travelled) * (speed - r.max_deceleration * tau);
}

double turning_horizon(const DssRobot& r, const V& a, double dt) {
  return dt + (r.velocity + a * dt).norm() / r.max_deceleration;
}

// Smallest distance between two robots following the turning model,
// integrated (trapezoid) and sampled on a fine grid.
double sampled_turning_min_distance(const DssRobot& a, const V& acc_a, const DssRobot& b, const V& acc_b,
                                    double dt, double step = 2e-5) {
  const double end = std::max(turning_horizon(a, acc_a, dt), turning_horizon(b, acc_b, dt)) + step;
  V pa = a.position, pb = b.position;
  V va = turning_velocity_at(a, acc_a, dt, 0.0), vb = turning_velocity_at(b, acc_b, dt, 0.0);
  double best = (pa - pb).norm();
  for (double t = step; t <= end; t += step) {
    const V na = turning_velocity_at(a, acc_a, dt, t), nb = turning_velocity_at(b, acc_b, dt, t);
    pa += 0.5 * (va + na) * step;
    pb += 0.5 * (vb + nb) * step;
    va = na;
    vb = nb;
    best = std::min(best, (pa - pb).norm());
  }
  return best;
}

TEST(SafetySearchTurning, PairClearanceAgreesWithSimulatedArcs) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> pos(-0.5, 0.5), vel(-2.0, 2.0), acc(-3.0, 3.0), turn(-12.0, 12.0);
  const SafetySearch dss(params());
  int conflicts = 0, turned_into = 0;
  for (int i = 0; i < 300; ++i) {
    DssRobot a = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    DssRobot b = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    a.turn_rate = turn(rng);
    b.turn_rate = i % 3 == 0 ? 0.0 : turn(rng);
    const V aa(acc(rng), acc(rng)), ab = i % 2 ? V(acc(rng), acc(rng)) : brake(b, 0.02);
    const double required = std::min(kKeep, (a.position - b.position).norm());
    const double sampled = sampled_turning_min_distance(a, aa, b, ab, 0.02) - required;
    const double clearance = dss.pair_clearance(a, aa, b, ab);
    // Exact up to the chords of the arc windows (well under a millimetre),
    // or a lower bound when the pair is far apart.
    EXPECT_LE(clearance, sampled + 1e-3) << i;
    if (sampled < 0.05) {
      EXPECT_NEAR(clearance, sampled, 1e-3) << i;
    }
    if (clearance < 0.0) ++conflicts;
    DssRobot straight_a = a, straight_b = b;
    straight_a.turn_rate = straight_b.turn_rate = 0.0;
    if (clearance < 0.0 && dss.pair_clearance(straight_a, aa, straight_b, ab) > 0.0) ++turned_into;
  }
  EXPECT_GT(conflicts, 20);    // the cases exercise collisions, not only misses
  EXPECT_GT(turned_into, 3);   // and collisions only the turning makes
}

TEST(SafetySearchTurning, TinyTurnRatesGiveTheStraightClearance) {
  // Turn rate 0 is the straight plan itself; the arc model tends to it.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-0.5, 0.5), vel(-2.0, 2.0), acc(-3.0, 3.0);
  const SafetySearch dss(params());
  int exact = 0;
  for (int i = 0; i < 200; ++i) {
    DssRobot a = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    DssRobot b = robot(V(pos(rng), pos(rng)), V(vel(rng), vel(rng)));
    const V aa(acc(rng), acc(rng)), ab(acc(rng), acc(rng));
    const double straight = dss.pair_clearance(a, aa, b, ab);
    a.turn_rate = 1e-9;
    b.turn_rate = -1e-9;
    const double turning = dss.pair_clearance(a, aa, b, ab);
    // Far apart, both are only lower bounds (of different looseness), and
    // positive; near enough for any path to matter, both are exact.
    auto path = [](const DssRobot& r, const V& step_acceleration) {
      const double s = (r.velocity + step_acceleration * 0.02).norm();
      return r.velocity.norm() * 0.02 + 0.5 * step_acceleration.norm() * 0.02 * 0.02 +
             s * s / (2.0 * r.max_deceleration);
    };
    if ((a.position - b.position).norm() - path(a, aa) - path(b, ab) < kKeep) {
      EXPECT_NEAR(turning, straight, 1e-9) << i;
      ++exact;
    } else {
      EXPECT_GT(turning, 0.0) << i;
    }
  }
  EXPECT_GT(exact, 40);
}

TEST(SafetySearchTurning, CurvatureKeepingBrakeIsLimitedByTheOuterWheel) {
  EXPECT_EQ(curvature_keeping_deceleration(3.0, 0.0, 1.0, 0.034), 3.0);
  EXPECT_EQ(curvature_keeping_deceleration(3.0, 5.0, 0.0, 0.034), 3.0);
  // 1 m/s turning at 5 rad/s: the outer wheel runs at 1.17 m/s.
  EXPECT_NEAR(curvature_keeping_deceleration(3.0, 5.0, 1.0, 0.034), 3.0 / 1.17, 1e-12);
  EXPECT_NEAR(curvature_keeping_deceleration(3.0, -5.0, 1.0, 0.034), 3.0 / 1.17, 1e-12);
}

// MiroSot robots of a traced game (radius 3.75 cm, 1 m/s^2 up, 3 m/s^2
// braking), A deciding against teammate B, both as the skills see them.
DssRobot mirosot(V position, V velocity, double heading, double turn_rate) {
  DssRobot r;
  r.position = position;
  r.velocity = velocity;
  r.max_acceleration = 1.0;
  r.max_deceleration = curvature_keeping_deceleration(3.0, turn_rate, velocity.norm(), 0.034);
  r.radius = 0.0375;
  r.drive_axis = V(std::cos(heading), std::sin(heading));
  r.turn_rate = turn_rate;
  return r;
}

DssParams mirosot_params() {
  DssParams p;
  p.dt = 0.02;
  p.margin = 0.005;
  p.teammates_finish_step = true;
  return p;
}

TEST(SafetySearchTurning, TeammateCurvingIntoTheWayIsCaughtInTimeToBrake) {
  // Ground truth 0.18 s before two teammates met at 1 m/s: A driving at
  // 1 m/s, turning at 1.7 rad/s; B at 0.75 m/s, turning at 5.3 rad/s into
  // A's path (headings 0.06 s earlier: -2.07 and -1.27). Their straight
  // paths pass; their arcs do not.
  const V pa(-0.802, -0.075), va(-0.39, -0.92), pb(-1.014, -0.243), vb(0.44, -0.61);
  const double ha = -1.97, hb = -0.95, wa = 1.7, wb = 5.3;
  const SafetySearch dss(mirosot_params());
  // The straight model (turn rate 0) sees nothing to avoid: the blind spot.
  for (const auto& [me, mate] : {std::pair{mirosot(pa, va, ha, 0.0), mirosot(pb, vb, hb, 0.0)},
                                 std::pair{mirosot(pb, vb, hb, 0.0), mirosot(pa, va, ha, 0.0)}}) {
    const DssDecision d = dss.safe_acceleration(me, {mate});
    EXPECT_FALSE(d.changed);
    EXPECT_TRUE(d.safe);
  }
  // Turning, both brake now, each along its own axis.
  const DssRobot a = mirosot(pa, va, ha, wa), b = mirosot(pb, vb, hb, wb);
  for (const auto& [me, mate] : {std::pair{a, b}, std::pair{b, a}}) {
    const DssDecision d = dss.safe_acceleration(me, {mate});
    EXPECT_TRUE(d.changed);
    EXPECT_LT(d.acceleration.dot(me.velocity), -0.9 * me.max_deceleration * me.velocity.norm());
    EXPECT_GT(std::abs(d.acceleration.normalized().dot(me.drive_axis)), 0.999);
  }
  // And braking both from here keeps them apart, on their arcs, while from
  // the next truth sample (0.04 s later) it is too late.
  EXPECT_GE(dss.pair_clearance(a, dss.brake_acceleration(a), b, dss.brake_acceleration(b)), 0.0);
  EXPECT_GE(sampled_turning_min_distance(a, dss.brake_acceleration(a), b, dss.brake_acceleration(b), 0.02),
            0.075);
  const DssRobot a2 = mirosot(V(-0.817, -0.112), V(-0.33, -0.94), -1.90, 1.6);
  const DssRobot b2 = mirosot(V(-0.993, -0.265), V(0.59, -0.47), -0.67, 7.0);
  EXPECT_LT(dss.pair_clearance(a2, dss.brake_acceleration(a2), b2, dss.brake_acceleration(b2)), 0.0);
}

TEST(SafetySearchTurning, RobotTurningAwayFromATeammateKeepsGoing) {
  // 1 m/s along +x, a teammate standing 20 cm ahead and 6 cm to the right.
  const SafetySearch dss(mirosot_params());
  const DssRobot mate = mirosot(V(0.2, -0.06), V::Zero(), 0.0, 0.0);
  auto decide = [&](double turn_rate) { return dss.safe_acceleration(mirosot(V::Zero(), V(1.0, 0.0), 0.0, turn_rate), {mate}); };
  // Straight on it would brake into the teammate: it brakes now.
  EXPECT_TRUE(decide(0.0).changed);
  // Turning left, away from it, it is safe as it is.
  for (double w : {2.0, 4.0, 8.0}) {
    const DssDecision d = decide(w);
    EXPECT_FALSE(d.changed) << w;
    EXPECT_TRUE(d.safe) << w;
    EXPECT_GT(d.clearance, 0.0) << w;
  }
  // Turning right, into it, it must brake.
  const DssDecision in = decide(-4.0);
  EXPECT_TRUE(in.changed);
  EXPECT_LT(in.acceleration.x(), 0.0);
}

TEST(SafetySearchTurning, ExtremeTurnRatesStayFiniteAndNonFiniteOnesBrake) {
  const SafetySearch dss(mirosot_params());
  const DssRobot mate = mirosot(V(0.3, 0.0), V(-1.0, 0.0), M_PI, 0.0);
  for (double w : {-1e6, -40.0, 40.0, 1e6}) {
    const DssDecision d = dss.safe_acceleration(mirosot(V::Zero(), V(2.0, 0.0), 0.0, w), {mate});
    EXPECT_TRUE(d.inputs_valid) << w;
    EXPECT_TRUE(std::isfinite(d.acceleration.x()) && std::isfinite(d.acceleration.y())) << w;
    EXPECT_FALSE(std::isnan(d.clearance)) << w;
  }
  DssRobot broken = mirosot(V::Zero(), V(1.0, 0.0), 0.0, 1.0);
  broken.turn_rate = std::numeric_limits<double>::quiet_NaN();
  const DssDecision d = dss.safe_acceleration(broken, {mate});
  EXPECT_FALSE(d.inputs_valid);
  EXPECT_LT(d.acceleration.x(), 0.0);
  EXPECT_FALSE(dss.safe_acceleration(mirosot(V(-1.0, 0.0), V::Zero(), 0.0, 0.0), {broken}).inputs_valid);
}

// --- margin for speed --------------------------------------------------------------------

TEST(SafetySearch, SpeedMarginKeepsMovingRobotsFurtherApartAndStillOnesAsClose) {
  DssParams p = mirosot_params();
  const SafetySearch plain(p);
  p.speed_margin = 0.03;
  const SafetySearch wary(p);
  // 1 m/s straight at a standing teammate: braking now it stops 2 cm short
  // of the plain margin, inside the 3 cm the speed adds.
  const DssRobot mate = mirosot(V(0.0, 0.0), V::Zero(), 0.0, 0.0);
  const double gap = 0.075 + 0.005 + 0.02 + 1.0 / 6.0;  // radii, margin, to spare, braking
  DssRobot me = mirosot(V(-gap, 0.0), V(1.0, 0.0), 0.0, 0.0);
  EXPECT_GT(plain.pair_clearance(me, plain.brake_acceleration(me), mate, V::Zero()), 0.015);
  EXPECT_NEAR(wary.pair_clearance(me, wary.brake_acceleration(me), mate, V::Zero()), -0.01, 1e-9);
  EXPECT_FALSE(plain.safe_acceleration(me, {mate}).changed);
  const DssDecision d = wary.safe_acceleration(me, {mate});
  EXPECT_TRUE(d.changed);
  EXPECT_LT(d.acceleration.x(), -2.5);
  // Standing 1 cm apart, nothing changes: no speed, no extra margin.
  const DssRobot neighbour = mirosot(V(0.085, 0.0), V::Zero(), 0.0, 0.0);
  DssRobot still = mirosot(V::Zero(), V::Zero(), 0.0, 0.0);
  still.desired_acceleration = V(0.0, 0.0);
  EXPECT_EQ(wary.pair_clearance(still, V::Zero(), neighbour, V::Zero()),
            plain.pair_clearance(still, V::Zero(), neighbour, V::Zero()));
  EXPECT_FALSE(wary.safe_acceleration(still, {neighbour}).changed);
}

// --- in SkillController ------------------------------------------------------------------

msg::WorldEstimate estimate(double x, double y, double theta, double vx, double vy) {
  msg::WorldEstimate w;
  w.set_team(msg::BLUE);
  w.set_robot_id(1);
  auto* self = w.mutable_self();
  self->set_team(msg::BLUE);
  self->set_robot_id(1);
  self->mutable_pose()->set_x(x);
  self->mutable_pose()->set_y(y);
  self->mutable_pose()->set_theta(theta);
  self->mutable_velocity()->set_x(vx);
  self->mutable_velocity()->set_y(vy);
  return w;
}

void add_teammate(msg::WorldEstimate& w, uint32_t id, double x, double y, double vx = 0.0, double vy = 0.0) {
  auto* mate = w.add_teammates();
  mate->set_team(msg::BLUE);
  mate->set_robot_id(id);
  mate->mutable_pose()->set_x(x);
  mate->mutable_pose()->set_y(y);
  mate->mutable_velocity()->set_x(vx);
  mate->mutable_velocity()->set_y(vy);
}

msg::PlayerInstruction place_at(double x, double y) {
  msg::PlayerInstruction place;
  place.set_directive(msg::COACH_PLACE);
  place.set_role(msg::ROLE_SUPPORTER);
  place.mutable_placement()->set_x(x);
  place.mutable_placement()->set_y(y);
  return place;
}

TEST(SafetySearchInSkillController, OmniRobotSlowsForATeammateInItsWay) {
  const msg::MatchConfig ssl = runtime::preset_match_config("ssl");
  const auto& spec = ssl.league().robot();
  SkillController without(msg::BLUE, 1, ssl.league());
  SkillController with(msg::BLUE, 1, ssl.league());
  SkillController far(msg::BLUE, 1, ssl.league());
  // At 2 m/s towards a placement 3 m ahead, with a teammate standing 0.55 m
  // ahead: speeding up to cruise there would leave no room to brake.
  const msg::PlayerInstruction place = place_at(3.0, 0.0);
  msg::WorldEstimate alone = estimate(0.0, 0.0, 0.0, 2.0, 0.0);
  msg::WorldEstimate blocked = alone, behind = alone;
  add_teammate(blocked, 2, 0.55, 0.0);
  add_teammate(behind, 2, -0.6, 0.3);  // behind it, standing: no danger
  for (double t : {0.0, 0.02}) {  // the second call knows its control period
    const auto free_cmd = without.step(alone, place, 1, t);
    const auto blocked_cmd = with.step(blocked, place, 1, t);
    const auto behind_cmd = far.step(behind, place, 1, t);
    // A harmless teammate changes nothing.
    EXPECT_EQ(behind_cmd.SerializeAsString(), free_cmd.SerializeAsString());
    EXPECT_GT(free_cmd.velocity().vx(), 2.0);
    EXPECT_LT(blocked_cmd.velocity().vx(), free_cmd.velocity().vx());
    EXPECT_EQ(blocked_cmd.velocity().omega(), free_cmd.velocity().omega());
    // What it commands is safe against the (braking) teammate.
    DssRobot me = robot(V(0.0, 0.0), V(2.0, 0.0));
    me.max_acceleration = spec.max_acceleration();
    me.max_deceleration = spec.max_deceleration();
    DssRobot mate = robot(V(0.55, 0.0), V(0.0, 0.0));
    mate.max_deceleration = spec.max_deceleration();
    DssParams p;
    p.dt = 0.02;
    p.margin = SkillParams{}.dss_margin;
    const SafetySearch dss(p);
    const V a = (V(blocked_cmd.velocity().vx(), blocked_cmd.velocity().vy()) - me.velocity) / 0.02;
    EXPECT_GE(dss.pair_clearance(me, a, mate, V::Zero()), -1e-6);
  }
}

// A MiroSot robot driven up to speed along +x towards (0.9, 0) with nobody
// around (the forward-speed ramp needs a second), the estimate following the
// command. Returns its position, speed and time after 60 steps.
struct UpToSpeed {
  double x, v, t;
};
UpToSpeed drive_up_to_speed(SkillController& skills, const msg::PlayerInstruction& place) {
  UpToSpeed s{-0.9, 0.0, 0.0};
  for (int k = 0; k < 60; ++k, s.t += 0.02) {
    s.v = skills.step(estimate(s.x, 0.0, 0.0, s.v, 0.0), place, k, s.t).velocity().vx();
    s.x += s.v * 0.02;
  }
  return s;
}

TEST(SafetySearchInSkillController, DifferentialRobotOnlyChangesItsForwardSpeed) {
  const msg::MatchConfig mirosot = runtime::default_match_config();
  SkillParams no_give_way;  // going round the teammate would steer; this is about the brake alone
  no_give_way.give_way = false;
  SkillController skills(msg::BLUE, 1, mirosot.league(), no_give_way);
  const msg::PlayerInstruction place = place_at(0.9, 0.0);
  const auto [x, v, t] = drive_up_to_speed(skills, place);
  ASSERT_GT(v, 0.8);
  SkillController copy = skills;
  msg::WorldEstimate alone = estimate(x, 0.0, 0.0, v, 0.0);
  msg::WorldEstimate blocked = alone;
  add_teammate(blocked, 3, x + 0.40, 0.01);  // 40 cm ahead: braking keeps the margins, speeding up would not
  const auto free_cmd = skills.step(alone, place, 60, t);
  const auto blocked_cmd = copy.step(blocked, place, 60, t);
  EXPECT_EQ(blocked_cmd.velocity().vy(), 0.0);
  EXPECT_EQ(blocked_cmd.velocity().omega(), free_cmd.velocity().omega());
  EXPECT_LT(blocked_cmd.velocity().vx(), free_cmd.velocity().vx() - 0.01);
  EXPECT_LT(blocked_cmd.velocity().vx(), v);  // it brakes
  // The teammate gone, the ramp goes on from what was really commanded (a
  // step of at most 90 % of the 1 m/s^2 limit), not from before the brake.
  const auto next = copy.step(estimate(x, 0.0, 0.0, blocked_cmd.velocity().vx(), 0.0), place, 61, t + 0.02);
  EXPECT_LE(next.velocity().vx(), blocked_cmd.velocity().vx() + 0.9 * 0.02 + 1e-9);
}

// Velocity estimates are noisy; a brake computed from one that is too fast
// asked for about the speed the robot already had, and it did not slow at
// all. The brake must start from what the motor was last asked for.
TEST(SafetySearchInSkillController, DifferentialRobotBrakesFromItsCommandNotFromAFastEstimate) {
  const msg::MatchConfig mirosot = runtime::default_match_config();
  SkillParams no_give_way;
  no_give_way.give_way = false;
  SkillController skills(msg::BLUE, 1, mirosot.league(), no_give_way);
  const msg::PlayerInstruction place = place_at(0.9, 0.0);
  const auto [x, v, t] = drive_up_to_speed(skills, place);
  ASSERT_GT(v, 0.8);
  // The estimate says 0.06 m/s more than the robot was asked for.
  msg::WorldEstimate blocked = estimate(x, 0.0, 0.0, v + 0.06, 0.0);
  add_teammate(blocked, 3, x + 0.40, 0.01);
  const auto cmd = skills.step(blocked, place, 60, t);
  // Below the last command (from the estimate it would be above it).
  EXPECT_LT(cmd.velocity().vx(), v - 0.01);
  EXPECT_GE(cmd.velocity().vx(), 0.0);  // braking never reverses
}

// These scenes drive an omni robot at a place far ahead, asking for full
// speed at once: steered straight there, not on a time-optimal move, which
// starts from the estimate and asks for a little more each cycle.
SkillParams straight_at_the_place() {
  SkillParams params;
  params.time_optimal_placing = false;
  return params;
}

TEST(SafetySearchInSkillController, OmniRobotBrakesFromItsCommandNotFromAFastEstimate) {
  const msg::MatchConfig ssl = runtime::preset_match_config("ssl");
  SkillController skills(msg::BLUE, 1, ssl.league(), straight_at_the_place());
  const msg::PlayerInstruction place = place_at(3.0, 0.0);
  const double commanded = skills.step(estimate(-2.0, 0.0, 0.0, 0.0, 0.0), place, 1, 0.0).velocity().vx();
  ASSERT_GT(commanded, 2.0);
  // The estimate says 0.1 m/s more than was asked for; a teammate stands
  // 1.2 m ahead, a little inside the braking distance.
  msg::WorldEstimate blocked = estimate(-2.0, 0.0, 0.0, commanded + 0.1, 0.0);
  add_teammate(blocked, 2, -2.0 + 1.2, 0.0);
  const auto cmd = skills.step(blocked, place, 2, 0.02);
  EXPECT_LT(std::hypot(cmd.velocity().vx(), cmd.velocity().vy()), commanded - 0.01);
}

// The motor holds body-frame velocities: an omni robot turning fast at
// speed swings its path, which the safety search cannot foresee. Its turn
// rate is capped at what the acceleration limit could follow.
TEST(SafetySearchInSkillController, OmniRobotTurnsNoFasterThanItsAccelerationCanFollowAtSpeed) {
  const msg::MatchConfig ssl = runtime::preset_match_config("ssl");
  const auto& spec = ssl.league().robot();
  SkillController skills(msg::BLUE, 1, ssl.league());
  msg::PlayerInstruction place = place_at(3.0, 0.0);
  place.mutable_placement()->set_theta(3.0);  // to face backwards there
  const auto cmd = skills.step(estimate(-2.0, 0.0, 0.0, 2.0, 0.0), place, 1, 0.0);
  const double speed = std::hypot(cmd.velocity().vx(), cmd.velocity().vy());
  ASSERT_GT(speed, 1.0);
  EXPECT_GT(std::abs(cmd.velocity().omega()), 0.1);  // it does turn
  EXPECT_LE(std::abs(cmd.velocity().omega()) * speed, spec.max_acceleration() + 1e-9);
  // Standing, it may turn as fast as it likes.
  SkillController standing(msg::BLUE, 1, ssl.league());
  msg::PlayerInstruction turn = place_at(-2.0, 0.0);
  turn.mutable_placement()->set_theta(3.0);
  const auto on_the_spot = standing.step(estimate(-2.0, 0.0, 0.0, 0.0, 0.0), turn, 1, 0.0);
  EXPECT_GT(std::abs(on_the_spot.velocity().omega()), 3.0);
}

// A teammate known only to decimetres (onboard cameras, shared estimates)
// is given a berth of two standard deviations; one known to millimetres
// is not.
TEST(SafetySearchInSkillController, UncertainTeammateIsGivenTwoStandardDeviationsMore) {
  const msg::MatchConfig ssl = runtime::preset_match_config("ssl");
  const msg::PlayerInstruction place = place_at(3.0, 0.0);
  auto command_with_teammate_sd = [&](double sd) {
    SkillController skills(msg::BLUE, 1, ssl.league(), straight_at_the_place());
    msg::WorldEstimate w = estimate(-2.0, 0.0, 0.0, 0.0, 0.0);
    skills.step(w, place, 1, 0.0);
    w = estimate(-2.0, 0.0, 0.0, 1.0, 0.0);
    // Standing 0.48 m ahead: from 1 m/s the robot can still go on at this
    // distance, not with another 2 x 0.1 m to keep.
    add_teammate(w, 2, -2.0 + 0.48, 0.0);
    auto* mate = w.mutable_teammates(0);
    for (int i = 0; i < 9; ++i) mate->add_covariance(i % 4 == 0 ? sd * sd : 0.0);
    return skills.step(w, place, 2, 0.02).velocity().vx();
  };
  const double sure = command_with_teammate_sd(0.001);
  const double doubtful = command_with_teammate_sd(0.1);
  EXPECT_GE(sure, 1.0);     // goes on (or speeds up)
  EXPECT_LT(doubtful, 1.0);  // brakes
}

TEST(SafetySearchInSkillController, NonFiniteTeammateStopsTheRobot) {
  const msg::MatchConfig ssl = runtime::preset_match_config("ssl");
  SkillController skills(msg::BLUE, 1, ssl.league());
  msg::WorldEstimate w = estimate(0.0, 0.0, 0.0, 1.0, 0.0);
  add_teammate(w, 2, std::numeric_limits<double>::quiet_NaN(), 0.0);
  const auto cmd = skills.step(w, place_at(3.0, 0.0), 1, 0.0);
  EXPECT_EQ(cmd.velocity().vx(), 0.0);
  EXPECT_EQ(cmd.velocity().vy(), 0.0);
}

}  // namespace
}  // namespace robocaf::actors
