// Named, scripted situations that measure the simulator and the player skills
// against the numbers the seeds report (`robocaf scenario`).
//
// Two kinds: physics scenarios drive a Physics world with a scripted
// controller and need no actors (kick-rolldown, drive-straight); skill
// scenarios place robots and the ball and let the real actors play
// (ball-to-goal, ball-to-goal-facing-away, corner-ball, pass-past-wall)
// through a ScenarioScript handed to the world actor.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "sim/world_actor.hpp"

namespace robocaf::sim {

struct ScenarioInfo {
  std::string name;
  std::string description;
  bool uses_actors = false;  ///< true: run through the world actor and real robots
};

/// Every scenario, in the order `robocaf scenario --list` shows them.
const std::vector<ScenarioInfo>& scenario_catalog();

/// The catalog entry, or nullptr for an unknown name.
const ScenarioInfo* find_scenario(const std::string& name);

/// The match config a scenario runs on, with `seed` set. The Clockwork Orange
/// set-ups use the MSL preset's field with their Nomad Scout robot (41 cm,
/// 1.0 m/s, 2 m/s^2, kick 1.5 m/s, carpet 0.1 m/s^2, f = 0.99, b = 0.0385).
/// Throws std::invalid_argument for an unknown name.
msg::MatchConfig scenario_config(const std::string& name, std::uint64_t seed);

/// Runs a physics scenario to its end. Metrics:
///   kick-rolldown:  stop_distance_m, stop_time_s (from the kick)
///   drive-straight: distance_mm (true travel along the start heading),
///                   drift_mm (sideways, + = left), odometry_mm
/// Throws std::invalid_argument for an unknown or actor scenario.
msg::ScenarioResult run_physics_scenario(const std::string& name, std::uint64_t seed);

/// The script of a skill scenario for the world actor. Throws
/// std::invalid_argument for an unknown or physics scenario.
std::shared_ptr<const ScenarioScript> skill_scenario_script(const std::string& name, std::uint64_t seed);

}  // namespace robocaf::sim
