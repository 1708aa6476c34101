// The coach actor on a real CAF actor system: restart placements start from
// where its robots' world knowledge says they stand, not from the kick-off
// formation.
#include "actors/coach/coach_actor.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>

#include <caf/all.hpp>

#include "actors/actor_setup.hpp"
#include "messages/game.pb.h"
#include "messages/health.pb.h"
#include "messages/runtime.pb.h"
#include "messages/world.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/atoms.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/directory.hpp"
#include "runtime/message_types.hpp"
#include "tests/unit/actors/estimate_test_helpers.hpp"

namespace robocaf::actors {
namespace {

struct Config : caf::actor_system_config {
  Config() { runtime::add_message_types(*this); }
};

using runtime::make_address;

// Stands in for blue's central team skills: registers at its address and
// hands every coach command to the test.
caf::behavior command_sink(caf::event_based_actor* self, caf::actor directory, caf::actor test) {
  self->request(directory, std::chrono::seconds(5), runtime::register_atom::value,
                make_address(msg::BLUE, 0, msg::ACTOR_TEAM_SKILLS), caf::actor_cast<caf::actor>(self))
      .then([](const msg::Roster&, const std::vector<caf::actor>&) {});
  return {
      [=](const msg::CoachCommand& command) { self->send(test, command); },
      [](const msg::Roster&, const std::vector<caf::actor>&) {},
  };
}

using testing::blue_estimate_of;

TEST(CoachActor, RestartPlacementsStartFromWhereItsRobotsSayTheyAre) {
  Config config;
  caf::actor_system system{config};
  caf::scoped_actor self{system};
  const msg::MatchConfig match = runtime::preset_match_config("mirosot");
  caf::actor directory = runtime::spawn_directory(system, 5);
  msg::NodeIdentity node;
  node.set_name("test");
  node.set_team(msg::BLUE);
  node.set_team_actors(true);
  for (uint32_t id = 1; id <= 3; ++id) node.add_robot_ids(id);
  self->request(directory, std::chrono::seconds(5), runtime::join_atom::value, node)
      .receive([](caf::atom_value) {}, [](caf::error&) { ADD_FAILURE() << "directory refused the test node"; });
  caf::actor sink = system.spawn(command_sink, directory, caf::actor_cast<caf::actor>(self));
  ActorSetup setup;
  setup.shell.address = make_address(msg::BLUE, 0, msg::ACTOR_COACH);
  setup.shell.directory = directory;
  setup.match = match;
  caf::actor coach = spawn_coach(system, setup);

  // Robot 3 is out near the opponent goal, far from a free kick of the
  // other team in its own half: it stays where it is. Its kick-off slot is
  // in blue's own half, far from there.
  const double rx = 0.8, ry = -0.5, rtheta = 0.7;
  self->send(coach, blue_estimate_of(1, 3, -1.0, 0.0, 0.0));
  self->send(coach, blue_estimate_of(2, 3, -0.3, 0.2, 0.0));
  self->send(coach, blue_estimate_of(3, 3, rx, ry, rtheta));
  // An estimate of a cycle not yet settled must not count.
  self->send(coach, blue_estimate_of(3, 400, 0.1, 0.1, 0.0));

  std::optional<msg::CoachCommand> command;
  for (uint64_t cycle = 10; cycle < 100 && !command; ++cycle) {
    msg::GameState game;
    game.set_cycle(cycle);
    game.set_t(0.02 * static_cast<double>(cycle));
    game.set_stage(msg::STAGE_FIRST_HALF);
    game.set_command(msg::REF_PREPARE_RESTART);
    game.set_restart(msg::RESTART_FREE_KICK);
    game.set_restart_team(msg::YELLOW);
    game.mutable_ball_spot()->set_x(0.2);
    game.mutable_ball_spot()->set_y(0.5);
    for (uint32_t id = 1; id <= 3; ++id) game.add_robots_blue(id);
    self->send(coach, game);
    // The sink may not be in the coach's roster yet: then no command comes.
    self->receive([&](const msg::CoachCommand& c) { command = c; },
                  caf::after(std::chrono::milliseconds(50)) >> [] {});
  }
  for (auto& actor : {coach, sink, directory}) caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);

  ASSERT_TRUE(command.has_value()) << "no coach command reached the team skills";
  EXPECT_EQ(command->directive(), msg::COACH_PLACE);
  const msg::Pose2* placed = nullptr;
  for (const auto& p : command->placements())
    if (p.robot_id() == 3) placed = &p.pose();
  ASSERT_NE(placed, nullptr);
  EXPECT_DOUBLE_EQ(placed->x(), rx);
  EXPECT_DOUBLE_EQ(placed->y(), ry);
  EXPECT_DOUBLE_EQ(placed->theta(), rtheta);
}

}  // namespace
}  // namespace robocaf::actors
