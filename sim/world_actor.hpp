#pragma once
// The simulated world as an actor: physics, global camera and referee behind the
// same messages a real field would produce. Motors send it RobotCommand as they
// would to a motor board; perception receives DetectionFrame as from a camera.
//
// Protocol:
//   in : RobotCommand (motors), CycleDone (team skills), HealthReport (mission
//        managers), ManualRefereeCommand (coaches, tools; applied at the next
//        cycle), (await_atom) -> final GameState when the match ends
//   out: Odometry -> motors, DetectionFrame (global vision) or Odometry +
//        OnboardFrame (onboard vision) -> perception, GameState -> coaches
//
// Time: in virtual time the world opens cycle k+1 only when every participant
// finished cycle k (motors answered, team skills reported CycleDone, or their
// mission manager reported them down), so a match runs as fast as the actors
// allow and is reproducible. In real time it ticks on CAF's clock and applies
// commands as they come.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"
#include "sim/lead_in.hpp"

namespace robocaf::sim {

class Physics;

/// A scripted situation played instead of a match (`robocaf scenario`): only
/// the listed robots are on the field, no referee runs, and every cycle the
/// world instructs each robot's player skills with its role, as team skills
/// would. The world answers await_atom with a msg::ScenarioResult.
struct ScenarioScript {
  struct Robot {
    msg::Team team = msg::BLUE;
    std::uint32_t id = 1;
    msg::Pose2 pose;
    msg::Role role = msg::ROLE_ATTACKER;
  };
  std::string name;
  std::vector<Robot> robots;
  msg::Vec2 ball_position;
  msg::Vec2 ball_velocity;
  bool blue_attacks_positive_x = true;
  double time_limit = 30.0;  ///< s of simulated time, then the run fails
  /// Called after every control cycle; a result ends the run. Must be pure:
  /// the same world gives the same answer.
  std::function<std::optional<msg::ScenarioResult>(const Physics&)> judge;
};

struct WorldOptions {
  msg::MatchConfig match;
  /// Real time: the world paces itself on CAF's clock at sim.time_ratio
  /// simulated seconds per wall second (0 counts as 1) and waits for nobody.
  bool realtime = false;
  std::shared_ptr<const ScenarioScript> scenario;  ///< null: a match
  /// A match that begins at a moment of another one (`robocaf kickoff-drill`):
  /// the robots it lists stand where it has them, moving as they moved
  /// (Physics::set_robot_motion), instead of in the kick-off formation (robots
  /// it lacks keep their formation place, at rest), and the ball lies where
  /// it has it, at rest. The referee begins with the first half's
  /// kick-off for blue, or with opening_restart. Ignored for scenarios.
  std::optional<msg::WorldTruth> start_from;
  /// With start_from: the logged cycles that led up to it, played first, one
  /// per control cycle. Each puts every robot and the ball where its truth
  /// has them, moving so, and drives the robots with its logged commands
  /// instead of theirs; the robots' actors run on it as in play
  /// (REF_FORCE_START), so they see, remember and decide as they did in the
  /// match. No referee judges it. Then the world starts from start_from, and
  /// the referee begins as without a lead-in. Ignored for scenarios.
  LeadIn lead_in;
  /// The match opens with this restart (its restart, restart_team and
  /// ball_spot; Referee::open_with_restart()) instead of blue's kick-off
  /// (`robocaf restart-drill`). Ignored for scenarios.
  std::optional<msg::GameState> opening_restart;
  /// The world ends the match (answering await_atom with the GameState) at
  /// the first cycle play has started in: one placement is all it judges.
  bool stop_at_first_start = false;
  std::string log_path;                          // the game log to write
  double startup_timeout_seconds = 60.0;         // wait for every robot to join
  std::function<void(const std::string&)> progress;  // progress lines (optional)
};

/// Spawns the world, which registers with `directory` as the neutral WORLD actor.
caf::actor spawn_world(caf::actor_system& system, const caf::actor& directory, WorldOptions options);

}  // namespace robocaf::sim
