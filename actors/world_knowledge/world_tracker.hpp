#pragma once
// World-knowledge core: tracks the ball and the robots from this robot's
// percepts and its teammates' shared estimates. No CAF here.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <Eigen/Dense>

#include "actors/world_knowledge/robot_ekf.hpp"
#include "messages/config.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"

namespace robocaf::actors {

/// Tuning of WorldTracker; defaults suit a global camera at 30-60 Hz.
struct TrackerParams {
  double ball_measurement_sd = 0.005;   // m, per axis, for detections without their own sd
  double ball_accel_sd = 1.0;           // m/s^2, process noise while the ball rolls as predicted
  double ball_maneuver_accel_sd = 6.0;  // m/s^2, process noise after a surprise (kick, bounce)
  double ball_maneuver_chi2 = 3.0;      // chi-square(2), 78 %: an accepted update this surprising is a maneuver
  double ball_gate_chi2 = 9.21;         // chi-square(2), 99 %
  double ball_gate_min_distance = 0.05; // m: always accept this close, however certain we are
  int ball_reset_after_rejections = 3;  // consecutive gated-out frames -> re-initialise
  double ball_initial_velocity_sd = 1.0;
  double ball_stale_after = 0.25;       // s without a measurement: a teammate's ball may replace ours
  double ball_lost_after = 3.0;         // s without any information: ball invalid
  double ball_fuse_trace_ratio = 4.0;   // fuse a teammate's ball if ours is this much less certain

  // A detection's own PerceivedObject.position_sd, when set, replaces
  // ball_measurement_sd / robot_position_sd; never below this.
  double min_measurement_sd = 0.001;    // m
  // Uncertainty of a dead-reckoned self pose (odometry corrected by
  // landmarks): added to everything seen relative to it.
  double dead_reckoned_position_sd = 0.05;  // m
  double dead_reckoned_heading_sd = 0.03;   // rad

