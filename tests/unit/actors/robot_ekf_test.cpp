#include "actors/world_knowledge/robot_ekf.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include "runtime/angle.hpp"

namespace robocaf::actors {
namespace {

using runtime::kPi;
using runtime::wrap_angle;

constexpr double kPositionSd = 0.002;     // m, a MiroSot global camera
constexpr double kOrientationSd = 0.02;   // rad
constexpr double kFrame = 0.02;           // s, 50 Hz

RobotEkf::PoseCovariance camera_covariance() {
  return Eigen::Vector3d(kPositionSd * kPositionSd, kPositionSd * kPositionSd, kOrientationSd * kOrientationSd)
      .asDiagonal();
}

// A differential robot on a circle: speed v, turn rate omega, centre chosen so
// that it starts at the origin facing +x.
struct Circle {
  double v = 0.6, omega = 1.2;
  Eigen::Vector3d pose(double t) const {
    const double r = v / omega, th = omega * t;
    return {r * std::sin(th), r * (1.0 - std::cos(th)), wrap_angle(th)};
  }
  Eigen::Vector2d velocity(double t) const { return v * Eigen::Vector2d(std::cos(omega * t), std::sin(omega * t)); }
};

struct NoisyCamera {
  std::mt19937 rng;
  std::normal_distribution<double> unit{0.0, 1.0};
  explicit NoisyCamera(unsigned seed) : rng(seed) {}
  Eigen::Vector3d see(const Eigen::Vector3d& truth) {
    return {truth.x() + kPositionSd * unit(rng), truth.y() + kPositionSd * unit(rng),
            wrap_angle(truth.z() + kOrientationSd * unit(rng))};
  }
};

RobotEkf first_sighting(RobotMotionModel model, const Eigen::Vector3d& z, RobotEkfParams params = {}) {
  return RobotEkf(model, params, z, camera_covariance(), 0.0, 1.0, 25.0);
}

// Speed and omega on a circle, and what a constant-velocity model (the
// holonomic filter: x, y, theta each with its own rate) makes of the same turn.
TEST(RobotEkf, UnicycleFindsSpeedAndTurnRateOnACircleWhereConstantVelocityLags) {
  const Circle circle;
  // Errors after the first second, over 10 noise seeds: speed, omega, and the
  // velocity vector's error across the true direction of travel.
  double speed_sum = 0, speed_sq = 0, omega_sum = 0, omega_sq = 0, across_sum = 0, cv_across_sum = 0;
  double ahead_sum = 0, cv_ahead_sum = 0, speed_var = 0, omega_var = 0;
  int samples = 0, runs = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    NoisyCamera camera(seed);
    const Eigen::Vector3d z0 = camera.see(circle.pose(0.0));
    RobotEkf unicycle = first_sighting(RobotMotionModel::kUnicycle, z0);
    RobotEkf cv = first_sighting(RobotMotionModel::kHolonomic, z0);
    for (int k = 1; k <= 150; ++k) {  // 3 s, 1.15 turns
      const double t = k * kFrame;
      const Eigen::Vector3d z = camera.see(circle.pose(t));
      for (RobotEkf* f : {&unicycle, &cv}) {
        f->predict_to(t);
        f->update(z, camera_covariance());
      }
      if (t < 1.0) continue;  // both have settled after a second
      const Eigen::Vector2d along = circle.velocity(t).normalized();
      const Eigen::Vector2d left(-along.y(), along.x());
      const double e_speed = unicycle.state()(3) - circle.v, e_omega = unicycle.omega() - circle.omega;
      speed_sum += e_speed;
      speed_sq += e_speed * e_speed;
      omega_sum += e_omega;
      omega_sq += e_omega * e_omega;
      across_sum += (unicycle.velocity() - circle.velocity(t)).dot(left);
      cv_across_sum += (cv.velocity() - circle.velocity(t)).dot(left);
      speed_var += unicycle.covariance()(3, 3);
      omega_var += unicycle.covariance()(4, 4);
      ++samples;
    }
    // Coasting through the next half second of the turn: the unicycle follows
    // the arc, a constant velocity runs off along the tangent (R (1 - cos
    // omega t) = 9 cm).
    const double ahead = 150 * kFrame + 0.5;
    unicycle.predict_to(ahead);
    cv.predict_to(ahead);
    const Eigen::Vector2d truth = circle.pose(ahead).head<2>();
    ahead_sum += (unicycle.pose().head<2>() - truth).norm();
    cv_ahead_sum += (cv.pose().head<2>() - truth).norm();
    ++runs;
  }
  const double n = samples;
  // The defaults' process noise (0.2 m^2/s^3, 50 rad^2/s^3) lets speed and
  // omega follow manoeuvres, so on a steady circle they jitter round the
  // truth (the filter's own sd: 0.07 m/s and 1 rad/s; measured 0.04 and 0.55)
  // but must not be biased: means within a few standard errors of 0 (10 runs
  // x 100 strongly correlated samples), spread no larger than the filter's
  // covariance says.
  EXPECT_NEAR(speed_sum / n, 0.0, 0.01);
  EXPECT_NEAR(omega_sum / n, 0.0, 0.1);
  EXPECT_LT(std::sqrt(speed_sq / n), std::sqrt(speed_var / n));
  EXPECT_LT(std::sqrt(omega_sq / n), std::sqrt(omega_var / n));
  EXPECT_LT(std::sqrt(speed_sq / n), 0.05);  // under 10 % of the speed
  // The constant-velocity model's velocity lags behind the turn (points out
  // of the circle: a steady error across the travel); the unicycle's turns
  // with its heading.
  EXPECT_LT(cv_across_sum / n, -0.01);
  EXPECT_LT(std::abs(across_sum / n), 0.25 * std::abs(cv_across_sum / n));
  // Half a second ahead: ~4 cm from the uncertainty in omega against 9 cm
  // along the tangent.
  EXPECT_LT(ahead_sum / runs, 0.05);
  EXPECT_GT(cv_ahead_sum / runs, 0.08);
}

TEST(RobotEkf, HolonomicFollowsAStrafeTheUnicycleCannotExplain) {
  const double heading = 0.3, speed = 0.8;
  const Eigen::Vector2d sideways = speed * Eigen::Vector2d(-std::sin(heading), std::cos(heading));
  auto truth = [&](double t) { return Eigen::Vector3d(sideways.x() * t, sideways.y() * t, heading); };
  NoisyCamera camera(3);
  RobotEkf omni = first_sighting(RobotMotionModel::kHolonomic, camera.see(truth(0)));
  RobotEkf unicycle = first_sighting(RobotMotionModel::kUnicycle, camera.see(truth(0)));
  for (int k = 1; k <= 75; ++k) {
    const double t = k * kFrame;
    const Eigen::Vector3d z = camera.see(truth(t));
    for (RobotEkf* f : {&omni, &unicycle}) {
      f->predict_to(t);
      f->update(z, camera_covariance());
    }
  }
  // 1.5 s of a steady strafe: the velocity is known to a few cm/s (P's sd).
  EXPECT_NEAR(omni.velocity().x(), sideways.x(), 0.05);
  EXPECT_NEAR(omni.velocity().y(), sideways.y(), 0.05);
  EXPECT_NEAR(omni.omega(), 0.0, 0.3);
  EXPECT_NEAR(omni.pose().z(), heading, 0.02);
  // A differential robot cannot move sideways: its velocity stays along the
  // heading, which is perpendicular to the motion.
  EXPECT_LT(std::abs(unicycle.velocity().dot(sideways)) / speed, 0.3);
}

TEST(RobotEkf, CoastingGrowsTheCovarianceUntilTheTrackIsLost) {
  RobotEkfParams params;
  params.lost_position_sd = 0.3;
  const Circle circle;
  NoisyCamera camera(5);
  RobotEkf ekf = first_sighting(RobotMotionModel::kUnicycle, camera.see(circle.pose(0)), params);
  for (int k = 1; k <= 50; ++k) {
    ekf.predict_to(k * kFrame);
    ekf.update(camera.see(circle.pose(k * kFrame)), camera_covariance());
  }
  ASSERT_FALSE(ekf.lost());
  double previous_trace = ekf.pose_covariance().topLeftCorner<2, 2>().trace();
  double lost_at = -1.0;
  for (int k = 51; k <= 500 && lost_at < 0; ++k) {
    ekf.predict_to(k * kFrame);
    const double trace = ekf.pose_covariance().topLeftCorner<2, 2>().trace();
    ASSERT_GT(trace, previous_trace) << "covariance shrank while coasting at step " << k;
    previous_trace = trace;
    if (ekf.lost()) lost_at = k * kFrame - 1.0;
  }
  // At 0.6 m/s with omega known to ~1 rad/s, the sideways spread
  // (v T^2 / 2 sd(omega)) and white acceleration along the path reach 0.3 m
  // after about 0.65 s; lost, but not at once.
  EXPECT_GT(lost_at, 0.4);
  EXPECT_LT(lost_at, 1.2);
}

TEST(RobotEkf, OnePredictionOverAnIntervalEqualsManyOverItsParts) {
  // Continuous white acceleration: coasting does not depend on how often the
  // track was predicted (exact for the linear holonomic model).
  NoisyCamera camera(8);
  RobotEkf whole = first_sighting(RobotMotionModel::kHolonomic, camera.see(Eigen::Vector3d(0.1, 0.2, 0.3)));
  whole.predict_to(kFrame);
  whole.update(camera.see(Eigen::Vector3d(0.11, 0.2, 0.31)), camera_covariance());
  RobotEkf parts = whole;
  whole.predict_to(1.0 + kFrame);
  for (int k = 1; k <= 40; ++k) parts.predict_to(kFrame + 0.025 * k);
  EXPECT_TRUE(parts.state().isApprox(whole.state(), 1e-12));
  EXPECT_TRUE(parts.covariance().isApprox(whole.covariance(), 1e-9));
}

TEST(RobotEkf, MahalanobisDistanceFollowsChiSquareAndSeparatesAMetre) {
  // A straight drive at constant speed, which the model describes exactly:
  // the squared distance of the true measurements is chi-square(3), so about
  // 1 % exceed 11.34; a pose 1 m away is far outside.
  NoisyCamera camera(11);
  const double v = 0.7, heading = -0.4;
  auto truth = [&](double t) {
    return Eigen::Vector3d(v * t * std::cos(heading), v * t * std::sin(heading), heading);
  };
  RobotEkf ekf = first_sighting(RobotMotionModel::kUnicycle, camera.see(truth(0)));
  int outside = 0, counted = 0;
  for (int k = 1; k <= 2000; ++k) {
    const double t = k * kFrame;
    ekf.predict_to(t);
    const Eigen::Vector3d z = camera.see(truth(t));
    if (k > 50) {
      ++counted;
      if (ekf.mahalanobis2(z, camera_covariance()) > 11.34) ++outside;
      Eigen::Vector3d far = truth(t);
      far.x() += 1.0;
      EXPECT_GT(ekf.mahalanobis2(far, camera_covariance()), 1000.0);
      EXPECT_GT(ekf.mahalanobis2(Eigen::Vector2d(far.head<2>()), camera_covariance().topLeftCorner<2, 2>()), 1000.0);
    }
    ekf.update(z, camera_covariance());
  }
  // The filter is conservative (process noise for manoeuvres that never come),
  // so fewer fall outside, never many more.
  EXPECT_LT(static_cast<double>(outside) / counted, 0.02);
}

TEST(RobotEkf, HeadingResidualIsWrappedAcrossPi) {
  RobotEkf ekf = first_sighting(RobotMotionModel::kUnicycle, Eigen::Vector3d(0.0, 0.0, kPi - 0.01));
  const Eigen::Vector3d across(0.0, 0.0, -kPi + 0.01);  // 0.02 rad further round, not 2 pi - 0.02 back
  EXPECT_LT(ekf.mahalanobis2(across, camera_covariance()), 1.0);
  ekf.predict_to(kFrame);
  ekf.update(across, camera_covariance());
  EXPECT_LT(std::abs(wrap_angle(ekf.pose().z() - kPi)), 0.011);
  EXPECT_LE(ekf.pose().z(), kPi);
  EXPECT_GT(ekf.pose().z(), -kPi);
}

// The covariance is propagated with the derivative of the unicycle's motion:
// with process noise off and all uncertainty in one state component, the
// predicted covariance is eps F e_i (F e_i)^T, so its column i is eps times
// F's; compare with finite differences of the predicted state.
TEST(RobotEkf, UnicycleJacobianMatchesFiniteDifferences) {
  RobotEkfParams quiet;
  quiet.accel_noise_density = quiet.angular_accel_noise_density = quiet.lateral_diffusion = 0.0;
  const Eigen::Matrix<double, 5, 1> s0 = (Eigen::Matrix<double, 5, 1>() << 0.3, -0.2, 0.8, 1.1, 2.5).finished();
  auto start = [&](const Eigen::Matrix<double, 5, 1>& s, const RobotEkf::PoseCovariance& pose_cov, double v_var,
                   double w_var) {
    const Eigen::Vector2d velocity = s(3) * Eigen::Vector2d(std::cos(s(2)), std::sin(s(2)));
    return RobotEkf::from_estimate(RobotMotionModel::kUnicycle, quiet, s.head<3>(), pose_cov, velocity, s(4), 0.0,
                                   v_var, w_var);
  };
  const double dt = 0.25, eps = 1e-6, h = 1e-6;
  for (int i = 0; i < 5; ++i) {
    RobotEkf::PoseCovariance pose_cov = RobotEkf::PoseCovariance::Zero();
    if (i < 3) pose_cov(i, i) = eps;
    // omega_variance is set after velocity_variance, so index 4 gets eps alone.
    RobotEkf probe = start(s0, pose_cov, i == 3 ? eps : 0.0, i == 4 ? eps : 0.0);
    probe.predict_to(dt);
    Eigen::Matrix<double, 5, 1> plus = s0, minus = s0;
    plus(i) += h;
    minus(i) -= h;
    RobotEkf a = start(plus, RobotEkf::PoseCovariance::Zero(), 0, 0);
    RobotEkf b = start(minus, RobotEkf::PoseCovariance::Zero(), 0, 0);
    a.predict_to(dt);
    b.predict_to(dt);
    for (int j = 0; j < 5; ++j) {
      double diff = a.state()(j) - b.state()(j);
      if (j == 2) diff = wrap_angle(diff);
      EXPECT_NEAR(probe.covariance()(j, i) / eps, diff / (2 * h), 1e-5) << "dF(" << j << "," << i << ")";
    }
  }
  // And the motion itself is the arc: a quarter turn of radius v / omega.
  RobotEkf arc = start((Eigen::Matrix<double, 5, 1>() << 0, 0, 0, 1.0, kPi / 2).finished(),
                       RobotEkf::PoseCovariance::Zero(), 0, 0);
  arc.predict_to(1.0);
  const double r = 1.0 / (kPi / 2);
  EXPECT_NEAR(arc.pose().x(), r, 1e-12);
  EXPECT_NEAR(arc.pose().y(), r, 1e-12);
  EXPECT_NEAR(arc.pose().z(), kPi / 2, 1e-12);
}

TEST(RobotEkf, StartsFromASharedEstimate) {
  RobotEkf::PoseCovariance cov;
  cov << 4e-4, 1e-4, 0.0, 1e-4, 9e-4, 2e-4, 0.0, 2e-4, 1e-3;
  const Eigen::Vector3d pose(1.0, -2.0, kPi / 2);
  const Eigen::Vector2d velocity(0.1, 0.9);  // mostly along the heading (+y)
  const RobotEkf unicycle =
      RobotEkf::from_estimate(RobotMotionModel::kUnicycle, {}, pose, cov, velocity, 0.7, 3.0, 0.25, 4.0);
  EXPECT_NEAR(unicycle.state()(3), 0.9, 1e-12);  // only the part along the heading
  EXPECT_NEAR(unicycle.velocity().y(), 0.9, 1e-12);
  EXPECT_NEAR(unicycle.velocity().x(), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(unicycle.omega(), 0.7);
  EXPECT_DOUBLE_EQ(unicycle.time(), 3.0);
  EXPECT_TRUE(unicycle.pose_covariance().isApprox(cov));
  const RobotEkf omni =
      RobotEkf::from_estimate(RobotMotionModel::kHolonomic, {}, pose, cov, velocity, 0.7, 3.0, 0.25, 4.0);
  EXPECT_TRUE(omni.velocity().isApprox(velocity));
  EXPECT_TRUE(omni.pose_covariance().isApprox(cov));
  EXPECT_DOUBLE_EQ(omni.covariance()(3, 3), 0.25);
  EXPECT_DOUBLE_EQ(omni.covariance()(5, 5), 4.0);
}

TEST(RobotEkf, EarlierTimeIsNoPredictionAndCovarianceStaysPositive) {
  const Circle circle;
  NoisyCamera camera(2);
  RobotEkf ekf = first_sighting(RobotMotionModel::kUnicycle, camera.see(circle.pose(0)));
  for (int k = 1; k <= 100; ++k) {
    ekf.predict_to(k * kFrame);
    ekf.update(camera.see(circle.pose(k * kFrame)), camera_covariance());
  }
  const RobotEkf::State before = ekf.state();
  ekf.predict_to(ekf.time() - 0.05);  // an out-of-order measurement's time
  EXPECT_TRUE(ekf.state().isApprox(before));
  EXPECT_DOUBLE_EQ(ekf.time(), 100 * kFrame);
  ekf.update(camera.see(circle.pose(99 * kFrame)), camera_covariance());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Eigen::MatrixXd(ekf.covariance()));
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
  EXPECT_TRUE(ekf.covariance().isApprox(ekf.covariance().transpose()));
}

}  // namespace
}  // namespace robocaf::actors
