#include "runtime/config_loader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "embedded_configs.hpp"

namespace robocaf::runtime {
namespace {

namespace pb = google::protobuf;

std::string position_prefix(const std::string& name, int line0, int col0) {
  // protobuf counts from 0; editors and compilers count from 1.
  return name + ":" + std::to_string(line0 + 1) + ":" + std::to_string(col0 + 1) + ": ";
}

// Positions as protobuf's tokenizer counts them: 0-based, a tab advances the
// column to the next multiple of 8.
size_t offset_of(const std::string& text, int line, int column) {
  size_t at = 0;
  for (int l = 0; l < line && at < text.size(); ++l) {
    at = text.find('\n', at);
    if (at == std::string::npos) return text.size();
    ++at;
  }
  for (int c = 0; c < column && at < text.size() && text[at] != '\n'; ++at)
    c = text[at] == '\t' ? (c / 8 + 1) * 8 : c + 1;
  return at;
}

std::pair<int, int> position_of(const std::string& text, size_t offset) {
  int line = 0, column = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 0;
    } else {
      column = text[i] == '\t' ? (column / 8 + 1) * 8 : column + 1;
    }
  }
  return {line, column};
}

// The identifier an error is about, for the errors protobuf reports only after
// it has moved on to the next token (often on the next line).
std::string culprit(const std::string& message) {
  for (const char* marker : {"has no field named \"", "Unknown enumeration value of \""}) {
    auto at = message.find(marker);
    if (at == std::string::npos) continue;
    at += std::strlen(marker);
    auto end = message.find('"', at);
    if (end != std::string::npos) return message.substr(at, end - at);
  }
  return {};
}

class FirstErrorCollector : public pb::io::ErrorCollector {
 public:
  FirstErrorCollector(const std::string& text, std::string name) : text_(text), name_(std::move(name)) {}

  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    // The parser stops at the first error; later ones are usually follow-ups.
    if (!first_.empty()) return;
    // Point at the offending word itself: its last occurrence before the
    // position protobuf reports.
    std::string word = culprit(message);
    if (!word.empty()) {
      size_t found = text_.rfind(word, offset_of(text_, line, column));
      if (found != std::string::npos) std::tie(line, column) = position_of(text_, found);
    }
    first_ = position_prefix(name_, line, column) + message;
  }

  const std::string& first() const { return first_; }

 private:
  const std::string& text_;
  std::string name_;
  std::string first_;
};

void parse_with_locations(const std::string& text, const std::string& name, pb::Message& out,
                          pb::TextFormat::ParseInfoTree* tree) {
  FirstErrorCollector errors(text, name);
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (tree != nullptr) parser.WriteLocationsTo(tree);
  if (!parser.ParseFromString(text, &out)) {
    throw ConfigError(errors.first().empty() ? name + ": cannot parse as " + out.GetTypeName()
                                             : errors.first());
  }
}

