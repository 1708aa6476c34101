// The physics' motor, ball and robot-error models against closed-form answers
// (Clockwork Orange, MI20). Every tolerance below comes from the analytic
// result it checks, so a model that drifts from its paper fails.
#include "tests/unit/sim/sim_test_helpers.hpp"
#include "sim/physics.hpp"

#include <gtest/gtest.h>

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

constexpr double kG = 9.81;           // the physics' gravity
constexpr double kRho = 1.29;         // the physics' air density
constexpr double kDragMinSpeed = 0.1; // drag acts above this ball speed
constexpr double kDt = 0.001;

msg::MatchConfig base() { return runtime::default_match_config(); }

// An MSL-like preset: 18 x 12 open field with a 1 m boundary, Clockwork
// Orange's robots and ball, every error model off (tests turn them on).
msg::LeaguePreset msl_like() {
  msg::LeaguePreset l = base().league();
  l.set_name("msl");
  auto* f = l.mutable_field();
  f->set_length(18.0);
  f->set_width(12.0);
  f->set_goal_width(2.0);
  f->set_goal_depth(0.5);
  f->set_boundary_width(1.0);
  f->set_center_circle_radius(2.0);
  f->set_walls(false);
  auto* r = l.mutable_robot();
  r->set_drive(msg::DRIVE_DIFFERENTIAL);
  r->set_radius(0.25);
  r->set_wheel_base(0.4);
  r->set_max_speed(2.0);
  r->set_max_acceleration(2.0);
  r->set_max_deceleration(3.0);
  r->set_max_omega(6.0);
  r->set_kick_speed(6.0);
  r->set_mouth_width(0.3);
  r->set_motor_model(msg::MOTOR_IDEAL);
  r->set_slip(0.0);
  r->set_side_bias(0.0);
  r->set_heading_noise(0.0);
  r->set_mouth_captures(false);
  r->set_mouth_side_turn(0.0);
  r->set_mass(30.0);
  r->set_drag_coefficient(0.0);
  r->set_frontal_area(0.0);
  auto* b = l.mutable_ball();
  b->set_radius(0.11);
  b->set_rolling_deceleration(0.1);
  b->set_rolling_resistance(0.0);
  b->set_wall_restitution(0.0);
  b->set_robot_restitution(0.5);
  b->set_mass(0.43);
  b->set_drag_coefficient(0.0);
  return l;
}

// MiroSot robots on a field big enough to never reach a wall.
msg::LeaguePreset big_field(msg::MotorModel model) {
  msg::LeaguePreset l = base().league();
  l.mutable_field()->set_length(40.0);
  l.mutable_field()->set_width(40.0);
  l.mutable_robot()->set_motor_model(model);
  return l;
}

Vector2d rot(double th, const Vector2d& v) {
  return {std::cos(th) * v.x() - std::sin(th) * v.y(), std::sin(th) * v.x() + std::cos(th) * v.y()};
}

Vector2d position(const Physics& w, msg::Team team = msg::BLUE, std::uint32_t id = 0) {
  const auto p = w.robot_pose(team, id);
  return {p.x(), p.y()};
}

struct Wheels {
  double left, right;
};
Wheels wheel_speeds(const Physics& w) {
  const auto t = w.truth(0);
  return {t.robots(0).wheel_left(), t.robots(0).wheel_right()};
}

// One physics step of robot BLUE 0 under `c`, re-sent every 50 ms as a motor
// actor would (the watchdog stays quiet). `i` counts the steps of the drive.
void step_with(Physics& w, const msg::RobotCommand& c, long i) {
  if (i % 50 == 0) w.set_command(msg::BLUE, 0, c, w.time());
  w.step(kDt);
}

void drive(Physics& w, const msg::RobotCommand& c, double seconds) {
  const long n = std::lround(seconds / kDt);
  for (long i = 0; i < n; ++i) step_with(w, c, i);
}

// Straight drive whose wheels travel exactly 7 m: with max_acceleration ==
// max_deceleration == 2 and 1 m/s, ramp up 0.25 m, cruise 6.5 m, brake 0.25 m
// (the physics integrates a linear ramp exactly).
constexpr double kDriveDistance = 7.0;
void drive_seven_metres(Physics& w) {
  drive(w, wheels(1.0, 1.0), 7.0);
  drive(w, wheels(0.0, 0.0), 1.0);
}
msg::LeaguePreset straight_driver() {
  msg::LeaguePreset l = msl_like();
  l.mutable_robot()->set_max_acceleration(2.0);
  l.mutable_robot()->set_max_deceleration(2.0);
  return l;
}

