#include "sim/onboard_camera.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/field_lines.hpp"

namespace robocaf::sim {
namespace {

// MSL-like: 18 x 12 m field, 2 m goals, 0.25 m robots.
msg::LeaguePreset preset() {
  msg::LeaguePreset p;
  p.mutable_field()->set_length(18.0);
  p.mutable_field()->set_width(12.0);
  p.mutable_field()->set_goal_width(2.0);
  p.mutable_robot()->set_radius(0.25);
  p.mutable_ball()->set_radius(0.11);
  return p;
}

msg::OnboardCameraSpec spec(double noise_per_metre = 0.0, double miss = 0.0) {
  msg::OnboardCameraSpec s;
  s.set_horizontal_fov(1.2);  // +-0.6 rad
  s.set_range(8.0);
  s.set_noise_per_metre(noise_per_metre);
  s.set_miss_probability(miss);
  return s;
}

void add_robot(msg::WorldTruth& t, msg::Team team, std::uint32_t id, double x, double y, double theta) {
  auto* r = t.add_robots();
  r->set_team(team);
  r->set_robot_id(id);
  r->mutable_pose()->set_x(x);
  r->mutable_pose()->set_y(y);
  r->mutable_pose()->set_theta(theta);
}

// Blue 1 (the observer) at the given pose, the ball at (bx, by).
msg::WorldTruth scene(double x, double y, double theta, double bx, double by) {
  msg::WorldTruth t;
  t.set_cycle(12);
  t.mutable_ball_position()->set_x(bx);
  t.mutable_ball_position()->set_y(by);
  add_robot(t, msg::BLUE, 1, x, y, theta);
  return t;
}

const msg::Landmark* find_landmark(const msg::OnboardFrame& f, msg::LandmarkKind kind, std::uint32_t index) {
  for (const auto& l : f.landmarks())
    if (l.kind() == kind && l.index() == index) return &l;
  return nullptr;
}

TEST(OnboardCamera, SeesObjectsInFrontAtTheirEgocentricPosition) {
  // Facing +y from (1, 2): forward is +y, left is -x.
  auto t = scene(1, 2, M_PI / 2, 0, 5);
  add_robot(t, msg::YELLOW, 2, 1.5, 6, 0.0);
  OnboardCamera cam(preset(), spec(), 1);
  const auto f = cam.observe(t, msg::BLUE, 1, 44, 0.88);
  EXPECT_EQ(f.frame_number(), 44u);
  EXPECT_DOUBLE_EQ(f.t_capture(), 0.88);
  EXPECT_DOUBLE_EQ(f.t_sent(), 0.88);
  EXPECT_EQ(f.cycle(), 12u);
  EXPECT_EQ(f.team(), msg::BLUE);
  EXPECT_EQ(f.robot_id(), 1u);
  ASSERT_EQ(f.balls_size(), 1);
  EXPECT_NEAR(f.balls(0).position().x(), 3.0, 1e-12);
  EXPECT_NEAR(f.balls(0).position().y(), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(f.balls(0).confidence(), OnboardCamera::kConfidence);
  ASSERT_EQ(f.robots_size(), 1);  // never itself
  const auto& r = f.robots(0);
  EXPECT_EQ(r.team(), msg::YELLOW);
  EXPECT_EQ(r.robot_id(), 2u);
  EXPECT_NEAR(r.position().x(), 4.0, 1e-12);
  EXPECT_NEAR(r.position().y(), -0.5, 1e-12);
  EXPECT_NEAR(r.orientation(), -M_PI / 2, 1e-12);
  // Corners and goals are all out of view from here; the centre line meets
  // the +y touch line at (0, 6): 4 m ahead, 1 m to the left.
  ASSERT_EQ(f.landmarks_size(), 1);
  const auto* crossing = find_landmark(f, msg::LANDMARK_LINE_CROSSING, 1);
  ASSERT_NE(crossing, nullptr);
  EXPECT_NEAR(crossing->position().x(), 4.0, 1e-12);
  EXPECT_NEAR(crossing->position().y(), 1.0, 1e-12);
}

TEST(OnboardCamera, ObjectOutsideTheFieldOfViewOrBeyondRangeIsNotSeen) {
  OnboardCamera cam(preset(), spec(), 1);
  auto seen = [&](double bx, double by) {
    return cam.observe(scene(0, 0, 0, bx, by), msg::BLUE, 1, 0, 0).balls_size() == 1;
  };
  EXPECT_TRUE(seen(2 * std::cos(0.59), 2 * std::sin(0.59)));
  EXPECT_FALSE(seen(2 * std::cos(0.61), 2 * std::sin(0.61)));
  EXPECT_TRUE(seen(2 * std::cos(-0.59), 2 * std::sin(-0.59)));
  EXPECT_FALSE(seen(2 * std::cos(-0.61), 2 * std::sin(-0.61)));
  EXPECT_FALSE(seen(-2, 0));  // behind
  EXPECT_TRUE(seen(7.9, 0));
  EXPECT_FALSE(seen(8.1, 0));
  // The field of view turns with the robot.
  EXPECT_TRUE(cam.observe(scene(0, 0, M_PI, -3, 0.5), msg::BLUE, 1, 0, 0).balls_size() == 1);
  EXPECT_FALSE(cam.observe(scene(0, 0, M_PI, 3, 0.5), msg::BLUE, 1, 0, 0).balls_size() == 1);
}

TEST(OnboardCamera, OccludedObjectIsNotSeen) {
  OnboardCamera cam(preset(), spec(), 1);
  {
    auto t = scene(0, 0, 0, 4, 0);
    add_robot(t, msg::YELLOW, 2, 2, 0, 0);
    add_robot(t, msg::YELLOW, 3, 5, 0.1, 0);  // behind yellow 2 too
    const auto f = cam.observe(t, msg::BLUE, 1, 0, 0);
    EXPECT_EQ(f.balls_size(), 0);
    ASSERT_EQ(f.robots_size(), 1);
    EXPECT_EQ(f.robots(0).robot_id(), 2u);
  }
  {
    // Moved 0.3 m off the line of sight (> the 0.25 m radius): in the clear.
    auto t = scene(0, 0, 0, 4, 0);
    add_robot(t, msg::YELLOW, 2, 2, 0.3, 0);
    const auto f = cam.observe(t, msg::BLUE, 1, 0, 0);
    EXPECT_EQ(f.balls_size(), 1);
  }
  {
    // A teammate hides as much as an opponent.
    auto t = scene(0, 0, 0, 4, 0);
    add_robot(t, msg::BLUE, 2, 2, -0.2, 0);
    EXPECT_EQ(cam.observe(t, msg::BLUE, 1, 0, 0).balls_size(), 0);
  }
  {
    // A ball just in front of a robot: seen from the front, hidden from behind.
    auto t = scene(0, 0, 0, 2.65, 0);
    add_robot(t, msg::YELLOW, 2, 3, 0, M_PI);
    add_robot(t, msg::BLUE, 3, 6, 0, M_PI);
    EXPECT_EQ(cam.observe(t, msg::BLUE, 1, 0, 0).balls_size(), 1);
    const auto behind = cam.observe(t, msg::BLUE, 3, 0, 0);
    EXPECT_EQ(behind.balls_size(), 0);
    ASSERT_EQ(behind.robots_size(), 1);  // yellow 2 hides blue 1 as well
    EXPECT_EQ(behind.robots(0).robot_id(), 2u);
  }
}

TEST(OnboardCamera, NoiseSdGrowsLinearlyWithDistance) {
  const double per_metre = 0.02;
  const int n = 20000;
  double measured[2][2] = {};  // [distance][axis]
  const double distances[2] = {1.0, 4.0};
  for (int d = 0; d < 2; ++d) {
    OnboardCamera cam(preset(), spec(per_metre), 100 + static_cast<std::uint64_t>(d));
    // 30 degrees off the heading: the noise is still per robot-frame axis.
    const double bearing = 0.3, dist = distances[d];
    const auto t = scene(0, 0, 0.4, dist * std::cos(0.4 + bearing), dist * std::sin(0.4 + bearing));
    const double tx = dist * std::cos(bearing), ty = dist * std::sin(bearing);
    double sx = 0, sxx = 0, sy = 0, syy = 0;
    for (int k = 0; k < n; ++k) {
      const auto f = cam.observe(t, msg::BLUE, 1, static_cast<std::uint64_t>(k), 0);
      ASSERT_EQ(f.balls_size(), 1);
      const double ex = f.balls(0).position().x() - tx, ey = f.balls(0).position().y() - ty;
      sx += ex, sxx += ex * ex, sy += ey, syy += ey * ey;
    }
    EXPECT_NEAR(sx / n, 0.0, 0.03 * per_metre * dist);
    EXPECT_NEAR(sy / n, 0.0, 0.03 * per_metre * dist);
    measured[d][0] = std::sqrt(sxx / n - (sx / n) * (sx / n));
    measured[d][1] = std::sqrt(syy / n - (sy / n) * (sy / n));
    for (int axis = 0; axis < 2; ++axis) {
      EXPECT_NEAR(measured[d][axis], per_metre * dist, 0.03 * per_metre * dist)
          << "distance " << dist << " axis " << axis;
    }
  }
  EXPECT_NEAR(measured[1][0] / measured[0][0], 4.0, 0.2);
  EXPECT_NEAR(measured[1][1] / measured[0][1], 4.0, 0.2);
}

TEST(OnboardCamera, LandmarksAreSeenWhenInView) {
  OnboardCamera cam(preset(), spec(), 1);
  {
    // In front of the +x goal, facing it: its two posts, nothing else.
    const auto f = cam.observe(scene(7, 0, 0, -5, 0), msg::BLUE, 1, 0, 0);
    ASSERT_EQ(f.landmarks_size(), 2);
    const auto* p0 = find_landmark(f, msg::LANDMARK_GOAL_POST, 0);  // (9, -1)
    const auto* p1 = find_landmark(f, msg::LANDMARK_GOAL_POST, 1);  // (9, +1)
    ASSERT_NE(p0, nullptr);
    ASSERT_NE(p1, nullptr);
    EXPECT_NEAR(p0->position().x(), 2.0, 1e-12);
    EXPECT_NEAR(p0->position().y(), -1.0, 1e-12);
    EXPECT_NEAR(p1->position().x(), 2.0, 1e-12);
    EXPECT_NEAR(p1->position().y(), 1.0, 1e-12);
  }
  {
    // Facing the -x goal from (-7, 0): post 2 (-9, -1) is on the left.
    const auto f = cam.observe(scene(-7, 0, M_PI, 5, 0), msg::BLUE, 1, 0, 0);
    ASSERT_EQ(f.landmarks_size(), 2);
    const auto* p2 = find_landmark(f, msg::LANDMARK_GOAL_POST, 2);
    const auto* p3 = find_landmark(f, msg::LANDMARK_GOAL_POST, 3);
    ASSERT_NE(p2, nullptr);
    ASSERT_NE(p3, nullptr);
    EXPECT_NEAR(p2->position().x(), 2.0, 1e-12);
    EXPECT_NEAR(p2->position().y(), 1.0, 1e-12);
    EXPECT_NEAR(p3->position().x(), 2.0, 1e-12);
    EXPECT_NEAR(p3->position().y(), -1.0, 1e-12);
  }
  {
    // Looking at corner 1 (+x, +y) = (9, 6) from 5 m away; the posts are out of view.
    const auto f = cam.observe(scene(5, 3, std::atan2(3, 4), -5, 0), msg::BLUE, 1, 0, 0);
    ASSERT_EQ(f.landmarks_size(), 1);
    EXPECT_EQ(f.landmarks(0).kind(), msg::LANDMARK_CORNER);
    EXPECT_EQ(f.landmarks(0).index(), 1u);
    EXPECT_NEAR(f.landmarks(0).position().x(), 5.0, 1e-12);
    EXPECT_NEAR(f.landmarks(0).position().y(), 0.0, 1e-12);
  }
  {
    // Corner 3 (-x, -y) = (-9, -6) from (-5, -3).
    const auto f = cam.observe(scene(-5, -3, std::atan2(-3, -4), 5, 0), msg::BLUE, 1, 0, 0);
    ASSERT_EQ(f.landmarks_size(), 1);
    EXPECT_EQ(f.landmarks(0).kind(), msg::LANDMARK_CORNER);
    EXPECT_EQ(f.landmarks(0).index(), 3u);
  }
  {
    // Beyond range: corner 1 from the centre spot is 10.8 m away.
    const auto f = cam.observe(scene(0, 0, std::atan2(6, 9), -5, 0), msg::BLUE, 1, 0, 0);
    EXPECT_EQ(f.landmarks_size(), 0);
  }
}

TEST(OnboardCamera, RobotsHideLandmarks) {
  auto t = scene(7, 0, 0, -5, 0);
  add_robot(t, msg::YELLOW, 2, 8, 0.5, 0);  // on the line of sight to post 1 (9, 1)
  OnboardCamera cam(preset(), spec(), 1);
  const auto f = cam.observe(t, msg::BLUE, 1, 0, 0);
  ASSERT_EQ(f.landmarks_size(), 1);
  EXPECT_EQ(f.landmarks(0).index(), 0u);
}

// Line points lie on the field's lines, seen from where the robot stands;
// a robot in front hides the lines behind it.
TEST(OnboardCamera, LinePointsLieOnTheFieldLines) {
  const auto t = scene(-3.0, 1.0, 0.2, 20, 20);  // facing the centre circle and the halfway line
  OnboardCamera cam(preset(), spec(), 1);
  const auto f = cam.observe(t, msg::BLUE, 1, 0, 0);
  ASSERT_GE(f.line_points_size(), OnboardCamera::kLineRays) << "every ray crosses the circle or the halfway line";
  const runtime::FieldLines lines(preset().field());
  const double c = std::cos(0.2), s = std::sin(0.2);
  for (const auto& q : f.line_points()) {
    const Eigen::Vector2d field(-3.0 + c * q.x() - s * q.y(), 1.0 + s * q.x() + c * q.y());
    EXPECT_LT(lines.nearest(field).distance, 1e-9);
    EXPECT_LE(std::abs(std::atan2(q.y(), q.x())), 0.6 + 1e-12);
    EXPECT_LE(std::hypot(q.x(), q.y()), 8.0 + 1e-12);
  }
  auto blocked = t;
  add_robot(blocked, msg::YELLOW, 2, -2.5, 1.1, 0.0);  // half a metre ahead, filling most of the view
  const auto g = cam.observe(blocked, msg::BLUE, 1, 1, 0);
  EXPECT_LT(g.line_points_size(), f.line_points_size() / 2);
}

msg::WorldTruth busy_scene() {
  auto t = scene(0, 0, 0.1, 3, 0.5);
  add_robot(t, msg::YELLOW, 1, 4, -1, 2.0);
  add_robot(t, msg::YELLOW, 2, 5, 1, -1.0);
  add_robot(t, msg::BLUE, 2, 6, -0.5, 0.0);
  add_robot(t, msg::BLUE, 3, 7, 0, M_PI);  // faces the others
  return t;
}

TEST(OnboardCamera, SameSeedGivesIdenticalFrames) {
  const auto t = busy_scene();
  OnboardCamera a(preset(), spec(0.01, 0.2), 42), b(preset(), spec(0.01, 0.2), 42),
      c(preset(), spec(0.01, 0.2), 43);
  bool differs = false;
  for (std::uint64_t k = 0; k < 200; ++k) {
    const auto fa = a.observe(t, msg::BLUE, 1, k, 0.02 * k);
    EXPECT_EQ(fa.SerializeAsString(), b.observe(t, msg::BLUE, 1, k, 0.02 * k).SerializeAsString());
    differs = differs || fa.SerializeAsString() != c.observe(t, msg::BLUE, 1, k, 0.02 * k).SerializeAsString();
  }
  EXPECT_TRUE(differs);
}

TEST(OnboardCamera, EachRobotHasItsOwnStream) {
  // Observing other robots in between, or in another order, changes nothing.
  const auto t = busy_scene();
  OnboardCamera a(preset(), spec(0.01, 0.2), 7), b(preset(), spec(0.01, 0.2), 7);
  for (std::uint64_t k = 0; k < 100; ++k) {
    const auto a1 = a.observe(t, msg::BLUE, 1, k, 0);
    const auto a3 = a.observe(t, msg::BLUE, 3, k, 0);
    const auto b3 = b.observe(t, msg::BLUE, 3, k, 0);
    b.observe(t, msg::YELLOW, 1, k, 0);
    const auto b1 = b.observe(t, msg::BLUE, 1, k, 0);
    EXPECT_EQ(a1.SerializeAsString(), b1.SerializeAsString());
    EXPECT_EQ(a3.SerializeAsString(), b3.SerializeAsString());
  }
}

TEST(OnboardCamera, MissProbabilityDropsDetectionsWithoutShiftingTheOthersNoise) {
  const auto t = busy_scene();
  OnboardCamera all(preset(), spec(0.01, 0.0), 3), some(preset(), spec(0.01, 0.4), 3);
  int seen = 0, total = 0;
  for (std::uint64_t k = 0; k < 3000; ++k) {
    const auto fa = all.observe(t, msg::BLUE, 1, k, 0);
    const auto fs = some.observe(t, msg::BLUE, 1, k, 0);
    total += fa.balls_size() + fa.robots_size();
    seen += fs.balls_size() + fs.robots_size();
    // Whatever `some` still sees has the noise `all` gave it.
    for (const auto& r : fs.robots()) {
      bool matched = false;
      for (const auto& q : fa.robots()) {
        if (q.team() == r.team() && q.robot_id() == r.robot_id()) {
          EXPECT_EQ(q.position().x(), r.position().x());
          EXPECT_EQ(q.position().y(), r.position().y());
          matched = true;
        }
      }
      EXPECT_TRUE(matched);
    }
    if (fs.balls_size() == 1) {
      ASSERT_EQ(fa.balls_size(), 1);
      EXPECT_EQ(fa.balls(0).position().x(), fs.balls(0).position().x());
    }
  }
  ASSERT_GT(total, 3000 * 2);  // the scene shows several objects
  EXPECT_NEAR(static_cast<double>(seen) / total, 0.6, 0.02);
}

void expect_rejected(const msg::LeaguePreset& p, const msg::OnboardCameraSpec& s, const std::string& field) {
  try {
    OnboardCamera cam(p, s, 1);
    ADD_FAILURE() << "accepted a bad " << field;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

TEST(OnboardCamera, RejectsBadSpecsNamingTheField) {
  auto s = spec();
  for (double fov : {0.0, -0.5, M_PI, 4.0, std::nan("")}) {
    s = spec();
    s.set_horizontal_fov(fov);
    expect_rejected(preset(), s, "horizontal_fov");
  }
  for (double range : {0.0, -1.0, std::nan("")}) {
    s = spec();
    s.set_range(range);
    expect_rejected(preset(), s, "range");
  }
  expect_rejected(preset(), spec(-0.01), "noise_per_metre");
  expect_rejected(preset(), spec(0.0, 1.5), "miss_probability");
  expect_rejected(preset(), spec(0.0, -0.1), "miss_probability");
  auto p = preset();
  p.mutable_field()->set_length(0);
  expect_rejected(p, spec(), "field.length");
  p = preset();
  p.mutable_robot()->set_radius(-0.1);
  expect_rejected(p, spec(), "robot.radius");
  // Limits themselves are fine.
  EXPECT_NO_THROW({ OnboardCamera cam(preset(), spec(0.0, 1.0), 1); });
}

TEST(OnboardCamera, UnknownObserverIsRejected) {
  OnboardCamera cam(preset(), spec(), 1);
  EXPECT_THROW(cam.observe(scene(0, 0, 0, 1, 0), msg::YELLOW, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(cam.observe(scene(0, 0, 0, 1, 0), msg::BLUE, 2, 0, 0), std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::sim
