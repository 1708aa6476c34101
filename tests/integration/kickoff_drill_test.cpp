// `robocaf kickoff-drill` on a game log file, run as a user would: the drill
// plays the kick-off through real actors from where the log's robots stood.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "process.hpp"

namespace robocaf::testing {
namespace {

// The referee's record of a goal by blue 3 at `t` (s).
msg::LogRecord goal_by_blue_3(double t) {
  msg::LogRecord goal;
  goal.set_t(t);
  goal.mutable_referee()->set_kind(msg::REF_EVENT_GOAL);
  goal.mutable_referee()->set_team(msg::BLUE);
  goal.mutable_referee()->set_robot_id(3);
  return goal;
}

TEST(KickoffDrillCommand, ReplaysTheKickoffAfterAGoalFromWhereTheScorerStood) {
  const std::string log = temp_path("drill_source.rclog");
  const std::string dir = temp_path("drill_logs");
  const std::string json = temp_path("drill.json");
  std::filesystem::remove_all(dir);
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  const double deep = 0.4 * header.config().league().field().length();
  {
    runtime::GameLogWriter writer(log, header);
    msg::LogRecord state;
    state.mutable_game_state()->set_blue_on_positive_side(false);
    writer.append(state);
    // Blue 3 has just scored in the +x goal, deep in the other half, and
    // runs on into it at 1 m/s.
    msg::LogRecord truth;
    truth.set_t(30.0);
    auto* scorer = truth.mutable_truth()->add_robots();
    scorer->set_team(msg::BLUE);
    scorer->set_robot_id(3);
    scorer->mutable_pose()->set_x(deep);
    scorer->mutable_pose()->set_y(0.1);
    scorer->set_wheel_left(1.0);
    scorer->set_wheel_right(1.0);
    scorer->mutable_velocity()->set_x(1.0);
    writer.append(truth);
    writer.append(goal_by_blue_3(30.02));
    writer.close();
  }
  auto result = run("kickoff-drill " + log + " --jobs 1 --list --log-dir " + dir + " --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  auto summary = read_json(json);
  EXPECT_EQ(summary["drills"].get<int>(), 1);
  EXPECT_EQ(summary["failed"].get<int>(), 0);
  EXPECT_EQ(summary["drill"]["kickoffs"].get<int>(), 1);
  EXPECT_EQ(summary["logged"]["kickoffs"].get<int>(), 0) << "the source log has no kick-off after the goal";
  EXPECT_NE(result.output.find("goal 1 at"), std::string::npos) << result.output;

  // The drill's own log: the scorer, playing yellow (defending +x), starts
  // deep in the other half, turned half round, still running on into the
  // goal (at rest it would be spared its braking); play starts once, and the
  // match ends there, at the kick-off after the placement time.
  const std::string drill_log = dir + "/" + std::filesystem::path(log).stem().string() + "-goal1.rclog";
  ASSERT_TRUE(std::filesystem::exists(drill_log));
  runtime::GameLogReader reader(drill_log);
  msg::LogRecord record;
  bool first_truth = true;
  msg::GameState last_state;
  double last_t = 0.0;
  while (reader.next(record)) {
    last_t = record.t();
    if (record.has_game_state()) last_state = record.game_state();
    if (!record.has_truth() || !first_truth) continue;
    first_truth = false;
    bool found = false;
    for (const auto& robot : record.truth().robots()) {
      if (robot.team() != msg::YELLOW || robot.robot_id() != 3) continue;
      found = true;
      EXPECT_NEAR(robot.pose().x(), -deep, 1e-9);
      EXPECT_NEAR(robot.pose().y(), -0.1, 1e-9);
      EXPECT_NEAR(robot.velocity().x(), -1.0, 0.1);
      EXPECT_NEAR(robot.wheel_left(), 1.0, 0.1);
    }
    EXPECT_TRUE(found);
  }
  EXPECT_EQ(last_state.command(), msg::REF_NORMAL_START);
  EXPECT_EQ(last_state.kickoff_team(), msg::BLUE);
  EXPECT_NEAR(last_t, header.config().sim().placement_seconds(), 0.1);
}

TEST(KickoffDrillCommand, ALeadInPlaysTheLoggedPlayFirstThenThePlacementAfterIt) {
  const std::string log = temp_path("lead_in_source.rclog");
  const std::string dir = temp_path("lead_in_drill_logs");
  std::filesystem::remove_all(dir);
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  const double period = header.config().sim().control_period();
  const double deep = 0.4 * header.config().league().field().length();
  constexpr int kLeadIn = 25;
  // Blue 3 runs in at 1 m/s for kLeadIn cycles, pushed sideways as it goes
  // (its commands alone would keep it on y = 0.1), and scores in the +x
  // goal; the log has its command of every cycle.
  auto blue_x = [&](int cycle) { return deep - period * (kLeadIn - cycle); };
  auto blue_y = [&](int cycle) { return 0.1 + 0.004 * cycle; };
  {
    runtime::GameLogWriter writer(log, header);
    msg::LogRecord state;
    state.mutable_game_state()->set_blue_on_positive_side(false);
    writer.append(state);
    for (int cycle = 0; cycle <= kLeadIn; ++cycle) {
      msg::LogRecord truth;
      truth.set_t(10.0 + period * cycle);
      truth.mutable_truth()->set_cycle(static_cast<uint64_t>(500 + cycle));
      auto* scorer = truth.mutable_truth()->add_robots();
      scorer->set_team(msg::BLUE);
      scorer->set_robot_id(3);
      scorer->mutable_pose()->set_x(blue_x(cycle));
      scorer->mutable_pose()->set_y(blue_y(cycle));
      scorer->set_wheel_left(1.0);
      scorer->set_wheel_right(1.0);
      scorer->mutable_velocity()->set_x(1.0);
      writer.append(truth);
      msg::LogRecord command;
      command.set_t(truth.t());
      command.mutable_command()->set_cycle(truth.truth().cycle());
      command.mutable_command()->set_team(msg::BLUE);
      command.mutable_command()->set_robot_id(3);
      command.mutable_command()->mutable_wheels()->set_left(1.0);
      command.mutable_command()->mutable_wheels()->set_right(1.0);
      writer.append(command);
    }
    writer.append(goal_by_blue_3(10.0 + period * (kLeadIn + 1)));
    writer.close();
  }
  auto result = run("kickoff-drill " + log + " --jobs 1 --lead-in " + std::to_string(kLeadIn * period) +
                    " --log-dir " + dir);
  ASSERT_EQ(result.status, 0) << result.output;

  // The drill's log: for the lead-in's cycles the scorer (yellow, the field
  // turned) stands where the source log had it, driven by the logged
  // command and by no robot's own, in play; then the referee prepares the
  // kick-off, and the placement time runs from there.
  runtime::GameLogReader reader(dir + "/" + std::filesystem::path(log).stem().string() + "-goal1.rclog");
  msg::LogRecord record;
  int truths = 0;
  double prepared_at = -1.0, last_t = 0.0;
  unsigned lead_in_commands = 0;
  while (reader.next(record)) {
    last_t = record.t();
    const bool in_lead_in = record.t() < kLeadIn * period - 1e-9;
    if (record.has_game_state()) {
      if (in_lead_in) {
        EXPECT_EQ(record.game_state().command(), msg::REF_FORCE_START) << record.t();
      }
      if (record.game_state().command() == msg::REF_PREPARE_KICKOFF && prepared_at < 0.0) prepared_at = record.t();
    }
    if (record.has_command() && in_lead_in) {
      ++lead_in_commands;
      EXPECT_EQ(record.command().team(), msg::YELLOW) << "only the logged command, in the drill's colours";
      EXPECT_EQ(record.command().robot_id(), 3u);
      EXPECT_DOUBLE_EQ(record.command().wheels().left(), 1.0);
      EXPECT_NEAR(record.command().t(), record.t(), 1e-9) << "on the drill's clock, not the match's";
    }
    if (!record.has_truth()) continue;
    for (const auto& robot : record.truth().robots()) {
      if (robot.team() != msg::YELLOW || robot.robot_id() != 3) continue;
      // Cycle kLeadIn is the goal's own truth, where the drill starts.
      if (truths <= kLeadIn) {
        EXPECT_NEAR(robot.pose().x(), -blue_x(truths), 1e-9) << "cycle " << truths;
        EXPECT_NEAR(robot.pose().y(), -blue_y(truths), 1e-9) << "cycle " << truths;
      }
    }
    ++truths;
  }
  EXPECT_EQ(lead_in_commands, static_cast<unsigned>(kLeadIn));
  EXPECT_NEAR(prepared_at, kLeadIn * period, 1e-9);
  EXPECT_NEAR(last_t, kLeadIn * period + header.config().sim().placement_seconds(), 0.1);

  result = run("kickoff-drill " + log + " --lead-in -1");
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("--lead-in"), std::string::npos) << result.output;
}

TEST(KickoffDrillCommand, RepeatsPlayEachGoalAgainWithItsOwnNoiseAndCountTheLoggedKickoffOnce) {
  const std::string log = temp_path("repeats_source.rclog");
  const std::string dir = temp_path("repeats_drill_logs");
  const std::string json = temp_path("repeats.json");
  std::filesystem::remove_all(dir);
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  header.mutable_config()->set_seed(31);
  {
    runtime::GameLogWriter writer(log, header);
    msg::LogRecord truth;
    truth.set_t(30.0);
    auto* scorer = truth.mutable_truth()->add_robots();
    scorer->set_team(msg::BLUE);
    scorer->set_robot_id(3);
    scorer->mutable_pose()->set_x(0.4 * header.config().league().field().length());
    writer.append(truth);
    writer.append(goal_by_blue_3(30.02));
    // The kick-off it led to, as the match played it: the scorer back in
    // its half, then play.
    msg::LogRecord prepare;
    prepare.set_t(30.02);
    prepare.mutable_game_state()->set_t(30.02);
    prepare.mutable_game_state()->set_command(msg::REF_PREPARE_KICKOFF);
    prepare.mutable_game_state()->set_kickoff_team(msg::YELLOW);
    writer.append(prepare);
    msg::LogRecord back = truth;
    back.set_t(33.0);
    back.mutable_truth()->mutable_robots(0)->mutable_pose()->set_x(-1.0);
    writer.append(back);
    msg::LogRecord start;
    start.set_t(38.02);
    start.mutable_game_state()->set_t(38.02);
    start.mutable_game_state()->set_command(msg::REF_NORMAL_START);
    start.mutable_game_state()->set_kickoff_team(msg::YELLOW);
    writer.append(start);
    writer.close();
  }
  auto result = run("kickoff-drill " + log + " --jobs 2 --repeats 3 --list --log-dir " + dir + " --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  auto summary = read_json(json);
  EXPECT_EQ(summary["drills"].get<int>(), 3);
  EXPECT_EQ(summary["drill"]["kickoffs"].get<int>(), 3);
  EXPECT_EQ(summary["logged"]["kickoffs"].get<int>(), 1) << "one kick-off in the match, however often drilled";
  EXPECT_NE(result.output.find("repeat 2"), std::string::npos) << result.output;
  // Each repeat its own log and its own seed; the first as without repeats.
  const std::string stem = dir + "/" + std::filesystem::path(log).stem().string() + "-goal1";
  std::set<uint64_t> seeds;
  for (const std::string& path : {stem + ".rclog", stem + "-r1.rclog", stem + "-r2.rclog"}) {
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    seeds.insert(runtime::GameLogReader(path).header().config().seed());
  }
  EXPECT_EQ(seeds.size(), 3u);
  EXPECT_EQ(seeds.count(31u * 1000u + 1u), 1u) << "the first repeat is the drill without repeats";
  // Every drill under a key that finds it in another run of the same log.
  ASSERT_EQ(summary["runs"].size(), 3u);
  const std::string key = std::filesystem::path(log).stem().string() + " goal 1 repeat ";
  for (int k = 0; k < 3; ++k) EXPECT_EQ(summary["runs"][k]["key"].get<std::string>(), key + std::to_string(k));
  // Played again beside that summary (the same build, one job): the same
  // drills, none changed.
  const std::string again = temp_path("repeats_again.json");
  result = run("kickoff-drill " + log + " --jobs 1 --repeats 3 --against " + json + " --summary-json " + again);
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("against " + json + ": 3 drills paired, 0 changed"), std::string::npos)
      << result.output;
  EXPECT_EQ(read_json(again)["against"]["changed"].get<int>(), 0);
  result = run("kickoff-drill " + log + " --against " + temp_path("no_such_summary.json"));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("no_such_summary.json"), std::string::npos) << result.output;

