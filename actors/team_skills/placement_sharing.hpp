#pragma once
// Sharing the coach's placement spots out among the robots by distance.
// Plain C++, no CAF; the central team skills actor uses it.

#include <cstdint>
#include <map>
#include <set>
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

/// share_placements_by_distance() cycle after cycle, for one placement
/// phase: a robot keeps the spot it was handed (or, where the coach's spots
/// moved, the one now nearest it) until another hand-out would make the
/// longest run shorter by more than `keep_margin` (m). Shared afresh every
/// cycle, the hand-out swung to and fro as robots turned and ran, and each
/// swing turned robots round: MSL, two robots handed three different spots
/// in 2 s and dithering 8 m from where they had to be at the kick-off; at
/// drop balls and free kicks, three robots swapped spots every cycle for 2 s
/// beside the ball. Spots are followed by where they lie, not by the robot
/// the coach names for them: at restarts other than kick-offs the coach
/// derives a robot's spot from where it stands, and a spot kept by the
/// coach's name led its new owner into the robot it came from.
///
/// A robot of `standing` within `at_spot` of the spot the coach named for
/// it keeps that spot and is left out of the sharing. At restarts other
/// than kick-offs the coach names a robot standing legally its own
/// position; a teammate handed it (the longest run was shorter so) chased
/// the robot, which had been sent elsewhere, and the spot moved with it
/// (MSL, a drop ball by our goal: one robot drove after another for 3 s and
/// stood inside the distance at the restart). Only robots standing still:
/// one running through its spot would be left out of the sharing for that
/// cycle, and the hand-out kept from then on would be the one made without
/// it.
///
/// With `longest_slack` > 0, a hand-out whose longest run is within that
/// (m) of the shortest counts as good as the shortest, and of those the one
/// with the least total is made. By the longest run alone (to the
/// millimetre), two robots running back after a goal were handed spots
/// across each other's way: 0.16 m shorter the longest run, 1.5 m longer in
/// all; side by side half-way, each gave way to the other, and both crept
/// for seconds and stood inside the centre circle at the kick-off (MSL
/// kick-off drill).
class PlacementSharer {
 public:
  explicit PlacementSharer(double keep_margin, double at_spot = 0.0, double longest_slack = 0.0)
      : keep_margin_(keep_margin), at_spot_(at_spot), longest_slack_(longest_slack) {}

  /// As share_placements_by_distance(), sticking to the last hand-out where
  /// the same robots share; robots of `standing` at their spots keep them.
  std::vector<msg::Placement> share(const std::vector<msg::Placement>& placements,
                                    const std::map<uint32_t, msg::Pose2>& poses, uint32_t fixed_id,
                                    const std::set<uint32_t>& standing = {});

  /// The placement phase is over: the next share() starts afresh.
  void forget() { handed_.clear(); }

 private:
  double keep_margin_;
  double at_spot_;
  double longest_slack_;
  std::map<uint32_t, msg::Pose2> handed_;  // robot id -> spot it was handed last
};

}  // namespace robocaf::actors