std::string read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ConfigError(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buffer[8192];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      throw ConfigError(path + ": cannot read: " + std::strerror(err));
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

// A semantic error: the dotted field path from the MatchConfig root and why.
struct Violation {
  std::string path;
  std::string message;
};

std::string number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

class Checker {
 public:
  void positive(const std::string& path, double x) {
    if (!(std::isfinite(x) && x > 0)) fail(path, "must be > 0 (got " + number(x) + ")");
  }
  void non_negative(const std::string& path, double x) {
    if (!(std::isfinite(x) && x >= 0)) fail(path, "must be >= 0 (got " + number(x) + ")");
  }
  void fraction(const std::string& path, double x) {
    if (!(x >= 0 && x <= 1)) fail(path, "must be within [0, 1] (got " + number(x) + ")");
  }
  void fail(const std::string& path, const std::string& message) {
    if (!violation) violation = Violation{path, message};
  }
  std::optional<Violation> violation;
};

std::optional<Violation> find_violation(const msg::MatchConfig& c) {
  Checker check;
  const auto& league = c.league();
  if (league.team_size() < 1 || league.team_size() > 11)
    check.fail("league.team_size", "must be within 1..11 (got " + std::to_string(league.team_size()) + ")");
  const auto& field = league.field();
  check.positive("league.field.length", field.length());
  check.positive("league.field.width", field.width());
  check.positive("league.field.goal_width", field.goal_width());
  check.positive("league.field.goal_depth", field.goal_depth());
  check.non_negative("league.field.boundary_width", field.boundary_width());
  check.non_negative("league.field.center_circle_radius", field.center_circle_radius());
  check.non_negative("league.field.goal_area_depth", field.goal_area_depth());
  check.non_negative("league.field.goal_area_width", field.goal_area_width());
  if (field.goal_width() > field.width())
    check.fail("league.field.goal_width", "(" + number(field.goal_width()) + ") exceeds league.field.width (" +
                                              number(field.width()) + ")");
  const auto& robot = league.robot();
  check.positive("league.robot.radius", robot.radius());
  if (robot.drive() == msg::DRIVE_DIFFERENTIAL) check.positive("league.robot.wheel_base", robot.wheel_base());
  check.positive("league.robot.max_speed", robot.max_speed());
  check.positive("league.robot.max_acceleration", robot.max_acceleration());
  check.positive("league.robot.max_deceleration", robot.max_deceleration());
  check.positive("league.robot.max_omega", robot.max_omega());
  check.non_negative("league.robot.kick_speed", robot.kick_speed());
  check.non_negative("league.robot.mouth_width", robot.mouth_width());
  if (!(robot.slip() >= 0.0 && robot.slip() < 1.0))
    check.fail("league.robot.slip", "must be within [0, 1) (got " + number(robot.slip()) + ")");
  check.non_negative("league.robot.heading_noise", robot.heading_noise());
  check.non_negative("league.robot.mass", robot.mass());
  check.non_negative("league.robot.height", robot.height());
  check.non_negative("league.robot.drag_coefficient", robot.drag_coefficient());
  check.non_negative("league.robot.frontal_area", robot.frontal_area());
  check.non_negative("league.robot.chip_kick_speed", robot.chip_kick_speed());
  if (robot.motor_model() == msg::MOTOR_DC_PID) check.positive("league.robot.mass", robot.mass());
  const auto& ball = league.ball();
  check.positive("league.ball.radius", ball.radius());
  check.non_negative("league.ball.rolling_deceleration", ball.rolling_deceleration());
  check.fraction("league.ball.wall_restitution", ball.wall_restitution());
  check.fraction("league.ball.robot_restitution", ball.robot_restitution());
  check.non_negative("league.ball.rolling_resistance", ball.rolling_resistance());
  check.non_negative("league.ball.mass", ball.mass());
  check.non_negative("league.ball.drag_coefficient", ball.drag_coefficient());
  if (ball.drag_coefficient() > 0.0) check.positive("league.ball.mass", ball.mass());
  const auto& rules = league.rules();
  if (league.robot().has_actuation_delay())
    check.non_negative("league.robot.actuation_delay", league.robot().actuation_delay());
  check.non_negative("league.rules.pushing_seconds", rules.pushing_seconds());
  check.non_negative("league.rules.restart_distance", rules.restart_distance());
  check.non_negative("league.rules.pushing_speed", rules.pushing_speed());
  check.non_negative("league.rules.line_restart_inset", rules.line_restart_inset());

  const auto& sim = c.sim();
  check.positive("sim.physics_step", sim.physics_step());
  check.positive("sim.control_period", sim.control_period());
  if (!check.violation) {
    // Control runs on physics-step boundaries, so the period must be a whole
    // number of steps; allow for decimal literals not being exact in binary.
    double steps = sim.control_period() / sim.physics_step();
    double whole = std::round(steps);
    if (whole < 1 || std::abs(steps - whole) > 1e-6 * whole)
      check.fail("sim.control_period", "(" + number(sim.control_period()) +
                                           ") must be a positive whole multiple of sim.physics_step (" +
                                           number(sim.physics_step()) + ")");
  }
  const auto& noise = sim.detection_noise();
  check.non_negative("sim.detection_noise.position_sd", noise.position_sd());
  check.non_negative("sim.detection_noise.orientation_sd", noise.orientation_sd());
  check.non_negative("sim.detection_noise.ball_position_sd", noise.ball_position_sd());
  check.fraction("sim.detection_noise.miss_probability", noise.miss_probability());
  if (noise.robot_covariance_size() != 0 && noise.robot_covariance_size() != 9)
    check.fail("sim.detection_noise.robot_covariance",
               "needs 9 numbers, a 3x3 matrix (got " + std::to_string(noise.robot_covariance_size()) + ")");
  if (noise.ball_covariance_size() != 0 && noise.ball_covariance_size() != 4)
    check.fail("sim.detection_noise.ball_covariance",
               "needs 4 numbers, a 2x2 matrix (got " + std::to_string(noise.ball_covariance_size()) + ")");
  check.non_negative("sim.detection_noise.false_ball_rate", noise.false_ball_rate());
  check.non_negative("sim.global_camera.frame_rate", sim.global_camera().frame_rate());
  check.non_negative("sim.global_camera.latency", sim.global_camera().latency());
  check.non_negative("sim.global_camera.height", sim.global_camera().height());
  const auto& onboard = sim.onboard_camera();
  check.non_negative("sim.onboard_camera.range", onboard.range());
  check.non_negative("sim.onboard_camera.noise_per_metre", onboard.noise_per_metre());
  check.fraction("sim.onboard_camera.miss_probability", onboard.miss_probability());
  if (league.vision() == msg::VISION_ONBOARD) {
    check.positive("sim.onboard_camera.range", onboard.range());
    if (!(onboard.horizontal_fov() > 0.0 && onboard.horizontal_fov() < 3.14159))
      check.fail("sim.onboard_camera.horizontal_fov",
                 "must be within (0, pi) for onboard vision (got " + number(onboard.horizontal_fov()) + ")");
  }
  check.non_negative("sim.time_ratio", sim.time_ratio());
  check.non_negative("sim.stalemate_seconds", sim.stalemate_seconds());
  check.non_negative("sim.placement_seconds", sim.placement_seconds());
  check.non_negative("sim.motor_timeout", sim.motor_timeout());
  check.non_negative("sim.start_position_sd", sim.start_position_sd());

  check.positive("half_duration", c.half_duration());
  check.non_negative("share_period", c.share_period());
  for (const auto& [side, team] : {std::pair{"blue", &c.blue()}, std::pair{"yellow", &c.yellow()}})
    if (team->has_prediction_horizon())
      check.non_negative(std::string(side) + ".prediction_horizon", team->prediction_horizon());
  return check.violation;
}

// The text position of `path`, or of its deepest ancestor the file sets (an
// unset field has no position of its own, but its enclosing block does).
std::optional<pb::TextFormat::ParseLocation> locate(const pb::TextFormat::ParseInfoTree& root,
                                                     const std::string& path) {
  const pb::Descriptor* type = msg::MatchConfig::descriptor();
  const pb::TextFormat::ParseInfoTree* tree = &root;
  std::optional<pb::TextFormat::ParseLocation> best;
  std::istringstream parts(path);
  std::string part;
  while (tree != nullptr && type != nullptr && std::getline(parts, part, '.')) {
    const pb::FieldDescriptor* f = type->FindFieldByName(part);
    if (f == nullptr) break;
    auto at = tree->GetLocation(f, f->is_repeated() ? 0 : -1);
    if (at.line < 0) break;
    best = at;
    if (f->type() != pb::FieldDescriptor::TYPE_MESSAGE) break;
    tree = tree->GetTreeForNested(f, f->is_repeated() ? 0 : -1);
    type = f->message_type();
  }
  return best;
}

msg::MatchConfig parse_and_validate(const std::string& text, const std::string& name) {
  msg::MatchConfig config;
  pb::TextFormat::ParseInfoTree tree;
  parse_with_locations(text, name, config, &tree);
  if (auto v = find_violation(config)) {
    auto at = locate(tree, v->path);
    std::string prefix = at ? position_prefix(name, at->line, at->column) : name + ": ";
    throw ConfigError(prefix + v->path + " " + v->message);
  }
  return config;
}

}  // namespace

