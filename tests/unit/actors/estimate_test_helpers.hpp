#pragma once
// World knowledge messages the actor tests send in place of a robot's
// world knowledge actor.

#include <cstdint>

#include "messages/world.pb.h"

namespace robocaf::actors::testing {

/// Blue robot `robot`'s estimate of cycle `cycle` with only its own pose in it.
inline msg::WorldEstimate blue_estimate_of(uint32_t robot, uint64_t cycle, double x, double y, double theta) {
  msg::WorldEstimate e;
  e.set_cycle(cycle);
  e.set_team(msg::BLUE);
  e.set_robot_id(robot);
  e.mutable_self()->set_team(msg::BLUE);
  e.mutable_self()->set_robot_id(robot);
  e.mutable_self()->mutable_pose()->set_x(x);
  e.mutable_self()->mutable_pose()->set_y(y);
  e.mutable_self()->mutable_pose()->set_theta(theta);
  return e;
}

}  // namespace robocaf::actors::testing
