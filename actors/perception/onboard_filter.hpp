#pragma once
// Perception core for onboard cameras (MSL): turns what a robot's own camera
// saw into its percept. No CAF here; the perception actor wraps this class.

#include <cstdint>
#include <optional>

#include "messages/commands.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// Sorts an OnboardFrame's robots into teammates and opponents and attaches
/// the robot's dead-reckoned pose (the newest odometry) as its reference:
/// an onboard camera never sees its own robot, so the percept's self pose is
/// odometry (Percept::self_dead_reckoned) until self-localisation corrects it.
class OnboardFilter {
 public:
  OnboardFilter(msg::Team team, uint32_t robot_id);

  /// Remembers the newest odometry pose.
  void on_odometry(const msg::Odometry& odometry);

  /// The percept for one frame; frames of other robots give an empty percept
  /// for this robot (no objects, no pose).
  msg::Percept to_percept(const msg::OnboardFrame& frame) const;

 private:
  msg::Team team_;
  uint32_t robot_id_;
  std::optional<msg::Pose2> odometry_pose_;
};

}  // namespace robocaf::actors
