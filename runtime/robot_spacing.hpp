#pragma once
// Distances between robots of one team that more than one actor must agree
// on: the player skills keep them, and the coach hands out spots that
// respect them (a spot closer to a teammate than the skills allow is never
// reached).

#include <algorithm>

#include "messages/config.pb.h"

namespace robocaf::runtime {

/// Centre distance a robot without the ball keeps from its teammates: two
/// radii and a gap the ball cannot pass through, so a wall of robots standing
/// this far apart still blocks it.
inline double teammate_keep(const msg::LeaguePreset& league) {
  const double r = league.robot().radius();
  return 2.0 * r + std::min(0.5 * r, 1.6 * league.ball().radius());
}

}  // namespace robocaf::runtime
