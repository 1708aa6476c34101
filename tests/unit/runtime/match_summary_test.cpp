#include "runtime/match_summary.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::runtime {
namespace {

namespace fs = std::filesystem;

// Builds a game log by hand; the MiroSot field: goal lines at x = +-1.1,
// posts at y = +-0.2.
class LogBuilder {
 public:
  explicit LogBuilder(const std::string& path) {
    msg::LogHeader header;
    *header.mutable_config() = default_match_config();
    header.mutable_config()->mutable_blue()->set_name("Clockwork");
    header.mutable_config()->mutable_yellow()->set_name("MI20");
    writer_ = std::make_unique<GameLogWriter>(path, header);
  }

  // Ball at (bx, by) moving (vx, vy); one blue robot at x = blue_x, one yellow at yellow_x, both on y = by.
  void truth(double t, double bx, double by, double vx, double vy, double blue_x, double yellow_x) {
    msg::LogRecord r;
    r.set_t(t);
    auto* w = r.mutable_truth();
    w->set_t(t);
    w->mutable_ball_position()->set_x(bx);
    w->mutable_ball_position()->set_y(by);
    w->mutable_ball_velocity()->set_x(vx);
    w->mutable_ball_velocity()->set_y(vy);
    auto* b = w->add_robots();
    b->set_team(msg::BLUE);
    b->set_robot_id(1);
    b->mutable_pose()->set_x(blue_x);
    b->mutable_pose()->set_y(by);
    auto* y = w->add_robots();
    y->set_team(msg::YELLOW);
    y->set_robot_id(1);
    y->mutable_pose()->set_x(yellow_x);
    y->mutable_pose()->set_y(by);
    writer_->append(r);
  }

  void referee(double t, msg::RefereeEventKind kind, msg::Team team, uint32_t robot = 0) {
    msg::LogRecord r;
    r.set_t(t);
    auto* e = r.mutable_referee();
    e->set_t(t);
    e->set_kind(kind);
    e->set_team(team);
    e->set_robot_id(robot);
    writer_->append(r);
  }

  void game_state(double t, bool blue_on_positive_side) {
    msg::LogRecord r;
    r.set_t(t);
    r.mutable_game_state()->set_t(t);
    r.mutable_game_state()->set_blue_on_positive_side(blue_on_positive_side);
    writer_->append(r);
  }

  // Robots at the given (team, id, x, y); the ball at rest far away.
  void robots(double t, const std::vector<std::tuple<msg::Team, uint32_t, double, double>>& robots) {
    msg::LogRecord r;
    r.set_t(t);
    auto* w = r.mutable_truth();
    w->set_t(t);
    w->mutable_ball_position()->set_x(0.9);
    for (const auto& [team, id, x, y] : robots) {
      auto* robot = w->add_robots();
      robot->set_team(team);
      robot->set_robot_id(id);
      robot->mutable_pose()->set_x(x);
      robot->mutable_pose()->set_y(y);
    }
    writer_->append(r);
  }

  void close() { writer_.reset(); }