  double robot_position_sd = 0.005;     // m, per axis, for detections without their own sd
  double robot_orientation_sd = 0.03;   // rad
  double robot_accel_noise_density = 0.2;          // m^2/s^3 (RobotEkfParams)
  double robot_angular_accel_noise_density = 50.0; // rad^2/s^3
  double robot_lateral_diffusion = 0.0005;         // m^2/s, differential robots: slip, pushes
  double robot_initial_velocity_sd = 0.5;  // m/s, a robot first seen
  double robot_initial_omega_sd = 5.0;     // rad/s
  double robot_shared_velocity_sd = 0.5;   // m/s, a teammate's estimate (it carries no velocity covariance)
  double robot_shared_omega_sd = 2.0;      // rad/s
  double robot_gate_chi2 = 11.34;          // chi-square(3), 99 %: a pose detection of a known id
  double robot_position_gate_chi2 = 9.21;  // chi-square(2), 99 %: an id-less detection (position only)
  double robot_gate_min_distance = 0.05;   // m: always accept this close, however certain we are
  int robot_reset_after_rejections = 3;    // consecutive gated-out detections of an id -> re-initialise
  double robot_lost_position_sd = 0.5;     // m: a track this uncertain is dropped (coasting too long)
  double robot_limit_factor = 1.5;         // tracks' speed and turn rate stay within this times the league's limits
  // Our own pose from perception stepping by more than this (m, rad) from the
  // prediction is a relocalisation, not motion: the track starts again there.
  double self_restart_distance = 0.5;
  double self_restart_heading = 0.5;
  double robot_stale_after = 0.25;      // s: a teammate's view of a robot may replace ours
  double robot_lost_after = 1.0;        // s: track dropped from the estimate
  // s the bumper's contacts of the newest percept stay in the estimate
  // (WorldEstimate.self_contacts): a few camera frames, then they are old news.
  double contacts_keep = 0.2;
  // s an unseen opponent is extrapolated at its last velocity; after that it
  // is reported standing where that put it (see WorldTracker, "Coasting").
  double opponent_coast_seconds = 0.3;
  // Our own camera's view (see WorldTracker, "Out of view"): horizontal
  // field of view (rad) and range (m) of an onboard camera; 0 for a camera
  // that sees the whole field (a global one), and nothing below applies.
  double view_fov = 0.0;
  double view_range = 0.0;
  // s an opponent whose place lies outside our view is remembered, standing.
  double opponent_out_of_view_keep = 3.0;
  // s an opponent's remembered place may lie in plain view with no sighting
  // before it is forgotten; rad and m its centre keeps inside the view's edges for that.
  double view_absent_seconds = 0.2;
  double view_margin_angle = 0.1;
  double view_margin_range = 0.5;
  // An id-less sighting of a teammate that no track takes, seen again within
  // robot_stale_after and this close (m) to where it was, this many percepts
  // in a row, moves the nearest teammate track we have not seen ourselves
  // for robot_stale_after there (see WorldTracker, "Unclaimed teammates").
  int robot_claim_after_sightings = 3;
  double robot_claim_distance = 0.3;
};

/// Tracks ball and robots in field coordinates.
///
/// Ball: Kalman filter on (x, y, vx, vy) with the league's constant rolling
/// deceleration; each percept gives one predict (real dt from t_capture) and at
/// most one update with the nearest candidate inside a Mahalanobis gate. The
/// process noise switches between a low level (a ball rolling as predicted:
/// smooth velocity) and a high one for the step after an update whose
/// normalised innovation exceeded ball_maneuver_chi2 (a kick or a bounce:
/// follow it quickly).
///
/// Robots (ourselves, teammates, opponents): one RobotEkf each, unicycle for
/// a league of differential robots, holonomic for omnidirectional ones
/// (league.robot().drive()). A detection with an id (1, 2, ...) updates that
/// id's track with its pose after one predict to t_capture, unless it lies
/// outside the gate (robot_gate_chi2 and farther than robot_gate_min_distance):
/// then it is dropped, and after robot_reset_after_rejections in a row the
/// track restarts there (a robot the referee moved). A detection with
/// robot_id 0 (id unknown: onboard cameras see no markings, an overhead
/// detector may fail to decode them; its heading is not trusted either) is
/// associated by position: per team, greedily nearest-first by Mahalanobis
/// distance, to a track not updated by an id in the same percept, inside
/// robot_position_gate_chi2 (or robot_gate_min_distance), and updates its
/// position only. For our own team our own track is a candidate too: an
/// id-less detection of ourselves is then recognised and dropped rather than
/// pulled onto a teammate. An id-less detection no track takes is ignored:
/// it never creates a track, so no made-up id can collide with a real one.
/// Tracks are dropped when unobserved for robot_lost_after or when their
/// position's sd exceeds robot_lost_position_sd (coasting).
///
/// Coasting. An opponent nobody sees is extrapolated at its last velocity
/// for opponent_coast_seconds only, then reported standing where that put
/// it (velocity and turn rate zero) until it is seen again or dropped.
/// Opponents stop and turn without telling us: with onboard cameras a
/// robot leaving the view cone at speed ran on in the estimate for a second,
/// a metre through where it had stopped, and the skills braked for a robot
/// that was not there. Teammates share their own pose, so theirs coast on.
///
/// Out of view. With an onboard camera (view_fov > 0) a robot sees a narrow
/// cone, and one it backs towards is not in it: opponents dropped after
/// robot_lost_after unseen were no longer in the estimate when it drove
/// into them blind (MSL: scorers reversing home from the other team's
/// goal ran into its keeper, stuck for 1-2 s, and stood in the wrong half
/// at the kick-off). So an opponent whose place lies outside our view (or
/// behind another robot we track) is kept, standing, for
/// opponent_out_of_view_keep since it was last seen, whatever its
/// covariance; not seeing it where we look is what forgets it: its place
/// inside the view (view_margin_angle and view_margin_range inside the
/// edges, not hidden) for view_absent_seconds without a sighting drops it,
/// and teammates' reports of it no fresher than that are not adopted.
///
/// Unclaimed teammates. A teammate that has lost itself reports a wrong
/// pose (MSL: 0.68 m off after pushing in a scrum), and our track of it,
/// held there by those reports, gates out our own camera's id-less
/// sightings of the real robot: the team believes that place free. So an id-less
/// sighting of our team that no track takes, seen at about the same place
/// (robot_claim_distance) in robot_claim_after_sightings percepts in a row,
/// restarts the nearest teammate track our own camera has not confirmed for
/// robot_stale_after, keeping that track's heading. Tracks our camera
/// confirms are never moved; without such a track the sighting stays
/// unclaimed.
///
/// Our own pose from a camera (self_seen) is gated like any detection; a
/// dead-reckoned one (odometry corrected by landmarks) is not: it is
/// perception's own fused pose, and its corrections step further than a gate
/// allows. The localiser's own position uncertainty (Percept.self_covariance)
/// is passed on as WorldEstimate.self_localisation_sd.
/// What the bumper touches (Percept.contacts) is passed on likewise as
/// WorldEstimate.self_contacts, for contacts_keep after the percept.
///
/// Measurement noise: PerceivedObject.position_sd when set (onboard cameras,
/// whose error grows with distance), else ball_measurement_sd /
/// robot_position_sd; objects placed from a dead-reckoned self pose add that
/// pose's uncertainty (dead_reckoned_*_sd, across the line of sight times
/// the distance). Output is a pure function of the inputs. Messages with a
/// non-finite number anywhere are ignored whole.
class WorldTracker {
 public:
  WorldTracker(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league, TrackerParams params = {});

