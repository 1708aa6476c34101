#include "tests/unit/sim/sim_test_helpers.hpp"
#include "sim/physics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "runtime/config_loader.hpp"

namespace robocaf::sim {
namespace {

using namespace robocaf::sim::testing;

using Eigen::Vector2d;

msg::MatchConfig mirosot() { return runtime::default_match_config(); }

// MiroSot robots and ball on a field big enough to never reach a wall.
msg::LeaguePreset big_field(double size = 40.0) {
  msg::LeaguePreset l = mirosot().league();
  l.mutable_field()->set_length(size);
  l.mutable_field()->set_width(size);
  return l;
}

// An SSL-like preset: omni robots with a kicker, open field with a boundary.
msg::LeaguePreset ssl_like() {
  msg::LeaguePreset l;
  l.set_name("ssl");
  l.set_team_size(6);
  auto* f = l.mutable_field();
  f->set_length(9.0);
  f->set_width(6.0);
  f->set_goal_width(1.0);
  f->set_goal_depth(0.18);
  f->set_boundary_width(0.3);
  f->set_center_circle_radius(0.5);
  f->set_walls(false);
  auto* r = l.mutable_robot();
  r->set_drive(msg::DRIVE_OMNI);
  r->set_radius(0.09);
  r->set_wheel_base(0.16);
  r->set_max_speed(3.0);
  r->set_max_acceleration(3.0);
  r->set_max_deceleration(6.0);
  r->set_max_omega(10.0);
  r->set_kick_speed(6.5);
  r->set_mouth_width(0.07);
  auto* b = l.mutable_ball();
  b->set_radius(0.0215);
  b->set_rolling_deceleration(0.3);
  b->set_wall_restitution(0.6);
  b->set_robot_restitution(0.5);
  return l;
}

msg::RobotCommand body(double vx, double vy, double w) {
  msg::RobotCommand c;
  c.mutable_body()->set_vx(vx);
  c.mutable_body()->set_vy(vy);
  c.mutable_body()->set_omega(w);
  return c;
}

const msg::RobotTruth& robot_truth(const msg::WorldTruth& t, msg::Team team, std::uint32_t id) {
  for (const auto& r : t.robots())
    if (r.team() == team && r.robot_id() == id) return r;
  ADD_FAILURE() << "robot not in truth";
  return t.robots(0);
}

// Runs `seconds` of physics, re-sending the same command every 50 ms as a
// motor actor would, so the watchdog stays quiet.
void drive(Physics& w, msg::Team team, std::uint32_t id, const msg::RobotCommand& c,
           double seconds) {
  const long n = std::lround(seconds / 0.001);
  for (long i = 0; i < n; ++i) {
    if (i % 50 == 0) w.set_command(team, id, c, w.time());
    w.step(0.001);
  }
}

// Physics leaves overlaps of at most a few nanometres (solver rounding).
constexpr double kOverlapTolerance = 1e-8;

double dist_to_segment(const Vector2d& p, const Vector2d& a, const Vector2d& b) {
  const Vector2d ab = b - a;
  const double u = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (p - (a + u * ab)).norm();
}

// Independent of Physics' own geometry: is a circle of radius r at p inside
// the MiroSot arena (field plus goal boxes) and clear of every wall?
bool inside_walled_arena(const msg::FieldGeometry& f, const Vector2d& p, double r,
                         double eps = 1e-9) {
  const double l2 = f.length() / 2, w2 = f.width() / 2, g2 = f.goal_width() / 2, gd = f.goal_depth();
  const bool inside = (std::abs(p.x()) <= l2 && std::abs(p.y()) <= w2) ||
                      (std::abs(p.x()) <= l2 + gd && std::abs(p.y()) <= g2);
  if (!inside) return false;
  const std::vector<Vector2d> poly = {{-l2, -w2}, {l2, -w2},      {l2, -g2},       {l2 + gd, -g2},
                                      {l2 + gd, g2}, {l2, g2},    {l2, w2},        {-l2, w2},
                                      {-l2, g2},    {-l2 - gd, g2}, {-l2 - gd, -g2}, {-l2, -g2}};
  for (std::size_t i = 0; i < poly.size(); ++i) {
    if (dist_to_segment(p, poly[i], poly[(i + 1) % poly.size()]) < r - eps) return false;
  }
  return true;
}

TEST(Physics, DiffDriveReachesMaxSpeedAfterSpeedOverAcceleration) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(-15, 0));
  const double vmax = cfg.league().robot().max_speed();
  const double ramp = vmax / cfg.league().robot().max_acceleration();  // 2 s
  drive(w, msg::BLUE, 0, wheels(vmax, vmax), ramp - 0.002);
  auto t = w.truth(0);
  EXPECT_LT(robot_truth(t, msg::BLUE, 0).wheel_left(), vmax);
  drive(w, msg::BLUE, 0, wheels(vmax, vmax), 0.003);
  t = w.truth(0);
  EXPECT_DOUBLE_EQ(robot_truth(t, msg::BLUE, 0).wheel_left(), vmax);
  EXPECT_DOUBLE_EQ(robot_truth(t, msg::BLUE, 0).wheel_right(), vmax);
  // A linear ramp from rest covers a t^2 / 2 (then full speed for 1 ms).
  const double expected = -15 + 0.5 * ramp * vmax + vmax * 0.001;
  EXPECT_NEAR(robot_truth(t, msg::BLUE, 0).pose().x(), expected, 1e-3);
  EXPECT_NEAR(robot_truth(t, msg::BLUE, 0).velocity().x(), vmax, 1e-9);
}

