#pragma once
// What the simulated cameras see: the colours and the marking scheme of every
// object, and the few sizes the config does not give (goal height, wall
// height, line width). Perception decodes images by this contract, so a change
// here is a change of the vision protocol.
//
// Colours are OpenCV BGR, 0..255. A blob's inside is drawn with exactly this
// colour; only its anti-aliased rim, the lighting gradient (ImageSpec
// lighting_gradient) and the pixel noise (noise_sd) move pixels away from it.
//
// Robot marking scheme (seen from above, robot frame: +x forward, +y left,
// R = RobotSpec.radius, so one scheme scales from MiroSot (R 0.0375) through
// SSL (0.09) to MSL (0.25)); modelled on the SSL standard pattern:
//
//                 front (+x)
//            1 (FL)       0 (FR)          dots at 0.72 R from the centre,
//                                         front pair at +-57.4 deg from +x,
//    +y <-         [team]                 back pair at +-147.4 deg: the front
//                                         dots are 1.22 R apart, the back ones
//               2 (BL)  3 (BR)            0.78 R, so heading is unambiguous.
//
//  - the top of the robot is the body colour (near black), a disc of radius R
//    at RobotSpec.height;
//  - centre patch: a disc of radius 0.28 R at the centre, blue or yellow by
//    team;
//  - four id dots of radius 0.22 R at kIdDots[i]. Dot i shows bit i of the
//    robot id (bit 0 = least significant): magenta = 1, green = 0. Ids 1..15
//    are representable; an id above 15 shows id mod 16 (id 16 would look like
//    id 0, all green, which no robot uses).
//  - onboard images also show a team-coloured band around the robot's sides
//    (kTeamBand*), so robots are told apart from the side; the overhead view
//    leaves the sides body-coloured so they do not bleed into the top patch.
//
// Field: carpet green out to the walls / boundary edge, white lines of width
// line_width (below), floor beyond the arena grey. Goals are white (posts and
// crossbar) with light-grey nets (sides and back), like today's MSL and SSL,
// not the old blue/yellow goals: both goals look alike. Walls (MiroSot,
// field.walls) are mid grey. The ball is an orange sphere.

#include <algorithm>
#include <array>
#include <cstdint>

#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/geometry.pb.h"

