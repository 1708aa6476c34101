#include "sim/scenarios.hpp"

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <stdexcept>

#include "runtime/config_loader.hpp"
#include "sim/physics.hpp"

namespace robocaf::sim {

namespace {

const std::vector<ScenarioInfo> kCatalog = {
    {"kick-rolldown", "Nomad Scout kicks the ball at 1.5 m/s on carpet (0.1 m/s^2): where and when it stops", false},
    {"drive-straight", "Nomad Scout drives 7000 mm by odometry with slip f = 0.99, bias b and heading noise", false},
    {"ball-to-goal", "robot at (-3.5, 1.5) facing the ball at the centre spot scores on +x (CO 5.3.3)", true},
    {"ball-to-goal-facing-away", "as ball-to-goal, the robot facing -90 degrees (CO 5.3.3)", true},
    {"corner-ball", "ball near the +x,-y corner: a 90 degree turn before the goal, 30 s limit (CO 5.3.4)", true},
    {"pass-past-wall",
     "attacker and supporter against a keeper and two defenders walling the goal off: a goal or a pass received "
     "by the supporter, before yellow touches the ball, 20 s limit",
     true},
};

// Clockwork Orange's robot on today's MSL field (their section 3.6 and 5.3).
void nomad_scout(msg::MatchConfig& c) {
  auto* robot = c.mutable_league()->mutable_robot();
  robot->set_drive(msg::DRIVE_DIFFERENTIAL);
  robot->set_radius(0.205);
  robot->set_wheel_base(0.34);
  robot->set_max_speed(1.0);
  robot->set_max_acceleration(2.0);
  robot->set_max_deceleration(2.0);
  robot->set_kick_speed(1.5);
  robot->set_motor_model(msg::MOTOR_IDEAL);
  robot->set_mouth_captures(true);
  robot->set_mouth_side_turn(0.3);
  robot->set_mouth_width(0.25);
  robot->set_slip(0.01);          // f = 0.99
  robot->set_side_bias(0.0385);   // their robot drifted left: 267 mm over 6946 mm
  robot->set_heading_noise(0.0086);  // rad/sqrt(m): 92 mm sideways sd over 7 m
  auto* ball = c.mutable_league()->mutable_ball();
  ball->set_rolling_deceleration(0.1);  // carpet
  ball->set_rolling_resistance(0.0);
  ball->set_drag_coefficient(0.0);
}

bool field_contains(const msg::FieldGeometry& f, const Eigen::Vector2d& p) {
  return std::abs(p.x()) <= 0.5 * f.length() && std::abs(p.y()) <= 0.5 * f.width();
}

msg::ScenarioResult kick_rolldown(const msg::MatchConfig& config) {
  Physics world(config.league(), config.sim(), config.seed());
  const double r = config.league().robot().radius(), rb = config.league().ball().radius();
  msg::Pose2 pose;
  pose.set_x(-7.0);
  world.add_robot(msg::BLUE, 1, pose);
  world.place_ball({-7.0 + r + rb + 1e-4, 0.0});
  msg::RobotCommand kick;
  kick.mutable_wheels();
  kick.set_kick_speed(config.league().robot().kick_speed());
  world.set_command(msg::BLUE, 1, kick, 0.0);
  world.step();
  const Eigen::Vector2d start = world.ball_position();
  const double t_kick = world.time();
  msg::ScenarioResult result;
  if (world.ball_velocity().norm() <= 0.0) {
    result.set_reason("the kicker did not fire");
    return result;
  }
  // Keep the kicker quiet so it fires once; the ball rolls free.
  msg::RobotCommand idle;
  idle.mutable_wheels();
  while (world.ball_velocity().norm() > 0.0 && world.time() - t_kick < 60.0) {
    world.set_command(msg::BLUE, 1, idle, world.time());
    world.step();
  }
  const double distance = (world.ball_position() - start).norm();
  result.set_success(world.ball_velocity().norm() == 0.0);
  result.set_reason(result.success() ? "the ball stopped" : "the ball was still rolling after 60 s");
  (*result.mutable_metrics())["stop_distance_m"] = distance;
  (*result.mutable_metrics())["stop_time_s"] = world.time() - t_kick;
  result.set_time(world.time() - t_kick);
  return result;
}

msg::ScenarioResult drive_straight(const msg::MatchConfig& config) {
  Physics world(config.league(), config.sim(), config.seed());
  const auto& robot = config.league().robot();
  msg::Pose2 pose;
  pose.set_x(-3.5);
  pose.set_y(-2.0);
  world.add_robot(msg::BLUE, 1, pose);
  world.place_ball({0.0, 5.0});  // out of the way
  constexpr double kTarget = 7.0;
  const double dt = config.sim().physics_step();
  // The robot's own controller: full speed, braking on its odometry so it
  // stops where its wheels say 7000 mm, as the real robot's did.
  for (int i = 0; i < 60000; ++i) {
    const msg::Odometry odo = world.odometry(msg::BLUE, 1);
    const double travelled = odo.pose().x() - pose.x();
    const double remaining = kTarget - travelled;
    const double speed = 0.5 * (odo.wheels().left() + odo.wheels().right());
    if (remaining <= 1e-4 && std::abs(speed) < 1e-9) break;
    const double v = remaining <= 0.0 ? 0.0
                                      : std::min(robot.max_speed(),
                                                 std::sqrt(2.0 * robot.max_deceleration() * remaining));
    msg::RobotCommand command;
    command.mutable_wheels()->set_left(v);
    command.mutable_wheels()->set_right(v);
    world.set_command(msg::BLUE, 1, command, world.time());
    world.step(dt);
  }
  const msg::Pose2 end = world.robot_pose(msg::BLUE, 1);
  const msg::Odometry odo = world.odometry(msg::BLUE, 1);
  msg::ScenarioResult result;
  result.set_success(true);
  result.set_reason("stopped at 7000 mm by odometry");
  (*result.mutable_metrics())["distance_mm"] = 1000.0 * (end.x() - pose.x());
  (*result.mutable_metrics())["drift_mm"] = 1000.0 * (end.y() - pose.y());
  (*result.mutable_metrics())["odometry_mm"] = 1000.0 * (odo.pose().x() - pose.x());
  result.set_time(world.time());
  return result;
}

// Decides a skill scenario: a goal on +x wins; the ball leaving the field or
// entering the wrong goal loses.
std::function<std::optional<msg::ScenarioResult>(const Physics&)> goal_judge() {
  return [](const Physics& world) -> std::optional<msg::ScenarioResult> {
    msg::ScenarioResult result;
    const int goal = world.ball_in_goal();
    if (goal == 1) {
      result.set_success(true);
      result.set_reason("goal");
      return result;
    }
    if (goal == -1) {
      result.set_reason("own goal");
      return result;
    }
    const auto& field = world.league().field();
    const Eigen::Vector2d& b = world.ball_position();
    const bool behind_goal_line = std::abs(b.x()) > 0.5 * field.length();
    const bool in_goal_mouth = std::abs(b.y()) < 0.5 * field.goal_width();
    if (!field.walls() && !field_contains(field, b) && !(behind_goal_line && in_goal_mouth)) {
      result.set_reason("ball out of the field");
      return result;
    }
    return std::nullopt;
  };
}

// pass-past-wall: a goal or blue 2 touching the ball wins; yellow touching
// it first (the wall took it), or what goal_judge fails on, loses.
std::function<std::optional<msg::ScenarioResult>(const Physics&)> pass_judge() {
  const auto goal = goal_judge();
  return [goal](const Physics& world) -> std::optional<msg::ScenarioResult> {
    if (auto decided = goal(world)) return decided;
    const Touch& touch = world.last_touch();
    if (!touch.valid) return std::nullopt;
    msg::ScenarioResult result;
    if (touch.team == msg::BLUE && touch.robot_id == 2) {
      result.set_success(true);
      result.set_reason("pass received by blue 2");
      return result;
    }
    if (touch.team == msg::YELLOW) {
      result.set_reason("yellow " + std::to_string(touch.robot_id) + " touched the ball first");
      return result;
    }
    return std::nullopt;
  };
}

}  // namespace

const std::vector<ScenarioInfo>& scenario_catalog() { return kCatalog; }

const ScenarioInfo* find_scenario(const std::string& name) {
  for (const auto& info : kCatalog)
    if (info.name == name) return &info;
  return nullptr;
}

msg::MatchConfig scenario_config(const std::string& name, std::uint64_t seed) {
  if (!find_scenario(name)) throw std::invalid_argument("unknown scenario '" + name + "'");
  msg::MatchConfig config = runtime::preset_match_config("msl");
  if (name == "kick-rolldown" || name == "drive-straight") nomad_scout(config);
  config.set_seed(seed);
  return config;
}

msg::ScenarioResult run_physics_scenario(const std::string& name, std::uint64_t seed) {
  const ScenarioInfo* info = find_scenario(name);
  if (!info || info->uses_actors) throw std::invalid_argument("'" + name + "' is not a physics scenario");
  const msg::MatchConfig config = scenario_config(name, seed);
  msg::ScenarioResult result = name == "kick-rolldown" ? kick_rolldown(config) : drive_straight(config);
  result.set_name(name);
  result.set_seed(seed);
  return result;
}

std::shared_ptr<const ScenarioScript> skill_scenario_script(const std::string& name, std::uint64_t seed) {
  const ScenarioInfo* info = find_scenario(name);
  if (!info || !info->uses_actors) throw std::invalid_argument("'" + name + "' is not a skill scenario");
  (void)seed;  // the set-ups are fixed; the seed varies the noise in the world
  auto script = std::make_shared<ScenarioScript>();
  script->name = name;
  script->judge = goal_judge();
  ScenarioScript::Robot robot;
  robot.team = msg::BLUE;
  robot.id = 1;
  robot.role = msg::ROLE_ATTACKER;
  if (name == "pass-past-wall") {
    // MSL: the ball 5 m before the +x goal, a keeper on its line and two
    // defenders in a wall on the edge of the goal area; the supporter
    // starts level with the ball on the wing and goes where it supports.
    script->judge = pass_judge();
    script->time_limit = 20.0;
    robot.pose.set_x(3.0);
    script->ball_position.set_x(4.0);
    script->robots.push_back(robot);
    ScenarioScript::Robot mate;
    mate.team = msg::BLUE;
    mate.id = 2;
    mate.role = msg::ROLE_SUPPORTER;
    mate.pose.set_x(4.0);
    mate.pose.set_y(3.5);
    script->robots.push_back(mate);
    const double wall_x = 0.5 * 18.0 - 0.75 - 0.6;
    const std::vector<std::pair<msg::Role, std::pair<double, double>>> yellow{
        {msg::ROLE_KEEPER, {8.6, 0.0}}, {msg::ROLE_DEFENDER, {wall_x, -0.3}}, {msg::ROLE_DEFENDER, {wall_x, 0.3}}};
    std::uint32_t id = 1;
    for (const auto& [role, at] : yellow) {
      ScenarioScript::Robot o;
      o.team = msg::YELLOW;
      o.id = id++;
      o.role = role;
      o.pose.set_x(at.first);
      o.pose.set_y(at.second);
      o.pose.set_theta(M_PI);
      script->robots.push_back(o);
    }
    return script;
  }
  if (name == "corner-ball") {
    robot.pose.set_x(3.0);
    robot.pose.set_y(-4.5);
    robot.pose.set_theta(0.0);
    script->ball_position.set_x(8.4);
    script->ball_position.set_y(-5.4);
  } else {
    robot.pose.set_x(-3.5);
    robot.pose.set_y(1.5);
    robot.pose.set_theta(name == "ball-to-goal" ? 0.0 : -M_PI / 2);
  }
  script->robots.push_back(robot);
  return script;
}

}  // namespace robocaf::sim
