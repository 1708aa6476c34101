#pragma once
// Extended Kalman filter of one robot's pose and velocities, in the field
// frame. No CAF, no protobuf: plain Eigen.

#include <Eigen/Core>

namespace robocaf::actors {

/// Motion model of a RobotEkf, after the robot's drive.
enum class RobotMotionModel {
  /// Differential drive: state (x, y, theta, v, omega), the robot moves along
  /// its heading at speed v (negative when reversing) and turns at omega.
  kUnicycle,
  /// Omnidirectional drive: state (x, y, theta, vx, vy, omega), velocity in
  /// the field frame, independent of the heading.
  kHolonomic,
};

/// Process noise and track-loss threshold of a RobotEkf.
struct RobotEkfParams {
  /// m^2/s^3: density of the white acceleration driving v (unicycle) or each
  /// of vx, vy (holonomic); a speed's variance grows by this much per second.
  double accel_noise_density = 0.2;
  /// rad^2/s^3: the same for omega.
  double angular_accel_noise_density = 50.0;
  /// m^2/s, unicycle only: sideways motion the model cannot produce (wheel
  /// slip, a robot being pushed) as a random walk of the position
  /// perpendicular to the heading, variance lateral_diffusion * dt. 0 makes
  /// the model strictly non-holonomic.
  double lateral_diffusion = 0.0005;
  /// m: lost() once the position's standard deviation along its worst
  /// direction exceeds this.
  double lost_position_sd = 0.5;
  /// m/s and rad/s: the fastest a robot can move and turn; 0 for no limit.
  /// An update leaves the speed and turn rate within them. Without a limit a
  /// pose jump (a robot the referee moved, a localiser finding itself again)
  /// drove omega past pi per step, where the wrapped heading residual fits
  /// an aliased turn rate, and the heading flipped by about pi every cycle
  /// from then on (MSL: one robot for 45 minutes of a match).
  double max_speed = 0.0;
  double max_omega = 0.0;
};

/// One robot tracked by an extended Kalman filter.
///
/// Units: metres, radians, seconds; pose and velocities in the field frame
/// (theta counter-clockwise from +x, wrapped to (-pi, pi]).
///
/// Prediction (predict_to) integrates the motion model over the real time
/// since the filter's time; a time at or before it is ignored, so an
/// out-of-order measurement is applied to the current state without
/// prediction. The unicycle is integrated exactly for constant v and omega
/// (the chord of the arc: v dt sinc(omega dt / 2) along theta + omega dt / 2,
/// with no singularity at omega = 0), and its covariance propagated with that
/// map's Jacobian. The holonomic model is linear (constant velocity and turn
/// rate). Process noise is continuous white acceleration on the velocities
/// (for a rate r of a coordinate p: q (dt^3/3, dt^2/2; dt^2/2, dt) on (p, r),
/// along the chord for the unicycle's speed), so one prediction over dt
/// equals many over its parts; plus the unicycle's lateral random walk.
///
/// Updates take a measured pose (x, y, theta) with a 3x3 covariance, or a
/// position only (for detections whose heading is unknown); the heading
/// residual is wrapped, the covariance updated in Joseph form (stays
/// symmetric positive semi-definite); then the speed and turn rate are
/// limited to RobotEkfParams::max_speed and max_omega.
class RobotEkf {
 public:
  using Pose = Eigen::Vector3d;          ///< x, y (m), theta (rad)
  using PoseCovariance = Eigen::Matrix3d;
  using State = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  using Covariance = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

  /// A robot first seen at `pose` (covariance `pose_covariance`) at time t,
  /// at rest as far as we know: speed(s) with variance velocity_variance
  /// ((m/s)^2, per component), omega with omega_variance ((rad/s)^2).
  RobotEkf(RobotMotionModel model, const RobotEkfParams& params, const Pose& pose,
           const PoseCovariance& pose_covariance, double t, double velocity_variance, double omega_variance);

  /// A robot known from someone else's estimate (a teammate's RobotEstimate):
  /// pose with its 3x3 covariance, field-frame velocity and omega with the
  /// given variances. A unicycle takes the velocity's component along the
  /// heading as its speed (a differential robot cannot move sideways).
  static RobotEkf from_estimate(RobotMotionModel model, const RobotEkfParams& params, const Pose& pose,
                                const PoseCovariance& pose_covariance, const Eigen::Vector2d& velocity,
                                double omega, double t, double velocity_variance, double omega_variance);

  /// Moves the state and covariance forward to time t (s); no-op for t <= time().
  void predict_to(double t);

  /// Squared Mahalanobis distance of a measured pose with covariance R from
  /// the current prediction (heading residual wrapped). Chi-square with
  /// 3 degrees of freedom for a right association: 11.34 is its 99 % point.
  double mahalanobis2(const Pose& z, const PoseCovariance& R) const;
  /// The same for a position only (2 degrees of freedom; 99 %: 9.21).
  double mahalanobis2(const Eigen::Vector2d& z, const Eigen::Matrix2d& R) const;

  /// Kalman update with a measured pose of covariance R (at the current time:
  /// call predict_to first).
  void update(const Pose& z, const PoseCovariance& R);
  /// Kalman update with a measured position only; the heading is corrected
  /// only through its correlation with the position.
  void update(const Eigen::Vector2d& z, const Eigen::Matrix2d& R);

  Pose pose() const;
  /// Field-frame velocity, m/s (a unicycle's v along its heading).
  Eigen::Vector2d velocity() const;
  /// rad/s, counter-clockwise.
  double omega() const;
  /// Covariance of (x, y, theta).
  PoseCovariance pose_covariance() const;
  /// The position's standard deviation has grown past params.lost_position_sd.
  bool lost() const;

  double time() const { return t_; }
  RobotMotionModel model() const { return model_; }
  /// The whole state (5 or 6 components, see RobotMotionModel) and its covariance.
  State state() const { return x_.head(n_); }
  Covariance covariance() const { return P_.topLeftCorner(n_, n_); }

 private:
  // The arithmetic runs on fixed-size blocks of N = 5 or 6 states (Eigen
  // unrolls those; this runs for every robot in every percept).
  template <int N>
  void predict_fixed(double dt);
  template <int N, int M>
  void update_fixed(const Eigen::Matrix<double, M, 1>& residual, const Eigen::Matrix<double, M, M>& R);
  template <int M>
  void update_with(const Eigen::Matrix<double, M, 1>& residual, const Eigen::Matrix<double, M, M>& R);
  template <int M>
  Eigen::Matrix<double, M, M> innovation_covariance(const Eigen::Matrix<double, M, M>& R) const;

  RobotMotionModel model_;
  RobotEkfParams params_;
  int n_;                                   // 5 (unicycle) or 6 (holonomic); the rest of x_, P_ is zero
  Eigen::Matrix<double, 6, 1> x_ = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 6> P_ = Eigen::Matrix<double, 6, 6>::Zero();
  double t_ = 0.0;
};

}  // namespace robocaf::actors
