#pragma once
// Onboard vision from one image of a robot's own camera (MSL): ball-coloured
// blobs -> balls, team-coloured bands -> robots, on the floor plan of the
// robot's own frame (x forward, y left, metres).

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "actors/perception/camera_geometry.hpp"
#include "actors/perception/colour_segmenter.hpp"
#include "actors/perception/field_line_detector.hpp"
#include "actors/perception/goal_post_detector.hpp"
#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// A ball candidate of one onboard image.
struct OnboardBallCandidate {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();  ///< ball centre, robot frame, metres
  /// The fraction of the ball's expected silhouette that the blob covers at
  /// `position` (its inverse when the blob is larger), in 0..1: ~1 for a ball
  /// in full view, about the visible part for a ball cut by the image border
  /// or hidden in part behind a robot.
  double confidence = 0.0;
  /// Standard deviation of `position` along its worst direction, metres,
  /// from the outline's pixel noise (about a third of a pixel per outline
  /// point) through the geometry: grows about with the square of the distance
  /// for the centroid, and where a fit has only a short arc to go by.
  double position_sd = 0.0;
  cv::Point2d pixel;      ///< blob centroid
  int area = 0;           ///< blob pixels
  bool clipped = false;   ///< the blob touches the image border
  bool occluded = false;  ///< a good part of its outline borders a robot (something nearer may hide it)
  /// The position comes from fitting the ball's silhouette to the blob's free
  /// outline (clipped or occluded blobs) rather than from its centroid.
  bool fitted = false;
};

/// A robot candidate: a blob of a team colour, which only robots carry (the
/// band around their sides). Onboard images do not show the id dots on the
/// tops of robots taller than the camera, so there is no id and no heading.
struct OnboardRobotCandidate {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  Eigen::Vector2d position = Eigen::Vector2d::Zero();  ///< robot centre, robot frame, metres
  /// 1 for a band of the expected width, less when the blob is narrower
  /// (partly hidden or cut by the border) or wider (robots side by side
  /// merged into one blob; the position is then the blob's middle).
  double confidence = 0.0;
  cv::Point2d pixel;  ///< blob centroid
};

struct OnboardDetections {
  std::vector<OnboardBallCandidate> balls;
  std::vector<OnboardRobotCandidate> robots;
  std::vector<SeenGoal> goals;  ///< GoalPostDetector's, for self-localisation
  /// FieldLineDetector's points on the field lines (robot frame, metres), for self-localisation.
  std::vector<Eigen::Vector2d> line_points;
};

/// Detects the ball and robots in the BGR images of a robot's own camera.
///
/// The calibration is the camera's pose relative to its robot, i.e. a
/// msg::CameraCalibration whose "field" frame is the robot frame (as the
/// simulator's onboard_calibration gives for the pose (0, 0, 0)): every
/// result is then egocentric, as msg::PerceivedObject wants it, and the
/// detector never needs the robot's own pose.
///
/// Balls. Every blob of the ball colour class (ColourSegmenter with the
/// given thresholds; zero ranges take default_colour_range) is a candidate.
/// Its centre is found on the plane of the ball centre (z = ball radius):
///  - a blob in full view: its centroid's ray meets that plane. The centroid
///    of a sphere's image is not the image of its centre (perspective
///    stretches the outline away from the principal point by a factor
///    1 / (cos^2 theta - sin^2 alpha) for a sphere of angular radius alpha at
///    theta off the axis); the ray is corrected for that, which matters for
///    near balls off the axis;
///  - a blob touching the image border, or whose outline runs along a robot
///    for a good part (a robot in front may hide part of the ball), or that is
///    much smaller than a ball there: the centroid would be biased, so the
///    ball's silhouette, the cone of rays tangent to a sphere of the ball's
///    radius centred on the plane, is fitted by Gauss-Newton to the blob's
///    outline (three unknowns: the centre on the plane and a small outline
///    offset for the colour threshold, held near 0 by a prior, so a short arc
///    still gives a stable answer). Free outline points (next to the
///    background) lie on the silhouette; bounding ones (on the image border,
///    or next to a robot that may hide the rest) only have to lie inside it,
///    which rules out the smaller, farther balls a short arc would also fit.
///    Gauss-Newton starts from the centroid's answer and from the best of a
///    scan of distances along its bearing (a short arc fits a smaller ball
///    farther away nearly as well locally), the better end wins. Free points
///    the fitted silhouette does not explain (3 robust sigmas, at least 1
///    pixel) are dropped once and the fit repeated. A blob under 40 pixels
///    (its arc too short to tell the curvature), fewer than 8 free outline
///    points, or residuals over 1 pixel RMS at the end (the outline is ~0.3
///    pixels from a right silhouette) give no fit.
/// Blobs whose ray does not meet the plane in front of the camera (at or above
/// the horizon) are dropped; so is a fitted blob larger than 150 % of the
/// fitted ball's expected area, and an unfitted one under 40 % or over 250 %
/// of the expected area at its centroid's answer (something else, or a cut
/// ball the fit could not place: its centroid is too biased to report).
///
/// A blob that does not touch the image border must also look round (bounding
/// box sides within a factor 2).
///
/// Robots. Every blue or yellow blob is the band of a robot of that team
/// (robot_markings.hpp: the band runs around a robot's sides between
/// kBandBottom and kBandTop of its height). The lowest band pixels in the
/// blob's middle columns are the band's bottom edge on the side facing the
/// camera: that ray meets the plane z = kBandBottom x height at the robot's
/// near side, and the centre lies one radius farther along the ray. A band
/// running off the bottom of the image is placed by its angular width
/// instead (2 asin(radius / distance)), unless it is cut at a side too.
///
/// Goals: GoalPostDetector (both posts of a goal and its crossbar), when the
/// league's field has goals. Field lines: FieldLineDetector's points on
/// them, within its default range (6 m).
///
/// Not thread-safe (the segmenter's scratch buffers); one detector per thread.
class OnboardImageDetector {
 public:
  /// Band heights as fractions of the robot height (the vision protocol, kept
  /// equal to sim/camera/robot_markings.hpp's kTeamBand* by a unit test).
  static constexpr double kBandBottom = 0.45;
  static constexpr double kBandTop = 0.85;

