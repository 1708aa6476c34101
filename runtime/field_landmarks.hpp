#pragma once
// The field's fixed landmarks for onboard self-localisation: where each
// LandmarkKind / index of vision.proto lies. One table for the simulated
// camera that reports them and the perception that localises from them.

#include <cstdint>
#include <optional>
#include <vector>

#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::runtime {

struct FieldLandmark {
  msg::LandmarkKind kind = msg::LANDMARK_UNSPECIFIED;
  std::uint32_t index = 0;
  double x = 0.0, y = 0.0;  ///< field frame, m
};

/// Every landmark of a field: goal posts, corners and the field lines'
/// crossings (vision.proto, LandmarkKind). Line crossings of a goal area are
/// left out when the field has none (goal_area_depth or _width 0); the centre
/// circle's when its radius is 0.
std::vector<FieldLandmark> field_landmarks(const msg::FieldGeometry& field);

/// One landmark's field position; nullopt for an unknown kind or index.
std::optional<FieldLandmark> field_landmark(const msg::FieldGeometry& field, msg::LandmarkKind kind,
                                            std::uint32_t index);

}  // namespace robocaf::runtime
