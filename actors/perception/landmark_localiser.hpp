#pragma once
// Self-localisation of a robot with an onboard camera from the field's fixed
// landmarks (goal posts, corners) it sees in its own frame. No CAF here.

#include <optional>

#include <Eigen/Core>
#include <google/protobuf/repeated_field.h>

#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// The robot's pose in the field from identified landmarks: the rigid 2D
/// transform that best maps their seen positions (robot frame) onto their
/// known field positions, by least squares (Eigen::umeyama without scale).
/// Two landmarks fix a pose; more average out the camera noise.
///
/// A fit is refused (nullopt) with fewer than two known landmarks, when the
/// landmarks' seen distances to each other disagree with the field's by more
/// than `tolerance` plus the camera's distance-growing noise, or when the pose
/// lies off the field and its boundary: a misidentified landmark must not
/// teleport the robot.
///
/// Landmarks from images are Landmark.symmetric: the field looks the same
/// turned half a turn about the centre spot, so the fit may as well be that
/// turn of itself (x, y, theta) -> (-x, -y, theta + pi). When every landmark
/// used is symmetric and a prior pose is given, the reading whose heading is
/// nearer the prior's wins (the two differ by pi, so a heading estimate
/// off by less than a quarter turn decides right); without a prior the fit
/// stands as the indices say.
class LandmarkLocaliser {
 public:
  /// `noise_per_metre`: the camera's position noise per metre of distance
  /// (OnboardCameraSpec), widening the consistency check for far landmarks.
  explicit LandmarkLocaliser(const msg::FieldGeometry& field, double noise_per_metre = 0.01,
                             double tolerance = 0.15);

  std::optional<msg::Pose2> locate(const google::protobuf::RepeatedPtrField<msg::Landmark>& seen,
                                   const msg::Pose2* prior = nullptr) const;

  /// Field position of a landmark (LandmarkKind indices as in vision.proto);
  /// nullopt for an unknown kind or index.
  std::optional<Eigen::Vector2d> field_position(msg::LandmarkKind kind, uint32_t index) const;

  /// On the field or its boundary: where a fix may put the robot.
  bool in_arena(double x, double y) const;

 private:
  msg::FieldGeometry field_;
  double noise_per_metre_;
  double tolerance_;
};

}  // namespace robocaf::actors