TEST(Physics, WheelsBrakeWithDecelerationLimit) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(-15, 0));
  drive(w, msg::BLUE, 0, wheels(2, 2), 2.1);
  // 2 m/s at 3 m/s^2 brakes in 2/3 s, not the 2 s it took to speed up.
  drive(w, msg::BLUE, 0, wheels(0, 0), 0.6);
  EXPECT_NEAR(robot_truth(w.truth(0), msg::BLUE, 0).wheel_left(), 2.0 - 0.6 * 3.0, 1e-9);
  drive(w, msg::BLUE, 0, wheels(0, 0), 0.07);
  EXPECT_EQ(robot_truth(w.truth(0), msg::BLUE, 0).wheel_left(), 0.0);
}

TEST(Physics, StraightDriveHasNoDrift) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  const double th = 0.3;
  w.add_robot(msg::BLUE, 0, pose(-10, -5, th));
  drive(w, msg::BLUE, 0, wheels(1.5, 1.5), 8.0);
  const auto p = w.robot_pose(msg::BLUE, 0);
  EXPECT_EQ(p.theta(), th);
  // Perpendicular offset from the start line.
  const double lateral = -(p.x() + 10) * std::sin(th) + (p.y() + 5) * std::cos(th);
  EXPECT_NEAR(lateral, 0.0, 1e-12);
  const double along = (p.x() + 10) * std::cos(th) + (p.y() + 5) * std::sin(th);
  EXPECT_NEAR(along, 0.5 * 1.5 * 1.5 + 1.5 * 6.5, 1e-6);
}

TEST(Physics, ConstantWheelSpeedsDriveAnExactCircle) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0, 0));
  const double l = 0.4, r = 0.8, b = cfg.league().robot().wheel_base();
  drive(w, msg::BLUE, 0, wheels(l, r), 1.0);  // past the ramp
  const double v = (l + r) / 2, om = (r - l) / b, rad = v / om;
  auto p = w.robot_pose(msg::BLUE, 0);
  const Vector2d centre(p.x() - rad * std::sin(p.theta()), p.y() + rad * std::cos(p.theta()));
  double th_prev = p.theta();
  for (int i = 0; i < 20000; ++i) {
    if (i % 50 == 0) w.set_command(msg::BLUE, 0, wheels(l, r), w.time());
    w.step(0.001);
    p = w.robot_pose(msg::BLUE, 0);
    ASSERT_NEAR((Vector2d(p.x(), p.y()) - centre).norm(), rad, 1e-9) << "step " << i;
    ASSERT_NEAR(std::remainder(p.theta() - th_prev - om * 0.001, 2 * M_PI), 0.0, 1e-12);
    th_prev = p.theta();
  }
}

TEST(Physics, MotorWatchdogBrakesAStaleRobot) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0));
  ASSERT_TRUE(w.set_command(msg::BLUE, 0, wheels(1, 1), 0.0));
  w.run_for(0.15);  // within motor_timeout (0.2 s): still speeding up
  EXPECT_NEAR(w.robot_velocity(msg::BLUE, 0).x(), 0.15, 1e-9);
  w.run_for(0.1);
  EXPECT_LT(w.robot_velocity(msg::BLUE, 0).x(), 0.2);
  w.run_for(0.2);
  EXPECT_EQ(w.robot_velocity(msg::BLUE, 0).x(), 0.0);
}

TEST(Physics, OmniRampsTheBodyVelocityVector) {
  msg::SimConfig sim = mirosot().sim();
  Physics w(ssl_like(), sim);
  w.add_robot(msg::BLUE, 1, pose(0, 2, M_PI / 2));
  // Sideways in the robot frame = -x in the field frame for a robot facing +y.
  drive(w, msg::BLUE, 1, body(0, 2.0, 0), 0.5);
  const Vector2d v = w.robot_velocity(msg::BLUE, 1);
  EXPECT_NEAR(v.x(), -1.5, 1e-9);  // 3 m/s^2 for 0.5 s
  EXPECT_NEAR(v.y(), 0.0, 1e-9);
  const auto p = w.robot_pose(msg::BLUE, 1);
  EXPECT_NEAR(p.x(), -0.5 * 3.0 * 0.25, 1e-9);
  EXPECT_NEAR(p.theta(), M_PI / 2, 1e-12);
  // Commanded faster than max_speed: clamped.
  drive(w, msg::BLUE, 1, body(0, 10.0, 0), 1.0);
  EXPECT_NEAR(w.robot_velocity(msg::BLUE, 1).norm(), 3.0, 1e-9);
}

