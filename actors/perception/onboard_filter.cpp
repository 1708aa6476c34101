#include "actors/perception/onboard_filter.hpp"

namespace robocaf::actors {

OnboardFilter::OnboardFilter(msg::Team team, uint32_t robot_id) : team_(team), robot_id_(robot_id) {}

void OnboardFilter::on_odometry(const msg::Odometry& odometry) { odometry_pose_ = odometry.pose(); }

msg::Percept OnboardFilter::to_percept(const msg::OnboardFrame& frame) const {
  msg::Percept p;
  p.set_cycle(frame.cycle());
  p.set_t_capture(frame.t_capture());
  p.set_team(team_);
  p.set_robot_id(robot_id_);
  if (frame.team() != team_ || frame.robot_id() != robot_id_) return p;
  if (odometry_pose_) {
    *p.mutable_self_pose() = *odometry_pose_;
    p.set_self_dead_reckoned(true);
  }
  for (const auto& ball : frame.balls()) *p.add_balls() = ball;
  for (const auto& robot : frame.robots()) {
    if (robot.team() == team_) {
      if (robot.robot_id() != robot_id_) *p.add_teammates() = robot;
    } else if (robot.team() != msg::TEAM_UNSPECIFIED) {
      *p.add_opponents() = robot;
    }
  }
  return p;
}

}  // namespace robocaf::actors
