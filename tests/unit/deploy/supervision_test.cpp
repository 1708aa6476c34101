// Mission managers on a real in-process match: an actor that crashes and one
// that hangs are both replaced, their robots rejoin, and the match still ends;
// distributed team skills live on their robots, and a crashed, a hung and a
// lied-to team skills neither stall the world nor kill anything.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <caf/all.hpp>

#include "deploy/local_match.hpp"
#include "messages/health.pb.h"
#include "messages/log.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::deploy {
namespace {

std::map<std::string, std::pair<uint64_t, caf::actor>> registered(LocalMatch& match) {
  std::map<std::string, std::pair<uint64_t, caf::actor>> out;
  auto [roster, handles] = registered_actors(match.system(), match.directory());
  for (int i = 0; i < roster.entries_size(); ++i)
    out[runtime::address_key(roster.entries(i).address())] = {roster.entries(i).incarnation(),
                                                                handles[static_cast<size_t>(i)]};
  return out;
}

TEST(Supervision, CrashedAndHungActorsAreReplacedAndTheMatchEnds) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_half_duration(20);
  options.log_path = ::testing::TempDir() + "robocaf_supervision.rclog";
  LocalMatch match{options};

  // Wait until both victims are registered, then break them.
  std::map<std::string, std::pair<uint64_t, caf::actor>> actors;
  for (int i = 0; i < 100 && !(actors.count("blue/2/perception") && actors.count("yellow/3/player_skills")); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    actors = registered(match);
  }
  ASSERT_TRUE(actors.count("blue/2/perception") && actors.count("yellow/3/player_skills"));
  msg::FaultInjection crash;
  crash.set_fault(msg::FaultInjection::FAULT_CRASH);
  caf::anon_send(actors["blue/2/perception"].second, crash);
  msg::FaultInjection hang;
  hang.set_fault(msg::FaultInjection::FAULT_HANG);
  hang.set_hang_seconds(2.5);
  caf::anon_send(actors["yellow/3/player_skills"].second, hang);

  ASSERT_EQ(match.wait(), "");
  auto after = registered(match);
  EXPECT_GT(after["blue/2/perception"].first, actors["blue/2/perception"].first) << "crashed actor not replaced";
  EXPECT_GT(after["yellow/3/player_skills"].first, actors["yellow/3/player_skills"].first)
      << "hung actor not replaced";

  // Every robot is on the field when the match ends.
  runtime::GameLogReader reader{options.log_path};
  msg::LogRecord record;
  msg::GameState last;
  bool finished = false;
  while (reader.next(record)) {
    if (record.has_game_state()) last = record.game_state();
    finished = finished || (record.has_referee() && record.referee().kind() == msg::REF_EVENT_MATCH_END);
  }
  EXPECT_TRUE(finished);
  EXPECT_EQ(last.robots_blue_size(), 5);
  EXPECT_EQ(last.robots_yellow_size(), 5);
}

TEST(DistributedSupervision, EveryRobotHostsItsTeamSkillsAndFaultsDoNotStallTheMatch) {
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.mutable_blue()->set_coordination(msg::COORDINATION_DISTRIBUTED);
  options.match.set_half_duration(20);
  options.log_path = ::testing::TempDir() + "robocaf_distributed_supervision.rclog";
  LocalMatch match{options};

  // Wait until everyone has registered: the world; per team a mission
  // manager and a coach, five robots of five actors each, and the team
  // skills: blue's five, yellow's one.
  const size_t everyone = 1 + 2 * (2 + 5 * 5) + 5 + 1;
  std::map<std::string, std::pair<uint64_t, caf::actor>> actors;
  for (int i = 0; i < 250 && actors.size() < everyone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    actors = registered(match);
  }
  EXPECT_EQ(actors.size(), everyone);
  for (uint32_t id = 1; id <= 5; ++id)
    EXPECT_TRUE(actors.count("blue/" + std::to_string(id) + "/team_skills")) << "blue robot " << id;
  EXPECT_FALSE(actors.count("blue/team/team_skills")) << "a distributed team has no team-level team skills";
  EXPECT_TRUE(actors.count("yellow/team/team_skills")) << "the central team keeps its own";
  EXPECT_FALSE(actors.count("yellow/1/team_skills"));
  ASSERT_TRUE(actors.count("blue/1/team_skills") && actors.count("blue/2/team_skills") &&
              actors.count("blue/3/team_skills"));

  // Into play (a 2 x 20 s match takes about two seconds), then the faults.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  // Claims that do not add up: two entries, a basis of another robot, the
  // receiver's own id, another team. Dropped, not fatal.
  msg::RoleAssignment two;
  two.set_team(msg::BLUE);
  two.set_cycle(1);
  two.add_roles()->set_robot_id(2);
  two.add_roles()->set_robot_id(3);
  msg::WorldEstimate basis;
  basis.set_team(msg::BLUE);
  basis.set_robot_id(4);
  const auto& victim = actors["blue/1/team_skills"].second;
  caf::anon_send(victim, two, basis);
  msg::RoleAssignment mismatched;
  mismatched.set_team(msg::BLUE);
  mismatched.add_roles()->set_robot_id(2);
  caf::anon_send(victim, mismatched, basis);
  mismatched.mutable_roles(0)->set_robot_id(1);
  basis.set_robot_id(1);
  caf::anon_send(victim, mismatched, basis);
  mismatched.set_team(msg::YELLOW);
  caf::anon_send(victim, mismatched, basis);

  msg::FaultInjection crash;
  crash.set_fault(msg::FaultInjection::FAULT_CRASH);
  caf::anon_send(actors["blue/3/team_skills"].second, crash);
  msg::FaultInjection hang;
  hang.set_fault(msg::FaultInjection::FAULT_HANG);
  hang.set_hang_seconds(2.5);
  caf::anon_send(actors["blue/2/team_skills"].second, hang);

  ASSERT_EQ(match.wait(), "");
  auto after = registered(match);
  EXPECT_EQ(after["blue/1/team_skills"].first, actors["blue/1/team_skills"].first)
      << "malformed claims restarted the team skills";
  EXPECT_GT(after["blue/3/team_skills"].first, actors["blue/3/team_skills"].first) << "crashed one not replaced";
  EXPECT_GT(after["blue/2/team_skills"].first, actors["blue/2/team_skills"].first) << "hung one not replaced";

  // The match ended with every blue robot on the field and in blue's roles,
  // one keeper among them.
  runtime::GameLogReader reader{options.log_path};
  msg::LogRecord record;
  msg::GameState last;
  msg::RoleAssignment last_blue_roles;
  bool finished = false;
  while (reader.next(record)) {
    if (record.has_game_state()) last = record.game_state();
    if (record.has_roles() && record.roles().team() == msg::BLUE) last_blue_roles = record.roles();
    finished = finished || (record.has_referee() && record.referee().kind() == msg::REF_EVENT_MATCH_END);
  }
  EXPECT_TRUE(finished);
  EXPECT_EQ(last.robots_blue_size(), 5);
  ASSERT_EQ(last_blue_roles.roles_size(), 5);
  int keepers = 0;
  for (const auto& entry : last_blue_roles.roles()) keepers += entry.role() == msg::ROLE_KEEPER;
  EXPECT_EQ(keepers, 1);
}

}  // namespace
}  // namespace robocaf::deploy
