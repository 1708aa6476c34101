#include "sim/global_camera.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace robocaf::sim {
namespace {

msg::NoiseSpec noise(double pos_sd, double th_sd, double ball_sd, double miss) {
  msg::NoiseSpec n;
  n.set_position_sd(pos_sd);
  n.set_orientation_sd(th_sd);
  n.set_ball_position_sd(ball_sd);
  n.set_miss_probability(miss);
  return n;
}

msg::WorldTruth truth() {
  msg::WorldTruth t;
  t.set_cycle(17);
  t.set_t(0.34);
  t.mutable_ball_position()->set_x(0.3);
  t.mutable_ball_position()->set_y(-0.2);
  for (int i = 0; i < 3; ++i) {
    for (msg::Team team : {msg::BLUE, msg::YELLOW}) {
      auto* r = t.add_robots();
      r->set_team(team);
      r->set_robot_id(static_cast<std::uint32_t>(i));
      r->mutable_pose()->set_x(team == msg::BLUE ? -0.5 : 0.5);
      r->mutable_pose()->set_y(0.2 * i);
      r->mutable_pose()->set_theta(team == msg::BLUE ? 0.0 : M_PI - 0.001);
    }
  }
  return t;
}

TEST(GlobalCamera, SameSeedGivesIdenticalFrames) {
  const auto spec = noise(0.002, 0.02, 0.002, 0.1);
  GlobalCamera a(spec, 42), b(spec, 42);
  const auto t = truth();
  for (std::uint64_t f = 0; f < 200; ++f) {
    EXPECT_EQ(a.observe(t, f, 0.02 * f).SerializeAsString(), b.observe(t, f, 0.02 * f).SerializeAsString());
  }
}

TEST(GlobalCamera, DifferentSeedGivesDifferentFrames) {
  const auto spec = noise(0.002, 0.02, 0.002, 0.0);
  GlobalCamera a(spec, 1), b(spec, 2);
  const auto t = truth();
  const auto fa = a.observe(t, 0, 0.0), fb = b.observe(t, 0, 0.0);
  EXPECT_NE(fa.SerializeAsString(), fb.SerializeAsString());
  EXPECT_NE(fa.balls(0).x(), fb.balls(0).x());
}

TEST(GlobalCamera, FrameCarriesTheTruthSortedByTeam) {
  GlobalCamera cam(noise(0, 0, 0, 0), 3);
  const auto f = cam.observe(truth(), 99, 1.5);
  EXPECT_EQ(f.frame_number(), 99u);
  EXPECT_DOUBLE_EQ(f.t_capture(), 1.5);
  EXPECT_DOUBLE_EQ(f.t_sent(), 1.5);
  EXPECT_EQ(f.camera_id(), 0u);
  EXPECT_EQ(f.cycle(), 17u);
  ASSERT_EQ(f.balls_size(), 1);
  EXPECT_DOUBLE_EQ(f.balls(0).x(), 0.3);
  EXPECT_DOUBLE_EQ(f.balls(0).y(), -0.2);
  EXPECT_DOUBLE_EQ(f.balls(0).confidence(), GlobalCamera::kConfidence);
  ASSERT_EQ(f.robots_blue_size(), 3);
  ASSERT_EQ(f.robots_yellow_size(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(f.robots_blue(i).robot_id(), static_cast<std::uint32_t>(i));
    EXPECT_DOUBLE_EQ(f.robots_blue(i).x(), -0.5);
    EXPECT_DOUBLE_EQ(f.robots_yellow(i).x(), 0.5);
    EXPECT_DOUBLE_EQ(f.robots_yellow(i).y(), 0.2 * i);
    EXPECT_NEAR(f.robots_yellow(i).orientation(), M_PI - 0.001, 1e-12);
    EXPECT_GT(f.robots_yellow(i).confidence(), 0.8);
  }
}

TEST(GlobalCamera, NoiseHasTheConfiguredSpread) {
  GlobalCamera cam(noise(0.01, 0.05, 0.004, 0.0), 11);
  const auto t = truth();
  const int n = 20000;
  double sx = 0, sxx = 0, sb = 0, sbb = 0, st = 0, stt = 0;
  for (int k = 0; k < n; ++k) {
    const auto f = cam.observe(t, static_cast<std::uint64_t>(k), 0);
    const double dx = f.robots_blue(1).x() + 0.5;
    const double db = f.balls(0).y() + 0.2;
    const double dt = std::remainder(f.robots_yellow(0).orientation() - (M_PI - 0.001), 2 * M_PI);
    sx += dx, sxx += dx * dx, sb += db, sbb += db * db, st += dt, stt += dt * dt;
  }
  EXPECT_NEAR(sx / n, 0.0, 0.0003);
  EXPECT_NEAR(std::sqrt(sxx / n), 0.01, 0.0003);
  EXPECT_NEAR(sb / n, 0.0, 0.0001);
  EXPECT_NEAR(std::sqrt(sbb / n), 0.004, 0.00012);
  EXPECT_NEAR(st / n, 0.0, 0.0015);
  EXPECT_NEAR(std::sqrt(stt / n), 0.05, 0.0015);
}

TEST(GlobalCamera, OrientationIsWrapped) {
  GlobalCamera cam(noise(0, 0.05, 0, 0), 5);
  const auto t = truth();  // yellow faces almost exactly pi: noise crosses the cut
  bool crossed = false;
  for (int k = 0; k < 200; ++k) {
    const auto f = cam.observe(t, 0, 0);
    for (const auto& r : f.robots_yellow()) {
      ASSERT_GT(r.orientation(), -M_PI);
      ASSERT_LE(r.orientation(), M_PI);
      crossed = crossed || r.orientation() < 0;
    }
  }
  EXPECT_TRUE(crossed);
}

TEST(GlobalCamera, MissProbabilityDropsDetections) {
  const auto t = truth();
  GlobalCamera never(noise(0.001, 0.01, 0.001, 0.0), 1);
  GlobalCamera always(noise(0.001, 0.01, 0.001, 1.0), 1);
  GlobalCamera some(noise(0.001, 0.01, 0.001, 0.3), 1);
  int seen = 0, total = 0;
  for (int k = 0; k < 5000; ++k) {
    const auto f0 = never.observe(t, 0, 0);
    EXPECT_EQ(f0.balls_size() + f0.robots_blue_size() + f0.robots_yellow_size(), 7);
    const auto f1 = always.observe(t, 0, 0);
    EXPECT_EQ(f1.balls_size() + f1.robots_blue_size() + f1.robots_yellow_size(), 0);
    const auto f2 = some.observe(t, 0, 0);
    seen += f2.balls_size() + f2.robots_blue_size() + f2.robots_yellow_size();
    total += 7;
  }
  EXPECT_NEAR(static_cast<double>(seen) / total, 0.7, 0.01);
}

TEST(GlobalCamera, MissesDoNotShiftTheOtherObjectsNoise) {
  // Same seed, different miss probability: objects seen in both get the same noise.
  const auto t = truth();
  GlobalCamera a(noise(0.01, 0.01, 0.01, 0.0), 8), b(noise(0.01, 0.01, 0.01, 0.5), 8);
  for (int k = 0; k < 50; ++k) {
    const auto fa = a.observe(t, 0, 0), fb = b.observe(t, 0, 0);
    for (const auto& rb : fb.robots_blue()) {
      EXPECT_EQ(fa.robots_blue(static_cast<int>(rb.robot_id())).x(), rb.x());
    }
  }
}

TEST(GlobalCamera, RejectsBadNoiseSpec) {
  EXPECT_THROW({ GlobalCamera c(noise(-1, 0, 0, 0), 1); }, std::invalid_argument);
  EXPECT_THROW({ GlobalCamera c(noise(0, 0, 0, 1.5), 1); }, std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::sim
