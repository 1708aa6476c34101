#include "sim/global_camera.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

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

msg::FieldGeometry field() {
  msg::FieldGeometry g;
  g.set_length(4.4);
  g.set_width(2.8);
  return g;
}

// Throws std::invalid_argument whose message names `field_name`.
void expect_rejected(const msg::NoiseSpec& spec, const std::string& field_name) {
  try {
    GlobalCamera c(field(), spec, 1);
    ADD_FAILURE() << "accepted a bad " << field_name;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(field_name), std::string::npos) << e.what();
  }
}

msg::NoiseSpec with_robot_covariance(std::vector<double> c) {
  auto n = noise(0, 0, 0, 0);
  for (double v : c) n.add_robot_covariance(v);
  return n;
}

msg::NoiseSpec with_ball_covariance(std::vector<double> c) {
  auto n = noise(0, 0, 0, 0);
  for (double v : c) n.add_ball_covariance(v);
  return n;
}

TEST(GlobalCameraCovariance, SampleCovarianceMatchesTheConfiguredOne) {
  // sd x 10 mm, y 5 mm, theta 20 mrad; x-y correlation 0.6, x-theta 0.3, y-theta -0.4.
  const double sx = 0.01, sy = 0.005, st = 0.02;
  const double sigma[3][3] = {{sx * sx, 0.6 * sx * sy, 0.3 * sx * st},
                              {0.6 * sx * sy, sy * sy, -0.4 * sy * st},
                              {0.3 * sx * st, -0.4 * sy * st, st * st}};
  auto spec = with_robot_covariance({sigma[0][0], sigma[0][1], sigma[0][2], sigma[1][0], sigma[1][1],
                                     sigma[1][2], sigma[2][0], sigma[2][1], sigma[2][2]});
  const double bx = 0.004, by = 0.002;
  const double ball_sigma[2][2] = {{bx * bx, -0.7 * bx * by}, {-0.7 * bx * by, by * by}};
  for (double v : {ball_sigma[0][0], ball_sigma[0][1], ball_sigma[1][0], ball_sigma[1][1]})
    spec.add_ball_covariance(v);
  GlobalCamera cam(field(), spec, 23);
  const auto t = truth();
  const int n = 20000;
  double sum[3] = {}, prod[3][3] = {}, bsum[2] = {}, bprod[2][2] = {};
  for (int k = 0; k < n; ++k) {
    const auto f = cam.observe(t, static_cast<std::uint64_t>(k), 0);
    const auto& r = f.robots_blue(1);  // truth (-0.5, 0.2, 0)
    const double e[3] = {r.x() + 0.5, r.y() - 0.2, r.orientation()};
    const double b[2] = {f.balls(0).x() - 0.3, f.balls(0).y() + 0.2};
    for (int i = 0; i < 3; ++i) {
      sum[i] += e[i];
      for (int j = 0; j < 3; ++j) prod[i][j] += e[i] * e[j];
    }
    for (int i = 0; i < 2; ++i) {
      bsum[i] += b[i];
      for (int j = 0; j < 2; ++j) bprod[i][j] += b[i] * b[j];
    }
  }
  // Each entry within 4 % of sd_i sd_j: a few standard errors of a sample
  // covariance over 20000 frames (about 1 %), and far below a wrong factor.
  const double sds[3] = {sx, sy, st};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(sum[i] / n, 0.0, 0.03 * sds[i]);
    for (int j = 0; j < 3; ++j) {
      const double c = prod[i][j] / n - (sum[i] / n) * (sum[j] / n);
      EXPECT_NEAR(c, sigma[i][j], 0.04 * sds[i] * sds[j]) << "robot (" << i << "," << j << ")";
    }
  }
  const double bsds[2] = {bx, by};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      const double c = bprod[i][j] / n - (bsum[i] / n) * (bsum[j] / n);
      EXPECT_NEAR(c, ball_sigma[i][j], 0.04 * bsds[i] * bsds[j]) << "ball (" << i << "," << j << ")";
    }
  }
}

TEST(GlobalCameraCovariance, CovarianceReplacesThePerAxisSds) {
  auto spec = with_ball_covariance({1e-6, 0, 0, 1e-6});  // sd 1 mm
  spec.set_ball_position_sd(0.5);                       // would be obvious if used
  GlobalCamera cam(field(), spec, 4);
  for (int k = 0; k < 200; ++k) {
    const auto f = cam.observe(truth(), 0, 0);
    EXPECT_LT(std::abs(f.balls(0).x() - 0.3), 0.01);
  }
}