double actuation_delay(const msg::RobotSpec& robot) {
  return robot.has_actuation_delay() ? robot.actuation_delay() : 0.1;
}

double ball_rolling_deceleration(const msg::BallSpec& ball) {
  constexpr double kGravity = 9.81;  // m/s^2
  return ball.rolling_resistance() > 0.0 ? ball.rolling_resistance() * kGravity
                                         : std::max(0.0, ball.rolling_deceleration());
}

double prediction_horizon(const msg::MatchConfig& match, const msg::TeamConfig& team) {
  if (team.has_prediction_horizon()) return team.prediction_horizon();
  const double camera = match.league().vision() == msg::VISION_GLOBAL ? match.sim().global_camera().latency() : 0.0;
  return camera + actuation_delay(match.league().robot());
}

void parse_text_config(const std::string& text, const std::string& name_for_errors,
                       google::protobuf::Message& out) {
  parse_with_locations(text, name_for_errors, out, nullptr);
}

void load_text_config(const std::string& path, google::protobuf::Message& out) {
  parse_with_locations(read_file(path), path, out, nullptr);
}

void validate_match_config(const msg::MatchConfig& config, const std::string& name) {
  if (auto v = find_violation(config)) throw ConfigError(name + ": " + v->path + " " + v->message);
}

