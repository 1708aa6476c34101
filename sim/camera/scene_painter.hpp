#pragma once
// The 3D scene both simulated cameras look at: floor, carpet and lines (all at
// z = 0), walls and goals (static solids), robots and the ball (from ground
// truth); painted through a CameraModel in painter's order. Shared by
// OverheadImageRenderer and OnboardImageRenderer so both show the same world
// (robot_markings.hpp says what it looks like).

#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/world.pb.h"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/robot_markings.hpp"

namespace robocaf::sim::camera {

/// A planar face of one colour, field frame.
struct Face {
  std::vector<Eigen::Vector3d> polygon;
  cv::Scalar colour;
  /// Outward normal; a face whose normal points away from the camera is not
  /// drawn. Zero: always drawn.
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
};

/// A solid painted as a whole: objects are painted far to near by the
/// distance from the camera to their anchor, and within an object its visible
/// faces in list order (so a convex solid needs no further sorting and a
/// marking listed after the face it lies on stays on top).
struct SceneObject {
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();
  std::vector<Face> faces;
};

class Scene {
 public:
  /// `team_band_on_sides`: paint the team colour band on robots' sides
  /// (onboard views; the overhead view keeps sides body-coloured).
  Scene(const msg::LeaguePreset& league, bool team_band_on_sides);

  const SceneGeometry& geometry() const { return geometry_; }

  /// Sky, hall floor, carpet and field lines: everything at z = 0, which no
  /// object can hide behind, so the overhead renderer paints it once.
  void paint_floor(const CameraModel& camera, cv::Mat& image) const;

  /// Walls and goals.
  const std::vector<SceneObject>& static_objects() const { return static_objects_; }

  /// The ball and every robot of `truth` except (skip_team, skip_id) when
  /// skip_team is set (the robot carrying an onboard camera). The ball is a
  /// disc facing `camera` (a sphere's outline).
  std::vector<SceneObject> dynamic_objects(const msg::WorldTruth& truth, const CameraModel& camera,
                                           msg::Team skip_team = msg::TEAM_UNSPECIFIED,
                                           std::uint32_t skip_id = 0) const;

  /// Paints `objects` far to near (see SceneObject).
  static void paint_objects(const CameraModel& camera, std::vector<const SceneObject*> objects, cv::Mat& image);

  /// Fills a field polygon through the camera (anti-aliased rim, exact inside).
  static void fill(const CameraModel& camera, const std::vector<Eigen::Vector3d>& polygon, const cv::Scalar& colour,
                   cv::Mat& image);

 private:
  SceneObject robot_object(const msg::RobotTruth& robot) const;

  SceneGeometry geometry_;
  bool team_band_ = false;
  std::vector<std::vector<Eigen::Vector3d>> carpet_;
  std::vector<std::vector<Eigen::Vector3d>> lines_;
  std::vector<SceneObject> static_objects_;
};

/// What the sensor adds to the ideal image (ImageSpec lighting_gradient and
/// noise_sd):
///  - lighting: a gain of 1 - gradient / 2 in the top-left corner rising
///    linearly to 1 + gradient / 2 in the bottom-right one;
///  - noise: Gaussian, standard deviation noise_sd on the 0-255 scale, per
///    pixel and channel. Drawing N = width x height x 3 Gaussian numbers costs
///    about 6 ms at 640 x 480, so the samples come from a pool of 2 N drawn
///    once from cv::RNG(seed); a frame adds the N consecutive samples starting
///    at an offset drawn from cv::RNG(frame_seed). Each frame's noise is
///    Gaussian and independent of the pixel values, frames differ, and the
///    whole costs one addition.
/// Then rounding and saturation back to 8 bits. Deterministic for a seed.
class SensorEffects {
 public:
  /// Throws std::invalid_argument for a negative noise_sd.
  SensorEffects(cv::Size size, const msg::ImageSpec& image, std::uint64_t seed);

  /// Applies lighting and noise to an 8-bit BGR image of `size` in place.
  void apply(cv::Mat& image, std::uint64_t frame_seed) const;

 private:
  cv::Size size_;
  cv::Mat gain_;   // CV_32FC3; empty without a gradient
  cv::Mat noise_;  // 1 x 2N CV_32F; empty without noise
};

}  // namespace robocaf::sim::camera
