#include "runtime/field_landmarks.hpp"

namespace robocaf::runtime {

std::vector<FieldLandmark> field_landmarks(const msg::FieldGeometry& field) {
  const double hl = 0.5 * field.length(), hw = 0.5 * field.width(), hg = 0.5 * field.goal_width();
  std::vector<FieldLandmark> out = {
      {msg::LANDMARK_GOAL_POST, 0, hl, -hg}, {msg::LANDMARK_GOAL_POST, 1, hl, hg},
      {msg::LANDMARK_GOAL_POST, 2, -hl, -hg}, {msg::LANDMARK_GOAL_POST, 3, -hl, hg},
      {msg::LANDMARK_CORNER, 0, hl, -hw},     {msg::LANDMARK_CORNER, 1, hl, hw},
      {msg::LANDMARK_CORNER, 2, -hl, hw},     {msg::LANDMARK_CORNER, 3, -hl, -hw},
      {msg::LANDMARK_LINE_CROSSING, 0, 0.0, -hw}, {msg::LANDMARK_LINE_CROSSING, 1, 0.0, hw},
  };
  const double r = field.center_circle_radius();
  if (r > 0.0) {
    out.push_back({msg::LANDMARK_LINE_CROSSING, 2, 0.0, -r});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 3, 0.0, r});
  }
  const double depth = field.goal_area_depth(), half = 0.5 * field.goal_area_width();
  if (depth > 0.0 && half > 0.0) {
    const double front = hl - depth;
    out.push_back({msg::LANDMARK_LINE_CROSSING, 4, front, -half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 5, front, half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 6, -front, half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 7, -front, -half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 8, hl, -half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 9, hl, half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 10, -hl, half});
    out.push_back({msg::LANDMARK_LINE_CROSSING, 11, -hl, -half});
  }
  return out;
}

std::optional<FieldLandmark> field_landmark(const msg::FieldGeometry& field, msg::LandmarkKind kind,
                                            std::uint32_t index) {
  for (const FieldLandmark& l : field_landmarks(field))
    if (l.kind == kind && l.index == index) return l;
  return std::nullopt;
}

}  // namespace robocaf::runtime
