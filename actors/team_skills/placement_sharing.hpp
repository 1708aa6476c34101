#pragma once
// Sharing the coach's placement spots out among the robots by distance.
// Plain C++, no CAF; the central team skills actor uses it.

#include <cstdint>
#include <map>
#include <vector>

#include "messages/game.pb.h"
#include "messages/geometry.pb.h"

namespace robocaf::actors {

/// The same spots as `placements`, handed to the same robots, but each
/// robot except `fixed_id` (the keeper) takes the spot that makes the
/// longest straight run from `poses` the shortest, and of those hand-outs
/// the one with the least total distance. The coach places by id; robots
/// running back to a fixed-by-id kick-off formation after a goal crossed
/// each other's paths and, each giving way to the other, crept side by side
/// and were late (in MiroSot about one kick-off in seven). The least total
/// alone could still leave one robot the longest run of all (MSL: 8 s to
/// get back after a goal), and the last robot to arrive decides whether the
/// team stands legally at the deadline.
///
/// Unchanged when a robot to be moved has no pose, or when more than eight
/// robots would share (8! orders are searched exhaustively). Ties keep the
/// coach's order. Output in the order of `placements`.
std::vector<msg::Placement> share_placements_by_distance(const std::vector<msg::Placement>& placements,
                                                         const std::map<uint32_t, msg::Pose2>& poses,
                                                         uint32_t fixed_id);

}  // namespace robocaf::actors
