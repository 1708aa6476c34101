#pragma once
// Restart drills: each restart of logged matches other than kick-offs (drop
// balls, throw-ins, corner, goal and free kicks) played again from where
// every robot stood, moving as it was, when the referee called it, with the
// code of today. A tournament's count of robots the referee moved at
// restarts changes with everything before each one; a drill puts two builds
// on the same starts.
// Plain C++ over game log records; `robocaf restart-drill` runs the drills
// through real actors. Kick-offs after goals have their own (kickoff_drill.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"
#include "sim/lead_in.hpp"

namespace robocaf::sim {

/// One restart of a logged match and the world when the referee called it.
struct RestartMoment {
  std::string log;   // the game log it came from
  double t = 0.0;    // simulated time of the REF_PREPARE_RESTART
  unsigned number = 0;  // 1 for the log's first restart, ...
  msg::RestartKind kind = msg::RESTART_NONE;
  msg::Team team = msg::TEAM_UNSPECIFIED;  // the taker (none for a drop ball)
  msg::Vec2 spot;                          // where the referee put the ball
  bool blue_on_positive_side = false;
  msg::WorldTruth truth;   // the last ground truth logged before the call
  msg::MatchConfig config;  // the log's match config
  std::vector<LeadInCycle> lead_in;  // the cycles before `truth` (see restart_moments())
};

/// Every restart the referee prepared in the game log at `path` (each
/// REF_PREPARE_RESTART phase; kick-offs and free balls have none), in order.
/// Each comes with the logged cycles of the `lead_in_seconds` before its
/// truth (fewer early in the log). Throws runtime::GameLogError when the log
/// cannot be read, and std::invalid_argument for a negative lead-in.
std::vector<RestartMoment> restart_moments(const std::string& path, double lead_in_seconds = 0.0);

/// The match a drill plays: the referee opens the first half, blue defending
/// -x, with the moment's restart (WorldOptions::opening_restart), so when
/// blue defended +x at the moment the field is turned half round (x, y and
/// headings; a symmetry of the field). Colours and team configs stay. Only
/// the restart's lead-in (turned alike; WorldOptions::lead_in) and the
/// placement are played: the match stops as play starts. Seeded from the
/// log's seed and the restart's number. Throws std::invalid_argument naming
/// the log and the restart when a position in the truth, its lead-in or the
/// spot is not finite.
struct RestartDrill {
  msg::MatchConfig config;
  msg::WorldTruth start;  // robots and ball as the drill's world starts them
  msg::GameState opening;  // restart, restart_team and ball_spot
  std::vector<LeadInCycle> lead_in;  // the restart's, turned like `start`
};
RestartDrill restart_drill(const RestartMoment& moment);

/// How uncertain (m) a drill's robots start about where they stand
/// (SimConfig.start_position_sd): as a robot localised in the middle of a
/// match is, not as one a hand has just put down. A drill's robot starting
/// as uncertain as that (0.3 m) counted as lost and turned on the spot for
/// its first third of a second, which the same robot in the logged match
/// never did (MSL kick-off drills: scorers facing their way home turned
/// half a radian off it first).
constexpr double kDrillStartPositionSd = 0.05;

/// Turns a world half round about the centre spot: positions, velocities
/// and headings. The field is symmetric under it; the goals swap.
void turn_half_round(msg::WorldTruth& truth);

/// Whether every robot's pose and the ball's position are finite numbers.
bool positions_finite(const msg::WorldTruth& truth);

}  // namespace robocaf::sim