 private:
  std::unique_ptr<GameLogWriter> writer_;
};

class MatchSummaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("robocaf_summary_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(MatchSummaryTest, ScoreGoalsPossessionAndDetectedShots) {
  auto file = path("match.rcaflog");
  LogBuilder log(file);
  log.game_state(0, false);  // blue defends -x, attacks +x
  double t = 0;
  // 30 samples blue nearer, 10 samples yellow nearer.
  for (int i = 0; i < 30; ++i) log.truth(t += 0.02, 0, 0, 0, 0, -0.1, 0.3);
  for (int i = 0; i < 10; ++i) log.truth(t += 0.02, 0, 0, 0, 0, -0.3, 0.1);
  // Blue (nearest) kicks towards +x inside the posts: a shot.
  log.truth(t += 0.02, 0.5, 0.0, 0.0, 0.0, 0.45, -0.5);
  log.truth(t += 0.02, 0.5, 0.0, 2.0, 0.1, 0.45, -0.5);
  log.truth(t += 0.02, 0.54, 0.0, 2.0, 0.1, 0.45, -0.5);  // no further jump: same shot
  // Yellow (nearest) pushes the ball into its own goal direction (+x): not a shot.
  log.truth(t += 0.02, 0.5, 0.0, 0.0, 0.0, -0.5, 0.45);
  log.truth(t += 0.02, 0.5, 0.0, 2.0, 0.0, -0.5, 0.45);
  // Blue kicks wide of the posts: not a shot.
  log.truth(t += 0.02, 0.5, 0.5, 0.0, 0.0, 0.45, -0.5);
  log.truth(t += 0.02, 0.5, 0.5, 2.0, 0.0, 0.45, -0.5);
  // Sides switch: now yellow attacks +x, so the same kick is yellow's shot.
  log.game_state(t, true);
  log.truth(t += 0.02, 0.5, 0.0, 0.0, 0.0, -0.5, 0.45);
  log.truth(t += 0.02, 0.5, 0.0, 2.0, 0.0, -0.5, 0.45);

  log.referee(5.0, msg::REF_EVENT_GOAL, msg::BLUE, 3);
  log.referee(8.0, msg::REF_EVENT_GOAL, msg::YELLOW, 2);
  log.referee(9.0, msg::REF_EVENT_GOAL, msg::BLUE, 1);
  log.referee(10.0, msg::REF_EVENT_MATCH_END, msg::TEAM_UNSPECIFIED);
  log.close();

  auto s = summarize_log(file);
  EXPECT_EQ(s.blue_name, "Clockwork");
  EXPECT_EQ(s.yellow_name, "MI20");
  EXPECT_EQ(s.score_blue, 2u);
  EXPECT_EQ(s.score_yellow, 1u);
  ASSERT_EQ(s.goals.size(), 3u);
  EXPECT_DOUBLE_EQ(s.goals[0].t, 5.0);
  EXPECT_EQ(s.goals[0].team, msg::BLUE);
  EXPECT_EQ(s.goals[0].robot_id, 3u);
  EXPECT_EQ(s.goals[1].team, msg::YELLOW);
  EXPECT_TRUE(s.finished);
  EXPECT_FALSE(s.log_truncated);
  EXPECT_DOUBLE_EQ(s.sim_seconds, 10.0);
  EXPECT_FALSE(s.shots_from_referee);
  EXPECT_EQ(s.shots_blue, 1u);
  EXPECT_EQ(s.shots_yellow, 1u);
  // 30 + 3 + 2 blue samples (kicks) vs 10 + 2 + 2 yellow.
  EXPECT_EQ(s.possession_samples, 49u);
  EXPECT_NEAR(s.possession_blue, 35.0 / 49.0, 1e-12);
}

TEST_F(MatchSummaryTest, CountsContactOnsetsBetweenTeammatesAndRepositionsPerTeam) {
  auto file = path("contacts.rcaflog");
  LogBuilder log(file);
  const double touching = 2 * 0.0375;  // MiroSot robots: radius 37.5 mm
  // Blue 1 and 2 touch for three samples: one contact, not three.
  log.robots(0.02, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, 0.5, 0.0}});
  for (int i = 0; i < 3; ++i) log.robots(0.04 + 0.02 * i, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, touching, 0.0}});
  // Jitter of a few millimetres while resting against each other is the same contact.
  log.robots(0.09, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, touching + 0.005, 0.0}});
  log.robots(0.095, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, touching + 0.001, 0.0}});
  // They part, then touch again: a second contact.
  log.robots(0.10, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, 0.2, 0.0}});
  log.robots(0.12, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, 0.0, touching - 0.01}});
  // Resting side by side a hair apart is no contact; touching an opponent is not an own collision.
  log.robots(0.13, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, 0.0, 0.3}});
  log.robots(0.14, {{msg::BLUE, 1, 0.0, 0.0}, {msg::BLUE, 2, 0.0, touching + 0.003}, {msg::YELLOW, 1, touching, 0.0}});
  // Yellow 2 touches yellow 3 and yellow 4 at once: two contacts.
  log.robots(0.16, {{msg::YELLOW, 2, 0.5, 0.5}, {msg::YELLOW, 3, 0.5 + touching, 0.5}, {msg::YELLOW, 4, 0.5, 0.5 - touching}});
  log.referee(1, msg::REF_EVENT_REPOSITION, msg::YELLOW, 2);
  log.referee(1, msg::REF_EVENT_REPOSITION, msg::YELLOW, 3);
  log.referee(1, msg::REF_EVENT_REPOSITION, msg::TEAM_UNSPECIFIED, 0);  // the ball
  log.close();
  auto s = summarize_log(file);
  EXPECT_EQ(s.own_collisions_blue, 2u);
  EXPECT_EQ(s.own_collisions_yellow, 2u);
  EXPECT_EQ(s.illegal_restart_positions_blue, 0u);
  EXPECT_EQ(s.illegal_restart_positions_yellow, 2u);
  const auto j = nlohmann::json::parse(summary_json(s));
  EXPECT_EQ(j["own_collisions"]["blue"].get<int>(), 2);
  EXPECT_EQ(j["illegal_restart_positions"]["yellow"].get<int>(), 2);
}

