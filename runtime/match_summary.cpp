#include "runtime/match_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "runtime/game_log.hpp"

namespace robocaf::runtime {
namespace {

constexpr double kShotSpeedJump = 0.5;     // m/s between consecutive truth samples
constexpr double kShotDebounce = 0.5;      // s per team

const char* team_key(msg::Team team) {
  switch (team) {
    case msg::BLUE: return "blue";
    case msg::YELLOW: return "yellow";
    default: return "unspecified";
  }
}

double speed(const msg::Vec2& v) { return std::hypot(v.x(), v.y()); }

// The team whose nearest robot is closest to the ball, or nullopt.
std::optional<msg::Team> nearest_team(const msg::WorldTruth& truth) {
  double best[3] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity()};
  for (const auto& robot : truth.robots()) {
    if (robot.team() != msg::BLUE && robot.team() != msg::YELLOW) continue;
    double d = std::hypot(robot.pose().x() - truth.ball_position().x(), robot.pose().y() - truth.ball_position().y());
    best[robot.team()] = std::min(best[robot.team()], d);
  }
  if (best[msg::BLUE] < best[msg::YELLOW]) return msg::BLUE;
  if (best[msg::YELLOW] < best[msg::BLUE]) return msg::YELLOW;
  return std::nullopt;  // tie, or nobody on the field
}

// Shot detection from ball motion, for logs without REF_EVENT_SHOT.
class ShotDetector {
 public:
  explicit ShotDetector(const msg::MatchConfig& config)
      : half_length_(config.league().field().length() / 2),
        mouth_half_width_(config.league().field().goal_width() / 2 + config.league().ball().radius()),
        deceleration_(config.league().ball().rolling_deceleration()) {}

  void set_blue_on_positive_side(bool v) { blue_on_positive_side_ = v; }

  void add(const msg::WorldTruth& truth, double t) {
    bool had_previous = has_previous_;
    double previous_speed = previous_speed_;
    has_previous_ = true;
    previous_speed_ = speed(truth.ball_velocity());
    if (!had_previous || half_length_ <= 0 || previous_speed_ - previous_speed < kShotSpeedJump) return;
    auto team = nearest_team(truth);
    if (!team) return;
    // The goal a team attacks is the one on the side it does not defend.
    bool blue_attacks_positive = !blue_on_positive_side_;
    bool attacks_positive = (*team == msg::BLUE) == blue_attacks_positive;
    if (!heads_into_goal(truth, attacks_positive ? half_length_ : -half_length_)) return;
    double& last = last_shot_[*team];
    if (t - last < kShotDebounce) return;
    last = t;
    ++shots_[*team];
  }

  uint32_t shots(msg::Team team) const { return shots_[team]; }

 private:
  bool heads_into_goal(const msg::WorldTruth& truth, double goal_x) const {
    const auto& p = truth.ball_position();
    const auto& v = truth.ball_velocity();
    if (v.x() == 0) return false;
    double tau = (goal_x - p.x()) / v.x();
    if (tau <= 0) return false;
    if (std::abs(p.y() + v.y() * tau) > mouth_half_width_) return false;
    double s = speed(v);
    double distance = s * tau;
    return deceleration_ <= 0 || s * s / (2 * deceleration_) >= distance;
  }

  double half_length_;
  double mouth_half_width_;
  double deceleration_;
  bool blue_on_positive_side_ = false;
  bool has_previous_ = false;
  double previous_speed_ = 0;
  double last_shot_[3] = {-1e300, -1e300, -1e300};
  uint32_t shots_[3] = {0, 0, 0};
};

// Onsets of contact between teammates, from consecutive truth samples. A
// pair in contact counts again only after it has been apart by more than
// kRelease: robots resting against each other jitter by a millimetre, and
// that is one contact, not one per jitter.
class OwnCollisionCounter {
 public:
  explicit OwnCollisionCounter(const msg::MatchConfig& config)
      : contact_distance_(2.0 * config.league().robot().radius() + kContactSlack) {}

