#pragma once
// Choosing a pass: which teammate, where, how hard. Plain functions, no CAF.

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "actors/player_skills/shot_geometry.hpp"

namespace robocaf::actors {

/// What a pass is judged by; lengths in m, speeds in m/s, times in s.
struct PassParams {
  double min_length = 1.0;          ///< shorter passes gain nothing over carrying the ball
  double max_length = 6.0;
  /// The ball's speed when it reaches the receiver: slow enough to stop or
  /// trap, fast enough that opponents near the receiver are not there first.
  double arrival_speed = 2.0;
  double opponent_speed = 1.5;      ///< top speed of an opponent running to the lane
  double opponent_acceleration = 2.0;  ///< from standing, m/s^2
  double opponent_reaction = 0.2;   ///< before it starts (its vision's latency and its decision)
  double lane_time_margin = 0.15;   ///< the ball must pass each lane point this much earlier than any opponent
  double min_gain = 0.1;            ///< rad of open goal the receiver must see more than the ball does
};

/// A teammate that might receive: where it stands.
struct PassReceiver {
  std::uint32_t id = 0;
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
};

/// A chosen pass: kick the ball towards `target` at `kick_speed`.
struct Pass {
  std::uint32_t receiver_id = 0;
  Eigen::Vector2d target = Eigen::Vector2d::Zero();  ///< where the ball is sent (the receiver's position)
  double kick_speed = 0.0;                           ///< m/s at the kick, so it arrives at arrival_speed
  double receiver_open_angle = 0.0;                  ///< rad, the widest gap (open_goal_gaps) seen from the target
};

/// Time (s) a ball kicked at `speed` takes to roll `distance` under constant
/// deceleration `deceleration`; infinity when it stops first.
double rolling_time(double speed, double deceleration, double distance);

/// Time (s) a robot standing still needs to cover `distance` speeding up at
/// `acceleration` to `top_speed` (no acceleration limit when it is 0).
double running_time(double distance, double top_speed, double acceleration);

/// Whether every opponent (a disc of `reach` = its radius + the ball's, the
/// distance at which it touches the ball) is later than the ball, by
/// `params.lane_time_margin`, at every point of the ball's path from `from`
/// to `to` when kicked at `speed`: an opponent starts after
/// params.opponent_reaction from standing and runs straight to the point,
/// speeding up at opponent_acceleration to opponent_speed.
bool pass_lane_safe(const Eigen::Vector2d& from, const Eigen::Vector2d& to, double speed, double deceleration,
                    const std::vector<ShotObstacle>& opponents, const PassParams& params = {});

/// The best pass from `ball` towards the goal at x = goal_x (posts at
/// +-goal_half_width), or nothing when no pass beats shooting from where the
/// ball is. A receiver qualifies when it stands between min_length and
/// max_length away, a kick of at most `max_kick_speed` reaches it at
/// arrival_speed against `deceleration` (rolling friction), the lane to it is
/// safe (pass_lane_safe), and the widest open gap of the goal seen from it
/// (open_goal_gaps with the opponents) beats the one seen from the ball by
/// min_gain. The widest gap wins; ties go to the nearer receiver.
std::optional<Pass> choose_pass(const Eigen::Vector2d& ball, double goal_x, double goal_half_width,
                                double ball_radius, double max_kick_speed, double deceleration,
                                const std::vector<PassReceiver>& receivers,
                                const std::vector<ShotObstacle>& opponents, const PassParams& params = {});

}  // namespace robocaf::actors