// A world started from another's truth, with the motion it reported, goes on
// exactly as the first one does (a kick-off drill from a game log).
TEST(Physics, ARobotSetMovingAsItsTruthSaidGoesOnAsTheOriginal) {
  const auto cfg = mirosot();
  for (const auto& league : {big_field(), ssl_like()}) {
    const bool omni = league.robot().drive() == msg::DRIVE_OMNI;
    const msg::RobotCommand turning = omni ? body(0.8, 0.6, 1.5) : wheels(0.9, 1.3);
    const msg::RobotCommand braking = omni ? body(0.0, 0.0, 0.0) : wheels(0.0, 0.0);
    Physics original(league, cfg.sim());
    original.add_robot(msg::BLUE, 1, pose(-1, 0.5, 0.3));
    drive(original, msg::BLUE, 1, turning, 1.0);
    const msg::RobotTruth logged = robot_truth(original.truth(0), msg::BLUE, 1);
    ASSERT_GT(std::hypot(logged.velocity().x(), logged.velocity().y()), 0.5);

    Physics resumed(league, cfg.sim()), at_rest(league, cfg.sim());
    for (Physics* w : {&resumed, &at_rest}) w->add_robot(msg::BLUE, 1, logged.pose());
    ASSERT_TRUE(resumed.set_robot_motion(logged));
    const msg::RobotTruth now = robot_truth(resumed.truth(0), msg::BLUE, 1);
    EXPECT_NEAR(now.velocity().x(), logged.velocity().x(), 1e-9) << league.name();
    EXPECT_NEAR(now.velocity().y(), logged.velocity().y(), 1e-9) << league.name();
    EXPECT_NEAR(now.omega(), logged.omega(), 1e-9) << league.name();
    for (Physics* w : {&original, &resumed, &at_rest}) drive(*w, msg::BLUE, 1, braking, 0.5);
    const auto a = original.robot_pose(msg::BLUE, 1), b = resumed.robot_pose(msg::BLUE, 1),
               c = at_rest.robot_pose(msg::BLUE, 1);
    EXPECT_NEAR(b.x(), a.x(), 1e-6) << league.name();
    EXPECT_NEAR(b.y(), a.y(), 1e-6) << league.name();
    EXPECT_NEAR(b.theta(), a.theta(), 1e-6) << league.name();
    // Started at rest it would not have rolled on while braking.
    EXPECT_GT(std::hypot(c.x() - a.x(), c.y() - a.y()), 0.05) << league.name();
  }
}

TEST(Physics, SettingARobotMovingRefusesNumbersThatAreNot) {
  Physics w(big_field(), mirosot().sim());
  w.add_robot(msg::BLUE, 1, pose(0, 0));
  msg::RobotTruth logged;
  logged.set_team(msg::BLUE);
  logged.set_robot_id(1);
  logged.set_wheel_left(std::nan(""));
  logged.set_wheel_right(1.0);
  EXPECT_FALSE(w.set_robot_motion(logged));
  EXPECT_EQ(w.robot_velocity(msg::BLUE, 1), Vector2d::Zero());
  logged.set_robot_id(7);
  EXPECT_THROW(w.set_robot_motion(logged), std::out_of_range);
}

TEST(Physics, BallRollsWithConstantDecelerationAndStops) {
  msg::LeaguePreset l = big_field(60);
  l.mutable_ball()->set_rolling_deceleration(0.1);
  Physics w(l, mirosot().sim());
  w.place_ball({-20, 0}, {1.5, 0});
  double t_stop = -1;
  double prev_x = -20;
  for (int i = 0; i < 20000; ++i) {
    w.step(0.001);
    ASSERT_GE(w.ball_velocity().x(), 0.0);  // never reverses
    ASSERT_GE(w.ball_position().x(), prev_x);
    prev_x = w.ball_position().x();
    if (t_stop < 0 && w.ball_velocity().x() == 0.0) t_stop = w.time();
  }
  EXPECT_NEAR(w.ball_position().x() + 20, 11.25, 11.25 * 0.01);
  EXPECT_NEAR(t_stop, 15.0, 15.0 * 0.01);
  EXPECT_EQ(w.ball_position().y(), 0.0);
}

TEST(Physics, WallBounceUsesRestitution) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.place_ball({0, 0.5}, {0, 2.0});
  w.run_for(0.4);  // reaches the wall at y = 0.9 - r after ~0.19 s
  const double e = cfg.league().ball().wall_restitution();
  EXPECT_LT(w.ball_velocity().y(), 0.0);
  EXPECT_NEAR(w.ball_velocity().norm(), e * 2.0, 0.12 * 0.4 * 2);
  EXPECT_EQ(w.ball_velocity().x(), 0.0);
  EXPECT_TRUE(inside_walled_arena(cfg.league().field(), w.ball_position(),
                                  cfg.league().ball().radius()));
}

