#include "actors/player_skills/intercept.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/angle.hpp"

namespace robocaf::actors {

using V = Eigen::Vector2d;

double RollingBall::stop_time() const {
  const double speed = velocity.norm();
  if (speed <= 0.0) return 0.0;
  if (deceleration <= 0.0) return std::numeric_limits<double>::infinity();
  return speed / deceleration;
}

V RollingBall::at(double t) const {
  const double speed = velocity.norm();
  if (speed <= 0.0 || t <= 0.0) return position;
  const double moving = std::min(t, stop_time());
  const double distance = speed * moving - 0.5 * deceleration * moving * moving;
  return position + velocity / speed * distance;
}

double InterceptRobot::time_to(const V& point) const {
  const V d = point - position;
  const double distance = std::max(0.0, d.norm() - reach);
  if (distance <= 0.0) return 0.0;
  const V dir = d.normalized();
  double turn = 0.0;
  if (!omni && max_omega > 0.0) {
    // Front first; a robot that can drive either end first may be quicker.
    turn = std::abs(runtime::wrap_angle(std::atan2(dir.y(), dir.x()) - heading)) / max_omega;
  }
  // Speed towards the point now; a robot that must turn first starts from rest.
  const double v0 = turn > 0.05 ? 0.0 : std::clamp(velocity.dot(dir), 0.0, max_speed);
  if (max_acceleration <= 0.0) return v0 > 0.0 ? turn + distance / v0 : std::numeric_limits<double>::infinity();
  // Speed up to max_speed, then cruise.
  const double t_up = (max_speed - v0) / max_acceleration;
  const double d_up = v0 * t_up + 0.5 * max_acceleration * t_up * t_up;
  if (distance <= d_up) {
    // Reaches the point while still speeding up: d = v0 t + a t^2 / 2.
    const double t = (-v0 + std::sqrt(v0 * v0 + 2.0 * max_acceleration * distance)) / max_acceleration;
    return turn + t;
  }
  return turn + t_up + (distance - d_up) / max_speed;
}

std::optional<Intercept> earliest_intercept(const InterceptRobot& robot, const RollingBall& ball, double horizon,
                                            double step) {
  const bool finite = robot.position.allFinite() && robot.velocity.allFinite() && std::isfinite(robot.heading) &&
                      ball.position.allFinite() && ball.velocity.allFinite() && std::isfinite(ball.deceleration) &&
                      std::isfinite(horizon) && std::isfinite(step);
  if (!finite || step <= 0.0 || horizon < 0.0) return std::nullopt;
  // slack(t) < 0: the robot is there before the ball.
  auto slack = [&](double t) { return robot.time_to(ball.at(t)) - t; };
  if (slack(0.0) <= 0.0) return Intercept{0.0, ball.position};
  double previous = 0.0;
  for (double t = step;; t += step) {
    const double now = std::min(t, horizon);
    if (slack(now) <= 0.0) {
      double lo = previous, hi = now;
      while (hi - lo > 1e-3) {
        const double mid = 0.5 * (lo + hi);
        (slack(mid) <= 0.0 ? hi : lo) = mid;
      }
      return Intercept{hi, ball.at(hi)};
    }
    if (now >= horizon) return std::nullopt;
    previous = now;
  }
}

}  // namespace robocaf::actors
