// The directory on a real CAF actor system: admission by node identity, roster
// visibility by team, and clean-up when an actor goes down.
#include "runtime/directory.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "messages/runtime.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/atoms.hpp"
#include "runtime/message_types.hpp"
#include "runtime/proto_inspect.hpp"

namespace robocaf::runtime {
namespace {

struct Config : caf::actor_system_config {
  Config() { runtime::add_message_types(*this); }
};

// Stands in for any robocaf actor: it only takes roster pushes.
caf::behavior idle() {
  return {[](const msg::Roster&, const std::vector<caf::actor>&) {}};
}

class DirectoryTest : public ::testing::Test {
 protected:
  Config config;
  caf::actor_system system{config};
  caf::scoped_actor self{system};
  caf::actor directory = spawn_directory(system, 5);

  void TearDown() override { caf::anon_send_exit(directory, caf::exit_reason::user_shutdown); }

  std::string join_as(const msg::NodeIdentity& identity) {
    std::string failure;
    self->request(directory, std::chrono::seconds(5), join_atom::value, identity)
        .receive([](caf::atom_value) {}, [&](caf::error& e) { failure = system.render(e); });
    return failure;
  }

  // Registers `handle` at `address`; returns the roster it gets or the error text.
  std::pair<msg::Roster, std::string> register_at(const msg::ActorAddress& address, const caf::actor& handle) {
    std::pair<msg::Roster, std::string> result;
    self->request(directory, std::chrono::seconds(5), register_atom::value, address, handle)
        .receive([&](const msg::Roster& roster, const std::vector<caf::actor>&) { result.first = roster; },
                 [&](caf::error& e) { result.second = system.render(e); });
    return result;
  }

  static std::vector<std::string> keys(const msg::Roster& roster) {
    std::vector<std::string> out;
    for (auto& entry : roster.entries()) out.push_back(address_key(entry.address()));
    return out;
  }
};

TEST_F(DirectoryTest, RefusesActorsOutsideTheNodeIdentity) {
  msg::NodeIdentity blue_robot;
  blue_robot.set_name("blue-2");
  blue_robot.set_team(msg::BLUE);
  blue_robot.add_robot_ids(2);
  ASSERT_EQ(join_as(blue_robot), "");
  auto actor = system.spawn(idle);
  EXPECT_EQ(register_at(make_address(msg::BLUE, 2, msg::ACTOR_MOTOR), actor).second, "");
  EXPECT_NE(register_at(make_address(msg::YELLOW, 2, msg::ACTOR_MOTOR), actor).second.find("belongs to team blue"),
            std::string::npos);
  EXPECT_NE(register_at(make_address(msg::BLUE, 3, msg::ACTOR_MOTOR), actor).second.find("does not host robot 3"),
            std::string::npos);
  EXPECT_NE(register_at(make_address(msg::BLUE, 0, msg::ACTOR_COACH), actor).second.find("team actors"),
            std::string::npos);
  EXPECT_NE(register_at(make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD), actor).second.find("world node"),
            std::string::npos);
  caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
}

TEST_F(DirectoryTest, RefusesRobotsOutsideTheRosterAndUnjoinedNodes) {
  auto actor = system.spawn(idle);
  EXPECT_NE(register_at(make_address(msg::BLUE, 1, msg::ACTOR_MOTOR), actor).second.find("has not joined"),
            std::string::npos);
  msg::NodeIdentity local;
  local.set_name("local");
  local.set_world(true);
  ASSERT_EQ(join_as(local), "");
  EXPECT_NE(register_at(make_address(msg::BLUE, 6, msg::ACTOR_MOTOR), actor).second.find("not in the roster"),
            std::string::npos);
  caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
}

TEST_F(DirectoryTest, RefusesNodesThatClaimRobotsOutsideTheRosterOrNoTeam) {
  msg::NodeIdentity too_many;
  too_many.set_name("blue-7");
  too_many.set_team(msg::BLUE);
  too_many.add_robot_ids(7);
  EXPECT_NE(join_as(too_many).find("claims robot 7"), std::string::npos);
  msg::NodeIdentity teamless;
  teamless.set_name("stray");
  teamless.add_robot_ids(1);
  EXPECT_NE(join_as(teamless).find("names no team"), std::string::npos);
}

TEST_F(DirectoryTest, ARobotSeesItsOwnTeamAndNeutralActorsOnly) {
  msg::NodeIdentity local;
  local.set_name("local");
  local.set_world(true);
  ASSERT_EQ(join_as(local), "");
  auto world = system.spawn(idle);
  auto yellow = system.spawn(idle);
  auto blue = system.spawn(idle);
  register_at(make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD), world);
  register_at(make_address(msg::YELLOW, 1, msg::ACTOR_MOTOR), yellow);
  auto [roster, error] = register_at(make_address(msg::BLUE, 1, msg::ACTOR_MOTOR), blue);
  ASSERT_EQ(error, "");
  EXPECT_EQ(keys(roster), (std::vector<std::string>{"blue/1/motor", "world"}));
  for (auto& a : {world, yellow, blue}) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

TEST_F(DirectoryTest, PushesRosterUpdatesAndForgetsActorsThatGoDown) {
  msg::NodeIdentity local;
  local.set_name("local");
  local.set_world(true);
  ASSERT_EQ(join_as(local), "");
  // The scoped actor registers itself as the world, so it receives the pushes.
  auto me = caf::actor_cast<caf::actor>(self);
  register_at(make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD), me);
  auto robot = system.spawn(idle);
  register_at(make_address(msg::BLUE, 4, msg::ACTOR_PERCEPTION), robot);
  std::vector<std::string> latest;
  auto drain = [&] {
    bool more = true;
    while (more) {
      self->receive([&](const msg::Roster& roster, const std::vector<caf::actor>&) { latest = keys(roster); },
                    caf::after(std::chrono::milliseconds(200)) >> [&] { more = false; });
    }
  };
  drain();
  EXPECT_EQ(latest, (std::vector<std::string>{"blue/4/perception", "world"}));
  caf::anon_send_exit(robot, caf::exit_reason::kill);
  drain();
  EXPECT_EQ(latest, (std::vector<std::string>{"world"}));
}

}  // namespace
}  // namespace robocaf::runtime