  /// Adds one percept. Egocentric objects are returned to the field frame with
  /// percept.self_pose when it is set (measured or perception's fallback, see
  /// DetectionFilter), else with our own predicted self pose; our own track is
  /// updated only when self_seen or self_dead_reckoned.
  void observe(const msg::Percept& percept);

  /// Uses a teammate's shared estimate: its ball replaces ours when ours is
  /// stale (or absent) and theirs is fresher, or is fused by covariance
  /// intersection when ours is much less certain; its robots, when fresher
  /// than ours, replace missing tracks, stale ones, and ones our own camera
  /// has not seen for robot_stale_after (kept up by shares alone). Estimates
  /// from other teams or from ourselves are ignored.
  void fuse(const msg::WorldEstimate& from_teammate);

  /// The picture predicted to time t. `self` is absent until we have seen
  /// ourselves; robots not observed for robot_lost_after, or predicted to t
  /// less certain than robot_lost_position_sd, are left out. Robot covariance:
  /// the full 3x3 of (x, y, theta), row-major.
  msg::WorldEstimate estimate(uint64_t cycle, double t) const;

  const TrackerParams& params() const { return params_; }

 private:
  struct RobotTrack {
    RobotEkf ekf;
    double t_observed = 0.0;
    int rejections = 0;
    // When our own camera last confirmed it (not a teammate's report).
    double t_sighted = -std::numeric_limits<double>::infinity();
    // Since when its place has lain in our view without a sighting (see
    // "Out of view"); infinity while it is seen or out of view.
    double t_absent_since = std::numeric_limits<double>::infinity();
  };
  // An id-less sighting of our team no track took, and in how many percepts
  // in a row it was seen about there.
  struct UnclaimedSighting {
    Eigen::Vector2d position;
    double t;
    int count;
  };
  struct BallTrack {
    bool valid = false;
    Eigen::Vector4d x = Eigen::Vector4d::Zero();
    Eigen::Matrix4d P = Eigen::Matrix4d::Identity();
    double t = 0.0;
    bool maneuvering = true;  // the last update surprised us: predict with the maneuver noise
    double t_observed = 0.0;
    int rejections = 0;
  };
  // A robot detection in the field frame with its measurement covariance.
  struct RobotSighting {
    RobotEkf::Pose pose;
    RobotEkf::PoseCovariance R;
  };

