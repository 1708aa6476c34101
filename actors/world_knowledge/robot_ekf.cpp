#include "actors/world_knowledge/robot_ekf.hpp"

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using runtime::wrap_angle;

constexpr int kX = 0, kY = 1, kTheta = 2;
// Unicycle: speed along the heading and turn rate.
constexpr int kSpeed = 3, kUnicycleOmega = 4;
// Holonomic: field-frame velocity and turn rate.
constexpr int kVx = 3, kVy = 4, kHolonomicOmega = 5;

int state_size(RobotMotionModel model) { return model == RobotMotionModel::kUnicycle ? 5 : 6; }
int omega_index(RobotMotionModel model) {
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
    : model_(model), params_(params), t_(t) {
  const int n = state_size(model);
  x_ = State::Zero(n);
  x_.head<3>() = pose;
  x_(kTheta) = wrap_angle(pose(kTheta));
  P_ = Covariance::Zero(n, n);
  P_.topLeftCorner<3, 3>() = 0.5 * (pose_covariance + pose_covariance.transpose());
  for (int i = 3; i < n; ++i) P_(i, i) = velocity_variance;
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
  const int n = static_cast<int>(x_.size());
  Covariance F = Covariance::Identity(n, n);
  Covariance Q = Covariance::Zero(n, n);
  const double theta = x_(kTheta);
  // White acceleration of density q on a rate r integrated into a coordinate
  // p adds q (dt^3/3, dt^2/2; dt^2/2, dt) to the covariance of (p, r): the same
  // whether dt comes in one step or many.
  const double dt2 = dt * dt / 2.0, dt3 = dt * dt * dt / 3.0;
  const double qa = params_.accel_noise_density, qw = params_.angular_accel_noise_density;
  const int w = omega_index(model_);
  Q(kTheta, kTheta) = qw * dt3;
  Q(kTheta, w) = Q(w, kTheta) = qw * dt2;
  Q(w, w) = qw * dt;

  if (model_ == RobotMotionModel::kUnicycle) {
    const double v = x_(kSpeed), omega = x_(kUnicycleOmega);
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

    x_(kX) += chord * c;
    x_(kY) += chord * s;
    x_(kTheta) = wrap_angle(theta + omega * dt);

    // The speed's noise moves the robot along the chord; sideways drift
    // (slip, pushes) is a random walk across the heading.
    const Eigen::Vector2d along(c, s), across(-std::sin(theta), std::cos(theta));
    Q.topLeftCorner<2, 2>() = qa * dt3 * along * along.transpose() +
                              params_.lateral_diffusion * dt * across * across.transpose();
    Q.block<2, 1>(kX, kSpeed) = qa * dt2 * along;
    Q.block<1, 2>(kSpeed, kX) = qa * dt2 * along.transpose();
    Q(kSpeed, kSpeed) = qa * dt;
  } else {
    F(kX, kVx) = F(kY, kVy) = F(kTheta, kHolonomicOmega) = dt;
    x_(kX) += x_(kVx) * dt;
    x_(kY) += x_(kVy) * dt;
    x_(kTheta) = wrap_angle(theta + x_(kHolonomicOmega) * dt);

    for (const auto& [p, r] : {std::pair{kX, kVx}, std::pair{kY, kVy}}) {
      Q(p, p) = qa * dt3;
      Q(p, r) = Q(r, p) = qa * dt2;
      Q(r, r) = qa * dt;
    }
  }

  P_ = F * P_ * F.transpose() + Q;
  P_ = (0.5 * (P_ + P_.transpose())).eval();
  t_ = t;
}

template <int M>
Eigen::Matrix<double, M, M> RobotEkf::innovation_covariance(const Eigen::Matrix<double, M, M>& R) const {
  return P_.template topLeftCorner<M, M>() + R;
}

double RobotEkf::mahalanobis2(const Pose& z, const PoseCovariance& R) const {
  Eigen::Vector3d y = z - x_.head<3>();
  y(kTheta) = wrap_angle(y(kTheta));
  return y.dot(innovation_covariance<3>(R).ldlt().solve(y));
}

double RobotEkf::mahalanobis2(const Eigen::Vector2d& z, const Eigen::Matrix2d& R) const {
  const Eigen::Vector2d y = z - x_.head<2>();
  return y.dot(innovation_covariance<2>(R).ldlt().solve(y));
}

template <int M>
void RobotEkf::update_with(const Eigen::Matrix<double, M, 1>& residual, const Eigen::Matrix<double, M, M>& R) {
  // The measurement is the first M state components: H = [I 0].
  const int n = static_cast<int>(x_.size());
  const Eigen::Matrix<double, M, M> S = innovation_covariance<M>(R);
  using Gain = Eigen::Matrix<double, Eigen::Dynamic, M, 0, 6, M>;
  const Gain K = S.ldlt().solve(P_.template leftCols<M>().transpose()).transpose();
  x_ += K * residual;
  x_(kTheta) = wrap_angle(x_(kTheta));
  Covariance IKH = Covariance::Identity(n, n);
  IKH.template leftCols<M>() -= K;
  // Joseph form: stays positive semi-definite whatever the rounding.
  P_ = IKH * P_ * IKH.transpose() + K * R * K.transpose();
  P_ = (0.5 * (P_ + P_.transpose())).eval();
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
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> position(P_.topLeftCorner<2, 2>(), Eigen::EigenvaluesOnly);
  return position.eigenvalues().maxCoeff() > params_.lost_position_sd * params_.lost_position_sd;
}

}  // namespace robocaf::actors
