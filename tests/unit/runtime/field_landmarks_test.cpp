#include "runtime/field_landmarks.hpp"

#include <cmath>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::runtime {
namespace {

TEST(FieldLandmarks, EveryKindAndIndexOnceOnTheFieldsLines) {
  const msg::FieldGeometry field = preset_match_config("msl").league().field();
  const auto all = field_landmarks(field);
  EXPECT_EQ(all.size(), 4u + 4u + 12u);
  std::set<std::pair<int, std::uint32_t>> seen;
  const double hl = 0.5 * field.length(), hw = 0.5 * field.width();
  for (const FieldLandmark& l : all) {
    EXPECT_TRUE(seen.insert({l.kind, l.index}).second) << l.kind << " " << l.index;
    // On the field's edge or inside it.
    EXPECT_LE(std::abs(l.x), hl + 1e-12);
    EXPECT_LE(std::abs(l.y), hw + 1e-12);
    const auto found = field_landmark(field, l.kind, l.index);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->x, l.x);
    EXPECT_EQ(found->y, l.y);
  }
  // The +x goal area's front corner at -y: 0.75 m in front of the goal line,
  // half its 3.9 m width to the side.
  const auto corner = field_landmark(field, msg::LANDMARK_LINE_CROSSING, 4);
  ASSERT_TRUE(corner.has_value());
  EXPECT_DOUBLE_EQ(corner->x, hl - 0.75);
  EXPECT_DOUBLE_EQ(corner->y, -1.95);
  EXPECT_FALSE(field_landmark(field, msg::LANDMARK_LINE_CROSSING, 12).has_value());
  EXPECT_FALSE(field_landmark(field, msg::LANDMARK_UNSPECIFIED, 0).has_value());
}

TEST(FieldLandmarks, AFieldWithoutGoalAreasOrCircleHasNoCrossingsThere) {
  msg::FieldGeometry field = preset_match_config("msl").league().field();
  field.set_goal_area_depth(0.0);
  field.set_center_circle_radius(0.0);
  EXPECT_EQ(field_landmarks(field).size(), 4u + 4u + 2u);
}

}  // namespace
}  // namespace robocaf::runtime
