// The central team skills actor on a real CAF actor system: what the coach
// decides for a restart reaches every robot's player skills, with the coach's
// spots shared out by where the robots stand, and at MSL kick-offs a robot
// keeps the spot it was handed while the robots run.
#include "actors/team_skills/team_skills_actor.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/actor_setup.hpp"
#include "messages/game.pb.h"
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
using Instructions = std::map<uint32_t, msg::PlayerInstruction>;  // by robot id

// Stands in for one of blue's robots' player skills: registers at its address
// and hands every instruction to the test, saying whose it is (the
// instruction itself does not).
caf::behavior player_skills_sink(caf::event_based_actor* self, caf::actor directory, caf::actor test, uint32_t robot) {
  self->request(directory, std::chrono::seconds(5), runtime::register_atom::value,
                make_address(msg::BLUE, robot, msg::ACTOR_PLAYER_SKILLS), caf::actor_cast<caf::actor>(self))
      .then([](const msg::Roster&, const std::vector<caf::actor>&) {});
  return {
      [=](const msg::PlayerInstruction& instruction) { self->send(test, robot, instruction); },
      [](const msg::Roster&, const std::vector<caf::actor>&) {},
  };
}

// Stands in for the world, which the team skills report to after every cycle.
caf::behavior world_sink(caf::event_based_actor* self, caf::actor directory) {
  self->request(directory, std::chrono::seconds(5), runtime::register_atom::value,
                make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD), caf::actor_cast<caf::actor>(self))
      .then([](const msg::Roster&, const std::vector<caf::actor>&) {});
  return {
      [](const msg::RoleAssignment&) {},
      [](const msg::CycleDone&) {},
      [](const msg::Roster&, const std::vector<caf::actor>&) {},
  };
}

msg::Pose2 pose(double x, double y, double theta) {
  msg::Pose2 p;
  p.set_x(x);
  p.set_y(y);
  p.set_theta(theta);
  return p;
}

msg::Placement placement(uint32_t robot, const msg::Pose2& spot) {
  msg::Placement p;
  p.set_robot_id(robot);
  *p.mutable_pose() = spot;
  return p;
}

msg::WorldEstimate estimate_of(uint32_t robot, uint64_t cycle, const msg::Pose2& where) {
  return testing::blue_estimate_of(robot, cycle, where.x(), where.y(), where.theta());
}

// A placing command for blue's robots 1..n, each placed by id at `spots`.
msg::CoachCommand placing_command(msg::RestartKind restart, const std::map<uint32_t, msg::Pose2>& spots) {
  msg::CoachCommand command;
  command.set_team(msg::BLUE);
  command.set_directive(msg::COACH_PLACE);
  command.set_attack_positive_x(true);
  command.set_restart(restart);
  for (const auto& [robot, spot] : spots) {
    command.add_robots_present(robot);
    *command.add_placements() = placement(robot, spot);
  }
  return command;
}