double ball_drag_k(const msg::BallSpec& b) {
  return 0.5 * kRho * b.drag_coefficient() * M_PI * b.radius() * b.radius() / b.mass();
}

// Rolls the ball until it stops (or max_seconds pass); returns the stop time.
double roll_until_stopped(Physics& w, double max_seconds) {
  const long n = std::lround(max_seconds / kDt);
  for (long i = 0; i < n; ++i) {
    w.step(kDt);
    if (w.ball_velocity().norm() == 0.0) return w.time();
  }
  return -1.0;
}

// --- 1. Kick roll-down -------------------------------------------------------

TEST(PhysicsModels, KickedBallRollsDownLikeClockworkOrange) {
  // Constant deceleration a: stops after v^2 / (2 a) and v / a.
  const msg::LeaguePreset l = msl_like();
  Physics w(l, base().sim());
  w.place_ball({-6.0, 0.0}, {1.5, 0.0});
  double prev_x = -6.0;
  double t_stop = -1.0;
  for (int i = 0; i < 20000 && t_stop < 0; ++i) {
    w.step(kDt);
    ASSERT_GE(w.ball_position().x(), prev_x);
    ASSERT_GE(w.ball_velocity().x(), 0.0);
    prev_x = w.ball_position().x();
    if (w.ball_velocity().norm() == 0.0) t_stop = w.time();
  }
  const double distance = 1.5 * 1.5 / (2 * 0.1);  // 11.25 m
  const double duration = 1.5 / 0.1;              // 15 s
  EXPECT_NEAR(w.ball_position().x() + 6.0, distance, 0.01 * distance);
  EXPECT_NEAR(t_stop, duration, 0.01 * duration);
  EXPECT_EQ(w.ball_position().y(), 0.0);
}

TEST(PhysicsModels, RollingResistanceDeceleratesByMuTimesG) {
  // mu_rr replaces rolling_deceleration (left at 0.1, which would stop the
  // ball after 5 m): the ball stops after v^2 / (2 mu_rr g) = 10.77 m.
  msg::LeaguePreset l = msl_like();
  const double mu_rr = 4.731e-3;
  l.mutable_ball()->set_rolling_resistance(mu_rr);
  Physics w(l, base().sim());
  const double v0 = 1.0;
  w.place_ball({-8.0, 0.0}, {v0, 0.0});
  const double t_stop = roll_until_stopped(w, 30.0);
  const double distance = v0 * v0 / (2 * mu_rr * kG);
  EXPECT_NEAR(w.ball_position().x() + 8.0, distance, 0.01 * distance);
  EXPECT_NEAR(t_stop, v0 / (mu_rr * kG), 0.01 * v0 / (mu_rr * kG));
}

// --- 2. Air drag ---------------------------------------------------------------

TEST(PhysicsModels, AirDragStopsTheBallAtTheClosedFormDistanceAndTime) {
  // dv/dt = -(a + k v^2) above vt = 0.1 m/s, -a below. With u = sqrt(k / a):
  //   distance = ln((a + k v0^2) / (a + k vt^2)) / (2 k) + vt^2 / (2 a)
  //   time     = (atan(v0 u) - atan(vt u)) / sqrt(a k) + vt / a
  msg::LeaguePreset l = msl_like();
  l.mutable_ball()->set_drag_coefficient(0.25);
  const double a = 0.1, k = ball_drag_k(l.ball()), v0 = 1.5, vt = kDragMinSpeed;
  const double u = std::sqrt(k / a);
  const double distance = std::log((a + k * v0 * v0) / (a + k * vt * vt)) / (2 * k) + vt * vt / (2 * a);
  const double duration = (std::atan(v0 * u) - std::atan(vt * u)) / std::sqrt(a * k) + vt / a;
  const double no_drag_distance = v0 * v0 / (2 * a), no_drag_duration = v0 / a;
  ASSERT_LT(distance, 0.9 * no_drag_distance);  // the check below can tell them apart
  ASSERT_LT(duration, 0.95 * no_drag_duration);

  Physics w(l, base().sim());
  w.place_ball({-6.0, 0.0}, {v0, 0.0});
  const double t_stop = roll_until_stopped(w, 20.0);
  EXPECT_NEAR(w.ball_position().x() + 6.0, distance, 0.01 * distance);
  EXPECT_NEAR(t_stop, duration, 0.01 * duration);
  EXPECT_LT(w.ball_position().x() + 6.0, no_drag_distance);
  EXPECT_LT(t_stop, no_drag_duration);
}