  // A ball candidate in the field frame with its measurement covariance.
  struct BallSighting {
    Eigen::Vector2d position;
    Eigen::Matrix2d R;
    double confidence;
  };

  // A pose measured to position_sd per axis and robot_orientation_sd.
  RobotEkf::PoseCovariance pose_covariance(double position_sd) const;
  RobotTrack new_track(const RobotSighting& z, double t) const;
  // Whether perception's own pose z stepped away from our track's pose
  // predicted to its time by more than a robot moves (see
  // TrackerParams::self_restart_distance).
  bool relocalised(const RobotEkf::Pose& predicted, const RobotEkf::Pose& z) const;
  void observe_robot(std::optional<RobotTrack>& track, const RobotSighting& z, double t, bool gate) const;
  void associate_anonymous(std::map<uint32_t, RobotTrack>& tracks, const std::vector<RobotSighting>& sightings,
                           std::set<uint32_t>& updated, bool own_team, double t);
  // See "Unclaimed teammates": `tracks` are our team's, `used` marks the
  // sightings a track took.
  void claim_unclaimed(std::map<uint32_t, RobotTrack>& tracks, const std::vector<RobotSighting>& sightings,
                       const std::vector<bool>& used, std::set<uint32_t>& updated, double t);
  void prune(std::map<uint32_t, RobotTrack>& tracks, const std::set<uint32_t>& updated, double t,
             bool opponents) const;
  // The track predicted to t, unless it is too old or too uncertain to report
  // (an opponent's by "Out of view" with an onboard camera).
  std::optional<RobotEkf> reportable(const RobotTrack& track, double t, bool opponent) const;
  // "Out of view": opponents not in `updated` whose place lies in the view
  // from `eye` at t start or go on being absent; those absent long enough
  // are dropped.
  void forget_absent_opponents(const msg::Pose2& eye, const std::set<uint32_t>& updated, double t);
  bool remembers_out_of_view() const { return params_.view_fov > 0.0 && params_.view_range > 0.0; }
  // An opponent's track predicted to t, no further than its coast (see
  // "Coasting"): where estimate() reports it.
  RobotEkf coasted(const RobotTrack& track, double t) const;
  void observe_ball(const std::vector<BallSighting>& balls, double t);
  void predict_ball(BallTrack& ball, double t) const;
  bool should_adopt_self(const RobotTrack* ours, const msg::RobotEstimate& e, double t_now) const;
  RobotTrack track_from(const msg::RobotEstimate& e, double t) const;
  void adopt_robot(std::map<uint32_t, RobotTrack>& tracks, const msg::RobotEstimate& e, double t, double t_now);
  void fill_robot(const RobotEkf& predicted, double t_observed, msg::Team team, uint32_t id,
                  msg::RobotEstimate* out) const;
  double latest_time() const;

  msg::Team team_;
  msg::Team opponent_;
  uint32_t robot_id_;
  double ball_deceleration_;
  TrackerParams params_;
  RobotMotionModel robot_model_;
  RobotEkfParams robot_ekf_params_;

  std::optional<RobotTrack> self_;
  double self_localisation_sd_ = 0.0;  // m, from the newest dead-reckoned percept's self_covariance
  std::vector<Eigen::Vector2d> self_contacts_;  // the newest percept's bumper contacts, robot frame
  double self_contacts_t_ = 0.0;                // its capture time
  std::map<uint32_t, RobotTrack> teammates_;
  std::map<uint32_t, RobotTrack> opponents_;
  // Opponents forgotten as absent from our view, and when: older reports
  // of them are not adopted.
  std::map<uint32_t, double> absent_;
  double robot_radius_;
  std::vector<UnclaimedSighting> unclaimed_;
  BallTrack ball_;
};

}  // namespace robocaf::actors
