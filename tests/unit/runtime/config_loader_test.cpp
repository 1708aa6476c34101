#include "runtime/config_loader.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <gtest/gtest.h>

namespace robocaf::runtime {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no ConfigError>";
}

class ConfigLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("robocaf_config_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

TEST_F(ConfigLoaderTest, LoadsTheMiroSotPresetFile) {
  auto config = load_match_config(std::string(ROBOCAF_SOURCE_DIR) + "/configs/match/mirosot.pbtxt");
  EXPECT_EQ(config.league().name(), "mirosot");
  EXPECT_EQ(config.league().team_size(), 5u);
  EXPECT_DOUBLE_EQ(config.league().field().length(), 2.2);
  EXPECT_DOUBLE_EQ(config.league().field().goal_width(), 0.4);
  EXPECT_DOUBLE_EQ(config.league().ball().radius(), 0.02135);
  EXPECT_EQ(config.blue().name(), "blue");
}

TEST_F(ConfigLoaderTest, EmbeddedDefaultEqualsTheFileOnDisk) {
  msg::MatchConfig from_file;
  load_text_config(std::string(ROBOCAF_SOURCE_DIR) + "/configs/match/mirosot.pbtxt", from_file);
  auto embedded = default_match_config();
  EXPECT_EQ(embedded.SerializeAsString(), from_file.SerializeAsString());
  EXPECT_DOUBLE_EQ(embedded.sim().physics_step(), 0.001);
  EXPECT_NE(std::string(default_match_config_text()).find("mirosot"), std::string::npos);
}

TEST_F(ConfigLoaderTest, UnknownFieldNamesFileLineColumnAndType) {
  auto path = write("unknown.pbtxt",
                    "physics_step: 0.001\n"
                    "control_period: 0.02\n"
                    "    foo: 3\n");
  msg::SimConfig config;
  auto what = error_of([&] { load_text_config(path, config); });
  EXPECT_EQ(what.rfind(path + ":3:5: ", 0), 0u) << what;
  EXPECT_NE(what.find("\"foo\""), std::string::npos) << what;
  EXPECT_NE(what.find("robocaf.msg.SimConfig"), std::string::npos) << what;

  // Columns count a tab up to the next multiple of 8, as protobuf does.
  what = error_of([&] { parse_text_config("physics_step: 0.001\n\tbar: 1\n", "tab.pbtxt", config); });
  EXPECT_EQ(what.rfind("tab.pbtxt:2:9: ", 0), 0u) << what;
}

TEST_F(ConfigLoaderTest, TypeMismatchIsAnError) {
  msg::SimConfig config;
  auto what = error_of([&] { parse_text_config("physics_step: \"fast\"\n", "x.pbtxt", config); });
  EXPECT_EQ(what.rfind("x.pbtxt:1:15: ", 0), 0u) << what;  // at the value
  EXPECT_NE(what.find("double"), std::string::npos) << what;

  auto bad_enum = error_of([&] {
    msg::RobotSpec robot;
    parse_text_config("radius: 0.1\ndrive: DRIVE_HOVER\n", "r.pbtxt", robot);
  });
  EXPECT_EQ(bad_enum.rfind("r.pbtxt:2:8: ", 0), 0u) << bad_enum;
  EXPECT_NE(bad_enum.find("DRIVE_HOVER"), std::string::npos) << bad_enum;
}

TEST_F(ConfigLoaderTest, SyntaxErrorNamesPosition) {
  msg::MatchConfig config;
  auto what = error_of([&] { parse_text_config("league {\n  name: \"x\"\n", "s.pbtxt", config); });
  EXPECT_EQ(what.rfind("s.pbtxt:", 0), 0u) << what;
  EXPECT_NE(what.find("s.pbtxt:3:"), std::string::npos) << what;  // end of input, after line 2
}

TEST_F(ConfigLoaderTest, MissingFileIsAConfigError) {
  msg::MatchConfig config;
  auto path = (dir_ / "nope.pbtxt").string();
  auto what = error_of([&] { load_text_config(path, config); });
  EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
  EXPECT_NE(what.find("No such file"), std::string::npos) << what;
}

TEST_F(ConfigLoaderTest, ParseReplacesPreviousContent) {
  msg::SimConfig config;
  config.set_motor_timeout(9);
  parse_text_config("physics_step: 0.002", "t", config);
  EXPECT_DOUBLE_EQ(config.physics_step(), 0.002);
  EXPECT_DOUBLE_EQ(config.motor_timeout(), 0);
}

TEST_F(ConfigLoaderTest, ValidationNamesTheField) {
  auto base = default_match_config();

  auto expect_invalid = [](msg::MatchConfig c, const std::string& field) {
    auto what = error_of([&] { validate_match_config(c, "m.pbtxt"); });
    EXPECT_EQ(what.rfind("m.pbtxt: " + field + " ", 0), 0u) << what;
  };
  EXPECT_NO_THROW(validate_match_config(base, "m.pbtxt"));

  auto c = base;
  c.mutable_league()->set_team_size(0);
  expect_invalid(c, "league.team_size");
  c = base;
  c.mutable_league()->set_team_size(12);
  expect_invalid(c, "league.team_size");
  c = base;
  c.mutable_league()->mutable_field()->set_length(-2.2);
  expect_invalid(c, "league.field.length");
  c = base;
  c.mutable_league()->mutable_ball()->clear_radius();
  expect_invalid(c, "league.ball.radius");
  c = base;
  c.mutable_sim()->set_control_period(0.0025);  // 2.5 physics steps
  expect_invalid(c, "sim.control_period");
  c = base;
  c.mutable_sim()->set_control_period(0.0005);  // shorter than a step
  expect_invalid(c, "sim.control_period");
  c = base;
  c.set_half_duration(0);
  expect_invalid(c, "half_duration");
  c = base;
  c.mutable_league()->mutable_robot()->set_actuation_delay(-0.1);
  expect_invalid(c, "league.robot.actuation_delay");
  c = base;
  c.mutable_yellow()->set_prediction_horizon(-0.05);
  expect_invalid(c, "yellow.prediction_horizon");
  c = base;
  c.mutable_sim()->set_start_position_sd(-0.1);
  expect_invalid(c, "sim.start_position_sd");

  // Decimal literals that are whole multiples must not fail on rounding.
  c = base;
  c.mutable_sim()->set_physics_step(0.001);
  c.mutable_sim()->set_control_period(0.033);
  EXPECT_NO_THROW(validate_match_config(c, "m.pbtxt"));
}

TEST_F(ConfigLoaderTest, PredictionHorizonIsCameraLatencyPlusActuationDelayUnlessTheTeamSetsIt) {
  auto match = default_match_config();  // MiroSot: global vision
  match.mutable_league()->mutable_robot()->clear_actuation_delay();
  EXPECT_DOUBLE_EQ(actuation_delay(match.league().robot()), 0.1) << "absent: MI20's 0.1 s";
  match.mutable_sim()->mutable_global_camera()->set_latency(0.03);
  EXPECT_DOUBLE_EQ(prediction_horizon(match, match.blue()), 0.13);
  match.mutable_league()->mutable_robot()->set_actuation_delay(0.0);
  EXPECT_DOUBLE_EQ(prediction_horizon(match, match.blue()), 0.03) << "an explicit 0 is kept";
  match.mutable_blue()->set_prediction_horizon(0.0);
  EXPECT_DOUBLE_EQ(prediction_horizon(match, match.blue()), 0.0) << "the team turns compensation off";
  match.mutable_league()->set_vision(msg::VISION_ONBOARD);
  EXPECT_DOUBLE_EQ(prediction_horizon(match, match.yellow()), 0.0) << "no overhead camera latency onboard";
}

TEST_F(ConfigLoaderTest, SemanticErrorInFileCarriesLineAndColumn) {
  std::string text = default_match_config_text();
  auto at = text.find("control_period: 0.02");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("control_period: 0.02").size(), "control_period: 0.0215");
  auto path = write("bad_period.pbtxt", text);
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  int col = static_cast<int>(at - text.rfind('\n', at));
  auto what = error_of([&] { load_match_config(path); });
  EXPECT_EQ(what.rfind(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": sim.control_period", 0),
            0u)
      << what;
}