TEST(PhysicsModels, AirDragSpeedAfterOneSecondMatchesTheOde) {
  // v(t) = sqrt(a/k) tan(atan(v0 sqrt(k/a)) - sqrt(a k) t) while v > 0.1.
  msg::LeaguePreset l = msl_like();
  l.mutable_ball()->set_drag_coefficient(0.25);
  const double a = 0.1, k = ball_drag_k(l.ball()), v0 = 6.0, t = 1.0;
  const double expected =
      std::sqrt(a / k) * std::tan(std::atan(v0 * std::sqrt(k / a)) - std::sqrt(a * k) * t);
  ASSERT_LT(expected, 0.95 * (v0 - a * t));  // drag matters far beyond the tolerance

  Physics w(l, base().sim());
  // Diagonal, so both components go through the model.
  const Vector2d dir = Vector2d(3.0, 1.0).normalized();
  w.place_ball({-8.0, -2.0}, v0 * dir);
  w.run_for(t);
  EXPECT_NEAR(w.ball_velocity().norm(), expected, 0.005 * expected);
  EXPECT_NEAR(w.ball_velocity().normalized().dot(dir), 1.0, 1e-12);
}

TEST(PhysicsModels, AirDragDoesNotActBelowTenCentimetresPerSecond) {
  // A drag so strong that at 0.09 m/s it would add k v^2 = 0.0115 m/s^2, i.e.
  // change the speed by 6 mm/s over 0.5 s: only the rolling part may act.
  msg::LeaguePreset l = msl_like();
  l.mutable_ball()->set_drag_coefficient(25.0);
  const double a = 0.1, k = ball_drag_k(l.ball()), v0 = 0.09, t = 0.5;
  ASSERT_GT(k * v0 * v0 * t, 5e-3);
  Physics w(l, base().sim());
  w.place_ball({0.0, 3.0}, {v0, 0.0});
  w.run_for(t);
  EXPECT_NEAR(w.ball_velocity().x(), v0 - a * t, 1e-9);
  EXPECT_NEAR(w.ball_position().x(), v0 * t - 0.5 * a * t * t, 1e-9);
}

// --- 3. Motor models -------------------------------------------------------------

TEST(PhysicsModels, IdealMotorReachesMaxSpeedAfterSpeedOverAcceleration) {
  const msg::LeaguePreset l = big_field(msg::MOTOR_IDEAL);
  Physics w(l, base().sim());
  w.add_robot(msg::BLUE, 0, pose(-15, 0));
  w.place_ball({15, 15});
  const double vmax = l.robot().max_speed(), acc = l.robot().max_acceleration();
  const long ramp_steps = std::lround(vmax / acc / kDt);  // 2000
  for (long i = 0; i < ramp_steps + 2; ++i) {
    step_with(w, wheels(vmax, vmax), i);
    const Wheels s = wheel_speeds(w);
    const double expected = std::min(vmax, acc * kDt * static_cast<double>(i + 1));
    ASSERT_NEAR(s.left, expected, 1e-9) << i;
    ASSERT_NEAR(s.right, expected, 1e-9) << i;
    if (i + 2 < ramp_steps) {
      ASSERT_LT(s.left, vmax) << i;  // not before its time, within one step
    }
  }
  EXPECT_EQ(wheel_speeds(w).left, vmax);
  EXPECT_EQ(wheel_speeds(w).right, vmax);
}