TEST(Physics, BouncesNeverGainEnergy) {
  const auto cfg = mirosot();
  const auto& f = cfg.league().field();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> ux(-1.0, 1.0), ang(-M_PI, M_PI), sp(0.5, 10.0);
  for (int trial = 0; trial < 300; ++trial) {
    Physics w(cfg.league(), cfg.sim());
    // Still robots: every contact is a bounce off something at rest.
    for (std::uint32_t i = 0; i < 4; ++i) w.add_robot(msg::BLUE, i, pose(ux(rng) * 0.9, ux(rng) * 0.7));
    Vector2d p;
    const auto keys = w.robot_keys();
    do {
      p = {ux(rng) * f.length() / 2, ux(rng) * f.width() / 2};
    } while (!inside_walled_arena(f, p, 0.03) ||
             std::any_of(keys.begin(), keys.end(), [&](const RobotKey& k) {
               const auto q = w.robot_pose(k.team, k.id);
               return (Vector2d(q.x(), q.y()) - p).norm() < 0.07;
             }));
    const double a = ang(rng);
    w.place_ball(p, sp(rng) * Vector2d(std::cos(a), std::sin(a)));
    double prev = w.ball_velocity().squaredNorm();
    for (int i = 0; i < 3000; ++i) {
      w.step(0.001);
      const double ke = w.ball_velocity().squaredNorm();
      ASSERT_LE(ke, prev * (1 + 1e-12) + 1e-18) << "trial " << trial << " step " << i;
      prev = ke;
    }
  }
}

TEST(Physics, BallNeverEndsInsideARobotOrAWall) {
  const auto cfg = mirosot();
  const auto& f = cfg.league().field();
  const double rr = cfg.league().robot().radius(), rb = cfg.league().ball().radius();
  const double l2 = f.length() / 2, w2 = f.width() / 2, g2 = f.goal_width() / 2;
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
  int robot_hits = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    Physics w(cfg.league(), cfg.sim());
    const int n_robots = 1 + trial % 2;
    for (int i = 0; i < n_robots; ++i) {
      w.add_robot(msg::YELLOW, static_cast<std::uint32_t>(i),
                  pose(u(rng) * (l2 - rr), u(rng) * (w2 - rr), u(rng) * M_PI));
      w.set_command(msg::YELLOW, static_cast<std::uint32_t>(i), wheels(2 * u(rng), 2 * u(rng)), 0);
    }
    w.run_for(0.15);  // robots get moving (and separated if they overlapped)
    // Target: the first robot, a wall point, or a post.
    Vector2d target;
    const int mode = trial % 3;
    if (mode == 0) {
      const auto q = w.robot_pose(msg::YELLOW, 0);
      target = {q.x(), q.y()};
    } else if (mode == 1) {
      const double s = u01(rng);
      target = s < 0.5 ? Vector2d(u(rng) * l2, (s < 0.25 ? 1 : -1) * w2)
                       : Vector2d((s < 0.75 ? 1 : -1) * (l2 + (u01(rng) < 0.3 ? f.goal_depth() : 0)),
                                  u(rng) * w2);
    } else {
      target = {(u01(rng) < 0.5 ? 1 : -1) * l2, (u01(rng) < 0.5 ? 1 : -1) * g2};
    }
    Vector2d start;
    bool free = false;
    for (int tries = 0; tries < 100 && !free; ++tries) {
      start = target + (0.1 + 0.5 * u01(rng)) * Vector2d(u(rng), u(rng)).normalized();
      free = inside_walled_arena(f, start, rb + 1e-6);
      for (const RobotKey& k : w.robot_keys()) {
        const auto q = w.robot_pose(k.team, k.id);
        if ((Vector2d(q.x(), q.y()) - start).norm() < rr + rb + 0.02) free = false;
      }
    }
    if (!free) continue;
    const double speed = trial % 5 == 0 ? 10.0 : 8.0;
    Vector2d dir = (target - start).normalized();
    dir = Eigen::Rotation2Dd(0.05 * u(rng)) * dir;
    w.place_ball(start, speed * dir);
    for (int i = 0; i < 120; ++i) {
      w.step(0.001);
      const Vector2d b = w.ball_position();
      ASSERT_TRUE(inside_walled_arena(f, b, rb)) << "trial " << trial << " step " << i << " ball " << b.transpose();
      for (const RobotKey& k : w.robot_keys()) {
        const auto q = w.robot_pose(k.team, k.id);
        const double d = (Vector2d(q.x(), q.y()) - b).norm();
        ASSERT_GE(d, rr + rb - kOverlapTolerance) << "trial " << trial << " step " << i;
        ASSERT_TRUE(inside_walled_arena(f, {q.x(), q.y()}, rr)) << "trial " << trial;
      }
    }
    if (w.last_touch().valid) ++robot_hits;
  }
  EXPECT_GT(robot_hits, 2000);  // the robot trials really hit robots
}

TEST(Physics, FastBallDoesNotTunnelThroughThinGoalWalls) {
  msg::SimConfig sim = mirosot().sim();
  Physics w(ssl_like(), sim);
  // Behind the +x goal, shot at its back wall (x = 4.68) at 10 m/s.
  w.place_ball({4.75, 0.2}, {-10.0, 0.0});
  w.run_for(0.006);
  EXPECT_GT(w.ball_position().x(), 4.68 + 0.0215 - 1e-9);
  EXPECT_GT(w.ball_velocity().x(), 0.0);
  // From inside the goal out through its side wall.
  w.place_ball({4.6, 0.0}, {0.0, 10.0});
  w.run_for(0.1);
  EXPECT_LT(w.ball_position().y(), 0.5 - 0.0215 + 1e-9);
}

