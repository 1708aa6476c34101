#include "actors/player_skills/pass_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace robocaf::actors {

namespace {

double widest_gap(const Eigen::Vector2d& from, double goal_x, double goal_half_width, double ball_radius,
                  const std::vector<ShotObstacle>& opponents) {
  double widest = 0.0;
  for (const GoalGap& g : open_goal_gaps(from, goal_x, goal_half_width, ball_radius, opponents))
    widest = std::max(widest, g.angle);
  return widest;
}

}  // namespace

double rolling_time(double speed, double deceleration, double distance) {
  if (!(distance > 0.0)) return 0.0;
  if (!(speed > 0.0)) return std::numeric_limits<double>::infinity();
  if (!(deceleration > 0.0)) return distance / speed;
  const double disc = speed * speed - 2.0 * deceleration * distance;
  if (disc < 0.0) return std::numeric_limits<double>::infinity();
  return (speed - std::sqrt(disc)) / deceleration;
}

double running_time(double distance, double top_speed, double acceleration) {
  if (!(distance > 0.0)) return 0.0;
  if (!(top_speed > 0.0)) return std::numeric_limits<double>::infinity();
  if (!(acceleration > 0.0)) return distance / top_speed;
  const double speeding_up = top_speed * top_speed / (2.0 * acceleration);
  if (distance <= speeding_up) return std::sqrt(2.0 * distance / acceleration);
  return top_speed / acceleration + (distance - speeding_up) / top_speed;
}

bool pass_lane_safe(const Eigen::Vector2d& from, const Eigen::Vector2d& to, double speed, double deceleration,
                    const std::vector<ShotObstacle>& opponents, const PassParams& params) {
  const double length = (to - from).norm();
  if (!(length > 0.0) || !std::isfinite(length)) return false;
  const Eigen::Vector2d u = (to - from) / length;
  // Points every 10 cm along the lane: an opponent's race to the nearest
  // point is not the one it wins soonest (the ball is there early).
  const int samples = std::max(2, static_cast<int>(std::ceil(length / 0.1)));
  for (const ShotObstacle& o : opponents) {
    if (!o.centre.allFinite()) return false;
    for (int k = 0; k <= samples; ++k) {
      const double s = length * k / samples;
      const Eigen::Vector2d p = from + u * s;
      const double t_ball = rolling_time(speed, deceleration, s);
      const double gap = (o.centre - p).norm() - o.radius;
      const double t_opponent =
          gap <= 0.0 ? 0.0
                     : params.opponent_reaction +
                           running_time(gap, params.opponent_speed, params.opponent_acceleration);
      if (t_opponent < t_ball + params.lane_time_margin) return false;
    }
  }
  return true;
}

std::optional<Pass> choose_pass(const Eigen::Vector2d& ball, double goal_x, double goal_half_width,
                                double ball_radius, double max_kick_speed, double deceleration,
                                const std::vector<PassReceiver>& receivers,
                                const std::vector<ShotObstacle>& opponents, const PassParams& params) {
  if (!ball.allFinite() || !(max_kick_speed > 0.0)) return std::nullopt;
  const double from_ball = widest_gap(ball, goal_x, goal_half_width, ball_radius, opponents);
  std::optional<Pass> best;
  double best_length = 0.0;
  for (const PassReceiver& r : receivers) {
    if (!r.position.allFinite()) continue;
    const double length = (r.position - ball).norm();
    if (length < params.min_length || length > params.max_length) continue;
    const double speed =
        std::sqrt(params.arrival_speed * params.arrival_speed + 2.0 * std::max(0.0, deceleration) * length);
    if (speed > max_kick_speed) continue;
    const double open = widest_gap(r.position, goal_x, goal_half_width, ball_radius, opponents);
    if (open < from_ball + params.min_gain) continue;
    if (!pass_lane_safe(ball, r.position, speed, deceleration, opponents, params)) continue;
    if (best && (open < best->receiver_open_angle || (open == best->receiver_open_angle && length >= best_length)))
      continue;
    best = Pass{r.id, r.position, speed, open};
    best_length = length;
  }
  return best;
}

}  // namespace robocaf::actors
