#pragma once
// Goal posts in the image of a robot's own camera (MSL): the landmarks that
// self-localisation (LandmarkLocaliser) fits the robot's pose to. No CAF here.

#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// One goal post: a tall white column in the image whose foot and top agree
/// with a post of the league's goal standing on the floor.
struct GoalPostCandidate {
  double column = 0;       ///< x of the post's middle, level-camera pixels
  double bottom_edge = 0;  ///< y of the white column's bottom edge (sub-pixel), level-camera pixels
  double top_edge = 0;     ///< y of its top edge (the crossbar's top), level-camera pixels
  /// Where the bottom edge's ray meets the floor, robot frame, metres: the
  /// near edge of the goal line, which runs under the post (both white, so
  /// the post's own foot does not show).
  Eigen::Vector2d foot = Eigen::Vector2d::Zero();
  /// The middle of the post's front face at the goal line, on the floor,
  /// robot frame: the crossbar's top edge (at the goal's height) when it
  /// shows, else the foot moved half a line on.
  Eigen::Vector2d front = Eigen::Vector2d::Zero();
  bool top_clipped = false;  ///< the column reaches the camera image's top edge: no height check
};

/// Both posts of one goal, joined by the crossbar (their top_edge as the
/// crossbar's fitted edge gives it).
struct SeenGoal {
  /// Landmark points (LandmarkLocaliser: the inner front corner of each post,
  /// on the goal line) in the robot frame, metres; `left` is the post on the
  /// left of the image (the larger bearing).
  Eigen::Vector2d left = Eigen::Vector2d::Zero();
  Eigen::Vector2d right = Eigen::Vector2d::Zero();
  GoalPostCandidate left_post, right_post;
  /// How far the image's edges lie outside the true outline, pixels, as the
  /// goal's known width says (see GoalPostDetector).
  double edge_bias = 0;
};

/// Finds goals in the BGR images of a robot's own camera.
///
/// Vision protocol (sim/camera/robot_markings.hpp, kept equal by a unit
/// test): goals are white, kGoalHeightPerWidth x goal_width high, posts and
/// crossbar kLineWidthPerLength x field length thick (as the lines), the
/// posts just behind the goal line with their inner faces at +-goal_width / 2;
/// nets light grey. Both goals look alike.
///
/// Method: each pixel's whiteness is its darkest channel (white ~250; the
/// grey nets 190, the sky 170, carpet 30, team colours 0). The camera is
/// pitched down, so posts lean in its image (vertical lines meet below it);
/// the whiteness image is first resampled (cv::initUndistortRectifyMap,
/// cv::remap) into a level, undistorted camera at the same place, where every
/// vertical edge is an image column and a point's row gives its distance
/// directly. Posts are taller than the camera (MSL: 1 m goals, a 0.6 m
/// camera; a camera above the crossbar finds none), so they cross the
/// horizon row, which nothing on the floor reaches however near and wide:
/// per column the white run (>= kWhiteMin) through the horizon, and
/// neighbouring columns with matching bottoms form a column. It is a post
/// when its bottom edge lies below the horizon (a robot hiding the foot
/// ends it above: robots are taller than the camera), its width fits a
/// post there, and the foot's distance agrees with the distance from its
/// top edge (the crossbar's front top edge at the goal's height, against
/// the sky): the foot may seem nearer by up to the goal area's depth (from
/// ~11 m on, its line merges with the goal line under two pixels), never
/// farther. The top gives the post's place, the foot only when the top is
/// cut by the image. Two neighbouring posts form a goal when the
/// crossbar's top edge runs between them (a line fitted with cv::fitLine,
/// which also gives both top rows) and an edge bias of at most
/// kMaxEdgeBiasPixels puts them the post spacing apart: the bias common to
/// every edge (the renderer's anti-aliased fill grows shapes by about a
/// pixel) is solved for from the goal's known width. Edges are located to a
/// fraction of a pixel from the anti-aliased rim's whiteness: a pixel at
/// 10 m is half a metre of distance. Goals beyond max_range() are not
/// reported.
///
/// The goal line through both posts gives the goal's axes in the robot
/// frame, so each post's landmark point is placed without knowing which
/// goal it is: the two goals look the same, so the detector reports
/// every goal as if it were the +x one (left post index 1, right post index
/// 0, see to_landmarks) and leaves the choice to self-localisation.
///
/// Not thread-safe (scratch buffers); one detector per thread.
class GoalPostDetector {
 public:
  /// Goal height over goal width and post thickness over field length
  /// (sim/camera/robot_markings.hpp's kGoalHeightPerWidth, kLineWidthPerLength).
  static constexpr double kGoalHeightPerWidth = 0.5;
  static constexpr double kLineWidthPerLength = 1.0 / 200.0;
  /// Least whiteness (darkest channel) of a white pixel: the renderer's 255
  /// less the lighting gradient's 5 % and four noise sds stays above; the
  /// grey nets (190) and the sky (red 170) stay below even lit up by 5 %.
  static constexpr int kWhiteMin = 220;
  /// Largest edge bias (edges outside the true outline, pixels) that may
  /// reconcile two posts with the goal's width.
  static constexpr double kMaxEdgeBiasPixels = 3.0;

