#include "actors/team_skills/placement_sharing.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

msg::Placement spot(uint32_t id, double x, double y) {
  msg::Placement p;
  p.set_robot_id(id);
  p.mutable_pose()->set_x(x);
  p.mutable_pose()->set_y(y);
  p.mutable_pose()->set_theta(0.5);
  return p;
}

msg::Pose2 at(double x, double y) {
  msg::Pose2 p;
  p.set_x(x);
  p.set_y(y);
  return p;
}

// Two robots whose id-given spots lie across each other's way swap them; the
// keeper keeps its spot whatever is nearer.
TEST(PlacementSharing, CrossingRobotsSwapSpotsAndTheKeeperKeepsItsOwn) {
  const std::vector<msg::Placement> coach = {spot(1, -1.0, 0.0), spot(2, -0.2, 0.3), spot(3, -0.2, -0.3)};
  // Robot 2 is down at -y, robot 3 up at +y; robot 2 also stands right on
  // the keeper's spot.
  const std::map<uint32_t, msg::Pose2> poses = {{1, at(0.5, 0.0)}, {2, at(-1.0, -0.3)}, {3, at(0.4, 0.3)}};
  const auto shared = share_placements_by_distance(coach, poses, 1);
  ASSERT_EQ(shared.size(), 3u);
  EXPECT_EQ(shared[0].robot_id(), 1u);
  EXPECT_EQ(shared[0].pose().x(), -1.0);  // the keeper's
  EXPECT_EQ(shared[1].robot_id(), 2u);
  EXPECT_EQ(shared[1].pose().y(), -0.3);
  EXPECT_EQ(shared[2].robot_id(), 3u);
  EXPECT_EQ(shared[2].pose().y(), 0.3);
  EXPECT_EQ(shared[2].pose().theta(), 0.5);  // headings travel with the spots
}

