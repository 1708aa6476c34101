#include "actors/motor/motor_control.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace robocaf::actors {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double limit_or_inf(double v) { return v > 0.0 ? v : kInf; }

}  // namespace

MotorControl::MotorControl(const msg::RobotSpec& spec, double timeout_s, double nominal_period)
    : spec_(spec),
      timeout_(timeout_s),
      nominal_period_(nominal_period),
      omni_(spec.drive() == msg::DRIVE_OMNI) {
  last_.mutable_wheels();  // a defined drive field before the first output
  if (omni_) last_.mutable_body();
}

bool MotorControl::timed_out(double t) const { return !last_command_t_ || t - *last_command_t_ > timeout_; }

msg::RobotCommand MotorControl::on_motion(const msg::MotionCommand& motion) {
  if (!std::isfinite(motion.t()) || (last_command_t_ && motion.t() < *last_command_t_)) {
    msg::RobotCommand repeat = last_;
    repeat.set_cycle(motion.cycle());
    return repeat;
  }
  last_command_t_ = motion.t();
  // A non-finite request must not reach the wheels: it means stop.
  msg::BodyVelocity v = motion.velocity();
  if (!std::isfinite(v.vx()) || !std::isfinite(v.vy()) || !std::isfinite(v.omega())) v = msg::BodyVelocity();
  if (omni_) {
    double vx = v.vx(), vy = v.vy();
    const double speed = std::hypot(vx, vy);
    const double max_speed = limit_or_inf(spec_.max_speed());
    if (speed > max_speed) {
      vx *= max_speed / speed;
      vy *= max_speed / speed;
    }
    const double max_omega = limit_or_inf(spec_.max_omega());
    tgt_a_ = vx;
    tgt_b_ = vy;
    tgt_omega_ = std::clamp(v.omega(), -max_omega, max_omega);
  } else {
    const double half = 0.5 * spec_.wheel_base();
    double left = v.vx() - v.omega() * half;
    double right = v.vx() + v.omega() * half;
    // Scaling both wheels by one factor keeps the curvature of the request.
    const double fastest = std::max(std::abs(left), std::abs(right));
    const double max_speed = limit_or_inf(spec_.max_speed());
    double scale = fastest > max_speed ? max_speed / fastest : 1.0;
    if (spec_.wheel_base() > 0.0) {
      const double omega = std::abs(right - left) / spec_.wheel_base() * scale;
      const double max_omega = limit_or_inf(spec_.max_omega());
      if (omega > max_omega) scale *= max_omega / omega;
    }
    tgt_a_ = left * scale;
    tgt_b_ = right * scale;
  }
  dribble_ = motion.dribble();
  msg::RobotCommand out = step(motion.t());
  out.set_cycle(motion.cycle());
  const double kick = std::isfinite(motion.kick_speed()) ? motion.kick_speed() : 0.0;
  out.set_kick_speed(std::clamp(kick, 0.0, std::max(0.0, spec_.kick_speed())));
  return out;
}

std::optional<msg::RobotCommand> MotorControl::on_tick(double t) {
  if (!std::isfinite(t) || !timed_out(t)) return std::nullopt;
  tgt_a_ = tgt_b_ = tgt_omega_ = 0.0;
  dribble_ = false;
  return step(t);
}

double MotorControl::wheel_change_limit(double current, double target, double dt) const {
  const double acc = limit_or_inf(spec_.max_acceleration());
  const double dec = limit_or_inf(spec_.max_deceleration());
  if (current * target >= 0.0) return (std::abs(target) >= std::abs(current) ? acc : dec) * dt;
  // Reversal: brake to zero, then speed up the other way with what time is left.
  const double t_stop = std::abs(current) / dec;
  return t_stop >= dt ? dec * dt : std::abs(current) + acc * (dt - t_stop);
}

void MotorControl::step_differential(double dt) {
  const double dl = tgt_a_ - cur_a_, dr = tgt_b_ - cur_b_;
  double k = 1.0;
  if (std::abs(dl) > 0.0) k = std::min(k, wheel_change_limit(cur_a_, tgt_a_, dt) / std::abs(dl));
  if (std::abs(dr) > 0.0) k = std::min(k, wheel_change_limit(cur_b_, tgt_b_, dt) / std::abs(dr));
  cur_a_ += k * dl;
  cur_b_ += k * dr;
}

void MotorControl::step_omni(double dt) {
  const double dx = tgt_a_ - cur_a_, dy = tgt_b_ - cur_b_;
  const double change = std::hypot(dx, dy);
  const bool speeding_up = std::hypot(tgt_a_, tgt_b_) >= std::hypot(cur_a_, cur_b_) &&
                           tgt_a_ * cur_a_ + tgt_b_ * cur_b_ >= 0.0;
  const double limit = (speeding_up ? limit_or_inf(spec_.max_acceleration()) : limit_or_inf(spec_.max_deceleration())) * dt;
  const double k = change > limit ? limit / change : 1.0;
  cur_a_ += k * dx;
  cur_b_ += k * dy;
  cur_omega_ = tgt_omega_;
}

msg::RobotCommand MotorControl::step(double t) {
  // dt is capped by the timeout: after a longer silence the wheels were
  // already being braked by on_tick, not coasting at a stale speed.
  double dt = last_output_t_ ? std::clamp(t - *last_output_t_, 0.0, std::max(timeout_, nominal_period_))
                             : nominal_period_;
  if (omni_)
    step_omni(dt);
  else
    step_differential(dt);
  last_output_t_ = std::max(t, last_output_t_.value_or(t));

  msg::RobotCommand out;
  out.set_t(t);
  if (omni_) {
    out.mutable_body()->set_vx(cur_a_);
    out.mutable_body()->set_vy(cur_b_);
    out.mutable_body()->set_omega(cur_omega_);
  } else {
    out.mutable_wheels()->set_left(cur_a_);
    out.mutable_wheels()->set_right(cur_b_);
  }
  out.set_dribble(dribble_);
  last_ = out;
  return out;
}

}  // namespace robocaf::actors