TEST(GlobalCameraCovariance, SemiDefiniteCovarianceGivesPerfectlyCorrelatedNoise) {
  // x and y errors identical, theta independent: singular, no Cholesky factor.
  const double v = 1e-4;
  GlobalCamera cam(field(), with_robot_covariance({v, v, 0, v, v, 0, 0, 0, 4e-4}), 9);
  const int n = 20000;
  double sxx = 0, stt = 0;
  for (int k = 0; k < n; ++k) {
    const auto f = cam.observe(truth(), 0, 0);
    const auto& r = f.robots_blue(0);  // truth (-0.5, 0, 0)
    const double ex = r.x() + 0.5, ey = r.y();
    ASSERT_NEAR(ex, ey, 1e-12);
    sxx += ex * ex, stt += r.orientation() * r.orientation();
  }
  EXPECT_NEAR(sxx / n, v, 0.04 * v);
  EXPECT_NEAR(stt / n, 4e-4, 0.04 * 4e-4);
  // A zero covariance is semi-definite too: no noise at all.
  GlobalCamera exact(field(), with_robot_covariance({0, 0, 0, 0, 0, 0, 0, 0, 0}), 9);
  EXPECT_DOUBLE_EQ(exact.observe(truth(), 0, 0).robots_blue(0).x(), -0.5);
}

TEST(GlobalCameraCovariance, DiagonalSdsGiveTheSameFramesAsBefore) {
  // Without covariances the noise is sd * z exactly, as the per-axis camera
  // drew it: recorded values pin the stream so old match seeds replay.
  GlobalCamera cam(noise(0.01, 0.02, 0.004, 0.1), 42);
  SeededRandom rng(42);
  const auto t = truth();
  for (int k = 0; k < 20; ++k) {
    const auto f = cam.observe(t, 0, 0);
    const bool ball_seen = rng.uniform() >= 0.1;
    const double bx = rng.gaussian() * 0.004, by = rng.gaussian() * 0.004;
    if (ball_seen) {
      ASSERT_GE(f.balls_size(), 1);
      EXPECT_EQ(f.balls(0).x(), 0.3 + bx);
      EXPECT_EQ(f.balls(0).y(), -0.2 + by);
    }
    int blue = 0, yellow = 0;
    for (const auto& r : t.robots()) {
      const bool seen = rng.uniform() >= 0.1;
      const double nx = rng.gaussian() * 0.01, ny = rng.gaussian() * 0.01;
      rng.gaussian();  // theta
      if (!seen) continue;
      const auto& d = r.team() == msg::BLUE ? f.robots_blue(blue++) : f.robots_yellow(yellow++);
      EXPECT_EQ(d.x(), r.pose().x() + nx);
      EXPECT_EQ(d.y(), r.pose().y() + ny);
    }
  }
}

TEST(GlobalCameraCovariance, RejectsBadCovariancesNamingTheField) {
  expect_rejected(with_robot_covariance({1e-4, 0, 0, 1e-4}), "robot_covariance");       // 2x2
  expect_rejected(with_ball_covariance({1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 1e-4}), "ball_covariance");  // 3x3
  expect_rejected(with_robot_covariance({1e-4, 5e-5, 0, 0, 1e-4, 0, 0, 0, 1e-4}), "robot_covariance");  // not symmetric
  expect_rejected(with_ball_covariance({1e-4, 2e-4, 2e-4, 1e-4}), "ball_covariance");   // indefinite
  expect_rejected(with_ball_covariance({-1e-4, 0, 0, 1e-4}), "ball_covariance");        // negative variance
  expect_rejected(with_robot_covariance({1e-4, 0, 0, 0, 1e-4, 0, 0, 0, std::nan("")}), "robot_covariance");
  auto rate = noise(0, 0, 0, 0);
  rate.set_false_ball_rate(-0.1);
  expect_rejected(rate, "false_ball_rate");
  expect_rejected(noise(0, -0.1, 0, 0), "orientation_sd");
  expect_rejected(noise(0, 0, 0, 2), "miss_probability");
  // False balls need a field to fall on.
  rate.set_false_ball_rate(0.5);
  EXPECT_THROW({ GlobalCamera c(msg::FieldGeometry(), rate, 1); }, std::invalid_argument);
}

