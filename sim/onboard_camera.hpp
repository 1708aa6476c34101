// Simulated onboard camera of one robot (MSL): what a robot sees of the ball,
// the other robots and the field's landmarks, in its own frame.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"
#include "runtime/field_landmarks.hpp"
#include "runtime/field_lines.hpp"
#include "sim/random.hpp"

namespace robocaf::sim {

/// The cameras of every robot of a match: one object, each robot with its own
/// random stream.
///
/// Visibility, decided on the true positions (noise never moves an object in
/// or out of view):
///  - in the field of view: the bearing of the object's centre from the robot
///    centre (the camera), relative to the heading, within +-horizontal_fov/2;
///  - in range: the centre's distance <= range;
///  - not occluded: no other robot (a circle of the preset's robot radius,
///    except the observer and the object itself) has its centre strictly
///    between the camera and the object along the line of sight and within
///    one robot radius of that line. This is all-or-nothing on the line to
///    the object's centre: an object half behind a robot is seen or not
///    according to its centre, with undiminished confidence. Judging by the
///    blocker's centre (not its nearest point) keeps a ball held in front of
///    a robot visible from the front and hidden from behind. The ball hides
///    nothing (it is lower than robots and than the camera).
///  - landmarks (goal posts and corners, on the floor plan) follow the same
///    rules, including occlusion by robots: a 0.7 m robot in front of a
///    0.6 m camera hides what is behind it.
///  - line points: kLineRays rays spread evenly over the field of view report
///    where they cross the field's lines (runtime::FieldLines), nearest
///    first, at most kCrossingsPerRay each, within range and not occluded
///    (the same rule, at the crossing).
///  - then each object is dropped with miss_probability.
///
/// Noise (Clockwork Orange): a visible object at egocentric p is reported at
/// p + |p| (eps_x, eps_y), eps_x, eps_y ~ N(0, noise_per_metre^2) independent,
/// along the robot's forward and left axes: the sd grows linearly with
/// distance. Robots' relative orientation is reported without noise (the spec
/// has no orientation noise).
///
/// Reproducibility: the stream of robot (team, id) is seeded with
/// derive_seed(seed, team << 32 | id), so a robot's frames depend on the seed
/// and on its own calls only, not on which other robots are observed or in
/// which order. Every object consumes the same draws whether it is seen or
/// not (1 uniform for the miss, 2 normals), in a fixed order: the ball, the
/// other robots in truth order, the landmarks in field_landmarks order, then
/// kLineRays x kCrossingsPerRay line-point slots, ray by ray.
///
/// OnboardCameraSpec.mount_height, tilt and image describe the camera for
/// image rendering and are not used here.
class OnboardCamera {
 public:
  /// Confidence reported for every detection.
  static constexpr double kConfidence = 0.9;
  /// Scan rays for line points per frame, and crossings reported per ray.
  static constexpr int kLineRays = 16;
  static constexpr int kCrossingsPerRay = 3;

  /// Landmarks come from preset.field (length, width, goal_width), occlusion
  /// from preset.robot.radius. Throws std::invalid_argument naming the field
  /// for a horizontal_fov outside (0, pi), a range that is not > 0, a
  /// negative or non-finite noise_per_metre, a miss_probability outside
  /// [0, 1], a negative robot radius, or a field without positive length and
  /// width or with a negative goal width.
  OnboardCamera(const msg::LeaguePreset& preset, const msg::OnboardCameraSpec& spec,
                std::uint64_t seed);

  /// What robot (team, robot_id) sees in `truth`: balls and robots as
  /// PerceivedObject (position in the robot frame, x forward, y left, metres;
  /// robots with team, robot_id and orientation relative to the observer's
  /// heading in (-pi, pi]; confidence kConfidence), and landmarks with kind,
  /// index (as in vision.proto) and robot-frame position. t_sent = t_capture,
  /// cycle = truth.cycle. Throws std::invalid_argument when truth has no such
  /// robot.
  msg::OnboardFrame observe(const msg::WorldTruth& truth, msg::Team team, std::uint32_t robot_id,
                            std::uint64_t frame_number, double t_capture);

 private:
  SeededRandom& stream(msg::Team team, std::uint32_t robot_id);

  msg::OnboardCameraSpec spec_;
  double robot_radius_ = 0.0;
  std::uint64_t seed_ = 0;
  std::vector<runtime::FieldLandmark> landmarks_;
  runtime::FieldLines lines_;
  std::map<std::pair<int, std::uint32_t>, SeededRandom> streams_;
};

}  // namespace robocaf::sim
