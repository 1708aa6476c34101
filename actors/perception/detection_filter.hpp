#pragma once
// Perception core: turns a global-camera detection frame into one robot's
// egocentric percept. No CAF here; the perception actor wraps this class.

#include <cstdint>
#include <optional>

#include "messages/vision.pb.h"

namespace robocaf::actors {

/// Finds one robot in a DetectionFrame and expresses every other object in that
/// robot's frame (x forward, y left, orientation relative to its heading).
///
/// Reference pose: objects are made egocentric relative to the robot's pose in
/// this frame when the camera sees it (Percept::self_seen = true). When it does
/// not, the filter uses the last pose it knows (seen earlier or given through
/// update_self_hint), reports it in Percept::self_pose with self_seen = false,
/// so a consumer that converts back with self_pose recovers the camera's field
/// positions exactly. With no pose known at all the percept carries no objects,
/// because they cannot be expressed in a frame that is unknown.
class DetectionFilter {
 public:
  DetectionFilter(msg::Team team, uint32_t robot_id);

  /// Stateful conversion: remembers the self pose when seen and falls back to
  /// the last known one otherwise.
  msg::Percept to_percept(const msg::DetectionFrame& frame);

  /// Pure conversion: uses the frame's self pose, else `fallback_self` (may be
  /// null: then no objects are reported).
  msg::Percept to_percept(const msg::DetectionFrame& frame, const msg::Pose2* fallback_self) const;

  /// Sets the pose used while the camera does not see the robot (e.g. from
  /// world knowledge or odometry); replaced by the next seen pose.
  void update_self_hint(const msg::Pose2& pose);

  /// Detections below this confidence are ignored (default 0: keep all).
  void set_min_confidence(double c) { min_confidence_ = c; }

  const std::optional<msg::Pose2>& last_self_pose() const { return last_self_; }
  msg::Team team() const { return team_; }
  uint32_t robot_id() const { return robot_id_; }

 private:
  msg::Team team_;
  uint32_t robot_id_;
  double min_confidence_ = 0.0;
  std::optional<msg::Pose2> last_self_;
};

}  // namespace robocaf::actors