TEST(Physics, OpenFieldBoundaryStopsTheBall) {
  msg::SimConfig sim = mirosot().sim();
  Physics w(ssl_like(), sim);
  w.place_ball({0, 2.5}, {0, 4.0});
  w.run_for(0.5);
  EXPECT_EQ(w.ball_velocity().norm(), 0.0);
  EXPECT_NEAR(w.ball_position().y(), 3.3 - 0.0215, 1e-9);
}

TEST(Physics, RobotPushingTheBallSendsItForward) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::YELLOW, 3, pose(-5, 0, 0));
  drive(w, msg::YELLOW, 3, wheels(1, 1), 1.05);  // at 1 m/s after 1 s
  const double x = w.robot_pose(msg::YELLOW, 3).x();
  w.place_ball({x + 0.2, 0.0});
  drive(w, msg::YELLOW, 3, wheels(1, 1), 0.3);
  const double e = cfg.league().ball().robot_restitution();
  EXPECT_NEAR(w.ball_velocity().x(), (1 + e) * 1.0, 0.02);
  EXPECT_NEAR(w.ball_velocity().y(), 0.0, 1e-12);
  EXPECT_GT(w.ball_position().x(), w.robot_pose(msg::YELLOW, 3).x());
  ASSERT_TRUE(w.last_touch().valid);
  EXPECT_EQ(w.last_touch().team, msg::YELLOW);
  EXPECT_EQ(w.last_touch().robot_id, 3u);
  EXPECT_NEAR(w.last_touch().t, 1.05 + (0.2 - 0.0375 - 0.02135) / 1.0, 0.002);
  EXPECT_TRUE(w.touched_since(1.1));
  EXPECT_FALSE(w.touched_since(w.time() + 0.1));
}

TEST(Physics, PushTowardsGoalCountsAsAShot) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::BLUE, 1, pose(0.0, 0.0, 0));
  w.place_ball({0.3, 0.0});
  drive(w, msg::BLUE, 1, wheels(1.5, 1.5), 1.0);
  EXPECT_EQ(w.shot_count(), 1u);
  EXPECT_EQ(w.last_shot().goal_side, 1);
  EXPECT_EQ(w.last_shot().team, msg::BLUE);
  EXPECT_EQ(w.last_shot().robot_id, 1u);
  EXPECT_GT(w.last_shot().speed, 0.9);
}

TEST(Physics, BallPinnedAgainstAWallStopsTheRobot) {
  const auto cfg = mirosot();
  const double rr = cfg.league().robot().radius(), rb = cfg.league().ball().radius();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(0.0, 0.5, M_PI / 2));
  w.place_ball({0.0, 0.7});
  double max_ball_speed = 0;
  for (int i = 0; i < 3000; ++i) {
    if (i % 50 == 0) w.set_command(msg::BLUE, 0, wheels(1.0, 1.0), w.time());
    w.step(0.001);
    const auto q = w.robot_pose(msg::BLUE, 0);
    ASSERT_GE((Vector2d(q.x(), q.y()) - w.ball_position()).norm(), rr + rb - kOverlapTolerance) << i;
    ASSERT_TRUE(inside_walled_arena(cfg.league().field(), w.ball_position(), rb)) << i;
    if (i == 1500) {
      // Squeezing the ball against the wall at y = 0.9: robot stopped, ball still.
      EXPECT_NEAR(q.y(), 0.9 - 2 * rb - rr, 2e-6);  // contacts keep a 1 um skin
      EXPECT_LT(w.ball_velocity().norm(), 1e-3);
      EXPECT_NEAR(w.robot_velocity(msg::BLUE, 0).y(), 0.0, 1e-6);
    }
    max_ball_speed = std::max(max_ball_speed, w.ball_velocity().norm());
  }
  // The wheels push at 1 m/s: whatever squeezes out cannot be much faster.
  EXPECT_LT(max_ball_speed, 2.5);
}

TEST(Physics, BallSqueezedBetweenTwoRobotsStopsBoth) {
  const auto cfg = mirosot();
  const double rr = cfg.league().robot().radius(), rb = cfg.league().ball().radius();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(-0.5, 0, 0));
  w.add_robot(msg::YELLOW, 0, pose(0.5, 0, M_PI));
  w.place_ball({0, 0});
  for (int i = 0; i < 1500; ++i) {
    if (i % 50 == 0) {
      w.set_command(msg::BLUE, 0, wheels(1, 1), w.time());
      w.set_command(msg::YELLOW, 0, wheels(1, 1), w.time());
    }
    w.step(0.001);
    ASSERT_LT(w.ball_velocity().norm(), 2.0) << i;
  }
  EXPECT_NEAR(w.robot_pose(msg::BLUE, 0).x(), -(rr + rb), 2e-6);
  EXPECT_NEAR(w.robot_pose(msg::YELLOW, 0).x(), rr + rb, 2e-6);
}

