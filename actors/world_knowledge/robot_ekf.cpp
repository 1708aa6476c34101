#include "actors/world_knowledge/robot_ekf.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using runtime::wrap_angle;

constexpr int kX = 0, kY = 1, kTheta = 2;
// Unicycle: speed along the heading and turn rate.
constexpr int kSpeed = 3, kUnicycleOmega = 4;
// Holonomic: field-frame velocity and turn rate.
constexpr int kVx = 3, kVy = 4, kHolonomicOmega = 5;

constexpr int state_size(RobotMotionModel model) { return model == RobotMotionModel::kUnicycle ? 5 : 6; }
constexpr int omega_index(RobotMotionModel model) {
  return model == RobotMotionModel::kUnicycle ? kUnicycleOmega : kHolonomicOmega;
}

// sin(a) / a and its derivative, by their series near 0 where the quotients
// lose all precision.
double sinc(double a) { return std::abs(a) < 1e-4 ? 1.0 - a * a / 6.0 : std::sin(a) / a; }
double sinc_derivative(double a) {
  return std::abs(a) < 1e-4 ? -a / 3.0 + a * a * a / 30.0 : (a * std::cos(a) - std::sin(a)) / (a * a);
}

}  // namespace

RobotEkf::RobotEkf(RobotMotionModel model, const RobotEkfParams& params, const Pose& pose,
                   const PoseCovariance& pose_covariance, double t, double velocity_variance, double omega_variance)
    : model_(model), params_(params), n_(state_size(model)), t_(t) {
  x_.head<3>() = pose;
  x_(kTheta) = wrap_angle(pose(kTheta));
  P_.topLeftCorner<3, 3>() = 0.5 * (pose_covariance + pose_covariance.transpose());
  for (int i = 3; i < n_; ++i) P_(i, i) = velocity_variance;
  P_(omega_index(model), omega_index(model)) = omega_variance;
}

RobotEkf RobotEkf::from_estimate(RobotMotionModel model, const RobotEkfParams& params, const Pose& pose,
                                 const PoseCovariance& pose_covariance, const Eigen::Vector2d& velocity,
                                 double omega, double t, double velocity_variance, double omega_variance) {
  RobotEkf ekf(model, params, pose, pose_covariance, t, velocity_variance, omega_variance);
  if (model == RobotMotionModel::kUnicycle) {
    ekf.x_(kSpeed) = velocity.dot(Eigen::Vector2d(std::cos(pose(kTheta)), std::sin(pose(kTheta))));
  } else {
    ekf.x_(kVx) = velocity.x();
    ekf.x_(kVy) = velocity.y();
  }
  ekf.x_(omega_index(model)) = omega;
  return ekf;
}

void RobotEkf::predict_to(double t) {
  const double dt = t - t_;
  if (!(dt > 0.0)) return;
  if (n_ == 5) {
    predict_fixed<5>(dt);
  } else {
    predict_fixed<6>(dt);
  }
  t_ = t;
}

template <int N>
void RobotEkf::predict_fixed(double dt) {
  using Matrix = Eigen::Matrix<double, N, N>;
  auto x = x_.template head<N>();
  auto P = P_.template topLeftCorner<N, N>();
  Matrix F = Matrix::Identity();
  Matrix Q = Matrix::Zero();
  const double theta = x(kTheta);
  // White acceleration of density q on a rate r integrated into a coordinate
  // p adds q (dt^3/3, dt^2/2; dt^2/2, dt) to the covariance of (p, r): the same
  // whether dt comes in one step or many.
  const double dt2 = dt * dt / 2.0, dt3 = dt * dt * dt / 3.0;
  const double qa = params_.accel_noise_density, qw = params_.angular_accel_noise_density;
  constexpr int w = N == 5 ? kUnicycleOmega : kHolonomicOmega;
  Q(kTheta, kTheta) = qw * dt3;
  Q(kTheta, w) = Q(w, kTheta) = qw * dt2;
  Q(w, w) = qw * dt;

  if constexpr (N == 5) {
    const double v = x(kSpeed), omega = x(kUnicycleOmega);
    const double a = 0.5 * omega * dt;  // half the turn: the chord's direction is theta + a
    const double phi = theta + a;
    const double c = std::cos(phi), s = std::sin(phi);
    const double chord = v * dt * sinc(a);
    const double dchord_dv = dt * sinc(a);
    const double dchord_domega = v * dt * sinc_derivative(a) * 0.5 * dt;

    F(kX, kTheta) = -chord * s;
    F(kX, kSpeed) = dchord_dv * c;
    F(kX, kUnicycleOmega) = dchord_domega * c - chord * s * 0.5 * dt;
    F(kY, kTheta) = chord * c;
    F(kY, kSpeed) = dchord_dv * s;
    F(kY, kUnicycleOmega) = dchord_domega * s + chord * c * 0.5 * dt;
    F(kTheta, kUnicycleOmega) = dt;

    x(kX) += chord * c;
    x(kY) += chord * s;
    x(kTheta) = wrap_angle(theta + omega * dt);

    // The speed's noise moves the robot along the chord; sideways drift
    // (slip, pushes) is a random walk across the heading.
    const Eigen::Vector2d along(c, s), across(-std::sin(theta), std::cos(theta));
    Q.template topLeftCorner<2, 2>() = qa * dt3 * along * along.transpose() +
                                       params_.lateral_diffusion * dt * across * across.transpose();
    Q.template block<2, 1>(kX, kSpeed) = qa * dt2 * along;
    Q.template block<1, 2>(kSpeed, kX) = qa * dt2 * along.transpose();
    Q(kSpeed, kSpeed) = qa * dt;
  } else {
    F(kX, kVx) = F(kY, kVy) = F(kTheta, kHolonomicOmega) = dt;
    x(kX) += x(kVx) * dt;
    x(kY) += x(kVy) * dt;
    x(kTheta) = wrap_angle(theta + x(kHolonomicOmega) * dt);

    for (const auto& [p, r] : {std::pair{kX, kVx}, std::pair{kY, kVy}}) {
      Q(p, p) = qa * dt3;
      Q(p, r) = Q(r, p) = qa * dt2;
      Q(r, r) = qa * dt;
    }
  }

  const Matrix predicted = F * P * F.transpose() + Q;
  P = 0.5 * (predicted + predicted.transpose());
}

