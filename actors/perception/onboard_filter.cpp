#include "actors/perception/onboard_filter.hpp"

#include <cmath>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

// Poses as rigid transforms of the plane: a then b.
msg::Pose2 compose(const msg::Pose2& a, const msg::Pose2& b) {
  const double c = std::cos(a.theta()), s = std::sin(a.theta());
  msg::Pose2 out;
  out.set_x(a.x() + c * b.x() - s * b.y());
  out.set_y(a.y() + s * b.x() + c * b.y());
  out.set_theta(runtime::wrap_angle(a.theta() + b.theta()));
  return out;
}

msg::Pose2 inverse(const msg::Pose2& p) {
  const double c = std::cos(p.theta()), s = std::sin(p.theta());
  msg::Pose2 out;
  out.set_x(-(c * p.x() + s * p.y()));
  out.set_y(-(-s * p.x() + c * p.y()));
  out.set_theta(-p.theta());
  return out;
}

constexpr double kBlend = 0.2;  // share of a new landmark fix taken per frame

int known_landmarks(const LandmarkLocaliser& localiser, const msg::OnboardFrame& frame) {
  int n = 0;
  for (const auto& landmark : frame.landmarks())
    if (localiser.field_position(landmark.kind(), landmark.index())) ++n;
  return n;
}

}  // namespace

OnboardFilter::OnboardFilter(msg::Team team, uint32_t robot_id) : team_(team), robot_id_(robot_id) {}

OnboardFilter::OnboardFilter(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league,
                             double noise_per_metre)
    : team_(team),
      robot_id_(robot_id),
      noise_per_metre_(noise_per_metre),
      localiser_(std::in_place, league.field(), noise_per_metre) {}

void OnboardFilter::on_odometry(const msg::Odometry& odometry) { odometry_pose_ = odometry.pose(); }

msg::Percept OnboardFilter::to_percept(const msg::OnboardFrame& frame) {
  msg::Percept p;
  p.set_cycle(frame.cycle());
  p.set_t_capture(frame.t_capture());
  p.set_team(team_);
  p.set_robot_id(robot_id_);
  if (frame.team() != team_ || frame.robot_id() != robot_id_) return p;
  if (odometry_pose_) {
    if (localiser_) {
      // The current estimate tells apart the two goals an image cannot.
      const msg::Pose2 estimate = compose(correction_, *odometry_pose_);
      if (auto fix = localiser_->locate(frame.landmarks(), &estimate)) {
        const msg::Pose2 measured = compose(*fix, inverse(*odometry_pose_));
        correction_.set_x(correction_.x() + kBlend * (measured.x() - correction_.x()));
        correction_.set_y(correction_.y() + kBlend * (measured.y() - correction_.y()));
        correction_.set_theta(
            runtime::wrap_angle(correction_.theta() + kBlend * runtime::wrap_angle(measured.theta() - correction_.theta())));
      } else if (known_landmarks(*localiser_, frame) == 1) {
        // One landmark: the position with the heading we have. (Two or more
        // that the full fit refused disagree with each other: a misread.)
        if (auto at = localiser_->locate_with_heading(frame.landmarks(), estimate)) {
          // The heading is kept, so the correction's position moves by as
          // much as the estimate's.
          correction_.set_x(correction_.x() + kBlend * (at->x() - estimate.x()));
          correction_.set_y(correction_.y() + kBlend * (at->y() - estimate.y()));
        }
      }
    }
    *p.mutable_self_pose() = compose(correction_, *odometry_pose_);
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
