#pragma once

#include <optional>

#include <Eigen/Core>

namespace robocaf::actors {

/// A rolling ball: slows at a constant `deceleration` (m/s^2, rolling
/// friction) along its velocity until it stops, then lies still. Walls and
/// robots are not in the model.
struct RollingBall {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();  // m
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();  // m/s
  double deceleration = 0.0;                           // m/s^2, >= 0

  /// When it stops (s from now); +infinity without friction while moving.
  double stop_time() const;
  /// Where it is t seconds from now (t >= 0).
  Eigen::Vector2d at(double t) const;
};

/// How a robot gets somewhere: it turns towards the point at `max_omega`
/// (skipped when omnidirectional), then drives straight, speeding up from
/// its current speed towards the point at `max_acceleration` up to
/// `max_speed`. Arriving means its centre comes within `reach` of the point
/// (a robot meets a ball at radius plus ball radius). A deliberately simple
/// model: it orders intercept points correctly and errs on the slow side.
struct InterceptRobot {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  double heading = 0.0;  // rad
  bool omni = false;
  double max_speed = 1.0;
  double max_acceleration = 1.0;
  double max_omega = 6.0;
  double reach = 0.0;

  /// Seconds to arrive at `point` in this model.
  double time_to(const Eigen::Vector2d& point) const;
};

/// Where and when a robot can first meet a rolling ball.
struct Intercept {
  double t = 0.0;                                   // s from now
  Eigen::Vector2d point = Eigen::Vector2d::Zero();  // the ball's position then
};

/// The earliest t in [0, horizon] at which the robot can be at the ball,
/// searched on a grid of `step` seconds and refined by bisection to 1 ms:
/// the first t with robot.time_to(ball.at(t)) <= t. Nothing when it cannot
/// within the horizon (then chasing the ball's resting point, or its
/// position at the horizon, is the caller's choice) or for non-finite input.
std::optional<Intercept> earliest_intercept(const InterceptRobot& robot, const RollingBall& ball, double horizon,
                                            double step = 0.02);

}  // namespace robocaf::actors