  void add(const msg::WorldTruth& truth) {
    const auto& robots = truth.robots();
    for (int i = 0; i < robots.size(); ++i)
      for (int j = i + 1; j < robots.size(); ++j) {
        const auto& a = robots[i];
        const auto& b = robots[j];
        if (a.team() != b.team() || (a.team() != msg::BLUE && a.team() != msg::YELLOW)) continue;
        const double d = std::hypot(a.pose().x() - b.pose().x(), a.pose().y() - b.pose().y());
        const auto key = std::make_tuple(static_cast<int>(a.team()), std::min(a.robot_id(), b.robot_id()),
                                         std::max(a.robot_id(), b.robot_id()));
        if (d < contact_distance_) {
          if (touching_.insert(key).second) ++collisions_[a.team()];
        } else if (d > contact_distance_ + kRelease) {
          touching_.erase(key);
        }
      }
  }

  uint32_t collisions(msg::Team team) const { return collisions_[team]; }

 private:
  // Robots placed side by side are 2r apart plus the physics' separation;
  // only closer than this is a contact.
  static constexpr double kContactSlack = 0.002;
  static constexpr double kRelease = 0.01;
  double contact_distance_;
  std::set<std::tuple<int, uint32_t, uint32_t>> touching_;
  uint32_t collisions_[3] = {0, 0, 0};
};

}  // namespace

MatchSummary summarize_log(const std::string& path) {
  GameLogReader reader(path);
  MatchSummary s;
  const auto& config = reader.header().config();
  if (!config.blue().name().empty()) s.blue_name = config.blue().name();
  if (!config.yellow().name().empty()) s.yellow_name = config.yellow().name();

  ShotDetector detector(config);
  OwnCollisionCounter own_collisions(config);
  uint32_t referee_shots[3] = {0, 0, 0};
  bool any_referee_shot = false;
  uint64_t possession[3] = {0, 0, 0};
  double last_t = 0;

  msg::LogRecord record;
  while (reader.next(record)) {
    last_t = std::max(last_t, record.t());
    switch (record.payload_case()) {
      case msg::LogRecord::kReferee: {
        const auto& e = record.referee();
        if (e.kind() == msg::REF_EVENT_GOAL) {
          s.goals.push_back({e.t(), e.team(), e.robot_id()});
          if (e.team() == msg::BLUE) ++s.score_blue;
          if (e.team() == msg::YELLOW) ++s.score_yellow;
        } else if (e.kind() == msg::REF_EVENT_REPOSITION || e.kind() == msg::REF_EVENT_ENCROACHMENT) {
          // Both are a robot where the rules do not let it stand at a restart.
          if (e.team() == msg::BLUE) ++s.illegal_restart_positions_blue;
          if (e.team() == msg::YELLOW) ++s.illegal_restart_positions_yellow;
        } else if (e.kind() == msg::REF_EVENT_MATCH_END) {
          s.finished = true;
        } else if (e.kind() == msg::REF_EVENT_SHOT) {
          any_referee_shot = true;
          if (e.team() == msg::BLUE || e.team() == msg::YELLOW) ++referee_shots[e.team()];
        }
        break;
      }
      case msg::LogRecord::kGameState:
        detector.set_blue_on_positive_side(record.game_state().blue_on_positive_side());
        break;
      case msg::LogRecord::kTruth: {
        const auto& truth = record.truth();
        if (auto team = nearest_team(truth)) ++possession[*team];
        detector.add(truth, record.t());
        own_collisions.add(truth);
        break;
      }
      default:
        break;
    }
  }
  s.log_truncated = reader.truncated();
  s.sim_seconds = last_t;
  s.possession_samples = possession[msg::BLUE] + possession[msg::YELLOW];
  if (s.possession_samples > 0)
    s.possession_blue = static_cast<double>(possession[msg::BLUE]) / static_cast<double>(s.possession_samples);
  s.own_collisions_blue = own_collisions.collisions(msg::BLUE);
  s.own_collisions_yellow = own_collisions.collisions(msg::YELLOW);
  s.shots_from_referee = any_referee_shot;
  s.shots_blue = any_referee_shot ? referee_shots[msg::BLUE] : detector.shots(msg::BLUE);
  s.shots_yellow = any_referee_shot ? referee_shots[msg::YELLOW] : detector.shots(msg::YELLOW);
  return s;
}