msg::MatchConfig load_match_config(const std::string& path) {
  return parse_and_validate(read_file(path), path);
}

msg::MatchConfig parse_match_config(const std::string& text, const std::string& name_for_errors) {
  return parse_and_validate(text, name_for_errors);
}

msg::MatchConfig default_match_config() {
  // Parsed on every call: cheap next to a match, and callers get their own copy.
  return parse_and_validate(embedded::kMiroSotConfig, "<embedded>/configs/match/mirosot.pbtxt");
}

const char* default_match_config_text() { return embedded::kMiroSotConfig; }

namespace {
struct EmbeddedConfig {
  const char* name;
  const char* text;
};
constexpr EmbeddedConfig kPresets[] = {
    {"mirosot", embedded::kMiroSotConfig},
    {"ssl", embedded::kSslConfig},
    {"msl", embedded::kMslConfig},
};
constexpr EmbeddedConfig kTeams[] = {
    {"default", embedded::kTeamDefaultConfig},
    {"chaser", embedded::kTeamChaserConfig},
    {"wall", embedded::kTeamWallConfig},
    {"distributed", embedded::kTeamDistributedConfig},
    {"passing", embedded::kTeamPassingConfig},
};

template <size_t N>
std::vector<std::string> names_of(const EmbeddedConfig (&configs)[N]) {
  std::vector<std::string> names;
  for (const auto& c : configs) names.emplace_back(c.name);
  return names;
}

// "a, b, c": the names for an error message.
template <size_t N>
std::string listed(const EmbeddedConfig (&configs)[N]) {
  std::string known;
  for (const auto& c : configs) known += std::string(known.empty() ? "" : ", ") + c.name;
  return known;
}
}  // namespace

std::vector<std::string> preset_names() { return names_of(kPresets); }

msg::MatchConfig preset_match_config(const std::string& name) {
  for (const auto& p : kPresets) {
    if (name == p.name) return parse_and_validate(p.text, "<embedded>/configs/match/" + name + ".pbtxt");
  }
  throw ConfigError("unknown preset '" + name + "' (known: " + listed(kPresets) + ")");
}

std::vector<std::string> team_names() { return names_of(kTeams); }

msg::TeamConfig team_config(const std::string& name_or_path) {
  msg::TeamConfig team;
  for (const auto& t : kTeams) {
    if (name_or_path == t.name) {
      parse_text_config(t.text, "<embedded>/configs/teams/" + name_or_path + ".pbtxt", team);
      return team;
    }
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(name_or_path, error)) {
    throw ConfigError("unknown team '" + name_or_path + "': neither a shipped team (" + listed(kTeams) +
                      ") nor a TeamConfig file");
  }
  load_text_config(name_or_path, team);
  return team;
}

}  // namespace robocaf::runtime