TEST_F(MatchSummaryTest, RefereeShotEventsTakePrecedence) {
  auto file = path("shots.rcaflog");
  LogBuilder log(file);
  log.truth(0.02, 0.5, 0.0, 0.0, 0.0, 0.45, -0.5);
  log.truth(0.04, 0.5, 0.0, 2.0, 0.0, 0.45, -0.5);  // would be a detected blue shot
  log.referee(1, msg::REF_EVENT_SHOT, msg::YELLOW, 4);
  log.referee(2, msg::REF_EVENT_SHOT, msg::YELLOW, 4);
  log.close();
  auto s = summarize_log(file);
  EXPECT_TRUE(s.shots_from_referee);
  EXPECT_EQ(s.shots_blue, 0u);
  EXPECT_EQ(s.shots_yellow, 2u);
  EXPECT_FALSE(s.finished);
}

TEST_F(MatchSummaryTest, JsonHasTheDocumentedShape) {
  MatchSummary s;
  s.score_blue = 2;
  s.score_yellow = 1;
  s.goals.push_back({12.5, msg::BLUE, 3});
  s.shots_blue = 5;
  s.shots_yellow = 3;
  s.possession_blue = 0.6;
  s.possession_samples = 100;
  s.sim_seconds = 600;
  s.finished = true;
  SummaryExtras extras;
  extras.numbers["wall_seconds"] = 42.5;
  extras.strings["log"] = "/tmp/x.rcaflog";
  extras.strings["log_sha256"] = "abc";
  extras.messages_per_kind["motor"] = 1234;

  auto j = nlohmann::json::parse(summary_json(s, extras));
  EXPECT_EQ(j["score"]["blue"], 2);
  EXPECT_EQ(j["score"]["yellow"], 1);
  ASSERT_EQ(j["goals"].size(), 1u);
  EXPECT_DOUBLE_EQ(j["goals"][0]["t"].get<double>(), 12.5);
  EXPECT_EQ(j["goals"][0]["team"], "blue");
  EXPECT_EQ(j["goals"][0]["robot_id"], 3);
  EXPECT_EQ(j["shots"]["blue"], 5);
  EXPECT_EQ(j["shots"]["source"], "ball_motion");
  EXPECT_DOUBLE_EQ(j["possession"]["blue"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(j["possession"]["yellow"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(j["sim_seconds"].get<double>(), 600);
  EXPECT_EQ(j["finished"], true);
  EXPECT_DOUBLE_EQ(j["wall_seconds"].get<double>(), 42.5);
  EXPECT_EQ(j["log"], "/tmp/x.rcaflog");
  EXPECT_EQ(j["messages_per_kind"]["motor"], 1234);

  MatchSummary empty;
  EXPECT_TRUE(nlohmann::json::parse(summary_json(empty))["possession"].is_null());

  SummaryExtras clash;
  clash.numbers["score"] = 1;
  EXPECT_THROW(summary_json(s, clash), std::invalid_argument);
}

TEST_F(MatchSummaryTest, ResultTable) {
  MatchSummary s;
  s.blue_name = "Clockwork";
  s.yellow_name = "MI20";
  s.score_blue = 3;
  s.score_yellow = 1;
  s.goals.push_back({12.5, msg::BLUE, 3});
  s.possession_blue = 0.55;
  s.possession_samples = 10;
  s.sim_seconds = 600;
  s.finished = true;
  auto table = format_result_table(s);
  EXPECT_NE(table.find("Clockwork"), std::string::npos) << table;
  EXPECT_NE(table.find("MI20"), std::string::npos) << table;
  EXPECT_NE(table.find("55%"), std::string::npos) << table;
  EXPECT_NE(table.find("45%"), std::string::npos) << table;
  EXPECT_NE(table.find("12.5 s Clockwork #3"), std::string::npos) << table;
  EXPECT_NE(table.find("600.0 s, finished"), std::string::npos) << table;
  std::cout << table;
}

TEST_F(MatchSummaryTest, TruncatedLogIsSummarisedUpToTheCut) {
  auto file = path("cut.rcaflog");
  LogBuilder log(file);
  log.referee(1, msg::REF_EVENT_GOAL, msg::YELLOW, 2);
  log.referee(2, msg::REF_EVENT_GOAL, msg::YELLOW, 2);
  log.close();
  fs::resize_file(file, fs::file_size(file) - 3);
  auto s = summarize_log(file);
  EXPECT_EQ(s.score_yellow, 1u);
  EXPECT_TRUE(s.log_truncated);
  EXPECT_FALSE(s.finished);
}

}  // namespace
}  // namespace robocaf::runtime
