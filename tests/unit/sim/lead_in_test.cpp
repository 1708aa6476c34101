// Lead-ins: the logged cycles before a drill's moment, read from a real game
// log file, and turned and swapped as the drill's start is.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "sim/kickoff_drill.hpp"
#include "sim/lead_in.hpp"
#include "sim/restart_drill.hpp"

namespace robocaf::sim {
namespace {

msg::LogRecord truth_record(uint64_t cycle, double blue_x) {
  msg::LogRecord r;
  r.set_t(0.02 * static_cast<double>(cycle));
  r.mutable_truth()->set_cycle(cycle);
  auto* robot = r.mutable_truth()->add_robots();
  robot->set_team(msg::BLUE);
  robot->set_robot_id(2);
  robot->mutable_pose()->set_x(blue_x);
  robot->mutable_pose()->set_y(0.3);
  robot->mutable_pose()->set_theta(0.5);
  robot->mutable_velocity()->set_x(1.0);
  r.mutable_truth()->mutable_ball_position()->set_x(blue_x + 0.2);
  return r;
}

msg::LogRecord command_record(uint64_t cycle, msg::Team team, uint32_t id, double left) {
  msg::LogRecord r;
  r.set_t(0.02 * static_cast<double>(cycle));
  r.mutable_command()->set_cycle(cycle);
  r.mutable_command()->set_team(team);
  r.mutable_command()->set_robot_id(id);
  r.mutable_command()->mutable_wheels()->set_left(left);
  r.mutable_command()->mutable_wheels()->set_right(1.0);
  return r;
}

TEST(LeadIn, KeepsTheNewestCyclesBeforeTheNewestTruthEachWithItsCommands) {
  LeadInRecorder recorder(2);
  recorder.add(truth_record(1, 0.1));
  recorder.add(command_record(1, msg::BLUE, 2, 0.5));
  recorder.add(truth_record(2, 0.2));
  recorder.add(command_record(2, msg::BLUE, 2, 0.6));
  recorder.add(command_record(2, msg::YELLOW, 1, 0.7));
  recorder.add(command_record(1, msg::BLUE, 3, 0.8));  // a late one of an older cycle
  recorder.add(truth_record(3, 0.3));
  recorder.add(truth_record(4, 0.4));
  const std::vector<LeadInCycle> lead_in = recorder.before_newest();
  ASSERT_EQ(lead_in.size(), 2u) << "cycles 2 and 3; 4 is the moment's own truth";
  EXPECT_EQ(lead_in[0].truth.cycle(), 2u);
  EXPECT_DOUBLE_EQ(lead_in[0].truth.robots(0).pose().x(), 0.2);
  ASSERT_EQ(lead_in[0].commands.size(), 2u);
  EXPECT_DOUBLE_EQ(lead_in[0].commands[0].wheels().left(), 0.6);
  EXPECT_EQ(lead_in[0].commands[1].team(), msg::YELLOW);
  EXPECT_EQ(lead_in[1].truth.cycle(), 3u);
  EXPECT_TRUE(lead_in[1].commands.empty());

  LeadInRecorder none(0);
  none.add(truth_record(1, 0.1));
  none.add(truth_record(2, 0.2));
  EXPECT_TRUE(none.before_newest().empty());
}

TEST(LeadIn, SecondsAreWholeControlCyclesAndNeverNegative) {
  EXPECT_EQ(lead_in_cycles(3.0, 0.02), 150u);
  EXPECT_EQ(lead_in_cycles(0.0, 0.02), 0u);
  EXPECT_EQ(lead_in_cycles(0.05, 0.02), 3u);
  try {
    lead_in_cycles(-1.0, 0.02);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lead-in"), std::string::npos) << e.what();
  }
  EXPECT_THROW(lead_in_cycles(std::nan(""), 0.02), std::invalid_argument);
}

// A log where blue 2 scores at +x after running in for 5 cycles, with
// commands each cycle.
std::string write_log() {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("lead_in_" + std::to_string(::getpid()) + ".rclog")).string();
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  header.mutable_config()->mutable_sim()->set_control_period(0.02);
  runtime::GameLogWriter writer(path, header);
  msg::LogRecord state;
  state.mutable_game_state()->set_blue_on_positive_side(false);
  writer.append(state);
  for (uint64_t cycle = 1; cycle <= 5; ++cycle) {
    writer.append(truth_record(cycle, 0.1 * static_cast<double>(cycle)));
    writer.append(command_record(cycle, msg::BLUE, 2, 0.1 * static_cast<double>(cycle)));
  }
  msg::LogRecord goal;
  goal.set_t(0.12);
  goal.mutable_referee()->set_kind(msg::REF_EVENT_GOAL);
  goal.mutable_referee()->set_team(msg::BLUE);
  goal.mutable_referee()->set_robot_id(2);
  writer.append(goal);
  writer.close();
  return path;
}

TEST(LeadIn, AKickoffDrillPlaysTheGoalsLeadInTurnedAndInSwappedColours) {
  const std::string path = write_log();
  const auto cold = goal_moments(path, msg::BLUE);
  const auto goals = goal_moments(path, msg::BLUE, 0.06);
  std::filesystem::remove(path);
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_TRUE(cold[0].lead_in.empty()) << "no lead-in asked for";
  ASSERT_EQ(goals.size(), 1u);
  EXPECT_DOUBLE_EQ(goals[0].truth.robots(0).pose().x(), 0.5);
  ASSERT_EQ(goals[0].lead_in.size(), 3u) << "three cycles of 0.02 s before the goal's truth";
  EXPECT_EQ(goals[0].lead_in[0].truth.cycle(), 2u);
  EXPECT_EQ(goals[0].lead_in[2].truth.cycle(), 4u);

  // Blue scored attacking +x: the drill's scorers play yellow defending +x,
  // so the lead-in turns half round with the start.
  const KickoffDrill drill = kickoff_drill(goals[0]);
  ASSERT_EQ(drill.lead_in.size(), 3u);
  const msg::RobotTruth& scorer = drill.lead_in[0].truth.robots(0);
  EXPECT_EQ(scorer.team(), msg::YELLOW);
  EXPECT_DOUBLE_EQ(scorer.pose().x(), -0.2);
  EXPECT_DOUBLE_EQ(scorer.pose().y(), -0.3);
  EXPECT_NEAR(scorer.pose().theta(), 0.5 - M_PI, 1e-12);
  EXPECT_DOUBLE_EQ(scorer.velocity().x(), -1.0);
  EXPECT_DOUBLE_EQ(drill.lead_in[0].truth.ball_position().x(), -0.4);
  ASSERT_EQ(drill.lead_in[0].commands.size(), 1u);
  EXPECT_EQ(drill.lead_in[0].commands[0].team(), msg::YELLOW);
  EXPECT_DOUBLE_EQ(drill.lead_in[0].commands[0].wheels().left(), 0.2) << "a robot's own frame does not turn";
}

TEST(LeadIn, ARestartDrillPlaysTheRestartsLeadInTurnedWhereBlueDefendedPlusX) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("lead_in_restart_" + std::to_string(::getpid()) + ".rclog")).string();
  {
    msg::LogHeader header;
    *header.mutable_config() = runtime::default_match_config();
    header.mutable_config()->mutable_sim()->set_control_period(0.02);
    runtime::GameLogWriter writer(path, header);
    for (uint64_t cycle = 1; cycle <= 5; ++cycle) {
      writer.append(truth_record(cycle, 0.1 * static_cast<double>(cycle)));
      writer.append(command_record(cycle, msg::BLUE, 2, 0.3));
    }
    msg::LogRecord state;
    state.set_t(0.12);
    state.mutable_game_state()->set_command(msg::REF_PREPARE_RESTART);
    state.mutable_game_state()->set_restart(msg::RESTART_DROP_BALL);
    state.mutable_game_state()->set_blue_on_positive_side(true);
    writer.append(state);
    writer.close();
  }
  const auto moments = restart_moments(path, 0.04);
  std::filesystem::remove(path);
  ASSERT_EQ(moments.size(), 1u);
  ASSERT_EQ(moments[0].lead_in.size(), 2u) << "two cycles of 0.02 s before the restart's truth";
  EXPECT_EQ(moments[0].lead_in[0].truth.cycle(), 3u);
  const RestartDrill drill = restart_drill(moments[0]);
  ASSERT_EQ(drill.lead_in.size(), 2u);
  EXPECT_EQ(drill.lead_in[1].truth.robots(0).team(), msg::BLUE) << "colours stay";
  EXPECT_DOUBLE_EQ(drill.lead_in[1].truth.robots(0).pose().x(), -0.4) << "turned like the start";
  EXPECT_EQ(drill.lead_in[1].commands[0].team(), msg::BLUE);
}

TEST(LeadIn, APositionThatIsNotANumberInTheLeadInIsAnErrorNamingTheLog) {
  GoalMoment goal;
  goal.log = "match.rclog";
  goal.number = 2;
  *goal.truth.add_robots() = truth_record(5, 0.5).truth().robots(0);
  goal.lead_in.push_back({truth_record(4, std::nan("")).truth(), {}});
  try {
    kickoff_drill(goal);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("match.rclog"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("lead-in"), std::string::npos) << e.what();
  }
  RestartMoment moment;
  moment.log = "other.rclog";
  moment.truth = goal.truth;
  moment.lead_in = goal.lead_in;
  EXPECT_THROW(restart_drill(moment), std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::sim
