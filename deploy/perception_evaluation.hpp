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

}  // namespace robocaf::deploy
