#pragma once
// Self-localisation of a robot with an onboard camera: odometry corrected by
// the field's landmarks and by points on its white lines. No CAF here.

#include <optional>
#include <vector>

#include <Eigen/Core>
#include <google/protobuf/repeated_field.h>

#include "actors/perception/landmark_localiser.hpp"
#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"
#include "runtime/field_lines.hpp"

namespace robocaf::actors {

struct SelfLocaliserParams {
  /// Odometry's error as variance per metre the wheels travel: along the
  /// heading (slip, and wheels spinning against an opponent: large), across
  /// it, and of the heading (wheel-base and heading noise).
  double along_variance_per_m = 0.05;    // m^2/m
  double side_variance_per_m = 0.005;    // m^2/m
  double heading_variance_per_m = 0.0004;  // rad^2/m
  double heading_variance_per_rad = 0.01;  // rad^2/rad turned
  /// Being pushed while the wheels stand still: position variance per second.
  double push_variance_per_s = 0.001;    // m^2/s
  /// Measurement noise floor of a line point or landmark (m); above it the
  /// camera's noise_per_metre times the distance.
  double min_measurement_sd = 0.02;
  /// A line point is matched to the nearest field line only if, at the
  /// predicted pose, it lies within 3 sd of the position's uncertainty of it,
  /// clamped to these bounds (m): farther it is something else (a misread)
  /// or the line it belongs to is ambiguous.
  double min_line_gate = 0.25;
  double max_line_gate = 1.0;
  int min_line_points = 3;       // fewer matched points: the frame's lines are not used
  int line_iterations = 4;       // Gauss-Newton steps of the line match
  double huber_sd = 2.0;         // residuals beyond this many sd weigh less (Huber)
  /// chi-square (2 dof) of a landmark's innovation beyond which it is
  /// rejected as a misread. After `reset_after_rejections` frames in a row
  /// with rejections and a full landmark fix (two or more landmarks that
  /// agree with each other), the filter restarts at the fix: the robot was
  /// moved, or odometry ran off. (Widening the covariance instead when a
  /// single landmark keeps disagreeing was tried: the wider line gate then
  /// matched points to the wrong lines, and MSL's own contacts went from 2.5
  /// to 23 a match on seeds 5-6.)
  double landmark_gate_chi2 = 13.8;
  int reset_after_rejections = 3;
  /// A single landmark that tells which it is (not symmetric), rejected in
  /// this many frames in a row, each time implying (at the filter's heading)
  /// a position on the arena within lone_landmark_agreement (m) of the frame
  /// before: the filter restarts there, as uncertain as the heading makes a
  /// position found at that distance, if the frame's line points agree (at
  /// least lone_line_fraction of them, and min_line_points, within 3 sd plus
  /// lone_line_tolerance of a line), or, with fewer than min_line_points in
  /// view, if it is within lone_landmark_max_correction (m) of the estimate.
  /// Line points that disagree mean the heading is wrong (a robot spun round
  /// in a collision), which one landmark cannot tell.
  int lone_landmark_frames = 10;
  double lone_landmark_agreement = 0.3;
  double lone_landmark_max_correction = 2.0;
  double lone_line_fraction = 0.75;
  double lone_line_tolerance = 0.05;
  /// Covariance the first pose starts with: robots start where they were
  /// put, but a hand puts a robot down only to decimetres.
  double start_position_sd = 0.3;      // m
  double start_heading_sd = 0.1;       // rad
  /// Covariance a restart at a landmark fix starts with.
  double restart_position_sd = 0.05;   // m
  double restart_heading_sd = 0.05;    // rad
};

/// Pose filter (x, y, theta) of one robot, an extended Kalman filter.
///
/// Predict: each odometry pose's change since the previous one, in the
/// robot's frame, moves the estimate; its covariance grows by the
/// odometry's error per metre driven (along, across, heading) and per
/// radian turned.
///
/// Update, per camera frame:
///  - each identified landmark (robot-frame position) is one measurement of
///    R(theta)^T (L - p), L its field position (a symmetric landmark counts
///    as whichever of itself and its half-turn lies nearer the prediction),
///    with the camera's distance-growing noise; gated by
///    landmark_gate_chi2. When two or more disagree with each other
///    (LandmarkLocaliser refuses them), none is used. Rejections that go on
///    restart the filter: at the fix of two or more landmarks that agree
///    (reset_after_rejections frames), or where a single unambiguous one
///    keeps putting the robot (lone_landmark_frames, at the filter's
///    heading) when the frame's line points agree.
///  - line points: each is matched to the nearest field line at the
///    predicted pose (within the gate; not when a second line lies within
///    it too with its nearest point more than 3 sd away: the point may be
///    on either, and a few points fit to the wrong one agree with a wrong
///    pose) and the pose is refined by
///    Gauss-Newton on prior + the points' distances to their lines (an
///    iterated EKF update; Huber weights for outliers). A single visible line
///    constrains only the direction across it: the information form leaves
///    the other directions to the prior, so no degenerate fit is needed.
///    This is the "matching" localisation of MSL teams (Lauer, Lange and
///    Riedmiller, 2006), on the points a scan line finds.
///
/// Plain C++ with Eigen; the output is a pure function of the inputs.
class SelfLocaliser {
 public:
  using Pose = Eigen::Vector3d;  // x, y, theta
  using Covariance = Eigen::Matrix3d;