template <int M>
Eigen::Matrix<double, M, M> RobotEkf::innovation_covariance(const Eigen::Matrix<double, M, M>& R) const {
  return P_.template topLeftCorner<M, M>() + R;
}

double RobotEkf::mahalanobis2(const Pose& z, const PoseCovariance& R) const {
  Eigen::Vector3d y = z - x_.head<3>();
  y(kTheta) = wrap_angle(y(kTheta));
  return y.dot(innovation_covariance<3>(R).inverse() * y);
}

double RobotEkf::mahalanobis2(const Eigen::Vector2d& z, const Eigen::Matrix2d& R) const {
  const Eigen::Vector2d y = z - x_.head<2>();
  return y.dot(innovation_covariance<2>(R).inverse() * y);
}

template <int N, int M>
void RobotEkf::update_fixed(const Eigen::Matrix<double, M, 1>& residual, const Eigen::Matrix<double, M, M>& R) {
  // The measurement is the first M state components: H = [I 0].
  auto x = x_.template head<N>();
  auto P = P_.template topLeftCorner<N, N>();
  // S = P_zz + R is a small, well-conditioned covariance: Eigen inverts a
  // fixed 2x2 or 3x3 in closed form.
  const Eigen::Matrix<double, N, M> K = P.template leftCols<M>() * innovation_covariance<M>(R).inverse();
  x += K * residual;
  x(kTheta) = wrap_angle(x(kTheta));
  Eigen::Matrix<double, N, N> IKH = Eigen::Matrix<double, N, N>::Identity();
  IKH.template leftCols<M>() -= K;
  // Joseph form: stays positive semi-definite whatever the rounding.
  const Eigen::Matrix<double, N, N> updated = IKH * P * IKH.transpose() + K * R * K.transpose();
  P = 0.5 * (updated + updated.transpose());
  // What no robot can do is a residual the velocities must not absorb.
  constexpr int w = N == 5 ? kUnicycleOmega : kHolonomicOmega;
  if (params_.max_omega > 0.0) x(w) = std::clamp(x(w), -params_.max_omega, params_.max_omega);
  if (params_.max_speed > 0.0) {
    if constexpr (N == 5) {
      x(kSpeed) = std::clamp(x(kSpeed), -params_.max_speed, params_.max_speed);
    } else {
      const double speed = std::hypot(x(kVx), x(kVy));
      if (speed > params_.max_speed) {
        x(kVx) *= params_.max_speed / speed;
        x(kVy) *= params_.max_speed / speed;
      }
    }
  }
}

template <int M>
void RobotEkf::update_with(const Eigen::Matrix<double, M, 1>& residual, const Eigen::Matrix<double, M, M>& R) {
  if (n_ == 5) {
    update_fixed<5, M>(residual, R);
  } else {
    update_fixed<6, M>(residual, R);
  }
}

void RobotEkf::update(const Pose& z, const PoseCovariance& R) {
  Eigen::Vector3d y = z - x_.head<3>();
  y(kTheta) = wrap_angle(y(kTheta));
  update_with<3>(y, R);
}

void RobotEkf::update(const Eigen::Vector2d& z, const Eigen::Matrix2d& R) {
  const Eigen::Vector2d y = z - x_.head<2>();
  update_with<2>(y, R);
}

RobotEkf::Pose RobotEkf::pose() const { return x_.head<3>(); }

Eigen::Vector2d RobotEkf::velocity() const {
  if (model_ == RobotMotionModel::kUnicycle)
    return x_(kSpeed) * Eigen::Vector2d(std::cos(x_(kTheta)), std::sin(x_(kTheta)));
  return {x_(kVx), x_(kVy)};
}

double RobotEkf::omega() const { return x_(omega_index(model_)); }

RobotEkf::PoseCovariance RobotEkf::pose_covariance() const { return P_.topLeftCorner<3, 3>(); }

bool RobotEkf::lost() const {
  const double limit = params_.lost_position_sd * params_.lost_position_sd;
  // The larger eigenvalue is at most the trace: most tracks end here.
  if (P_(kX, kX) + P_(kY, kY) <= limit) return false;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> position;
  position.computeDirect(P_.topLeftCorner<2, 2>(), Eigen::EigenvaluesOnly);
  return position.eigenvalues().maxCoeff() > limit;
}

}  // namespace robocaf::actors
