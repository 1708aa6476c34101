#pragma once
// Kick-off drills: the other team's kick-off after each of our goals in game
// logs, played again from where every robot stood and how it was moving when
// the ball went in, with the code of today. A full match has a few dozen
// such kick-offs and each one depends on everything before it; a drill
// replays the same moments for every build, so two builds are compared on
// the same starts. Plain C++ over game log records; `robocaf kickoff-drill`
// runs the drills through real actors.

#include <cstdint>
#include <string>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"
#include "sim/lead_in.hpp"

namespace robocaf::sim {

/// One goal of a logged match and the world when it was scored.
struct GoalMoment {
  std::string log;                 // the game log it came from
  double t = 0.0;                  // simulated time of the REF_EVENT_GOAL
  unsigned number = 0;             // 1 for the log's first goal by `scorer`, ...
  msg::Team scorer = msg::TEAM_UNSPECIFIED;
  std::uint32_t scorer_robot = 0;  // the robot that touched the ball last
  bool scorer_on_positive_side = false;
  msg::WorldTruth truth;           // the last ground truth logged before the goal
  msg::MatchConfig config;         // the log's match config
  std::vector<LeadInCycle> lead_in;  // the cycles before `truth` (see goal_moments())
};

/// Every goal by `scorer` in the game log at `path`, in order, each with the
/// logged cycles of the `lead_in_seconds` before its truth (fewer early in
/// the log). Throws runtime::GameLogError when the log cannot be read, and
/// std::invalid_argument for a negative lead-in.
std::vector<GoalMoment> goal_moments(const std::string& path, msg::Team scorer, double lead_in_seconds = 0.0);

/// The match a drill plays: the referee of a new match starts with the first
/// half's kick-off for blue, blue defending -x, so the colours are swapped
/// (the conceding team plays blue and kicks off; the scorers play yellow and
/// run back to their half) and, when the scorers defended -x, the field is
/// turned half round (x, y and headings; a symmetry of the field). The team
/// configs swap with the colours. Only the goal's lead-in (swapped and
/// turned alike; WorldOptions::lead_in) and the placement are played: the
/// match stops as play starts (WorldOptions::stop_at_first_start). Seeded
/// from the log's seed and the goal's number. Throws std::invalid_argument
/// naming the log and the goal when a position in the goal's truth or its
/// lead-in is not finite.
struct KickoffDrill {
  msg::MatchConfig config;
  msg::WorldTruth start;  // robots and ball as the drill's world starts them
  std::vector<LeadInCycle> lead_in;  // the goal's, turned and swapped like `start`
};
KickoffDrill kickoff_drill(const GoalMoment& goal);

}  // namespace robocaf::sim