TEST(PhysicsModels, CurvatureKeepingMotorHoldsTheWheelRatioWhileRamping) {
  // (left 2, right 1) from rest: MI20 scales both changes by one factor, so
  // left = 2 right at every step and both arrive when the left does (2 s).
  const msg::LeaguePreset l = big_field(msg::MOTOR_CURVATURE_KEEPING);
  Physics w(l, base().sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0));
  w.place_ball({15, 15});
  const double acc = l.robot().max_acceleration();  // 1 m/s^2
  ASSERT_GE(l.robot().max_speed(), 2.0);
  const long ramp_steps = std::lround(2.0 / acc / kDt);
  for (long i = 0; i < ramp_steps + 2; ++i) {
    step_with(w, wheels(2.0, 1.0), i);
    const Wheels s = wheel_speeds(w);
    ASSERT_NEAR(s.left, 2.0 * s.right, 1e-12) << i;
    ASSERT_NEAR(s.left, std::min(2.0, acc * kDt * static_cast<double>(i + 1)), 1e-9) << i;
    if (i + 2 < ramp_steps) {
      ASSERT_LT(s.right, 1.0) << i;  // the slow wheel waits for the fast one
    }
  }
  EXPECT_NEAR(wheel_speeds(w).left, 2.0, 1e-12);
  EXPECT_NEAR(wheel_speeds(w).right, 1.0, 1e-12);

  // The ideal model ramps both wheels at the same rate: equal speeds while
  // both ramp, the slow wheel at its target after 1 s, ratio 2:1 only at the end.
  Physics ideal(big_field(msg::MOTOR_IDEAL), base().sim());
  ideal.add_robot(msg::BLUE, 0, pose(0, 0));
  ideal.place_ball({15, 15});
  for (long i = 0; i < 500; ++i) step_with(ideal, wheels(2.0, 1.0), i);
  EXPECT_NEAR(wheel_speeds(ideal).left, 0.5, 1e-9);
  EXPECT_NEAR(wheel_speeds(ideal).right, 0.5, 1e-9);
  for (long i = 500; i < 1001; ++i) step_with(ideal, wheels(2.0, 1.0), i);
  EXPECT_NEAR(wheel_speeds(ideal).left, 1.001, 1e-9);
  EXPECT_EQ(wheel_speeds(ideal).right, 1.0);
}

// --- 4. DC motor + PID -------------------------------------------------------------

TEST(PhysicsModels, DcMotorPidSettlesWithinTractionAndNoLoadLimits) {
  msg::LeaguePreset l = big_field(msg::MOTOR_DC_PID);
  l.mutable_robot()->set_mass(0.6087);
  l.mutable_robot()->clear_dc_motor();  // all MI20 defaults
  Physics w(l, base().sim());
  w.add_robot(msg::BLUE, 0, pose(-15, 0));
  w.place_ball({15, 15});
  // MI20 appendix C.
  const double voltage = 6.0, k_t = 6.92e-3, n = 25.0 / 3.0, r_w = 0.0225;
  const double mu_sliding = 0.4808, mu_rr = 1.71e-2;
  const double no_load = voltage / k_t * r_w / n;  // 2.34 m/s
  const double traction = mu_sliding * kG;        // 4.72 m/s^2
  const double target = 1.5;
  ASSERT_LT(target, no_load);

  double prev_l = 0.0, prev_r = 0.0, max_speed = 0.0;
  double max_acc = -1e9, min_early_acc = 1e9;
  double worst_settled = 0.0;
  for (long i = 0; i < 2000; ++i) {
    step_with(w, wheels(target, target), i);
    const Wheels s = wheel_speeds(w);
    const double al = (s.left - prev_l) / kDt, ar = (s.right - prev_r) / kDt;
    max_acc = std::max({max_acc, al, ar});
    // Full voltage while far below the target: the wheels would spin, so the
    // robot accelerates at the traction limit less rolling resistance.
    if (i < 250) min_early_acc = std::min({min_early_acc, al, ar});
    max_speed = std::max({max_speed, s.left, s.right});
    if (w.time() >= 1.0 - 1e-9) {
      worst_settled = std::max({worst_settled, std::abs(s.left - target), std::abs(s.right - target)});
    }
    prev_l = s.left;
    prev_r = s.right;
  }
  EXPECT_LE(max_acc, traction + 1e-9);
  EXPECT_GE(min_early_acc, (mu_sliding - mu_rr) * kG - 0.05);  // the traction limit is what binds
  EXPECT_LE(max_speed, no_load);
  EXPECT_LE(worst_settled, 0.02 * target);  // integral action: P alone would leave ~3.5 %
  // Both wheels alike: it drove straight.
  EXPECT_NEAR(w.robot_pose(msg::BLUE, 0).y(), 0.0, 1e-12);
  EXPECT_NEAR(w.robot_pose(msg::BLUE, 0).theta(), 0.0, 1e-12);
}