TEST(GlobalCameraFalseBalls, AppearAtTheConfiguredRateInsideTheField) {
  auto spec = noise(0, 0, 0, 0);
  spec.set_false_ball_rate(0.7);
  GlobalCamera cam(field(), spec, 31);
  const auto t = truth();
  const int n = 20000;
  double sum = 0, sum_sq = 0, mean_x = 0, min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
  int total = 0;
  for (int k = 0; k < n; ++k) {
    const auto f = cam.observe(t, static_cast<std::uint64_t>(k), 0);
    ASSERT_GE(f.balls_size(), 1);
    // The real ball comes first, with the higher confidence.
    EXPECT_DOUBLE_EQ(f.balls(0).x(), 0.3);
    EXPECT_DOUBLE_EQ(f.balls(0).confidence(), GlobalCamera::kConfidence);
    const int false_balls = f.balls_size() - 1;
    sum += false_balls, sum_sq += false_balls * false_balls;
    for (int i = 1; i < f.balls_size(); ++i) {
      const auto& b = f.balls(i);
      EXPECT_DOUBLE_EQ(b.confidence(), GlobalCamera::kFalseBallConfidence);
      ASSERT_LE(std::abs(b.x()), 2.2);
      ASSERT_LE(std::abs(b.y()), 1.4);
      mean_x += b.x(), ++total;
      min_x = std::min(min_x, b.x()), max_x = std::max(max_x, b.x());
      min_y = std::min(min_y, b.y()), max_y = std::max(max_y, b.y());
    }
  }
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.7, 0.02);  // standard error ~0.006
  EXPECT_NEAR(var, 0.7, 0.05);   // Poisson: variance = mean
  EXPECT_NEAR(mean_x / total, 0.0, 0.05);  // uniform over the whole length
  EXPECT_LT(min_x, -2.1);
  EXPECT_GT(max_x, 2.1);
  EXPECT_LT(min_y, -1.3);
  EXPECT_GT(max_y, 1.3);
  EXPECT_LT(GlobalCamera::kFalseBallConfidence, GlobalCamera::kConfidence);
}

TEST(GlobalCameraFalseBalls, DoNotChangeTheRealDetections) {
  auto with = noise(0.01, 0.02, 0.005, 0.2);
  with.set_false_ball_rate(2.0);
  const auto without = noise(0.01, 0.02, 0.005, 0.2);
  GlobalCamera a(field(), with, 77), b(field(), without, 77);
  const auto t = truth();
  int false_seen = 0;
  for (int k = 0; k < 300; ++k) {
    auto fa = a.observe(t, static_cast<std::uint64_t>(k), 0);
    const auto fb = b.observe(t, static_cast<std::uint64_t>(k), 0);
    // Keep only the real detections of `a`.
    auto* balls = fa.mutable_balls();
    for (int i = balls->size() - 1; i >= 0; --i) {
      if (balls->Get(i).confidence() == GlobalCamera::kFalseBallConfidence) {
        balls->DeleteSubrange(i, 1);
        ++false_seen;
      }
    }
    EXPECT_EQ(fa.SerializeAsString(), fb.SerializeAsString()) << "frame " << k;
  }
  EXPECT_GT(false_seen, 400);
}

TEST(GlobalCameraFalseBalls, SameSeedSameFalseBalls) {
  auto spec = noise(0.002, 0.02, 0.002, 0.1);
  spec.set_false_ball_rate(1.5);
  GlobalCamera a(field(), spec, 5), b(field(), spec, 5), c(field(), spec, 6);
  const auto t = truth();
  bool differs = false;
  for (std::uint64_t f = 0; f < 200; ++f) {
    const auto fa = a.observe(t, f, 0.02 * f);
    EXPECT_EQ(fa.SerializeAsString(), b.observe(t, f, 0.02 * f).SerializeAsString());
    differs = differs || fa.SerializeAsString() != c.observe(t, f, 0.02 * f).SerializeAsString();
  }
  EXPECT_TRUE(differs);
}

TEST(GlobalCameraFalseBalls, CameraWithoutFieldRefusesThem) {
  auto spec = noise(0, 0, 0, 0);
  spec.set_false_ball_rate(3.0);
  try {
    GlobalCamera cam(spec, 1);
    FAIL() << "false balls without a field were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("false_ball_rate"), std::string::npos) << e.what();
  }
  spec.set_false_ball_rate(0.0);
  GlobalCamera cam(spec, 1);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(cam.observe(truth(), 0, 0).balls_size(), 1);
}

}  // namespace
}  // namespace robocaf::sim