  for (const char* bad : {"0", "-2", "two"}) {
    result = run("kickoff-drill " + log + " --repeats " + std::string(bad));
    EXPECT_NE(result.status, 0) << bad;
    EXPECT_NE(result.output.find("--repeats"), std::string::npos) << result.output;
  }
}

TEST(KickoffDrillCommand, FromAndToDrillOnlyTheGoalsScoredBetweenThem) {
  // Two goals by blue 3, at 30 s and at 60 s: a window drills the one in it,
  // numbered as in the whole log, and a window with none in it is an error.
  const std::string log = temp_path("window_source.rclog");
  msg::LogHeader header;
  *header.mutable_config() = runtime::default_match_config();
  {
    runtime::GameLogWriter writer(log, header);
    for (double t : {30.0, 60.0}) {
      msg::LogRecord truth;
      truth.set_t(t);
      auto* scorer = truth.mutable_truth()->add_robots();
      scorer->set_team(msg::BLUE);
      scorer->set_robot_id(3);
      scorer->mutable_pose()->set_x(0.4 * header.config().league().field().length());
      writer.append(truth);
      writer.append(goal_by_blue_3(t + 0.02));
    }
    writer.close();
  }
  const std::string json = temp_path("window.json");
  auto result = run("kickoff-drill " + log + " --jobs 1 --list --from 50 --summary-json " + json);
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(read_json(json)["drills"].get<int>(), 1);
  EXPECT_NE(result.output.find("goal 2 at    60.02 s"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("goal 1 at"), std::string::npos) << result.output;

  result = run("kickoff-drill " + log + " --jobs 1 --list --to 40");
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("goal 1 at    30.02 s"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("goal 2 at"), std::string::npos) << result.output;

  result = run("kickoff-drill " + log + " --from 70");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("no goal by blue from 70 s on"), std::string::npos) << result.output;
  result = run("kickoff-drill " + log + " --from 60 --to 50");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("--from (60 s) is after --to (50 s)"), std::string::npos) << result.output;
  result = run("kickoff-drill " + log + " --to soon");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("--to"), std::string::npos) << result.output;
}

TEST(KickoffDrillCommand, AnUnreadableLogIsAnErrorThatNamesIt) {
  auto result = run("kickoff-drill /nonexistent/match.rclog");
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("/nonexistent/match.rclog"), std::string::npos) << result.output;
  // Nothing is left behind: the logs' folder is made only for drills to play.
  const std::string dir = temp_path("unplayed_drill_logs");
  std::filesystem::remove_all(dir);
  result = run("kickoff-drill /nonexistent/match.rclog --log-dir " + dir);
  EXPECT_NE(result.status, 0);
  EXPECT_FALSE(std::filesystem::exists(dir)) << dir;
}

}  // namespace
}  // namespace robocaf::testing