// No other hand-out makes the longest run shorter, and of those with the
// same longest run none is shorter in total.
TEST(PlacementSharing, LongestRunIsTheShortestThenTheTotal) {
  const std::vector<msg::Placement> coach = {spot(1, -2.0, 0.0), spot(2, 0.0, 1.0), spot(3, 0.0, 0.0),
                                             spot(4, 0.0, -1.0)};
  const std::map<uint32_t, msg::Pose2> poses = {
      {1, at(-2.0, 0.0)}, {2, at(1.0, -1.2)}, {3, at(1.5, 1.1)}, {4, at(0.8, 0.1)}};
  const auto shared = share_placements_by_distance(coach, poses, 1);
  auto cost = [&](const std::vector<msg::Placement>& ps) {
    double longest = 0.0, sum = 0.0;
    for (const auto& p : ps) {
      const auto& from = poses.at(p.robot_id());
      const double d = std::hypot(from.x() - p.pose().x(), from.y() - p.pose().y());
      longest = std::max(longest, d);
      sum += d;
    }
    return std::make_pair(longest, sum);
  };
  std::vector<int> perm = {1, 2, 3};
  do {
    std::vector<msg::Placement> other = coach;
    for (int k = 0; k < 3; ++k) *other[k + 1].mutable_pose() = coach[perm[k]].pose();
    const auto mine = cost(shared), theirs = cost(other);
    EXPECT_LE(mine.first, theirs.first + 1e-12);
    if (std::abs(mine.first - theirs.first) < 1e-12) {
      EXPECT_LE(mine.second, theirs.second + 1e-12);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(shared[1].pose().y(), -1.0);  // robot 2, low on the field, takes the low spot
}

// Where the least total leaves one robot a long run, the last to arrive
// decides: robot 2's 9.9 m run to the far spot becomes runs of 7.1 m and
// 6.1 m (the total grows from 13.9 m to 15.4 m).
TEST(PlacementSharing, TheLastToArriveDecidesNotTheTotal) {
  const std::vector<msg::Placement> coach = {spot(1, -8.0, 0.0), spot(2, -1.0, -2.0), spot(3, 4.0, 2.0),
                                             spot(4, -4.0, -3.0)};
  const std::map<uint32_t, msg::Pose2> poses = {
      {1, at(-8.0, 0.0)}, {2, at(3.0, 4.0)}, {3, at(4.0, 3.0)}, {4, at(2.0, -2.0)}};
  const auto shared = share_placements_by_distance(coach, poses, 1);
  ASSERT_EQ(shared.size(), 4u);
  EXPECT_EQ(shared[1].pose().x(), 4.0);   // robot 2: the near spot, not (-4, -3)
  EXPECT_EQ(shared[2].pose().x(), -1.0);  // robot 3
  EXPECT_EQ(shared[3].pose().x(), -4.0);  // robot 4
}

TEST(PlacementSharing, WithoutEveryPoseTheCoachsSpotsStand) {
  const std::vector<msg::Placement> coach = {spot(1, -1.0, 0.0), spot(2, -0.2, 0.3), spot(3, -0.2, -0.3)};
  const std::map<uint32_t, msg::Pose2> poses = {{1, at(0.5, 0.0)}, {2, at(-1.0, -0.3)}};
  const auto shared = share_placements_by_distance(coach, poses, 1);
  for (size_t i = 0; i < coach.size(); ++i) EXPECT_EQ(shared[i].SerializeAsString(), coach[i].SerializeAsString());
  std::map<uint32_t, msg::Pose2> with_nan = poses;
  with_nan[3] = at(std::nan(""), 0.0);
  const auto guarded = share_placements_by_distance(coach, with_nan, 1);
  EXPECT_EQ(guarded[2].SerializeAsString(), coach[2].SerializeAsString());
}

// Two robots running side by side towards two spots: as they go, the best
// hand-out flips between them by a few centimetres of the longest run. The
// sharer keeps the first hand-out; sharing afresh swaps it (the test would
// not test stickiness otherwise). A hand-out that saves more than the margin
// is taken.
TEST(PlacementSharing, TheSharerKeepsItsHandOutUnlessASwapSavesMoreThanTheMargin) {
  const std::vector<msg::Placement> coach = {spot(1, -8.0, 0.0), spot(2, -2.0, 1.0), spot(3, -2.0, -1.0)};
  auto poses_at = [](double x2, double y2, double x3, double y3) {
    return std::map<uint32_t, msg::Pose2>{{1, at(-8.0, 0.0)}, {2, at(x2, y2)}, {3, at(x3, y3)}};
  };
  PlacementSharer sharer(0.5);
  // Robot 2 a little nearer the low spot: it takes it.
  const auto first = sharer.share(coach, poses_at(4.0, -0.1, 4.0, 0.1), 1);
  EXPECT_EQ(first[1].pose().y(), -1.0);
  EXPECT_EQ(first[2].pose().y(), 1.0);
  // Now robot 3 is a little nearer the low spot.
  const auto flipped = poses_at(3.9, 0.15, 4.0, -0.15);
  ASSERT_EQ(share_placements_by_distance(coach, flipped, 1)[1].pose().y(), 1.0) << "afresh, the hand-out flips";
  const auto kept = sharer.share(coach, flipped, 1);
  EXPECT_EQ(kept[1].pose().y(), -1.0);
  EXPECT_EQ(kept[2].pose().y(), 1.0);
  // Robot 2 far up the field, robot 3 far down: swapping saves metres.
  const auto swapped = sharer.share(coach, poses_at(0.0, 4.0, 0.0, -4.0), 1);
  EXPECT_EQ(swapped[1].pose().y(), 1.0);
  EXPECT_EQ(swapped[2].pose().y(), -1.0);
  // A new placement phase starts afresh.
  sharer.forget();
  EXPECT_EQ(sharer.share(coach, flipped, 1)[1].pose().y(), 1.0);
}

// Two robots running back after a goal (MSL kick-off drill): by the longest
// run alone, to the millimetre, each was handed the spot across the other's
// way (0.16 m shorter the longest run, 1.5 m longer in all); met half-way,
// each gave way to the other. Within the slack of the shortest longest run,
// the total decides; beyond it, the longest run still does.
TEST(PlacementSharing, ALongestRunWithinTheSlackOfTheShortestCountsAndTheTotalDecides) {
  const std::vector<msg::Placement> coach = {spot(1, 8.5, 0.0), spot(2, 3.94, 0.0), spot(3, 1.94, 3.6)};
  auto poses_at = [](double x3, double y3) {
    return std::map<uint32_t, msg::Pose2>{{1, at(8.5, 0.0)}, {2, at(-3.64, 1.68)}, {3, at(x3, y3)}};
  };
  PlacementSharer strict(0.5);
  const auto crossing = strict.share(coach, poses_at(-3.89, -1.21), 1);
  EXPECT_EQ(crossing[1].pose().x(), 3.94) << "robot 2, the upper, to the lower spot";
  PlacementSharer slack(0.5, 0.0, 0.5);
  const auto uncrossed = slack.share(coach, poses_at(-3.89, -1.21), 1);
  EXPECT_EQ(uncrossed[1].pose().x(), 1.94) << "robot 2 to the upper spot, 0.16 m longer the longest run";
  EXPECT_EQ(uncrossed[2].pose().x(), 3.94);
  EXPECT_EQ(uncrossed[0].pose().x(), 8.5) << "the keeper's own";
  // Robot 3 0.7 m further back: uncrossed, its run would be 0.51 m longer
  // than the longest crossed one.
  PlacementSharer beyond(0.5, 0.0, 0.5);
  EXPECT_EQ(beyond.share(coach, poses_at(-4.6, -1.21), 1)[1].pose().x(), 3.94);
}

// A robot that was not there last cycle (or one that left) leaves nothing
// to keep: the hand-out is the best one.
TEST(PlacementSharing, TheSharerStartsAfreshWhenTheRobotsChange) {
  const std::vector<msg::Placement> two = {spot(1, -8.0, 0.0), spot(2, -2.0, 1.0), spot(3, -2.0, -1.0)};
  const std::vector<msg::Placement> three = {spot(1, -8.0, 0.0), spot(2, -2.0, 1.0), spot(3, -2.0, -1.0),
                                             spot(4, -4.0, 0.0)};
  std::map<uint32_t, msg::Pose2> poses = {{1, at(-8.0, 0.0)}, {2, at(4.0, -0.1)}, {3, at(4.0, 0.1)}, {4, at(-4.0, 0.1)}};
  PlacementSharer sharer(0.5);
  ASSERT_EQ(sharer.share(two, poses, 1)[1].pose().y(), -1.0);
  // As in the test above, robots 2 and 3 now stand where the best hand-out
  // flips, but robot 4 has come on.
  poses[2] = at(3.9, 0.15);
  poses[3] = at(4.0, -0.15);
  const auto shared = sharer.share(three, poses, 1);
  ASSERT_EQ(shared[1].pose().y(), 1.0);
  const auto best = share_placements_by_distance(three, poses, 1);
  for (size_t i = 0; i < three.size(); ++i) EXPECT_EQ(shared[i].SerializeAsString(), best[i].SerializeAsString());
}

// At restarts other than kick-offs the coach derives each robot's spot from
// where it stands, so after the sharer swapped two spots the coach may name
// them the other way round next cycle, a little moved. Each robot keeps the
// spot nearest its last one: kept by the coach's name instead, both robots
// would be sent across to the other's side.
TEST(PlacementSharing, TheSharerFollowsItsSpotsByWhereTheyLieNotByTheRobotTheCoachNames) {
  const std::map<uint32_t, msg::Pose2> poses = {{1, at(-8.0, 0.0)}, {2, at(4.0, -0.1)}, {3, at(4.0, 0.1)}};
  PlacementSharer sharer(0.5);
  const auto first = sharer.share({spot(1, -8.0, 0.0), spot(2, -2.0, 1.0), spot(3, -2.0, -1.0)}, poses, 1);
  ASSERT_EQ(first[1].pose().y(), -1.0);
  ASSERT_EQ(first[2].pose().y(), 1.0);
  // The coach now names the low spot robot 2's, both moved 0.1 m.
  const std::vector<msg::Placement> renamed = {spot(1, -8.0, 0.0), spot(2, -2.1, -1.05), spot(3, -2.1, 1.05)};
  const auto kept = sharer.share(renamed, poses, 1);
  EXPECT_EQ(kept[1].pose().y(), -1.05);
  EXPECT_EQ(kept[2].pose().y(), 1.05);
  // Robots standing where either hand-out is as good: still the same.
  const std::map<uint32_t, msg::Pose2> level = {{1, at(-8.0, 0.0)}, {2, at(4.0, 0.0)}, {3, at(4.0, 0.0)}};
  const auto again = sharer.share({spot(1, -8.0, 0.0), spot(2, -2.1, 1.05), spot(3, -2.1, -1.05)}, level, 1);
  EXPECT_EQ(again[1].pose().y(), -1.05);
  EXPECT_EQ(again[2].pose().y(), 1.05);
}

// A drop ball by our goal: the coach names robot 2, standing legally, its
// own position, and robot 3 a spot further off. Handing robot 2's spot to
// robot 3 makes the longest run shorter, but robot 2 is then sent away and
// its spot, where it stands, goes with it: robot 3 chased it. The sharer
// leaves a robot standing at its spot there (within at_spot: the coach saw
// it a cycle earlier).
TEST(PlacementSharing, TheSharerLeavesARobotStandingAtItsSpotThere) {
  const std::vector<msg::Placement> coach = {spot(1, -8.0, 0.0), spot(2, -5.0, -1.0), spot(3, -5.5, 0.2)};
  for (const msg::Pose2& two : {at(-5.0, -1.0), at(-5.04, -1.02)}) {
    const std::map<uint32_t, msg::Pose2> poses = {{1, at(-8.0, 0.0)}, {2, two}, {3, at(-5.3, -1.4)}};
    ASSERT_EQ(share_placements_by_distance(coach, poses, 1)[2].pose().y(), -1.0)
        << "shared afresh, robot 3 takes robot 2's spot: the scene would not test the rule";
    PlacementSharer sharer(0.5, 0.1);
    for (int cycle = 0; cycle < 2; ++cycle) {
      const auto shared = sharer.share(coach, poses, 1, {2});
      EXPECT_EQ(shared[1].pose().y(), -1.0);
      EXPECT_EQ(shared[2].pose().y(), 0.2);
    }
  }
}

// Robot 2 runs through the spot the coach named for it on its way to the
// one it was handed: it is not standing there, and the hand-out stays.
TEST(PlacementSharing, ARobotRunningThroughItsSpotDoesNotKeepIt) {
  const std::vector<msg::Placement> coach = {spot(1, -8.0, 0.0), spot(2, -2.0, 1.0), spot(3, -2.0, -1.0)};
  PlacementSharer sharer(0.5, 0.1);
  // Robot 2 is handed the low spot, robot 3 the high one.
  const auto first = sharer.share(coach, {{1, at(-8.0, 0.0)}, {2, at(4.0, -0.8)}, {3, at(4.0, 0.8)}}, 1);
  ASSERT_EQ(first[1].pose().y(), -1.0);
  // Robot 2 passes over its coach's spot at speed (not in `standing`).
  const auto passing = sharer.share(coach, {{1, at(-8.0, 0.0)}, {2, at(-2.0, 1.0)}, {3, at(1.0, 0.8)}}, 1);
  EXPECT_EQ(passing[1].pose().y(), -1.0);
  EXPECT_EQ(passing[2].pose().y(), 1.0);
}

}  // namespace
}  // namespace robocaf::actors