TEST(PhysicsModels, DcMotorWithoutMassIsRejected) {
  msg::LeaguePreset l = big_field(msg::MOTOR_DC_PID);
  l.mutable_robot()->set_mass(0.0);
  try {
    Physics w(l, base().sim());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mass"), std::string::npos) << e.what();
  }
  // The other motor models do not need a mass.
  l.mutable_robot()->set_motor_model(msg::MOTOR_IDEAL);
  EXPECT_NO_THROW({ Physics p(l, base().sim()); });
}

// --- 5. Slip and side bias ----------------------------------------------------------

TEST(PhysicsModels, SlipAndSideBiasBendTheTruePathButNotOdometry) {
  // f = 0.99, b = 0.04: 7 m of wheel travel moves the robot 6.93 m forward
  // and b * 6.93 = 0.2772 m to its left; odometry sees 7 m straight.
  msg::LeaguePreset l = straight_driver();
  l.mutable_robot()->set_slip(0.01);
  l.mutable_robot()->set_side_bias(0.04);
  Physics w(l, base().sim());
  w.add_robot(msg::BLUE, 0, pose(-5, -3, 0));
  w.place_ball({0, 5});
  drive_seven_metres(w);
  const auto odo = w.odometry(msg::BLUE, 0);
  EXPECT_NEAR(odo.pose().x() + 5, kDriveDistance, 1e-3);
  EXPECT_NEAR(odo.pose().y() + 3, 0.0, 1e-3);
  const double forward = 0.99 * kDriveDistance;
  const auto p = w.robot_pose(msg::BLUE, 0);
  EXPECT_NEAR(p.x() + 5, forward, 1e-3);
  EXPECT_NEAR(p.y() + 3, 0.04 * forward, 1e-3);
  EXPECT_NEAR(p.theta(), 0.0, 1e-12);  // a sideways drift, not a turn
  EXPECT_EQ(wheel_speeds(w).left, 0.0);
}

// --- 6. Heading noise -----------------------------------------------------------------

TEST(PhysicsModels, HeadingNoiseSpreadsTheRobotsPathLikeARandomWalk) {
  // Heading random walk of sigma rad per sqrt(m): after D metres the heading
  // has sd sigma sqrt(D) and the sideways offset sd sigma sqrt(D^3 / 3).
  msg::LeaguePreset l = straight_driver();
  const double sigma = 0.0086;
  l.mutable_robot()->set_heading_noise(sigma);
  const double d = kDriveDistance;
  const double sd_y_theory = sigma * std::sqrt(d * d * d / 3.0);  // 92 mm
  const double sd_th_theory = sigma * std::sqrt(d);              // 23 mrad
  constexpr int kSeeds = 30;
  std::vector<double> ys, ths;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    Physics w(l, base().sim(), static_cast<std::uint64_t>(seed));
    w.add_robot(msg::BLUE, 0, pose(-5, 0, 0));
    w.place_ball({0, 5});
    drive_seven_metres(w);
    const auto p = w.robot_pose(msg::BLUE, 0);
    ys.push_back(p.y());
    ths.push_back(p.theta());
    // Odometry does not see the noise.
    ASSERT_NEAR(w.odometry(msg::BLUE, 0).pose().y(), 0.0, 1e-9);
  }
  // The sample sd of 30 draws is within +-13 % (1 sd) of the truth; the
  // bounds are about 4 of those either side.
  EXPECT_GE(sample_sd(ys), 0.050);
  EXPECT_LE(sample_sd(ys), 0.150);
  EXPECT_GE(sample_sd(ths), 0.5 * sd_th_theory);
  EXPECT_LE(sample_sd(ths), 1.5 * sd_th_theory);
  // Unbiased: means within 4 standard errors of zero.
  EXPECT_LT(std::abs(mean(ths)), 4.0 * sd_th_theory / std::sqrt(double{kSeeds}));
  EXPECT_LT(std::abs(mean(ys)), 4.0 * sd_y_theory / std::sqrt(double{kSeeds}));
}

TEST(PhysicsModels, HeadingNoiseIsReproducibleFromTheSeed) {
  msg::LeaguePreset l = straight_driver();
  l.mutable_robot()->set_heading_noise(0.0086);
  auto run = [&](std::uint64_t seed) {
    Physics w(l, base().sim(), seed);
    w.add_robot(msg::BLUE, 0, pose(-5, 0, 0));
    w.place_ball({0, 5});
    drive_seven_metres(w);
    return w.robot_pose(msg::BLUE, 0);
  };
  const auto a = run(7), b = run(7), c = run(8);
  EXPECT_EQ(a.x(), b.x());
  EXPECT_EQ(a.y(), b.y());
  EXPECT_EQ(a.theta(), b.theta());
  EXPECT_NE(a.y(), c.y());
  EXPECT_NE(a.theta(), c.theta());
}

