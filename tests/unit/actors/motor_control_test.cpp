#include "actors/motor/motor_control.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::actors {
namespace {

msg::RobotSpec mirosot_robot() { return runtime::default_match_config().league().robot(); }

msg::RobotSpec unlimited_robot() {
  msg::RobotSpec spec = mirosot_robot();
  spec.set_max_acceleration(0.0);
  spec.set_max_deceleration(0.0);
  return spec;
}

msg::MotionCommand motion(double t, double vx, double omega, double vy = 0.0) {
  msg::MotionCommand m;
  m.set_t(t);
  m.set_cycle(static_cast<uint64_t>(std::lround(t * 50)));
  m.mutable_velocity()->set_vx(vx);
  m.mutable_velocity()->set_vy(vy);
  m.mutable_velocity()->set_omega(omega);
  return m;
}

TEST(MotorControl, DifferentialWheelSpeeds) {
  MotorControl motor(unlimited_robot(), 0.2);
  const msg::RobotCommand c = motor.on_motion(motion(0.0, 0.5, 2.0));
  ASSERT_TRUE(c.has_wheels());
  EXPECT_NEAR(c.wheels().left(), 0.5 - 2.0 * 0.034, 1e-12);
  EXPECT_NEAR(c.wheels().right(), 0.5 + 2.0 * 0.034, 1e-12);
  EXPECT_DOUBLE_EQ(c.t(), 0.0);
}

TEST(MotorControl, OverSpeedScalesBothWheelsKeepingCurvature) {
  MotorControl motor(unlimited_robot(), 0.2);
  const double v = 2.0, omega = 10.0;  // right wheel would be 2.34 m/s
  const msg::RobotCommand c = motor.on_motion(motion(0.0, v, omega));
  const double l = c.wheels().left(), r = c.wheels().right();
  EXPECT_NEAR(std::max(std::abs(l), std::abs(r)), 2.0, 1e-12);
  const double want_ratio = (v - omega * 0.034) / (v + omega * 0.034);
  EXPECT_NEAR(l / r, want_ratio, 1e-12);
  // Curvature omega / v is that of the request.
  const double got_v = 0.5 * (l + r), got_omega = (r - l) / 0.068;
  EXPECT_NEAR(got_omega / got_v, omega / v, 1e-9);
}

TEST(MotorControl, AccelerationLimitScalesTheChangeOfBothWheels) {
  const msg::RobotSpec spec = mirosot_robot();  // 1 m/s^2 speeding up, 3 m/s^2 braking
  MotorControl motor(spec, 0.2);
  double prev_l = 0.0, prev_r = 0.0;
  const double v = 1.0, omega = 5.0;
  const double ratio = (v - omega * 0.034) / (v + omega * 0.034);
  for (int k = 0; k < 100; ++k) {
    const msg::RobotCommand c = motor.on_motion(motion(k * 0.02, v, omega));
    const double l = c.wheels().left(), r = c.wheels().right();
    EXPECT_LE(std::abs(l - prev_l), 1.0 * 0.02 + 1e-9) << k;
    EXPECT_LE(std::abs(r - prev_r), 1.0 * 0.02 + 1e-9) << k;
    EXPECT_NEAR(l / r, ratio, 1e-9) << k;  // turning on the requested arc all along
    prev_l = l;
    prev_r = r;
  }
  EXPECT_NEAR(prev_l, v - omega * 0.034, 1e-9);
  EXPECT_NEAR(prev_r, v + omega * 0.034, 1e-9);
  // The first command assumes the nominal period: one step's worth of speed.
  MotorControl fresh(spec, 0.2);
  EXPECT_NEAR(fresh.on_motion(motion(5.0, 2.0, 0.0)).wheels().right(), 0.02, 1e-12);
}

TEST(MotorControl, BrakingUsesTheDecelerationLimit) {
  MotorControl motor(mirosot_robot(), 0.2);
  double t = 0.0;
  for (; t < 3.0; t += 0.02) motor.on_motion(motion(t, 2.0, 0.0));
  ASSERT_NEAR(motor.last_output().wheels().left(), 2.0, 1e-9);
  const msg::RobotCommand c = motor.on_motion(motion(t, 0.0, 0.0));
  EXPECT_NEAR(c.wheels().left(), 2.0 - 3.0 * 0.02, 1e-6);
  EXPECT_NEAR(c.wheels().right(), 2.0 - 3.0 * 0.02, 1e-6);
  // Reversing: brake at 3 m/s^2, then no faster than 1 m/s^2 the other way.
  MotorControl rev(mirosot_robot(), 0.2);
  rev.on_motion(motion(0.0, 0.0, 0.0));
  for (int k = 1; k <= 2; ++k) rev.on_motion(motion(k * 0.02, 1.0, 0.0));  // 0.04 m/s forward
  const msg::RobotCommand back = rev.on_motion(motion(0.06, -1.0, 0.0));
  // 0.04 m/s braked in 13.3 ms, then 6.7 ms at 1 m/s^2.
  EXPECT_NEAR(back.wheels().left(), -(0.02 - 0.04 / 3.0) * 1.0, 1e-9);
}

TEST(MotorControl, StopsAfterTimeoutWithoutCommands) {
  MotorControl motor(unlimited_robot(), 0.2);
  motor.on_motion(motion(1.0, 0.8, 1.0));
  EXPECT_FALSE(motor.on_tick(1.02).has_value());
  EXPECT_FALSE(motor.on_tick(1.19).has_value());
  EXPECT_FALSE(motor.timed_out(1.2));
  const auto stop = motor.on_tick(1.21);
  ASSERT_TRUE(stop.has_value());
  EXPECT_DOUBLE_EQ(stop->wheels().left(), 0.0);
  EXPECT_DOUBLE_EQ(stop->wheels().right(), 0.0);
  EXPECT_FALSE(stop->dribble());
  // A new command brings it back.
  EXPECT_GT(motor.on_motion(motion(1.3, 0.5, 0.0)).wheels().left(), 0.0);
  EXPECT_FALSE(motor.on_tick(1.32).has_value());
}

TEST(MotorControl, TimeoutBrakesWithinTheDecelerationLimit) {
  MotorControl motor(mirosot_robot(), 0.2);
  double t = 0.0;
  for (; t < 2.5; t += 0.02) motor.on_motion(motion(t, 2.0, 0.0));
  const double last_command = t - 0.02;
  double prev = motor.last_output().wheels().left();
  ASSERT_NEAR(prev, 2.0, 1e-9);
  double stopped_at = -1.0;
  for (double tick = last_command + 0.02; tick < last_command + 2.0; tick += 0.02) {
    const auto c = motor.on_tick(tick);
    if (tick - last_command <= 0.2 - 1e-9) {
      EXPECT_FALSE(c.has_value()) << tick;
      continue;
    }
    ASSERT_TRUE(c.has_value()) << tick;
    const double l = c->wheels().left();
    EXPECT_LE(l, prev);
    EXPECT_LE(prev - l, 3.0 * 0.2 + 1e-9);  // the first brake step may cover the silent gap
    EXPECT_GE(l, 0.0);
    if (l == 0.0 && stopped_at < 0) stopped_at = tick;
    prev = l;
  }
  EXPECT_GT(stopped_at, 0.0);
  EXPECT_LT(stopped_at - last_command, 0.2 + 2.0 / 3.0 + 0.05);  // timeout + braking time
}

TEST(MotorControl, NoCommandEverMeansStop) {
  MotorControl motor(mirosot_robot(), 0.2);
  const auto c = motor.on_tick(0.0);
  ASSERT_TRUE(c.has_value());
  EXPECT_DOUBLE_EQ(c->wheels().left(), 0.0);
}

TEST(MotorControl, KickIsClampedToTheKickerAndNotRepeated) {
  msg::MotionCommand m = motion(0.0, 0.0, 0.0);
  m.set_kick_speed(3.0);
  m.set_dribble(true);
  MotorControl mirosot(mirosot_robot(), 0.2);  // no kicker
  EXPECT_DOUBLE_EQ(mirosot.on_motion(m).kick_speed(), 0.0);

  msg::RobotSpec ssl = mirosot_robot();
  ssl.set_kick_speed(6.5);
  MotorControl kicker(ssl, 0.2);
  const msg::RobotCommand c = kicker.on_motion(m);
  EXPECT_DOUBLE_EQ(c.kick_speed(), 3.0);
  EXPECT_TRUE(c.dribble());
  m.set_t(0.02);
  m.set_kick_speed(9.0);
  EXPECT_DOUBLE_EQ(kicker.on_motion(m).kick_speed(), 6.5);
  EXPECT_DOUBLE_EQ(kicker.on_tick(0.5)->kick_speed(), 0.0);
}

TEST(MotorControl, OlderCommandsAreIgnored) {
  MotorControl motor(unlimited_robot(), 0.2);
  motor.on_motion(motion(1.0, 0.5, 0.0));
  msg::MotionCommand old = motion(0.9, -1.0, 0.0);
  old.set_kick_speed(1.0);
  const msg::RobotCommand c = motor.on_motion(old);
  EXPECT_DOUBLE_EQ(c.wheels().left(), 0.5);
  EXPECT_DOUBLE_EQ(c.kick_speed(), 0.0);
}

TEST(MotorControl, NonFiniteInputMeansStop) {
  MotorControl motor(unlimited_robot(), 0.2);
  motor.on_motion(motion(0.0, 0.5, 0.0));
  msg::MotionCommand bad = motion(0.02, std::nan(""), 1.0);
  bad.set_kick_speed(std::nan(""));
  const msg::RobotCommand c = motor.on_motion(bad);
  EXPECT_DOUBLE_EQ(c.wheels().left(), 0.0);
  EXPECT_DOUBLE_EQ(c.wheels().right(), 0.0);
  EXPECT_DOUBLE_EQ(c.kick_speed(), 0.0);
  EXPECT_FALSE(motor.on_tick(std::nan("")).has_value());
  EXPECT_TRUE(std::isfinite(motor.on_tick(1.0)->wheels().left()));
}

TEST(MotorControl, OmniLimitsTheVelocityVector) {
  msg::RobotSpec spec = mirosot_robot();
  spec.set_drive(msg::DRIVE_OMNI);
  spec.set_max_speed(2.0);
  spec.set_max_acceleration(2.0);
  spec.set_max_deceleration(4.0);
  spec.set_max_omega(5.0);
  MotorControl motor(spec, 0.2);
  double prev_x = 0.0, prev_y = 0.0;
  msg::RobotCommand c;
  for (int k = 0; k < 150; ++k) {
    c = motor.on_motion(motion(k * 0.02, 3.0, 9.0, 3.0));
    ASSERT_TRUE(c.has_body());
    EXPECT_LE(std::hypot(c.body().vx() - prev_x, c.body().vy() - prev_y), 2.0 * 0.02 + 1e-9);
    EXPECT_NEAR(c.body().vx(), c.body().vy(), 1e-12);  // direction kept
    EXPECT_DOUBLE_EQ(c.body().omega(), 5.0);
    prev_x = c.body().vx();
    prev_y = c.body().vy();
  }
  EXPECT_NEAR(std::hypot(c.body().vx(), c.body().vy()), 2.0, 1e-9);
}

}  // namespace
}  // namespace robocaf::actors