  /// `robot_frame_calibration`: the camera relative to the robot (see the
  /// class comment). League sizes left 0 take the simulator's defaults: ball
  /// radius 0.0215 m, robot radius 0.09 m, robot height 0.05 m. Throws
  /// std::invalid_argument for a calibration CameraGeometry refuses.
  OnboardImageDetector(const msg::LeaguePreset& league, const msg::CameraCalibration& robot_frame_calibration,
                       const msg::ColourThresholds& thresholds);

  /// Balls, robots and goals in one image. Throws std::invalid_argument
  /// unless bgr is CV_8UC3 of the calibration's size.
  OnboardDetections detect(const cv::Mat& bgr);

  /// The same as an msg::OnboardFrame (balls and robots as PerceivedObject;
  /// balls with their position_sd; robots with their team, robot_id 0 =
  /// unknown, orientation 0 = unknown, no position_sd) and goal posts as
  /// symmetric landmarks (GoalPostDetector::to_landmarks) and line points,
  /// stamped with frame number, capture time, team and robot of the camera.
  static msg::OnboardFrame to_frame(const OnboardDetections& detections, std::uint64_t frame_number,
                                    double t_capture, msg::Team team, std::uint32_t robot_id);

  /// Pixel area of the ball's image with its centre at robot-frame `position`
  /// (the sphere's outline through the pinhole, distortion ignored); 0 when
  /// the centre is behind the camera.
  double expected_ball_area(const Eigen::Vector2d& position) const;

  const CameraGeometry& geometry() const { return geometry_; }

 private:
  // An outline point of a ball blob as a ray from the camera.
  struct OutlineRay {
    Eigen::Vector3d direction;  // unit, robot frame
    // On the image border or next to a robot: the ball may go on beyond it,
    // so the silhouette must enclose it rather than pass through it.
    bool bounding = false;
  };

  // The ball centre on its plane seen along the undistorted normalised point
  // `n`, the perspective offset of a sphere's centroid removed.
  bool centre_from_centroid(const cv::Point2d& normalised, Eigen::Vector2d& centre) const;
  // Silhouette fit; false when the outline has too few usable points.
  // position_sd: the fit's standard deviation along its worst direction, m.
  bool fit_silhouette(const std::vector<OutlineRay>& outline, Eigen::Vector2d& centre, double& position_sd) const;
  void detect_robot(const cv::Mat& bgr, const ColourBlob& blob, OnboardDetections& out) const;

  CameraGeometry geometry_;
  ColourSegmenter segmenter_;
  std::optional<GoalPostDetector> goals_;  // none on a field without goals
  std::optional<FieldLineDetector> lines_;  // none on a field without size
  Eigen::Matrix3d camera_to_robot_;  // rotation, camera frame -> robot frame
  double focal_ = 0;                 // mean of fx, fy: pixels per radian near the axis
  double ball_radius_ = 0;
  double robot_radius_ = 0;
  double robot_height_ = 0;
  cv::Mat classes_;  // scratch: class mask of a blob's neighbourhood
};

}  // namespace robocaf::actors