TEST(PhysicsModels, HeadingNoiseDoesNotTurnAStandingRobot) {
  msg::LeaguePreset l = straight_driver();
  l.mutable_robot()->set_heading_noise(0.0086);
  Physics w(l, base().sim(), 3);
  w.add_robot(msg::BLUE, 0, pose(1, 2, 0.7));
  w.place_ball({0, 5});
  const auto before = w.robot_pose(msg::BLUE, 0);
  drive(w, wheels(0, 0), 10.0);
  const auto after = w.robot_pose(msg::BLUE, 0);
  EXPECT_EQ(after.x(), before.x());
  EXPECT_EQ(after.y(), before.y());
  EXPECT_EQ(after.theta(), before.theta());
}

// --- 7. Passive mouth ------------------------------------------------------------------

msg::LeaguePreset capturing() {
  msg::LeaguePreset l = msl_like();
  l.mutable_robot()->set_mouth_captures(true);
  l.mutable_robot()->set_mouth_side_turn(0.3);
  return l;
}

TEST(PhysicsModels, MouthHoldsABallRolledIntoItUntilTheRobotBacksAway) {
  const msg::LeaguePreset l = capturing();
  const double reach = l.robot().radius() + l.ball().radius();  // 0.36
  const double th = 0.4;
  Physics w(l, base().sim());
  w.add_robot(msg::BLUE, 0, pose(0, 0, th));
  // Rolled straight at the middle of the mouth of a standing robot.
  w.place_ball(rot(th, {2.0, 0.0}), rot(th, {-1.0, 0.0}));
  long i = 0;
  for (; i < 2500; ++i) step_with(w, wheels(0, 0), i);  // arrives after ~1.7 s
  ASSERT_TRUE(w.ball_held());
  Vector2d rel = w.ball_position() - position(w);
  EXPECT_NEAR(rel.norm(), reach, 1e-5);
  EXPECT_NEAR(rot(-th, rel).y(), 0.0, 1e-6);  // in the middle, where it met the mouth
  EXPECT_LT(w.ball_velocity().norm(), 1e-12);

  // Driving forward, the ball goes along (no dribble command anywhere).
  const Vector2d start = w.ball_position();
  for (long j = 0; j < 1500; ++j, ++i) {
    step_with(w, wheels(1, 1), j);
    ASSERT_TRUE(w.ball_held()) << j;
    rel = w.ball_position() - position(w);
    ASSERT_NEAR(rel.norm(), reach, 1e-5) << j;
    ASSERT_NEAR(rot(-w.robot_pose(msg::BLUE, 0).theta(), rel).y(), 0.0, 1e-5) << j;
  }
  EXPECT_GT((w.ball_position() - start).norm(), 1.0);  // 1.25 m: 0.25 ramping, 1 at 1 m/s

  // Backing away releases it as soon as the robot moves backwards.
  bool released = false;
  for (long j = 0; j < 1000; ++j) {
    step_with(w, wheels(-1, -1), j);
    const Wheels s = wheel_speeds(w);
    if (s.left + s.right < 0.0) {
      ASSERT_FALSE(w.ball_held()) << j;
      released = true;
    }
  }
  ASSERT_TRUE(released);
  // The ball stays about where it was let go (at walking pace, not dragged
  // back), the robot backs off 0.44 m after braking.
  EXPECT_GT((w.ball_position() - position(w)).norm(), reach + 0.3);
  EXPECT_LT(w.ball_velocity().norm(), 0.2);
}