::testing::AssertionResult placed_at(const msg::PlayerInstruction& instruction, const msg::Pose2& spot) {
  const msg::Pose2& p = instruction.placement();
  if (p.x() == spot.x() && p.y() == spot.y() && p.theta() == spot.theta()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "placed at (" << p.x() << ", " << p.y() << ", " << p.theta() << ") instead of ("
                                     << spot.x() << ", " << spot.y() << ", " << spot.theta() << ")";
}

// Blue's central team skills (robot 0) on a directory, with sinks for its
// robots' player skills and for the world; the test plays the coach and the
// robots' world knowledge.
class CentralTeamSkills {
 public:
  CentralTeamSkills(const std::string& preset, const std::vector<uint32_t>& robots)
      : match_(runtime::preset_match_config(preset)), robots_(robots) {
    directory_ = runtime::spawn_directory(system_, match_.league().team_size());
    msg::NodeIdentity node;
    node.set_name("test");
    node.set_team(msg::BLUE);
    node.set_team_actors(true);
    // The world sink is hosted here too, and only a world node may host it.
    node.set_world(true);
    for (uint32_t id : robots_) node.add_robot_ids(id);
    self_->request(directory_, std::chrono::seconds(5), runtime::join_atom::value, node)
        .receive([](caf::atom_value) {}, [](caf::error&) { ADD_FAILURE() << "directory refused the test node"; });
    for (uint32_t id : robots_)
      sinks_.push_back(system_.spawn(player_skills_sink, directory_, caf::actor_cast<caf::actor>(self_), id));
    sinks_.push_back(system_.spawn(world_sink, directory_));
    ActorSetup setup;
    setup.shell.address = make_address(msg::BLUE, 0, msg::ACTOR_TEAM_SKILLS);
    setup.shell.directory = directory_;
    setup.match = match_;
    team_skills_ = spawn_team_skills(system_, setup);
  }

  ~CentralTeamSkills() {
    caf::anon_send_exit(team_skills_, caf::exit_reason::user_shutdown);
    for (auto& sink : sinks_) caf::anon_send_exit(sink, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(directory_, caf::exit_reason::user_shutdown);
  }

  CentralTeamSkills(const CentralTeamSkills&) = delete;
  CentralTeamSkills& operator=(const CentralTeamSkills&) = delete;

  const msg::MatchConfig& match() const { return match_; }

  // One cycle: the robots' estimates of the cycle before (only settled
  // cycles count), then the coach's command. Returns the instructions of
  // `cycle` that arrived before the sinks fell silent for `quiet`.
  // `speeds` gives robots an estimated velocity along +x (m/s); the others stand.
  Instructions run_cycle(uint64_t cycle, msg::CoachCommand command, const std::map<uint32_t, msg::Pose2>& robot_poses,
                         std::chrono::milliseconds quiet, const std::map<uint32_t, double>& speeds = {}) {
    for (const auto& [robot, where] : robot_poses) {
      msg::WorldEstimate estimate = estimate_of(robot, cycle - 1, where);
      if (const auto speed = speeds.find(robot); speed != speeds.end())
        estimate.mutable_self()->mutable_velocity()->set_x(speed->second);
      self_->send(team_skills_, estimate);
    }
    command.set_cycle(cycle);
    command.set_t(0.02 * static_cast<double>(cycle));
    self_->send(team_skills_, command);
    Instructions got;
    bool silent = false;
    while (got.size() < robots_.size() && !silent) {
      // Instructions of earlier cycles may still be on their way.
      self_->receive(
          [&](uint32_t robot, const msg::PlayerInstruction& instruction) {
            if (instruction.cycle() == cycle) got[robot] = instruction;
          },
          caf::after(quiet) >> [&] { silent = true; });
    }
    return got;
  }

  // Runs cycles from `*cycle` on until every robot gets its instruction: the
  // sinks reach the actor's roster some time after it starts, and until then
  // it instructs no one. Leaves `*cycle` at the cycle that answered.
  Instructions run_until_instructed(uint64_t* cycle, const msg::CoachCommand& command,
                                    const std::map<uint32_t, msg::Pose2>& robot_poses,
                                    const std::map<uint32_t, double>& speeds = {}) {
    for (const uint64_t last = *cycle + 100; *cycle < last; ++*cycle) {
      Instructions got = run_cycle(*cycle, command, robot_poses, std::chrono::milliseconds(50), speeds);
      if (got.size() == robots_.size()) return got;
    }
    return {};
  }

 private:
  Config config_;
  caf::actor_system system_{config_};
  caf::scoped_actor self_{system_};
  msg::MatchConfig match_;
  std::vector<uint32_t> robots_;
  caf::actor directory_;
  std::vector<caf::actor> sinks_;
  caf::actor team_skills_;
};

// Every robot needs the coach's restart, ball spot and keep-out distance to
// place legally, whichever spot it is handed.
TEST(TeamSkillsActor, InstructionsCarryTheCoachsRestartKeepOutAndBallSpot) {
  CentralTeamSkills team("mirosot", {1, 2, 3, 4});
  const double keep_out = team.match().league().rules().restart_distance();
  ASSERT_GT(keep_out, 0.0);
  const msg::Pose2 keeper_spot = pose(-1.0, 0.0, 0.0);
  const msg::Pose2 spot_a = pose(-0.3, 0.4, 0.1);
  const msg::Pose2 spot_b = pose(-0.3, -0.4, -0.1);
  const msg::Pose2 spot_c = pose(-0.6, 0.0, 0.2);
  // The coach hands A and B the other way round from where robots 2 and 3
  // stand. The keeper is out on C and robot 4 on the keeper's spot, yet the
  // keeper keeps its own: only the field players share.
  msg::CoachCommand command =
      placing_command(msg::RESTART_FREE_KICK, {{1, keeper_spot}, {2, spot_b}, {3, spot_a}, {4, spot_c}});
  command.mutable_ball_spot()->set_x(0.2);
  command.mutable_ball_spot()->set_y(0.5);
  command.set_keep_out_radius(keep_out);
  command.set_waiting_for_taker(true);
  const std::map<uint32_t, msg::Pose2> robots = {{1, spot_c}, {2, spot_a}, {3, spot_b}, {4, keeper_spot}};

  uint64_t cycle = 10;
  const Instructions got = team.run_until_instructed(&cycle, command, robots);

  ASSERT_EQ(got.size(), 4u) << "not every robot's player skills got an instruction";
  for (const auto& [robot, instruction] : got) {
    SCOPED_TRACE("robot " + std::to_string(robot));
    EXPECT_EQ(instruction.directive(), msg::COACH_PLACE);
    EXPECT_EQ(instruction.restart(), msg::RESTART_FREE_KICK);
    EXPECT_DOUBLE_EQ(instruction.ball_spot().x(), 0.2);
    EXPECT_DOUBLE_EQ(instruction.ball_spot().y(), 0.5);
    EXPECT_DOUBLE_EQ(instruction.keep_out_radius(), keep_out);
    EXPECT_TRUE(instruction.waiting_for_taker());
  }
  EXPECT_TRUE(placed_at(got.at(1), keeper_spot));
  EXPECT_TRUE(placed_at(got.at(2), spot_a));
  EXPECT_TRUE(placed_at(got.at(3), spot_b));
  EXPECT_TRUE(placed_at(got.at(4), spot_c));
}

// MSL: the keeper's spot by its goal; A and B mirror each other across the
// field's long axis, so a robot on that axis is as near to one as to the other.
msg::Pose2 msl_keeper_spot() { return pose(-8.0, 0.0, 0.0); }
msg::Pose2 msl_spot_a() { return pose(-3.0, 2.0, 0.0); }
msg::Pose2 msl_spot_b() { return pose(-3.0, -2.0, 0.0); }

// Robots 2 and 3 just either side of the axis: robot 2 nearer A first, then,
// after each moved 0.2 m, nearer B. Handed out afresh, the longest run would
// be about 0.14 m shorter with the spots swapped: less than MSL's keep
// margin (two robot radii, 0.5 m).
std::map<uint32_t, msg::Pose2> msl_robots_before_the_move() {
  return {{1, msl_keeper_spot()}, {2, pose(-5.0, 0.1, 0.0)}, {3, pose(-5.0, -0.1, 0.0)}};
}
std::map<uint32_t, msg::Pose2> msl_robots_after_the_move() {
  return {{1, msl_keeper_spot()}, {2, pose(-5.0, -0.1, 0.0)}, {3, pose(-5.0, 0.1, 0.0)}};
}

// Placing for `restart` (in `preset`, on MSL's coordinates), first with the
// robots before their small move, then for a few cycles after it; returns
// the instructions of the first cycle and of every cycle after the move.
struct Placing {
  Instructions before;
  std::vector<Instructions> after;
};

Placing place_in(const std::string& preset, msg::RestartKind restart) {
  CentralTeamSkills team(preset, {1, 2, 3});
  // The coach hands the spots out by id the other way round, so the first
  // hand-out is the team skills' own.
  const msg::CoachCommand command =
      placing_command(restart, {{1, msl_keeper_spot()}, {2, msl_spot_b()}, {3, msl_spot_a()}});
  Placing placing;
  uint64_t cycle = 10;
  placing.before = team.run_until_instructed(&cycle, command, msl_robots_before_the_move());
  if (placing.before.empty()) return placing;
  for (int i = 0; i < 3; ++i)
    placing.after.push_back(team.run_cycle(++cycle, command, msl_robots_after_the_move(), std::chrono::seconds(2)));
  return placing;
}

// Robot 2 is handed A and robot 3 B at first; after the move, robot 2 has
// `then_2` and robot 3 `then_3`, and the keeper always its own.
void expect_hand_outs(const Placing& placing, const msg::Pose2& then_2, const msg::Pose2& then_3) {
  ASSERT_EQ(placing.before.size(), 3u) << "not every robot's player skills got an instruction";
  EXPECT_TRUE(placed_at(placing.before.at(2), msl_spot_a()));
  EXPECT_TRUE(placed_at(placing.before.at(3), msl_spot_b()));
  for (size_t i = 0; i < placing.after.size(); ++i) {
    SCOPED_TRACE("cycle " + std::to_string(i + 1) + " after the move");
    const Instructions& got = placing.after[i];
    ASSERT_EQ(got.size(), 3u);
    EXPECT_TRUE(placed_at(got.at(1), msl_keeper_spot()));
    EXPECT_TRUE(placed_at(got.at(2), then_2));
    EXPECT_TRUE(placed_at(got.at(3), then_3));
  }
}

// The run back to an MSL kick-off takes seconds; handed out afresh every
// cycle, spots swung between robots as they turned and ran.
TEST(TeamSkillsActor, AtMslKickOffsARobotKeepsTheSpotItWasHanded) {
  expect_hand_outs(place_in("msl", msg::RESTART_KICKOFF), msl_spot_a(), msl_spot_b());
}

// The same scene at another restart: handed out afresh every cycle, three
// robots beside a drop ball or free kick swapped spots every cycle for
// seconds. (Spots that move with the robots are followed where they lie:
// PlacementSharing tests.)
TEST(TeamSkillsActor, AtOtherMslRestartsARobotKeepsTheSpotItWasHandedToo) {
  expect_hand_outs(place_in("msl", msg::RESTART_FREE_KICK), msl_spot_a(), msl_spot_b());
}

// Where the run back takes a second (MiroSot) the hand-out is made afresh
// every cycle and follows the move.
TEST(TeamSkillsActor, InMiroSotTheSpotsAreHandedOutAfresh) {
  expect_hand_outs(place_in("mirosot", msg::RESTART_KICKOFF), msl_spot_b(), msl_spot_a());
}

// The coach names robot 2 the spot it stands on, and robot 3 a spot behind
// it; shared by distance alone, robot 3 would take robot 2's spot and chase
// it there (the longest run 0.8 m shorter so, more than the slack that lets
// the total decide). Whether robot 2 counts as standing is the actor's
// call, from its estimated speed and the kind of restart.
msg::PlayerInstruction instruction_of_two(const std::string& preset, msg::RestartKind restart, double speed_of_two) {
  CentralTeamSkills team(preset, {1, 2, 3});
  const msg::CoachCommand command =
      placing_command(restart, {{1, msl_keeper_spot()}, {2, pose(-5.0, -1.0, 0.0)}, {3, pose(-5.5, 0.2, 0.0)}});
  const std::map<uint32_t, msg::Pose2> robots = {
      {1, msl_keeper_spot()}, {2, pose(-5.0, -1.0, 0.0)}, {3, pose(-5.2, -1.9, 0.0)}};
  uint64_t cycle = 10;
  const Instructions got = team.run_until_instructed(&cycle, command, robots, {{2, speed_of_two}});
  if (got.count(2) == 0) {
    ADD_FAILURE() << "robot 2 got no instruction";
    return {};
  }
  return got.at(2);
}

TEST(TeamSkillsActor, AtAnMslFreeKickARobotStandingOnItsSpotKeepsIt) {
  EXPECT_TRUE(placed_at(instruction_of_two("msl", msg::RESTART_FREE_KICK, 0.0), pose(-5.0, -1.0, 0.0)));
}

TEST(TeamSkillsActor, ARobotMovingOverItsSpotOrAtAKickOffIsNotStanding) {
  // Moving at 0.5 m/s (over the 0.2 m/s the actor takes for standing).
  EXPECT_TRUE(placed_at(instruction_of_two("msl", msg::RESTART_FREE_KICK, 0.5), pose(-5.5, 0.2, 0.0)));
  // At kick-offs the coach's spots are not where robots stand, and none is kept.
  EXPECT_TRUE(placed_at(instruction_of_two("msl", msg::RESTART_KICKOFF, 0.0), pose(-5.5, 0.2, 0.0)));
}

}  // namespace
}  // namespace robocaf::actors