std::string summary_json(const MatchSummary& s, const SummaryExtras& extras, int indent) {
  using nlohmann::json;
  json j;
  j["teams"] = {{"blue", s.blue_name}, {"yellow", s.yellow_name}};
  j["score"] = {{"blue", s.score_blue}, {"yellow", s.score_yellow}};
  json goals = json::array();
  for (const auto& g : s.goals) goals.push_back({{"t", g.t}, {"team", team_key(g.team)}, {"robot_id", g.robot_id}});
  j["goals"] = std::move(goals);
  j["shots"] = {{"blue", s.shots_blue},
                {"yellow", s.shots_yellow},
                {"source", s.shots_from_referee ? "referee" : "ball_motion"}};
  if (s.possession_samples > 0)
    j["possession"] = {{"blue", s.possession_blue}, {"yellow", 1.0 - s.possession_blue}};
  else
    j["possession"] = nullptr;
  j["own_collisions"] = {{"blue", s.own_collisions_blue}, {"yellow", s.own_collisions_yellow}};
  j["illegal_restart_positions"] = {{"blue", s.illegal_restart_positions_blue},
                                    {"yellow", s.illegal_restart_positions_yellow}};
  j["sim_seconds"] = s.sim_seconds;
  j["finished"] = s.finished;
  j["log_truncated"] = s.log_truncated;

  auto add = [&j](const std::string& key, json value) {
    if (j.contains(key)) throw std::invalid_argument("summary_json: extra key \"" + key + "\" is a built-in key");
    j[key] = std::move(value);
  };
  for (const auto& [k, v] : extras.numbers) add(k, v);
  for (const auto& [k, v] : extras.strings) add(k, v);
  if (!extras.messages_per_kind.empty()) add("messages_per_kind", extras.messages_per_kind);
  return j.dump(indent);
}

std::string format_result_table(const MatchSummary& s) {
  int width = static_cast<int>(std::max<size_t>({s.blue_name.size(), s.yellow_name.size(), 6}));
  std::string out;
  char line[256];
  auto row = [&](const char* label, const std::string& blue, const std::string& yellow) {
    std::snprintf(line, sizeof line, "%-12s %*s  %*s\n", label, width, blue.c_str(), width, yellow.c_str());
    out += line;
  };
  auto percent = [](double f) {
    char b[16];
    std::snprintf(b, sizeof b, "%.0f%%", 100 * f);
    return std::string(b);
  };
  row("", s.blue_name, s.yellow_name);
  row("score", std::to_string(s.score_blue), std::to_string(s.score_yellow));
  row(s.shots_from_referee ? "shots" : "shots*", std::to_string(s.shots_blue), std::to_string(s.shots_yellow));
  if (s.possession_samples > 0)
    row("possession", percent(s.possession_blue), percent(1 - s.possession_blue));
  else
    row("possession", "-", "-");
  row("own contacts", std::to_string(s.own_collisions_blue), std::to_string(s.own_collisions_yellow));
  row("repositioned", std::to_string(s.illegal_restart_positions_blue),
      std::to_string(s.illegal_restart_positions_yellow));
  if (!s.goals.empty()) {
    out += "goals:";
    for (size_t i = 0; i < s.goals.size(); ++i) {
      const auto& g = s.goals[i];
      const std::string& name = g.team == msg::BLUE ? s.blue_name : g.team == msg::YELLOW ? s.yellow_name : "?";
      std::snprintf(line, sizeof line, "%s %.1f s %s", i == 0 ? "" : ",", g.t, name.c_str());
      out += line;
      if (g.robot_id != 0) out += " #" + std::to_string(g.robot_id);
    }
    out += "\n";
  }
  std::snprintf(line, sizeof line, "sim time %.1f s, %s%s\n", s.sim_seconds,
                s.finished ? "finished" : "not finished", s.log_truncated ? " (log cut short)" : "");
  out += line;
  if (!s.shots_from_referee) out += "* shots detected from ball motion\n";
  return out;
}

}  // namespace robocaf::runtime