TEST(Physics, RobotsNeverOverlapOrLeaveTheArena) {
  const auto cfg = mirosot();
  const auto& f = cfg.league().field();
  const double rr = cfg.league().robot().radius(), rb = cfg.league().ball().radius();
  Physics w(cfg.league(), cfg.sim());
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::uint32_t i = 0; i < 5; ++i) {
    w.add_robot(msg::BLUE, i, pose(-0.2 - 0.15 * i, 0.3 * u(rng), 0));
    w.add_robot(msg::YELLOW, i, pose(0.2 + 0.15 * i, 0.3 * u(rng), M_PI));
  }
  w.place_ball({0, 0});
  const auto keys = w.robot_keys();
  for (int step = 0; step < 30000; ++step) {
    if (step % 200 == 0) {
      for (const RobotKey& k : keys) {
        // Mostly charge at the centre, sometimes turn: many collisions.
        const double base = 2.0 * u(rng);
        w.set_command(k.team, k.id, wheels(base + 0.5 * u(rng), base + 0.5 * u(rng)), w.time());
      }
    }
    w.step(0.001);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const auto a = w.robot_pose(keys[i].team, keys[i].id);
      const Vector2d pa(a.x(), a.y());
      ASSERT_TRUE(inside_walled_arena(f, pa, rr)) << "step " << step;
      ASSERT_GE((pa - w.ball_position()).norm(), rr + rb - kOverlapTolerance) << "step " << step;
      for (std::size_t j = i + 1; j < keys.size(); ++j) {
        const auto b = w.robot_pose(keys[j].team, keys[j].id);
        ASSERT_GE((pa - Vector2d(b.x(), b.y())).norm(), 2 * rr - kOverlapTolerance) << "step " << step;
      }
    }
    ASSERT_TRUE(inside_walled_arena(f, w.ball_position(), rb)) << "step " << step;
  }
}

TEST(Physics, ScrumOfTenRobotsChasingTheBallStaysPhysical) {
  // Every robot drives at the ball all the time: pushing, wedging, corner
  // jams, balls squeezed between robots and walls.
  const auto cfg = mirosot();
  const auto& f = cfg.league().field();
  const double rr = cfg.league().robot().radius(), rb = cfg.league().ball().radius();
  Physics w(cfg.league(), cfg.sim());
  for (std::uint32_t i = 0; i < 5; ++i) {
    w.add_robot(msg::BLUE, i, pose(-0.2 - 0.15 * i, 0.1 * i - 0.2, 0));
    w.add_robot(msg::YELLOW, i, pose(0.2 + 0.15 * i, 0.1 * i - 0.2, M_PI));
  }
  w.place_ball({0, 0}, {0.5, 0.3});
  const auto keys = w.robot_keys();
  double max_ball_speed = 0;
  for (int step = 0; step < 60000; ++step) {
    if (step % 20 == 0) {
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto p = w.robot_pose(keys[i].team, keys[i].id);
        const Vector2d d = w.ball_position() - Vector2d(p.x(), p.y());
        const double err = std::remainder(std::atan2(d.y(), d.x()) - p.theta(), 2 * M_PI);
        double v = 1.5 * std::cos(err);
        if (std::abs(err) > 1.2) v = i % 2 ? 0.2 : -0.2;
        w.set_command(keys[i].team, keys[i].id, wheels(v - 0.2 * err, v + 0.2 * err), w.time());
      }
    }
    w.step(0.001);
    if (w.take_goal_crossing() != 0) {
      // A teleport may land on a robot; it is settled before the next step
      // moves anything, so the checks below wait for that step.
      w.place_ball({0, 0});
      continue;
    }
    max_ball_speed = std::max(max_ball_speed, w.ball_velocity().norm());
    const Vector2d b = w.ball_position();
    ASSERT_TRUE(inside_walled_arena(f, b, rb)) << "step " << step;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const auto pa = w.robot_pose(keys[i].team, keys[i].id);
      const Vector2d a(pa.x(), pa.y());
      ASSERT_GE((a - b).norm(), rr + rb - kOverlapTolerance) << "step " << step;
      ASSERT_TRUE(inside_walled_arena(f, a, rr)) << "step " << step;
      for (std::size_t j = i + 1; j < keys.size(); ++j) {
        const auto pb = w.robot_pose(keys[j].team, keys[j].id);
        ASSERT_GE((a - Vector2d(pb.x(), pb.y())).norm(), 2 * rr - kOverlapTolerance) << "step " << step;
      }
    }
  }
  // Robots at 1.5 m/s give a ball at most a few m/s, however they squeeze it.
  EXPECT_LT(max_ball_speed, 5.0);
  EXPECT_TRUE(w.last_touch().valid);
}