  /// `robot_frame_calibration`: the camera relative to its robot (as
  /// OnboardImageDetector), any pitch and lens distortion, no roll. Throws
  /// std::invalid_argument for a calibration CameraGeometry refuses, a
  /// camera looking straight up or down, or a field without a goal.
  GoalPostDetector(const msg::FieldGeometry& field, const msg::CameraCalibration& robot_frame_calibration);

  /// Single posts that pass the foot, width and top checks, left to right;
  /// pixel coordinates are those of the level camera (see the class comment).
  /// Throws std::invalid_argument unless bgr is CV_8UC3 of the calibration's size.
  std::vector<GoalPostCandidate> posts(const cv::Mat& bgr);

  /// Goals: pairs of neighbouring posts with a crossbar that an edge bias
  /// within kMaxEdgeBiasPixels puts the post spacing apart. Throws as posts().
  std::vector<SeenGoal> detect(const cv::Mat& bgr);

  /// The goals as landmarks, each as if it were the +x goal (left post
  /// index 1, right post index 0) with Landmark.symmetric set.
  static void to_landmarks(const std::vector<SeenGoal>& goals, msg::OnboardFrame& frame);

  /// Farthest post accepted, metres: 10 m (farther, a tenth of a pixel is
  /// decimetres), or the field's diagonal if that is shorter.
  double max_range() const { return max_range_; }

 private:
  // The level camera: robot-frame point -> its pixel.
  bool level_pixel(const Eigen::Vector3d& robot_point, cv::Point2d& pixel) const;
  // The post's front (GoalPostCandidate::front) with its edge moved in by
  // `edge_bias` pixels.
  bool front_at(const GoalPostCandidate& post, double edge_bias, Eigen::Vector2d& front) const;
  // The point at `height` above the floor on a level pixel's ray; false
  // when the ray does not meet that plane in front of the camera.
  bool point_at_height(const cv::Point2d& level_pixel, double height, Eigen::Vector2d& robot_point) const;

  cv::Size size_;                     // the camera's image
  Eigen::Vector3d eye_;               // camera centre, robot frame
  Eigen::Matrix3d level_from_robot_;  // rotation: robot frame -> level camera frame
  double fx_ = 0, fy_ = 0, cx_ = 0, cy_ = 0;  // level camera intrinsics
  cv::Mat map1_, map2_;               // camera image -> level image
  cv::Mat inside_;                    // level pixels that come from inside the camera image
  double goal_width_ = 0;
  double goal_height_ = 0;
  double post_ = 0;  // post and line thickness
  double goal_area_depth_ = 0;
  double max_range_ = 0;
  cv::Mat whiteness_, level_, white_;  // scratch
};

}  // namespace robocaf::actors