namespace robocaf::sim::camera {

// --- colours (BGR) ---------------------------------------------------------
inline const cv::Scalar kBlueTeamColour{255, 64, 0};
inline const cv::Scalar kYellowTeamColour{0, 230, 255};
inline const cv::Scalar kIdZeroColour{0, 255, 0};      // green id dot: bit 0
inline const cv::Scalar kIdOneColour{255, 0, 255};     // magenta id dot: bit 1
inline const cv::Scalar kRobotBodyColour{25, 25, 25};  // near black
inline const cv::Scalar kBallColour{0, 128, 255};      // orange
inline const cv::Scalar kFieldColour{40, 120, 30};     // carpet green
inline const cv::Scalar kLineColour{255, 255, 255};
inline const cv::Scalar kFloorColour{100, 100, 100};   // hall floor beyond the arena
inline const cv::Scalar kSkyColour{210, 190, 170};     // hall background above the floor (onboard)
inline const cv::Scalar kGoalFrameColour{255, 255, 255};
inline const cv::Scalar kGoalNetColour{190, 190, 190};
inline const cv::Scalar kWallColour{128, 128, 128};

/// Team colour of the centre patch (and of the side band); body colour for
/// TEAM_UNSPECIFIED.
inline cv::Scalar team_colour(msg::Team team) {
  switch (team) {
    case msg::BLUE: return kBlueTeamColour;
    case msg::YELLOW: return kYellowTeamColour;
    default: return kRobotBodyColour;
  }
}

// --- robot markings, in units of the robot radius --------------------------
inline constexpr double kTeamPatchRadius = 0.28;
inline constexpr double kIdDotRadius = 0.22;

/// Centres of the id dots in the robot frame (x forward, y left), as
/// fractions of the radius; index = id bit. FR, FL, BL, BR: counter-clockwise
/// from the front right seen from above.
inline constexpr std::array<std::array<double, 2>, 4> kIdDots{{
    {{0.389, -0.607}},   // bit 0: front right (-57.4 deg)
    {{0.389, 0.607}},    // bit 1: front left  (+57.4 deg)
    {{-0.607, 0.389}},   // bit 2: back left   (+147.4 deg)
    {{-0.607, -0.389}},  // bit 3: back right  (-147.4 deg)
}};

/// Colour of id dot `bit` (0..3) for robot `robot_id`.
inline cv::Scalar id_dot_colour(std::uint32_t robot_id, int bit) {
  return ((robot_id >> bit) & 1u) ? kIdOneColour : kIdZeroColour;
}

/// The team band on a robot's sides (onboard images), as fractions of the
/// robot height from the floor.
inline constexpr double kTeamBandBottom = 0.45;
inline constexpr double kTeamBandTop = 0.85;

// --- sizes the config does not give -----------------------------------------
/// Goal height = this times goal_width: MSL's 1 m goal over 2 m. It is also
/// used for MiroSot and SSL (whose real goals are lower) so no league table is
/// needed; only images use it.
inline constexpr double kGoalHeightPerWidth = 0.5;
/// Wall height and thickness (MiroSot's 5 cm walls), when field.walls.
inline constexpr double kWallHeight = 0.05;
inline constexpr double kWallThickness = 0.025;
/// Robot top height when RobotSpec.height is 0.
inline constexpr double kDefaultRobotHeight = 0.05;
/// Field lines are field.length / 200 wide (11 mm MiroSot, 45 mm SSL, 90 mm
/// MSL): about 3 pixels in a default overhead image of any league, so lines
/// survive a 640-pixel camera (SSL's real 10 mm lines would not).
inline constexpr double kLineWidthPerLength = 1.0 / 200.0;

/// Sizes of the scene derived from a league preset, metres.
struct SceneGeometry {
  double half_length = 0;     // goal line x
  double half_width = 0;      // touch line y
  double boundary = 0;        // field edge to wall / carpet edge
  double goal_half_width = 0; // inner half distance between the posts
  double goal_depth = 0;
  double goal_height = 0;
  double post_thickness = 0;
  double line_width = 0;
  bool walls = false;
  double robot_radius = 0;
  double robot_height = 0;
  double ball_radius = 0;

  /// Half extents of everything that stands on the floor (carpet, goals,
  /// walls), for fitting an overhead camera.
  double arena_half_length() const {
    const double goal_back = half_length + goal_depth + post_thickness;
    const double wall_back = half_length + boundary + (walls ? kWallThickness : 0.0);
    return std::max(goal_back, wall_back);
  }
  double arena_half_width() const { return half_width + boundary + (walls ? kWallThickness : 0.0); }
  /// The highest static or robot point above the floor.
  double top_height() const {
    return std::max({goal_height, walls ? kWallHeight : 0.0, robot_height, 2 * ball_radius});
  }
};

/// The scene of a league. Sizes the preset leaves 0 fall back to: robot
/// radius 0.09 m (SSL), robot height kDefaultRobotHeight, ball radius
/// 0.0215 m; negative boundary or goal depth count as 0.
inline SceneGeometry scene_geometry(const msg::LeaguePreset& league) {
  const auto& f = league.field();
  SceneGeometry g;
  g.half_length = f.length() / 2;
  g.half_width = f.width() / 2;
  g.boundary = std::max(0.0, f.boundary_width());
  g.goal_half_width = f.goal_width() / 2;
  g.goal_depth = std::max(0.0, f.goal_depth());
  g.goal_height = kGoalHeightPerWidth * f.goal_width();
  g.line_width = std::max(0.005, kLineWidthPerLength * f.length());
  g.post_thickness = g.line_width;
  g.walls = f.walls();
  g.robot_radius = league.robot().radius() > 0 ? league.robot().radius() : 0.09;
  g.robot_height = league.robot().height() > 0 ? league.robot().height() : kDefaultRobotHeight;
  g.ball_radius = league.ball().radius() > 0 ? league.ball().radius() : 0.0215;
  return g;
}

}  // namespace robocaf::sim::camera