TEST(Physics, CollidingRobotsStopAlongTheNormal) {
  const auto cfg = mirosot();
  Physics w(big_field(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(-0.5, 0, 0));
  w.add_robot(msg::YELLOW, 0, pose(0.5, 0, M_PI));
  w.place_ball({0, 5});  // out of the way
  for (int i = 0; i < 1500; ++i) {
    if (i % 50 == 0) {
      w.set_command(msg::BLUE, 0, wheels(1, 1), w.time());
      w.set_command(msg::YELLOW, 0, wheels(1, 1), w.time());
    }
    w.step(0.001);
  }
  const auto a = w.robot_pose(msg::BLUE, 0), b = w.robot_pose(msg::YELLOW, 0);
  EXPECT_NEAR(b.x() - a.x(), 2 * 0.0375, 2e-6);
  EXPECT_NEAR(a.x(), -0.0375, 2e-6);  // symmetric
  EXPECT_LT(w.robot_velocity(msg::BLUE, 0).x(), 0.002);
  EXPECT_GT(w.robot_velocity(msg::YELLOW, 0).x(), -0.002);
}

TEST(Physics, KickerFiresOnceWithTheBallInTheMouth) {
  msg::SimConfig sim = mirosot().sim();
  Physics w(ssl_like(), sim);
  w.add_robot(msg::BLUE, 2, pose(0, 0, 0));
  w.place_ball({0.09 + 0.0215 + 0.002, 0.0});
  msg::RobotCommand c = body(0, 0, 0);
  c.set_kick_speed(4.0);
  ASSERT_TRUE(w.set_command(msg::BLUE, 2, c, 0.0));
  w.step(0.001);
  EXPECT_NEAR(w.ball_velocity().x(), 4.0 - 0.3 * 0.001, 1e-9);
  EXPECT_EQ(w.last_touch().robot_id, 2u);
  // Ball put back: the kick was spent, nothing happens.
  w.place_ball({0.09 + 0.0215 + 0.002, 0.0});
  w.step(0.001);
  EXPECT_EQ(w.ball_velocity().norm(), 0.0);
  // Kick speed is capped at the robot's kicker.
  c.set_kick_speed(100.0);
  w.set_command(msg::BLUE, 2, c, w.time());
  w.step(0.001);
  EXPECT_NEAR(w.ball_velocity().x(), 6.5, 1e-3);
}

TEST(Physics, MiroSotHasNoKicker) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0, 0));
  w.place_ball({0.0375 + 0.02135 + 0.001, 0.0});
  msg::RobotCommand c = wheels(0, 0);
  c.set_kick_speed(3.0);
  w.set_command(msg::BLUE, 0, c, 0.0);
  w.run_for(0.01);
  EXPECT_EQ(w.ball_velocity().norm(), 0.0);
}

TEST(Physics, DribblerHoldsTheBallWhileTurningAndDriving) {
  msg::SimConfig sim = mirosot().sim();
  Physics w(ssl_like(), sim);
  w.add_robot(msg::BLUE, 0, pose(0, 0, 0));
  w.place_ball({0.09 + 0.0215 + 0.003, 0.0});
  msg::RobotCommand c = body(0.8, 0, 2.0);
  c.set_dribble(true);
  for (int i = 0; i < 2000; ++i) {
    if (i % 50 == 0) w.set_command(msg::BLUE, 0, c, w.time());
    w.step(0.001);
    const auto p = w.robot_pose(msg::BLUE, 0);
    const Vector2d rel = w.ball_position() - Vector2d(p.x(), p.y());
    ASSERT_TRUE(w.ball_held()) << i;
    ASSERT_NEAR(rel.norm(), 0.09 + 0.0215, 1e-5);
    ASSERT_GT(rel.dot(Vector2d(std::cos(p.theta()), std::sin(p.theta()))), 0.1);
  }
  EXPECT_TRUE(w.touched_since(w.time() - 0.002));
  // Dribbler off: the ball is released and rolls away from the moving robot.
  c.set_dribble(false);
  w.set_command(msg::BLUE, 0, c, w.time());
  w.step(0.001);
  EXPECT_FALSE(w.ball_held());
}

TEST(Physics, OdometryIgnoresCollisionsButMatchesFreeMotion) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::BLUE, 4, pose(0.0, 0.0, 0.7));
  drive(w, msg::BLUE, 4, wheels(0.3, 0.5), 0.5);
  auto o = w.odometry(msg::BLUE, 4);
  auto p = w.robot_pose(msg::BLUE, 4);
  EXPECT_NEAR(o.pose().x(), p.x(), 1e-12);
  EXPECT_NEAR(o.pose().y(), p.y(), 1e-12);
  EXPECT_NEAR(o.pose().theta(), p.theta(), 1e-12);
  EXPECT_EQ(o.wheels().left(), robot_truth(w.truth(0), msg::BLUE, 4).wheel_left());
  // Into the wall at x = 1.1: truth stops there, odometry keeps counting.
  // Odometry does not see the hand that carries the robot, only its wheels.
  w.place_robot(msg::BLUE, 4, pose(0.9, -0.5, 0));
  const auto o0 = w.odometry(msg::BLUE, 4);
  EXPECT_EQ(o0.pose().x(), o.pose().x());
  drive(w, msg::BLUE, 4, wheels(1, 1), 1.0);
  p = w.robot_pose(msg::BLUE, 4);
  o = w.odometry(msg::BLUE, 4);
  EXPECT_NEAR(p.x(), 1.1 - 0.0375, 1e-9);
  const double odo_travel = std::hypot(o.pose().x() - o0.pose().x(), o.pose().y() - o0.pose().y());
  EXPECT_GT(odo_travel, 0.3);  // the wheels turned on against the wall
  // The bumper feels the wall ahead (robot frame: straight forward).
  ASSERT_EQ(o.bumper_size(), 1);
  EXPECT_NEAR(o.bumper(0).x(), 1.0, 1e-9);
  EXPECT_NEAR(o.bumper(0).y(), 0.0, 1e-9);
}

