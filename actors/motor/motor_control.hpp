#pragma once
// Motor core: body velocity requests -> wheel (or omni body) commands within the
// robot's speed and acceleration limits, and a stop when player skills fall
// silent. No CAF here; the motor actor wraps this class.

#include <optional>

#include "messages/commands.pb.h"
#include "messages/config.pb.h"

namespace robocaf::actors {

/// Differential drive: v_l,r = v -/+ omega * wheel_base / 2. A wheel over
/// max_speed scales both wheels down (the curvature stays); a change of wheel
/// speed over the acceleration limit of one control period (max_acceleration
/// speeding up, max_deceleration braking) scales the change of both wheels down
/// (MI20). Omni drive: the same on the body velocity vector, omega clamped to
/// max_omega. The control period is the time between consecutive outputs.
/// Limits <= 0 in the spec mean "unlimited".
class MotorControl {
 public:
  /// `nominal_period` is the control period assumed for the very first command,
  /// when there is no previous time to measure it from.
  MotorControl(const msg::RobotSpec& spec, double timeout_s, double nominal_period = 0.02);

  /// A new request from player skills. Commands older than the last one (or
  /// with a non-finite time) are ignored: the current output is repeated
  /// without a kick. A non-finite velocity means stop. The kick speed is
  /// clamped to the robot's kicker (0 when it has none).
  msg::RobotCommand on_motion(const msg::MotionCommand& motion);

  /// The clock (odometry). Empty while motion commands are fresh; once none
  /// has arrived for more than timeout_s (or none ever), a command braking
  /// towards zero within the deceleration limit, on every tick.
  std::optional<msg::RobotCommand> on_tick(double t);

  /// No motion command ever, or none for more than timeout_s before t.
  bool timed_out(double t) const;

  /// The last output (wheels or body, no kick).
  const msg::RobotCommand& last_output() const { return last_; }

 private:
  msg::RobotCommand step(double t);
  void step_differential(double dt);
  void step_omni(double dt);
  double wheel_change_limit(double current, double target, double dt) const;

  msg::RobotSpec spec_;
  double timeout_;
  double nominal_period_;
  bool omni_;

  // Differential: (left, right) wheel speeds; omni: (vx, vy) and omega.
  double cur_a_ = 0.0, cur_b_ = 0.0, cur_omega_ = 0.0;
  double tgt_a_ = 0.0, tgt_b_ = 0.0, tgt_omega_ = 0.0;
  bool dribble_ = false;

  std::optional<double> last_output_t_;
  std::optional<double> last_command_t_;
  msg::RobotCommand last_;
};

}  // namespace robocaf::actors
