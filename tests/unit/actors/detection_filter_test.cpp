#include "actors/perception/detection_filter.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;

msg::DetectionRobot* add_robot(google::protobuf::RepeatedPtrField<msg::DetectionRobot>* list, uint32_t id, double x,
                               double y, double orientation, double confidence = 0.9) {
  auto* r = list->Add();
  r->set_robot_id(id);
  r->set_x(x);
  r->set_y(y);
  r->set_orientation(orientation);
  r->set_confidence(confidence);
  return r;
}

void add_ball(msg::DetectionFrame& f, double x, double y, double confidence = 0.9) {
  auto* b = f.add_balls();
  b->set_x(x);
  b->set_y(y);
  b->set_confidence(confidence);
}

TEST(DetectionFilter, ObjectAheadOfRobotFacingPlusYIsOnItsXAxis) {
  msg::DetectionFrame f;
  f.set_cycle(7);
  f.set_t_capture(1.25);
  add_robot(f.mutable_robots_blue(), 3, 0.2, -0.1, kPi / 2);
  add_ball(f, 0.2, 0.9);                                       // 1 m ahead
  add_robot(f.mutable_robots_blue(), 1, -0.3, -0.1, kPi);      // 0.5 m to its left, facing -x
  add_robot(f.mutable_robots_yellow(), 3, 0.7, -0.1, 0.0);     // 0.5 m to its right

  DetectionFilter filter(msg::BLUE, 3);
  const msg::Percept p = filter.to_percept(f);
  EXPECT_EQ(p.cycle(), 7u);
  EXPECT_DOUBLE_EQ(p.t_capture(), 1.25);
  EXPECT_EQ(p.team(), msg::BLUE);
  EXPECT_EQ(p.robot_id(), 3u);
  ASSERT_TRUE(p.self_seen());
  EXPECT_DOUBLE_EQ(p.self_pose().x(), 0.2);
  EXPECT_DOUBLE_EQ(p.self_pose().y(), -0.1);
  EXPECT_NEAR(p.self_pose().theta(), kPi / 2, 1e-12);

  ASSERT_EQ(p.balls_size(), 1);
  EXPECT_NEAR(p.balls(0).position().x(), 1.0, 1e-12);
  EXPECT_NEAR(p.balls(0).position().y(), 0.0, 1e-12);

  ASSERT_EQ(p.teammates_size(), 1);  // itself is not a teammate
  EXPECT_EQ(p.teammates(0).robot_id(), 1u);
  EXPECT_NEAR(p.teammates(0).position().x(), 0.0, 1e-12);
  EXPECT_NEAR(p.teammates(0).position().y(), 0.5, 1e-12);
  EXPECT_NEAR(p.teammates(0).orientation(), kPi / 2, 1e-12);

  ASSERT_EQ(p.opponents_size(), 1);  // same id, other team: an opponent, not self
  EXPECT_EQ(p.opponents(0).robot_id(), 3u);
  EXPECT_NEAR(p.opponents(0).position().x(), 0.0, 1e-12);
  EXPECT_NEAR(p.opponents(0).position().y(), -0.5, 1e-12);
  EXPECT_NEAR(p.opponents(0).orientation(), -kPi / 2, 1e-12);
}

TEST(DetectionFilter, YellowRobotSeesBlueAsOpponents) {
  msg::DetectionFrame f;
  add_robot(f.mutable_robots_yellow(), 2, 0.0, 0.0, kPi);
  add_robot(f.mutable_robots_blue(), 2, -1.0, 0.0, 0.0);
  DetectionFilter filter(msg::YELLOW, 2);
  const msg::Percept p = filter.to_percept(f);
  ASSERT_TRUE(p.self_seen());
  ASSERT_EQ(p.opponents_size(), 1);
  EXPECT_NEAR(p.opponents(0).position().x(), 1.0, 1e-12);  // behind it in the field is ahead of a robot facing -x
  EXPECT_NEAR(p.opponents(0).position().y(), 0.0, 1e-12);
  EXPECT_EQ(p.teammates_size(), 0);
}

TEST(DetectionFilter, KeepsLastSeenPoseWhenSelfIsMissing) {
  DetectionFilter filter(msg::BLUE, 1);
  msg::DetectionFrame seen;
  add_robot(seen.mutable_robots_blue(), 1, 1.0, 0.0, 0.0);
  ASSERT_TRUE(filter.to_percept(seen).self_seen());

  msg::DetectionFrame missing;
  add_ball(missing, 1.5, 0.5);
  const msg::Percept p = filter.to_percept(missing);
  EXPECT_FALSE(p.self_seen());
  ASSERT_TRUE(p.has_self_pose());
  EXPECT_DOUBLE_EQ(p.self_pose().x(), 1.0);  // the reference the objects were made egocentric with
  ASSERT_EQ(p.balls_size(), 1);
  EXPECT_NEAR(p.balls(0).position().x(), 0.5, 1e-12);
  EXPECT_NEAR(p.balls(0).position().y(), 0.5, 1e-12);
}

TEST(DetectionFilter, NoReferencePoseMeansNoObjects) {
  DetectionFilter filter(msg::BLUE, 1);
  msg::DetectionFrame f;
  add_ball(f, 0.5, 0.5);
  add_robot(f.mutable_robots_yellow(), 1, 0.0, 0.0, 0.0);
  const msg::Percept p = filter.to_percept(f);
  EXPECT_FALSE(p.self_seen());
  EXPECT_FALSE(p.has_self_pose());
  EXPECT_EQ(p.balls_size(), 0);
  EXPECT_EQ(p.opponents_size(), 0);
}

TEST(DetectionFilter, HintServesAsFallbackAndPureOverloadUsesGivenPose) {
  DetectionFilter filter(msg::BLUE, 1);
  msg::Pose2 hint;
  hint.set_x(-1.0);
  hint.set_theta(kPi);
  filter.update_self_hint(hint);
  msg::DetectionFrame f;
  add_ball(f, -2.0, 0.0);
  const msg::Percept p = filter.to_percept(f);
  ASSERT_EQ(p.balls_size(), 1);
  EXPECT_NEAR(p.balls(0).position().x(), 1.0, 1e-12);

  const msg::Percept q = filter.to_percept(f, nullptr);
  EXPECT_EQ(q.balls_size(), 0);
}

TEST(DetectionFilter, DuplicateSelfDetectionsUseTheMostConfident) {
  msg::DetectionFrame f;
  add_robot(f.mutable_robots_blue(), 4, 5.0, 5.0, 0.0, 0.2);
  add_robot(f.mutable_robots_blue(), 4, 0.1, 0.2, 0.3, 0.95);
  add_ball(f, 0.0, 0.0, 0.1);
  DetectionFilter filter(msg::BLUE, 4);
  filter.set_min_confidence(0.5);
  const msg::Percept p = filter.to_percept(f);
  EXPECT_DOUBLE_EQ(p.self_pose().x(), 0.1);
  EXPECT_EQ(p.teammates_size(), 0);
  EXPECT_EQ(p.balls_size(), 0);  // below the confidence threshold
}

}  // namespace
}  // namespace robocaf::actors
