#include "actors/perception/onboard_filter.hpp"

#include <cmath>


namespace robocaf::actors {

OnboardFilter::OnboardFilter(msg::Team team, uint32_t robot_id) : team_(team), robot_id_(robot_id) {}

namespace {
SelfLocaliserParams localiser_params(double start_position_sd) {
  SelfLocaliserParams params;
  if (start_position_sd > 0.0 && std::isfinite(start_position_sd)) params.start_position_sd = start_position_sd;
  return params;
}
}  // namespace

OnboardFilter::OnboardFilter(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league,
                             double noise_per_metre, double start_position_sd)
    : team_(team),
      robot_id_(robot_id),
      noise_per_metre_(noise_per_metre),
      robot_radius_(league.robot().radius()),
      ball_radius_(league.ball().radius()),
      localiser_(std::in_place, league.field(), noise_per_metre, localiser_params(start_position_sd)) {}

void OnboardFilter::on_odometry(const msg::Odometry& odometry) {
  odometry_pose_ = odometry.pose();
  contacts_.clear();
  for (const auto& towards : odometry.bumper()) {
    const Eigen::Vector2d u(towards.x(), towards.y());
    if (u.allFinite() && u.norm() > 0.0) contacts_.push_back(u.normalized());
  }
  if (!localiser_) return;
  localiser_->set_contacts(contacts_);
  localiser_->predict(odometry.pose(), odometry.t());
}

msg::Percept OnboardFilter::to_percept(const msg::OnboardFrame& frame) {
  msg::Percept p;
  p.set_cycle(frame.cycle());
  p.set_t_capture(frame.t_capture());
  p.set_team(team_);
  p.set_robot_id(robot_id_);
  if (frame.team() != team_ || frame.robot_id() != robot_id_) return p;
  for (const Eigen::Vector2d& u : contacts_) {
    msg::Vec2* c = p.add_contacts();
    c->set_x(u.x());
    c->set_y(u.y());
  }
  if (localiser_ && localiser_->started()) {
    // A robot seen touching ours, or with a ball jammed between the two
    // (which touches neither bumper), blocks the way as a bumper contact
    // does. Only then: one seen a hand's width away is no obstacle, and
    // taking it for one froze the self pose while the robot drove into it
    // (MSL: an attacker believed itself 0.3 m short of its teammate, and
    // struck it at 0.8 m/s).
    const double touching = 2.0 * robot_radius_ + kContactSlack;
    const double ball_touching = robot_radius_ + ball_radius_ + kContactSlack;
    std::vector<Eigen::Vector2d> blocked;
    for (const auto& robot : frame.robots()) {
      const Eigen::Vector2d at(robot.position().x(), robot.position().y());
      const double d = at.norm();
      if (!(d > 0.0) || !std::isfinite(d)) continue;
      if (d < touching) blocked.push_back(at / d);
      // A ball jammed between is what the robot pushes on: it stops at it
      // as at a wall across the ball's direction (the simulator's pinned
      // ball), not the other robot's. Taken along the other robot's
      // direction, at an angle, odometry's push slid the estimate sideways
      // along it: MSL, pushing the ball into an opponent ahead on the right,
      // 2 m in 40 s while the robot stood (seed 62, robot 5).
      for (const auto& ball : frame.balls()) {
        const Eigen::Vector2d b(ball.position().x(), ball.position().y());
        const double db = b.norm();
        if (db > 0.0 && db < ball_touching && (at - b).norm() < ball_touching) blocked.push_back(b / db);
      }
    }
    localiser_->set_seen_contacts(std::move(blocked));
    localiser_->update(frame);
    const SelfLocaliser::Pose& x = localiser_->pose();
    p.mutable_self_pose()->set_x(x.x());
    p.mutable_self_pose()->set_y(x.y());
    p.mutable_self_pose()->set_theta(x.z());
    const SelfLocaliser::Covariance& P = localiser_->covariance();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p.add_self_covariance(P(i, j));
    p.set_self_dead_reckoned(true);
  } else if (odometry_pose_) {
    *p.mutable_self_pose() = *odometry_pose_;
    p.set_self_dead_reckoned(true);
  }
  // The tracker weighs each detection by its noise: a ball 8 m away is
  // known to decimetres, one at the robot's feet to millimetres.
  auto with_noise = [this](msg::PerceivedObject* o) {
    if (o->position_sd() <= 0.0 && noise_per_metre_ > 0.0)
      o->set_position_sd(noise_per_metre_ * std::hypot(o->position().x(), o->position().y()));
  };
  for (const auto& ball : frame.balls()) {
    auto* o = p.add_balls();
    *o = ball;
    with_noise(o);
  }
  for (const auto& robot : frame.robots()) {
    msg::PerceivedObject* o = nullptr;
    if (robot.team() == team_) {
      if (robot.robot_id() != robot_id_) o = p.add_teammates();
    } else if (robot.team() != msg::TEAM_UNSPECIFIED) {
      o = p.add_opponents();
    }
    if (!o) continue;
    *o = robot;
    with_noise(o);
  }
  return p;
}

}  // namespace robocaf::actors
