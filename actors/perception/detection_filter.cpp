#include "actors/perception/detection_filter.hpp"

#include <cmath>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using runtime::kPi;
using runtime::wrap_angle;

const google::protobuf::RepeatedPtrField<msg::DetectionRobot>& robots_of(const msg::DetectionFrame& f,
                                                                         msg::Team team) {
  return team == msg::BLUE ? f.robots_blue() : f.robots_yellow();
}

msg::Team opponent_of(msg::Team team) {
  return team == msg::BLUE ? msg::YELLOW : team == msg::YELLOW ? msg::BLUE : msg::TEAM_UNSPECIFIED;
}

// Rotates the field offset into the robot frame.
void to_ego(const msg::Pose2& self, double x, double y, msg::Vec2* out) {
  const double dx = x - self.x(), dy = y - self.y();
  const double c = std::cos(self.theta()), s = std::sin(self.theta());
  out->set_x(c * dx + s * dy);
  out->set_y(-s * dx + c * dy);
}

void add_robot(const msg::Pose2& self, const msg::DetectionRobot& r,
               google::protobuf::RepeatedPtrField<msg::PerceivedObject>* out) {
  auto* o = out->Add();
  to_ego(self, r.x(), r.y(), o->mutable_position());
  o->set_orientation(wrap_angle(r.orientation() - self.theta()));
  o->set_robot_id(r.robot_id());
  o->set_confidence(r.confidence());
}

}  // namespace

DetectionFilter::DetectionFilter(msg::Team team, uint32_t robot_id) : team_(team), robot_id_(robot_id) {}

void DetectionFilter::update_self_hint(const msg::Pose2& pose) { last_self_ = pose; }

msg::Percept DetectionFilter::to_percept(const msg::DetectionFrame& frame) {
  msg::Percept p = to_percept(frame, last_self_ ? &*last_self_ : nullptr);
  if (p.self_seen()) last_self_ = p.self_pose();
  return p;
}

msg::Percept DetectionFilter::to_percept(const msg::DetectionFrame& frame, const msg::Pose2* fallback_self) const {
  msg::Percept p;
  p.set_cycle(frame.cycle());
  p.set_t_capture(frame.t_capture());
  p.set_team(team_);
  p.set_robot_id(robot_id_);

  // Overlapping cameras may report the same robot twice: trust the most confident.
  const msg::DetectionRobot* self = nullptr;
  for (const auto& r : robots_of(frame, team_)) {
    if (r.robot_id() != robot_id_ || r.confidence() < min_confidence_) continue;
    if (!self || r.confidence() > self->confidence()) self = &r;
  }

  msg::Pose2 ref;
  if (self) {
    ref.set_x(self->x());
    ref.set_y(self->y());
    ref.set_theta(wrap_angle(self->orientation()));
    p.set_self_seen(true);
  } else if (fallback_self) {
    ref = *fallback_self;
  } else {
    return p;
  }
  *p.mutable_self_pose() = ref;

  for (const auto& b : frame.balls()) {
    if (b.confidence() < min_confidence_) continue;
    auto* o = p.add_balls();
    to_ego(ref, b.x(), b.y(), o->mutable_position());
    o->set_confidence(b.confidence());
  }
  for (const auto& r : robots_of(frame, team_)) {
    if (r.robot_id() == robot_id_ || r.confidence() < min_confidence_) continue;
    add_robot(ref, r, p.mutable_teammates());
  }
  const msg::Team opp = opponent_of(team_);
  if (opp != msg::TEAM_UNSPECIFIED) {
    for (const auto& r : robots_of(frame, opp)) {
      if (r.confidence() < min_confidence_) continue;
      add_robot(ref, r, p.mutable_opponents());
    }
  }
  return p;
}

}  // namespace robocaf::actors
