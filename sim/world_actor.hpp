#pragma once
// The simulated world as an actor: physics, global camera and referee behind the
// same messages a real field would produce. Motors send it RobotCommand as they
// would to a motor board; perception receives DetectionFrame as from a camera.
//
// Protocol:
//   in : RobotCommand (motors), CycleDone (team skills), HealthReport (mission
//        managers), (await_atom) -> final GameState when the match ends
//   out: Odometry -> motors, DetectionFrame -> perception, GameState -> coaches
//
// Time: in virtual time the world opens cycle k+1 only when every participant
// finished cycle k (motors answered, team skills reported CycleDone, or their
// mission manager reported them down), so a match runs as fast as the actors
// allow and is reproducible. In real time it ticks on CAF's clock and applies
// commands as they come.

#include <functional>
#include <string>

#include <caf/fwd.hpp>

#include "messages/config.pb.h"

namespace robocaf::sim {

struct WorldOptions {
  msg::MatchConfig match;
  bool realtime = false;
  std::string log_path;                          // the game log to write
  double startup_timeout_seconds = 60.0;         // wait for every robot to join
  std::function<void(const std::string&)> progress;  // progress lines (optional)
};

/// Spawns the world, which registers with `directory` as the neutral WORLD actor.
caf::actor spawn_world(caf::actor_system& system, const caf::actor& directory, WorldOptions options);

}  // namespace robocaf::sim