  SelfLocaliser(const msg::FieldGeometry& field, double noise_per_metre, SelfLocaliserParams params = {});

  /// Odometry's newest pose at time t. The first one starts the filter
  /// there (robots start where they were placed), start_*_sd uncertain.
  void predict(const msg::Pose2& odometry, double t);

  /// One camera frame's landmarks and line points (robot frame). Does
  /// nothing before the first predict.
  void update(const msg::OnboardFrame& frame);

  /// What the robot's bumper touches (Odometry.bumper): unit vectors in its
  /// frame, for the following predicts. Wheels that drive into a contact
  /// slip (robots that collide stop along the contact normal), so of
  /// odometry's motion only the nearest motion pointing into no contact is
  /// taken (the motion, its slide along one contact, or nothing: wedged,
  /// the robot stands); its uncertainty (along_variance_per_m) grows with
  /// all of it. Without this, a robot pushing an opponent
  /// that fills its camera's view believes it drives on at full speed.
  void set_contacts(std::vector<Eigen::Vector2d> directions) { contacts_ = std::move(directions); }
  /// The same from the camera (robots seen close ahead), until the next call.
  void set_seen_contacts(std::vector<Eigen::Vector2d> directions) { seen_contacts_ = std::move(directions); }

  bool started() const { return started_; }
  const Pose& pose() const { return x_; }
  const Covariance& covariance() const { return P_; }

  /// How many line points the last update matched (0: lines unused).
  int matched_line_points() const { return matched_; }

 private:
  // Where a single landmark that keeps disagreeing puts the robot, once it
  // has for lone_landmark_frames (the caller checks it against line points).
  struct LoneFix {
    Pose pose;
    double position_sd, heading_sd;
  };
  std::optional<LoneFix> update_landmarks(const google::protobuf::RepeatedPtrField<msg::Landmark>& seen);
  void update_lines(const google::protobuf::RepeatedPtrField<msg::Vec2>& points);
  void restart(const Pose& pose, double position_sd, double heading_sd);
  double measurement_sd(double distance) const;

  runtime::FieldLines lines_;
  LandmarkLocaliser landmarks_;
  double noise_per_metre_;
  SelfLocaliserParams params_;
  bool started_ = false;
  Pose x_ = Pose::Zero();
  Covariance P_ = Covariance::Zero();
  msg::Pose2 last_odometry_;
  double last_t_ = 0.0;
  int rejections_ = 0;
  struct LoneLandmark {
    msg::LandmarkKind kind = msg::LANDMARK_UNSPECIFIED;
    uint32_t index = 0;
    Eigen::Vector2d position = Eigen::Vector2d::Zero();  // where it put the robot last frame
    int frames = 0;                                      // in a row, each agreeing with the one before
  };
  LoneLandmark lone_;
  std::vector<Eigen::Vector2d> contacts_;
  std::vector<Eigen::Vector2d> seen_contacts_;
  int matched_ = 0;
};

}  // namespace robocaf::actors
