// `robocaf match` end to end: a whole match in one process, reproducible.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/videoio.hpp>

#include "process.hpp"
#include "runtime/game_log.hpp"
#include "messages/log.pb.h"
#include "runtime/statistics.hpp"
#include "sim/pose_error.hpp"

namespace robocaf::testing {
namespace {

// The README's main job: full default matches (2 x 300 s of play).
TEST(LocalMatch, PlaysToTheEndScoresAndIsReproducibleWhateverTheThreads) {
  const std::string json1 = temp_path("m1.json"), json2 = temp_path("m2.json"), json3 = temp_path("m3.json");
  auto first = run("match --seed 7 --threads 1 --quiet --log " + temp_path("m1.rclog") + " --summary-json " + json1);
  ASSERT_EQ(first.status, 0) << first.output;
  auto second = run("match --seed 7 --threads 4 --quiet --log " + temp_path("m2.rclog") + " --summary-json " + json2);
  ASSERT_EQ(second.status, 0) << second.output;
  auto other_seed = run("match --seed 8 --quiet --log " + temp_path("m3.rclog") + " --summary-json " + json3);
  ASSERT_EQ(other_seed.status, 0) << other_seed.output;

  auto a = read_json(json1), b = read_json(json2), c = read_json(json3);
  for (auto* summary : {&a, &c}) {
    EXPECT_TRUE((*summary)["finished"].get<bool>());
    // Two halves of play plus the referee's pauses (kick-off placements, half time).
    EXPECT_GE((*summary)["sim_seconds"].get<double>(), 600.0);
    EXPECT_LE((*summary)["sim_seconds"].get<double>(), 700.0);
  }
  EXPECT_GT(a["score"]["blue"].get<int>() + c["score"]["blue"].get<int>(), 0) << "blue never scored";
  EXPECT_GT(a["score"]["yellow"].get<int>() + c["score"]["yellow"].get<int>(), 0) << "yellow never scored";
  EXPECT_EQ(a["log_sha256"], b["log_sha256"]) << "same seed, different thread count, different log";
  EXPECT_NE(a["log_sha256"], c["log_sha256"]) << "different seeds gave the same log";
  EXPECT_GT(a["messages_per_kind"]["motor"].get<int>(), 10000);
}

TEST(LocalMatch, BothTeamsMove) {
  const std::string log = temp_path("moves.rclog");
  auto result = run("match --seed 3 --half-duration 20 --quiet --log " + log);
  ASSERT_EQ(result.status, 0) << result.output;
  runtime::GameLogReader reader{log};
  msg::LogRecord record;
  std::map<std::pair<int, uint32_t>, double> first_x, travelled;
  while (reader.next(record)) {
    if (!record.has_truth()) continue;
    for (const auto& robot : record.truth().robots()) {
      auto key = std::make_pair(int(robot.team()), robot.robot_id());
      if (!first_x.count(key)) first_x[key] = robot.pose().x();
      travelled[key] = std::max(travelled[key], std::abs(robot.pose().x() - first_x[key]));
    }
  }
  for (auto team : {msg::BLUE, msg::YELLOW}) {
    int moving = 0;
    for (uint32_t id = 1; id <= 5; ++id) moving += travelled[{int(team), id}] > 0.1 ? 1 : 0;
    EXPECT_GE(moving, 3) << "team " << team << " barely moved";
  }
}

TEST(LocalMatch, RestartsTellsHowLongEachTeamTookToStandLegally) {
  const std::string log = temp_path("restarts.rclog");
  ASSERT_EQ(run("match --seed 3 --half-duration 20 --quiet --log " + log).status, 0);
  for (const std::string team : {"blue", "yellow"}) {
    auto table = run("restarts " + log + " --team " + team + " --list");
    ASSERT_EQ(table.status, 0) << table.output;
    // Each team kicks off one half and waits for the other's kick-off in the other.
    EXPECT_NE(table.output.find(team + " at the restarts of 1 game log"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("kick-off     ours"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("kick-off     theirs"), std::string::npos) << table.output;
  }
  auto missing = run("restarts /nonexistent.rclog");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.output.find("/nonexistent.rclog"), std::string::npos) << missing.output;
  auto bad_team = run("restarts " + log + " --team green");
  EXPECT_EQ(bad_team.status, 2);
  EXPECT_NE(bad_team.output.find("green"), std::string::npos) << bad_team.output;
}

// Every robot's belief of its own pose is in the log, so any match tells how
// well its robots knew where they stood.
TEST(LocalMatch, TheLogHoldsEveryRobotsBeliefAndIntentAndTheCommandsReadThem) {
  const std::string log = temp_path("beliefs.rclog");
  ASSERT_EQ(run("match --seed 3 --half-duration 20 --quiet --log " + log).status, 0);
  const sim::PoseErrorLog measured = sim::measure_pose_error(log);
  std::map<std::pair<int, uint32_t>, std::vector<double>> errors;
  for (const auto& sample : measured.samples) errors[{int(sample.team), sample.robot_id}].push_back(sample.error);
  ASSERT_EQ(errors.size(), 10u) << "five robots a team";
  for (const auto& [robot, e] : errors) {
    // 40 s of play and the kick-offs' placements, a belief every control cycle.
    EXPECT_GT(double(e.size()) * measured.sample_period, 40.0) << "team " << robot.first << " robot " << robot.second;
    // The overhead camera sees every robot: its belief is its own pose within
    // centimetres (a belief logged under another robot's id would be metres off).
    EXPECT_LT(runtime::median(e), 0.03) << "team " << robot.first << " robot " << robot.second;
  }
  EXPECT_LE(measured.samples.size(), measured.beliefs);
  EXPECT_GT(measured.samples.size(), measured.beliefs - 100) << "beliefs the truth did not meet";

  // And every robot's intent (what its player skills steered for), as often
  // as its belief; placing, with the place it was told.
  std::map<std::pair<int, uint32_t>, int> intents, placing_without_place, steering;
  {
    runtime::GameLogReader reader{log};
    msg::LogRecord record;
    while (reader.next(record)) {
      if (!record.has_intent()) continue;
      const msg::SkillIntent& i = record.intent();
      const std::pair<int, uint32_t> robot{int(i.team()), i.robot_id()};
      ++intents[robot];
      if (i.directive() == msg::COACH_PLACE && !i.has_placement()) ++placing_without_place[robot];
      if (i.has_aim()) ++steering[robot];
    }
  }
  ASSERT_EQ(intents.size(), 10u);
  for (const auto& [robot, n] : intents) {
    EXPECT_GT(n, 400) << "team " << robot.first << " robot " << robot.second;
    EXPECT_EQ(placing_without_place[robot], 0) << "team " << robot.first << " robot " << robot.second;
    EXPECT_GT(steering[robot], 0) << "team " << robot.first << " robot " << robot.second;
  }

  auto table = run("pose-error " + log + " --team yellow --over 0.005 --list");
  ASSERT_EQ(table.status, 0) << table.output;
  EXPECT_NE(table.output.find("yellow's robots in 1 game log"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("\nall "), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("  robot "), std::string::npos) << "no stretch over 5 mm listed:\n" << table.output;

  // A log without beliefs (an older build's) says so and fails.
  const std::string old_log = temp_path("no_beliefs.rclog");
  {
    runtime::GameLogWriter writer(old_log, msg::LogHeader{});
    msg::LogRecord record;
    record.mutable_truth()->set_t(0.0);
    writer.append(record);
  }
  auto old = run("pose-error " + old_log);
  EXPECT_EQ(old.status, 1) << old.output;
  EXPECT_NE(old.output.find("holds no beliefs"), std::string::npos) << old.output;

  // One robot's course through the same log: a row every half second of
  // the 2 s asked for, every other robot on the small field within 5 m.
  auto trace = run("trace " + log + " --robot yellow/2 --from 10 --to 12 --near 5");
  ASSERT_EQ(trace.status, 0) << trace.output;
  EXPECT_NE(trace.output.find("yellow/2 from 10.00 to 12.00 s"), std::string::npos) << trace.output;
  for (const char* row : {"\n    10.00 ", "\n    10.50 ", "\n    12.00 "})
    EXPECT_NE(trace.output.find(row), std::string::npos) << "no row at" << row << ":\n" << trace.output;
  EXPECT_NE(trace.output.find("  B1 ("), std::string::npos) << trace.output;
  EXPECT_NE(trace.output.find(" s before)\n"), std::string::npos) << "no intent under a row:\n" << trace.output;
  EXPECT_EQ(trace.output.find("believes ("), std::string::npos) << "beliefs only with --beliefs";
  // With --beliefs, under each row where it believed itself, and how far off.
  auto believed = run("trace " + log + " --robot yellow/2 --from 10 --to 11 --beliefs");
  ASSERT_EQ(believed.status, 0) << believed.output;
  EXPECT_NE(believed.output.find("\n           believes ("), std::string::npos) << believed.output;
  EXPECT_NE(believed.output.find(" m off, sd "), std::string::npos) << believed.output;
  auto absent = run("trace " + log + " --robot yellow/9 --from 10 --to 12");
  EXPECT_EQ(absent.status, 1) << absent.output;
  EXPECT_NE(absent.output.find("has no yellow/9"), std::string::npos) << absent.output;
  EXPECT_EQ(run("trace " + log + " --robot yellow/2 --from 12 --to 10").status, 2);
}

TEST(LocalMatch, AKilledMatchLeavesAReadableLog) {
  const std::string log = temp_path("killed.rclog");
  std::filesystem::remove(log);
  const std::string command = std::string(ROBOCAF_BINARY) + " match --seed 4 --quiet --log " + log;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + command + " >/dev/null 2>&1").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Kill it mid-match, while it writes: the log grows past 1 MB within a second or two.
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::error_code error;
    const auto size = std::filesystem::file_size(log, error);
    if (!error && size > 1000000) break;
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the match ended before it could be killed";

  runtime::GameLogReader reader{log};
  EXPECT_EQ(reader.header().seed(), 4u);
  msg::LogRecord record;
  uint64_t truths = 0;
  double last_t = -1;
  while (reader.next(record)) {
    if (!record.has_truth()) continue;
    ++truths;
    EXPECT_GE(record.truth().t(), last_t);
    last_t = record.truth().t();
  }
  EXPECT_GT(truths, 100u);
  auto summary = run("render " + log + " --png " + temp_path("killed-frames") + " --every 500");
  EXPECT_EQ(summary.status, 0) << summary.output;
}

TEST(LocalMatch, AGameLogThatCannotBeWrittenStopsTheMatchWithAnError) {
  // /dev/full: every write fails with "no space left on device". The world
  // used to die in its constructor and the match to hang on shutdown.
  auto full = run("match --preset mirosot --half-duration 5 --quiet --log /dev/full");
  EXPECT_EQ(full.status, 1) << full.output;
  EXPECT_NE(full.output.find("/dev/full: cannot write game log"), std::string::npos) << full.output;
}

TEST(LocalMatch, RenderDrawsTheMatchAsPicturesAndAVideo) {
  const std::string log = temp_path("render.rclog");
  ASSERT_EQ(run("match --seed 5 --half-duration 5 --quiet --log " + log).status, 0);
  const std::string dir = temp_path("render-frames");
  const std::string video = temp_path("render.avi");
  std::filesystem::remove_all(dir);
  auto result = run("render " + log + " --png " + dir + " --every 50 --video " + video);
  ASSERT_EQ(result.status, 0) << result.output;
  size_t pngs = 0;
  for (auto& entry : std::filesystem::directory_iterator(dir)) pngs += entry.path().extension() == ".png" ? 1 : 0;
  EXPECT_GT(pngs, 10u);
  cv::VideoCapture capture{video};
  ASSERT_TRUE(capture.isOpened());
  EXPECT_EQ(static_cast<size_t>(capture.get(cv::CAP_PROP_FRAME_COUNT)), pngs);
  cv::Mat first;
  ASSERT_TRUE(capture.read(first));
  EXPECT_EQ(first.cols, 880);

  auto no_output = run("render " + log);
  EXPECT_EQ(no_output.status, 2);
  auto no_log = run("render /nonexistent.rclog --png " + dir);
  EXPECT_NE(no_log.status, 0);
  EXPECT_NE(no_log.output.find("/nonexistent.rclog"), std::string::npos) << no_log.output;
}

TEST(LocalMatch, BadArgumentsAndConfigsExitWithTwoAndSayWhatIsWrong) {
  auto unknown = run("match --sed 7");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("--sed"), std::string::npos) << unknown.output;

  auto not_a_number = run("match --seed seven");
  EXPECT_EQ(not_a_number.status, 2);
  EXPECT_NE(not_a_number.output.find("seven"), std::string::npos);

  const std::string bad_config = temp_path("bad.pbtxt");
  std::ofstream{bad_config} << "league {\n  name: \"mirosot\"\n  team_sise: 5\n}\n";
  auto bad = run("match --config " + bad_config);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find(bad_config + ":3:3"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("team_sise"), std::string::npos) << bad.output;

  auto missing = run("match --config /nonexistent/match.pbtxt");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("/nonexistent/match.pbtxt"), std::string::npos);

  auto no_command = run("dance");
  EXPECT_EQ(no_command.status, 2);
}

}  // namespace
}  // namespace robocaf::testing