TEST(PhysicsModels, BallMeetingTheSideOfTheMouthLeavesAtTheSideTurnAngle) {
  const msg::LeaguePreset l = capturing();
  const double turn = l.robot().mouth_side_turn();  // 0.3 rad
  const double th = 0.4;
  const double a = l.ball().rolling_deceleration(), e = l.ball().robot_restitution();
  for (const double side : {1.0, -1.0}) {
    SCOPED_TRACE(side > 0 ? "left edge" : "right edge");
    Physics w(l, base().sim());
    w.add_robot(msg::BLUE, 0, pose(0, 0, th));
    // Off-centre by 0.12 m: inside the mouth (half width 0.15), in its side
    // band (beyond 0.15 - r / 2 = 0.095).
    w.place_ball(rot(th, {2.0, side * 0.12}), rot(th, {-1.0, 0.0}));
    Vector2d hit_pos(0, 0);
    double hit_speed = -1.0;
    for (long i = 0; i < 6000; ++i) {
      step_with(w, wheels(0, 0), i);
      ASSERT_FALSE(w.ball_held()) << i;
      if (hit_speed < 0.0 && w.last_touch().valid) {
        hit_pos = w.ball_position();
        hit_speed = w.ball_velocity().norm();
        const double dir = std::atan2(w.ball_velocity().y(), w.ball_velocity().x());
        EXPECT_NEAR(dir, th + side * turn, 0.05) << "right after the hit";
      }
    }
    ASSERT_GT(hit_speed, 0.0) << "the ball never met the robot";
    // It meets the mouth (the bumper plus half a ball radius of reach) at
    // x = sqrt(reach^2 - 0.12^2) after rolling s = 2 - x, at
    // v = sqrt(1 - 2 a s) = 0.82 m/s; it leaves at e v and rolls
    // (e v)^2 / (2 a) = 0.85 m.
    const double mouth_reach = l.robot().radius() + 1.5 * l.ball().radius();
    const double v_in = std::sqrt(1.0 - 2 * a * (2.0 - std::sqrt(mouth_reach * mouth_reach - 0.12 * 0.12)));
    EXPECT_NEAR(hit_speed, e * v_in, 0.01 * e * v_in) << "one bounce off the side";
    const double expected_roll = (e * v_in) * (e * v_in) / (2 * a);
    const Vector2d moved = w.ball_position() - hit_pos;
    EXPECT_NEAR(moved.norm(), expected_roll, 0.05 * expected_roll) << "the ball did not leave the mouth";
    if (moved.norm() > 0.0) {
      EXPECT_NEAR(std::atan2(moved.y(), moved.x()), th + side * turn, 0.05);
    }
    EXPECT_EQ(w.ball_velocity().norm(), 0.0);  // and came to rest
  }
}

// --- 8. Energy -------------------------------------------------------------------------

TEST(PhysicsModels, BallEnergyNeverGrowsUnderDragRollingAndBounces) {
  msg::LeaguePreset l = msl_like();
  l.mutable_ball()->set_drag_coefficient(0.25);
  l.mutable_ball()->set_wall_restitution(0.6);
  Physics probe(l, base().sim());
  const double r = l.ball().radius();
  auto clear_of_walls = [&](const Vector2d& p) {
    for (const auto& s : probe.segments()) {
      const double u = std::clamp((p - s.a).dot(s.d), 0.0, s.length);
      if ((p - (s.a + u * s.d)).norm() < r + 0.01) return false;
    }
    return true;
  };
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> ux(6.0, 9.8), uy(-2.5, 2.5), sp(0.5, 8.0);
  // Aimed at the goal box (free-standing walls, exposed corners) and its
  // surroundings, so most shots bounce, some several times.
  std::uniform_real_distribution<double> aim_x(8.7, 9.7), aim_y(-1.4, 1.4);
  int bounces = 0, shots = 0;
  while (shots < 150) {
    const Vector2d p(ux(rng), uy(rng));
    if (!clear_of_walls(p)) continue;
    const Vector2d aim = Vector2d(aim_x(rng), aim_y(rng)) - p;
    if (aim.norm() < 0.05) continue;
    ++shots;
    Physics w(l, base().sim());
    w.place_ball(p, sp(rng) * aim.normalized());
    Vector2d v_prev = w.ball_velocity();
    for (int i = 0; i < 1500; ++i) {
      w.step(kDt);
      const Vector2d v = w.ball_velocity();
      ASSERT_LE(v.squaredNorm(), v_prev.squaredNorm() * (1 + 1e-12) + 1e-15)
          << "shot " << shots << " step " << i << " from (" << p.transpose() << ")";
      if (v.squaredNorm() > 0.0 && v_prev.squaredNorm() > 0.0 && v.normalized().dot(v_prev.normalized()) < 0.99) {
        ++bounces;
      }
      v_prev = v;
    }
    EXPECT_FALSE(w.last_touch().valid);  // no robot ever touched it
  }
  EXPECT_GE(bounces, 100) << "too few bounces for the test to mean anything";
}

}  // namespace
}  // namespace robocaf::sim
