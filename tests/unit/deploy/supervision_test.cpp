// Mission managers on a real in-process match: an actor that crashes and one
// that hangs are both replaced, their robots rejoin, and the match still ends.
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

}  // namespace
}  // namespace robocaf::deploy
