#pragma once
// How far robots may go beyond the field's lines: the player skills plan in
// that strip, and the coach may place a robot standing out there in it.

#include <algorithm>

#include "messages/config.pb.h"

namespace robocaf::runtime {

/// Clearance (m) robots moving about keep from the boundary strip's edge.
inline constexpr double kBoundaryClearance = 0.1;

/// On an open field (no walls: MSL, SSL), how far (m) beyond the lines a
/// robot's edge may go: the boundary strip less `clearance` kept from its
/// edge, which stops robots. 0 within walls.
inline double run_off(const msg::LeaguePreset& league, double clearance = kBoundaryClearance) {
  if (league.field().walls()) return 0.0;
  return std::max(0.0, league.field().boundary_width() - clearance);
}

}  // namespace robocaf::runtime
