#pragma once
// Perception measured against ground truth: a match's truth records are
// rendered into camera images, perception detects on them, and world
// knowledge tracks from those detections; every result is compared with the
// truth the images were made from (`robocaf eval-perception`).

#include <cstdint>
#include <string>

namespace robocaf::deploy {

struct PerceptionScores {
  std::uint64_t frames = 0;
  double ball_rmse_mm = 0.0;        ///< nearest ball candidate to the true ball, over frames with a candidate
  double ball_found = 0.0;          ///< fraction of frames with a candidate within 5 cm of the true ball
  std::uint64_t false_balls = 0;    ///< candidates farther than 5 cm from the true ball
  double robot_rmse_mm = 0.0;       ///< detections with the right team and id
  double heading_rmse_deg = 0.0;
  double id_accuracy = 0.0;         ///< robot-frames detected with the right team and id
  std::uint64_t false_robots = 0;   ///< detections matching no robot of that team and id
  double frame_ms_median = 0.0;     ///< detection time per frame, one core
  double tracked_ball_rmse_mm = 0.0;  ///< world knowledge of blue 1 on these detections, at capture time
  /// Its median: the RMS is dominated by the few frames after the referee
  /// teleports the ball (the tracker needs three frames to believe a jump).
  double tracked_ball_median_mm = 0.0;
};

/// Evaluates overhead-camera perception on the truth records of the game log
/// at `log_path` (every `every`-th), with the log's own league and camera
/// config; the images' noise is seeded from the log's seed. Throws
/// std::runtime_error for a log without truth records or a league without a
/// global camera.
PerceptionScores evaluate_overhead_perception(const std::string& log_path, std::uint64_t every = 1);

/// Onboard-camera perception and the value of sharing, per (robot, frame)
/// sample: every robot on the field in every evaluated truth record.
///
/// Where the ball is, seen from a robot (its truth in the robot's frame,
/// distance from the robot centre, which carries the camera):
///  - out of view: none of its outline in the image (behind, beside, under),
///    or all of it behind one robot;
///  - beyond range: otherwise, if its centre is farther than
///    OnboardCameraSpec.range: not scored, except for false candidates;
///  - in clear view: its whole outline projects inside the image, no other
///    robot's body is painted over any of it (the renderer's far-to-near
///    order: a robot whose anchor is nearer to the camera and whose angular
///    extent overlaps the ball's), and it is not inside a goal (the nets may
///    hide it);
///  - partly in view: the rest: cut by the image border, in part behind a
///    robot, or inside a goal.
/// A candidate is the ball when it lies within max(0.1 m, 10 % of the
/// distance) of it (5 times the 2 % target); any other candidate is false.
struct OnboardPerceptionScores {
  std::uint64_t frames = 0;          ///< truth records evaluated
  std::uint64_t robot_frames = 0;    ///< (robot, frame) samples = images detected on
  std::uint64_t ball_clear_view = 0; ///< samples with the ball in clear view
  /// RMS over clear-view samples with the ball found of |error| / distance,
  /// in percent (the error of the candidate nearest the truth).
  double ball_error_pct_of_distance = 0.0;
  double ball_error_pct_median = 0.0;   ///< its median
  double ball_found_in_view = 0.0;      ///< fraction of clear-view samples with the ball found
  double ball_found_partly_in_view = 0.0;  ///< the same over partly-in-view samples
  std::uint64_t false_balls = 0;        ///< candidates that are not the ball, all samples
  double robot_found_in_view = 0.0;     ///< robots in clear view (the same rules) found within 10 % of their distance
  double robot_error_pct_median = 0.0;  ///< their |error| / distance, percent
  double frame_ms_median = 0.0;         ///< detection time per image, one core (rendering excluded)
  /// Distance within which a robot's ball estimate counts as usable: one
  /// robot diameter (0.5 m in MSL), about the reach of a robot's mouth
  /// while driving at the ball.
  double usable_ball_error_m = 0.0;
  /// Fraction of (robot, frame) samples whose world-knowledge estimate
  /// (WorldTracker, default parameters as the actor runs it) has a valid ball
  /// within usable_ball_error_m of the truth: from the robot's own detections
  /// only, and with teammates' estimates fused as the actor does (each robot
  /// shares every share_period, a share is fused from the next cycle on).
  double ball_known_own = 0.0;
  double ball_known_shared = 0.0;
  /// Goal posts (GoalPostDetector, the landmarks self-localisation uses).
  /// A goal is in clear view when both its posts, foot to top, project into
  /// the image, lie within GoalPostDetector::max_range and no robot's body is
  /// painted over either (the ball rules above). A detected goal is matched
  /// to the truth as the +x or the -x goal, whichever fits (the detector
  /// cannot tell them apart, self-localisation decides by its heading); it
  /// is found when both landmarks lie within 10 % of their distance.
  std::uint64_t goal_clear_view = 0;   ///< (robot, goal) samples in clear view
  double goal_found_in_view = 0.0;     ///< fraction of them found
  double landmark_error_pct = 0.0;     ///< found goals' landmarks: RMS of |error| / distance, percent
  double landmark_error_pct_median = 0.0;
  std::uint64_t false_goals = 0;       ///< detected goals matching neither goal, all samples
  /// Field-line points (FieldLineDetector, the other thing self-localisation
  /// matches), each mapped to the field with the robot's true pose and
  /// measured to the nearest line (runtime::FieldLines).
  double line_points_per_image = 0.0;
  double line_point_error_pct = 0.0;   ///< RMS of distance to the nearest line / the point's distance, percent
  double line_point_error_pct_median = 0.0;
  std::uint64_t line_points_off = 0;   ///< points more than kLinePointOff from every line
  static constexpr double kLinePointOff = 0.25;  ///< m: half a self-localiser gate; such a point is no line's
};

/// Evaluates onboard-camera perception on the truth records of the game log
/// at `log_path` (every `every`-th): each robot's image is rendered with
/// OnboardImageRenderer (seeded with derive_seed(log seed,
/// kOnboardImageStream), as `robocaf render --camera onboard`), detected with
/// OnboardImageDetector on the camera's robot-frame calibration, and compared
/// with the truth in that robot's frame. The trackers get percepts of the
/// detected balls (robots are left out: onboard images show no ids to
/// associate them by) with the robot's TRUE pose as its dead-reckoned self
/// pose: the log has no odometry, and the true pose keeps localisation drift
/// out of a measure of perception and sharing. Throws std::runtime_error for
/// a log without truth records or a league without onboard cameras.
OnboardPerceptionScores evaluate_onboard_perception(const std::string& log_path, std::uint64_t every = 1);

}  // namespace robocaf::deploy