TEST_F(ConfigLoaderTest, UnsetFieldPointsAtItsEnclosingBlock) {
  auto path = write("no_step.pbtxt",
                    "league { name: \"x\" team_size: 1 field { length: 1 width: 1 goal_width: 0.2 goal_depth: 0.1 }\n"
                    "  robot { radius: 0.1 wheel_base: 0.1 max_speed: 1 max_acceleration: 1 max_deceleration: 1 "
                    "max_omega: 1 }\n"
                    "  ball { radius: 0.02 } }\n"
                    "half_duration: 10\n"
                    "sim {\n"
                    "  control_period: 0.02\n"
                    "}\n");
  auto what = error_of([&] { load_match_config(path); });
  EXPECT_EQ(what.rfind(path + ":5:1: sim.physics_step must be > 0", 0), 0u) << what;
}

TEST_F(ConfigLoaderTest, ShippedTeamsAndTeamFiles) {
  for (const auto& name : team_names()) {
    msg::TeamConfig from_file;
    load_text_config(std::string(ROBOCAF_SOURCE_DIR) + "/configs/teams/" + name + ".pbtxt", from_file);
    EXPECT_EQ(team_config(name).SerializeAsString(), from_file.SerializeAsString()) << name;
  }
  EXPECT_EQ(team_config("chaser").strategy(), msg::STRATEGY_CHASER);
  EXPECT_EQ(team_config("wall").strategy(), msg::STRATEGY_WALL);
  EXPECT_EQ(team_config("distributed").coordination(), msg::COORDINATION_DISTRIBUTED);
  EXPECT_TRUE(team_config("passing").passing());
  EXPECT_FALSE(team_config("default").passing());
  EXPECT_EQ(team_config("default").coordination(), msg::COORDINATION_CENTRAL);
  EXPECT_EQ(team_config(write("mine.pbtxt", "name: \"mine\" strategy: STRATEGY_WALL\n")).name(), "mine");
  auto what = error_of([&] { team_config("nobody"); });
  EXPECT_NE(what.find("unknown team 'nobody'"), std::string::npos) << what;
  EXPECT_NE(what.find("chaser"), std::string::npos) << what;
  auto bad = write("bad_team.pbtxt", "name: \"x\"\nstrategy: STRATEGY_SPRINT\n");
  what = error_of([&] { team_config(bad); });
  EXPECT_EQ(what.rfind(bad + ":2:11:", 0), 0u) << what;
}

}  // namespace
}  // namespace robocaf::runtime
