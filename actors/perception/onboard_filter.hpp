#pragma once
// Perception core for onboard cameras (MSL): turns what a robot's own camera
// saw into its percept. No CAF here; the perception actor wraps this class.

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "actors/perception/self_localiser.hpp"
#include "messages/commands.pb.h"
#include "messages/config.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// Sorts an OnboardFrame's robots into teammates and opponents and attaches
/// the robot's own pose as its reference: an onboard camera never sees its
/// own robot, so the self pose is odometry (Percept::self_dead_reckoned),
/// corrected by self-localisation from the landmarks and line points the
/// frame holds (SelfLocaliser), with its covariance in self_covariance.
///
/// Measurement noise: the camera's error grows with distance (x' = x + |p|
/// eps, eps ~ N(0, noise_per_metre^2) per axis), so every ball and robot
/// whose PerceivedObject.position_sd is not set gets noise_per_metre times
/// its distance there; a detector that knows its own error (set already) is
/// left alone.
///
/// Every percept also carries what the bumper touched at the newest
/// odometry (Percept.contacts): the camera looks ahead only, and an opponent
/// touching the robot's side is otherwise unknown to it.
class OnboardFilter {
 public:
  /// Without a league: odometry alone, never corrected, no position_sd filled in.
  OnboardFilter(msg::Team team, uint32_t robot_id);
  /// noise_per_metre: the camera's noise model (sim.onboard_camera.noise_per_metre),
  /// for self-localisation and the objects' position_sd. start_position_sd
  /// (m, sim.start_position_sd): how uncertain self-localisation starts;
  /// 0 or less keeps SelfLocaliserParams' default.
  OnboardFilter(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league, double noise_per_metre,
                double start_position_sd = 0.0);

  /// Moves the self pose by odometry's newest change.
  void on_odometry(const msg::Odometry& odometry);

  /// The percept for one frame; frames of other robots give an empty percept
  /// for this robot (no objects, no pose).
  msg::Percept to_percept(const msg::OnboardFrame& frame);

 private:
  msg::Team team_;
  uint32_t robot_id_;
  double noise_per_metre_ = 0.0;
  // m a camera's robot or ball may sit beyond touching and still count as a
  // contact: its range error at half a metre, and a bumper's reach.
  static constexpr double kContactSlack = 0.05;
  double robot_radius_ = 0.0;
  double ball_radius_ = 0.0;
  std::optional<msg::Pose2> odometry_pose_;
  std::vector<Eigen::Vector2d> contacts_;  // the newest odometry's bumper, unit vectors
  std::optional<SelfLocaliser> localiser_;
};

}  // namespace robocaf::actors
