#pragma once
// Protobuf text-format configs. Every error names file:line:col (1-based) so a
// user can jump straight to the offending line; nothing is silently ignored
// (unknown fields, wrong types and bad enum names are all errors).

#include <stdexcept>
#include <string>
#include <vector>

#include "messages/config.pb.h"

namespace robocaf::runtime {

/// A config that cannot be read, parsed or validated. what() starts with
/// "<file>:<line>:<col>: " when the position is known, else "<file>: ".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `text` into `out` (cleared first). `name_for_errors` stands for the
/// file name in error messages. Throws ConfigError.
void parse_text_config(const std::string& text, const std::string& name_for_errors,
                       google::protobuf::Message& out);

/// Reads and parses the file at `path` into `out`. Throws ConfigError, also
/// when the file is missing or unreadable.
void load_text_config(const std::string& path, google::protobuf::Message& out);

/// Checks the semantics the schema cannot express: positive sizes, team_size
/// 1..11, control_period a whole multiple of physics_step, half_duration > 0.
/// Throws ConfigError("<name>: <field.path> ...") naming the first bad field.
void validate_match_config(const msg::MatchConfig& config, const std::string& name);

/// load_text_config + validate_match_config. Semantic errors also carry the
/// line:col of the offending field when the file sets it.
msg::MatchConfig load_match_config(const std::string& path);

/// Parses and validates a MatchConfig given as text (see parse_text_config).
msg::MatchConfig parse_match_config(const std::string& text, const std::string& name_for_errors);

/// The MiroSot preset (configs/match/mirosot.pbtxt), embedded at build time.
msg::MatchConfig default_match_config();

/// The embedded MiroSot preset as text, e.g. to show a user what to edit.
const char* default_match_config_text();

/// Names of the embedded league presets: "mirosot", "ssl", "msl".
std::vector<std::string> preset_names();

/// The embedded preset configs/match/<name>.pbtxt. Throws ConfigError naming
/// the known presets for an unknown name.
msg::MatchConfig preset_match_config(const std::string& name);

/// The robot's actuation delay: robot.actuation_delay, 0.1 s when absent.
double actuation_delay(const msg::RobotSpec& robot);

/// How fast a rolling ball slows (m/s^2): rolling_resistance * g when the
/// resistance is set, else rolling_deceleration (never below 0).
double ball_rolling_deceleration(const msg::BallSpec& ball);

/// How far world knowledge predicts the skills' estimates for `team` of
/// `match`: team.prediction_horizon, else the global camera's latency (global
/// vision) plus the robot's actuation delay.
double prediction_horizon(const msg::MatchConfig& match, const msg::TeamConfig& team);

/// Names of the embedded team configs (configs/teams/): "default", "chaser", "wall",
/// "distributed", "passing".
std::vector<std::string> team_names();

/// A team: the embedded configs/teams/<name_or_path>.pbtxt when it names one,
/// else the TeamConfig file at that path. Throws ConfigError naming the known
/// teams when it is neither.
msg::TeamConfig team_config(const std::string& name_or_path);

}  // namespace robocaf::runtime