TEST(Physics, BumperFeelsTouchingRobotsInTheRobotFrame) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  const double r = cfg.league().robot().radius();
  w.add_robot(msg::BLUE, 1, pose(0.0, 0.0, M_PI / 2));       // facing +y
  w.add_robot(msg::YELLOW, 1, pose(0.0, 2.0 * r, 0.0));      // touching its front
  w.add_robot(msg::YELLOW, 2, pose(0.5, 0.0, 0.0));          // well clear
  const auto o = w.odometry(msg::BLUE, 1);
  ASSERT_EQ(o.bumper_size(), 1);
  EXPECT_NEAR(o.bumper(0).x(), 1.0, 1e-9);
  EXPECT_NEAR(o.bumper(0).y(), 0.0, 1e-9);
  EXPECT_EQ(w.odometry(msg::YELLOW, 2).bumper_size(), 0);
}

TEST(Physics, GoalCrossingIsLatchedUntilTaken) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.place_ball({0.9, 0.05}, {3.0, 0.0});
  EXPECT_EQ(w.ball_in_goal(), 0);
  w.run_for(0.2);  // in, off the back wall, and out again
  EXPECT_EQ(w.take_goal_crossing(), 1);
  EXPECT_EQ(w.take_goal_crossing(), 0);
  // Into the -x goal, and staying there.
  w.place_ball({-1.0, 0.0}, {-3.0, 0.0});
  w.run_for(0.06);
  EXPECT_EQ(w.ball_in_goal(), -1);
  EXPECT_EQ(w.take_goal_crossing(), -1);
}

TEST(Physics, TruthListsRobotsSortedByTeamThenId) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::YELLOW, 2, pose(0.5, 0.5));
  w.add_robot(msg::BLUE, 3, pose(-0.5, 0.5));
  w.add_robot(msg::YELLOW, 0, pose(0.5, -0.5));
  w.add_robot(msg::BLUE, 1, pose(-0.5, -0.5));
  w.place_ball({0.1, 0.2}, {0.5, 0});
  const auto t = w.truth(42);
  EXPECT_EQ(t.cycle(), 42u);
  ASSERT_EQ(t.robots_size(), 4);
  EXPECT_EQ(t.robots(0).team(), msg::BLUE);
  EXPECT_EQ(t.robots(0).robot_id(), 1u);
  EXPECT_EQ(t.robots(1).robot_id(), 3u);
  EXPECT_EQ(t.robots(2).team(), msg::YELLOW);
  EXPECT_EQ(t.robots(2).robot_id(), 0u);
  EXPECT_EQ(t.robots(3).robot_id(), 2u);
  EXPECT_DOUBLE_EQ(t.ball_position().y(), 0.2);
  EXPECT_DOUBLE_EQ(t.ball_velocity().x(), 0.5);
  EXPECT_THROW(w.add_robot(msg::BLUE, 3, pose(0, 0)), std::invalid_argument);
  EXPECT_THROW(w.place_robot(msg::BLUE, 9, pose(0, 0)), std::out_of_range);
  EXPECT_FALSE(w.set_command(msg::BLUE, 9, wheels(1, 1), 0.0));
}

TEST(Physics, RejectsNonFiniteCommands) {
  const auto cfg = mirosot();
  Physics w(cfg.league(), cfg.sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0));
  EXPECT_FALSE(w.set_command(msg::BLUE, 0, wheels(NAN, 1), 0.0));
  EXPECT_FALSE(w.set_command(msg::BLUE, 0, body(INFINITY, 0, 0), 0.0));
  w.run_for(0.1);
  EXPECT_EQ(w.robot_velocity(msg::BLUE, 0).norm(), 0.0);
}

TEST(Physics, IdenticalInputsGiveIdenticalWorlds) {
  const auto cfg = mirosot();
  auto run = [&] {
    Physics w(cfg.league(), cfg.sim());
    for (std::uint32_t i = 0; i < 5; ++i) {
      w.add_robot(msg::BLUE, i, pose(-0.3 - 0.1 * i, 0.1 * i, 0));
      w.add_robot(msg::YELLOW, i, pose(0.3 + 0.1 * i, -0.1 * i, M_PI));
    }
    w.place_ball({0, 0}, {0.3, 0.7});
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-2, 2);
    for (int s = 0; s < 5000; ++s) {
      if (s % 20 == 0)
        for (const RobotKey& k : w.robot_keys()) w.set_command(k.team, k.id, wheels(u(rng), u(rng)), w.time());
      w.step(0.001);
    }
    return w.truth(1).SerializeAsString();
  };
  EXPECT_EQ(run(), run());
}

TEST(Physics, RejectsUnplayableConfig) {
  auto cfg = mirosot();
  cfg.mutable_league()->mutable_robot()->set_radius(0);
  try {
    Physics w(cfg.league(), cfg.sim());
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("robot.radius"), std::string::npos) << e.what();
  }
  cfg = mirosot();
  cfg.mutable_sim()->set_physics_step(-1);
  EXPECT_THROW({ Physics p(cfg.league(), cfg.sim()); }, std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::sim
