#include "sim/world_actor.hpp"

#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <algorithm>

#include <caf/all.hpp>
#include <opencv2/core/utility.hpp>

#include "messages/log.pb.h"
#include "messages/runtime.pb.h"
#include "runtime/actor_shell.hpp"
#include "runtime/atoms.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"
#include "messages/vision.pb.h"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/global_camera.hpp"
#include "sim/onboard_camera.hpp"
#include "sim/physics.hpp"
#include "sim/random.hpp"
#include "sim/referee.hpp"

namespace robocaf::sim {

namespace {

using RobotKey = std::pair<int, uint32_t>;  // (team, robot id); id 0 = team actors
// What the barrier of a cycle waits for: (team, robot id, kind of the actor
// whose message closes it): a motor's RobotCommand or a team skills' CycleDone.
using BarrierKey = std::tuple<int, uint32_t, int>;

struct WorldState {
  runtime::ShellContext ctx;
  WorldOptions options;
  std::unique_ptr<Physics> physics;
  std::unique_ptr<GlobalCamera> camera;
  std::unique_ptr<OnboardCamera> onboard;  // onboard vision leagues instead of `camera`
  std::unique_ptr<Referee> referee;
  // Global camera timing in whole physics steps (sums of doubles would drift
  // across a cycle boundary): capture k is due at step round(k * period),
  // delivered `latency` later at the first cycle boundary after that.
  uint64_t steps = 0;  // physics steps since kick-off
  double frame_period_steps = 1.0;
  uint64_t latency_steps = 0;
  uint64_t frames_captured = 0;
  struct Capture {
    uint64_t due_step = 0;
    msg::DetectionFrame frame;
    std::optional<msg::CameraImage> image;  // perception_on_images
  };
  std::deque<Capture> in_flight;
  std::unique_ptr<camera::OverheadImageRenderer> renderer;  // perception_on_images
  // perception_on_images with onboard vision: every robot's own camera image
  // instead of its simulated OnboardFrame, with the camera's robot-frame calibration.
  std::unique_ptr<camera::OnboardImageRenderer> onboard_renderer;
  msg::CameraCalibration onboard_calibration;
  std::vector<msg::ManualRefereeCommand> manual;  // applied at the next cycle
  std::optional<msg::ScenarioResult> scenario_result;
  std::unique_ptr<runtime::GameLogWriter> log;
  std::map<RobotKey, bool> operational;  // from mission managers
  std::set<BarrierKey> pending;          // what the current cycle waits for
  std::map<RobotKey, msg::RobotCommand> commands;  // this cycle's, logged in key order
  std::map<RobotKey, msg::SelfBelief> beliefs;     // this cycle's, logged in key order
  std::map<RobotKey, msg::SkillIntent> intents;    // this cycle's, logged in key order after the beliefs
  // Commands on their way to the wheels (league.robot.actuation_delay), in
  // arrival order; applied before the physics step they are due at.
  struct DelayedCommand {
    uint64_t due_step = 0;
    msg::RobotCommand command;
  };
  std::deque<DelayedCommand> actuating;
  uint64_t actuation_delay_steps = 0;
  std::map<int, msg::RoleAssignment> roles;         // newest per team
  // Distributed teams: each robot's newest own entry with the cycle it was
  // announced in, merged into `roles` at the end of a cycle.
  std::map<RobotKey, std::pair<uint64_t, msg::RoleEntry>> announced_roles;
  std::map<int, std::string> logged_roles;          // per team, to log only changes
  uint64_t cycle = 0;
  int steps_per_cycle = 1;
  bool started = false;
  caf::actor_clock::time_point kickoff_wall;  // real time only
  bool finished = false;
  // Why the match stopped before its end (the game log could not be
  // written); answered to everyone awaiting the end as an error.
  std::string failure;
  msg::GameState last_logged_state;
  std::vector<caf::response_promise> waiting;
  static inline const char* name = "world";
};

using Self = runtime::ShellActor<WorldState>;

const msg::Team kTeams[] = {msg::BLUE, msg::YELLOW};
// derive_seed() stream of the onboard cameras (the global camera keeps the
// match seed itself, as logs recorded before the split expect).
constexpr uint64_t kOnboardCameraStream = 2;

double period(const Self* self) { return self->state.options.match.sim().control_period(); }
double now(const Self* self) { return static_cast<double>(self->state.cycle) * period(self); }

// Playing the lead-in (WorldOptions::lead_in) this cycle.
bool leading_in(const Self* self) {
  return !self->state.options.scenario && self->state.cycle < self->state.options.lead_in.size();
}

// Every robot of `truth` the world has, and the ball, where and as `truth` has them.
void put_as_logged(Physics& physics, const msg::WorldTruth& truth) {
  for (const auto& robot : truth.robots()) {
    if (!physics.has_robot(robot.team(), robot.robot_id())) continue;
    physics.place_robot(robot.team(), robot.robot_id(), robot.pose());
    physics.set_robot_motion(robot);
  }
  physics.place_ball({truth.ball_position().x(), truth.ball_position().y()},
                     {truth.ball_velocity().x(), truth.ball_velocity().y()});
}

// A rendered BGR image as the message perception takes.
msg::CameraImage camera_image(const cv::Mat& pixels, uint64_t frame_number, double t_capture, double t_sent,
                              const msg::CameraCalibration& calibration) {
  msg::CameraImage image;
  image.set_frame_number(frame_number);
  image.set_t_capture(t_capture);
  image.set_t_sent(t_sent);
  image.set_width(static_cast<uint32_t>(pixels.cols));
  image.set_height(static_cast<uint32_t>(pixels.rows));
  image.set_bgr(pixels.isContinuous() ? std::string(reinterpret_cast<const char*>(pixels.data), pixels.total() * 3)
                                      : std::string());
  *image.mutable_calibration() = calibration;
  return image;
}

void answer_waiting(Self* self);

// A game log that cannot be written (disk full, file gone) stops the match:
// a match without its log cannot be replayed, and a world that dropped the
// message it was logging would wait for the cycle forever. The records
// written so far stay readable.
void stop_for_log(Self* self, const std::string& why) {
  auto& s = self->state;
  if (s.finished) return;
  s.finished = true;
  s.failure = why;
  s.log.reset();
  std::cerr << "robocaf: " << why << "; the match stops\n";
  answer_waiting(self);
}

void log_record(Self* self, const std::function<void(msg::LogRecord&)>& fill) {
  if (!self->state.log) return;
  msg::LogRecord record;
  record.set_t(now(self));
  fill(record);
  try {
    self->state.log->append(record);
  } catch (const std::exception& e) {
    stop_for_log(self, e.what());
  }
}

void progress(Self* self, const std::string& line) {
  if (self->state.options.progress) self->state.options.progress(line);
}

// Operational: its mission manager says so and is still registered (a killed
// process cannot report its own death; the directory notices it).
bool is_operational(const Self* self, msg::Team team, uint32_t id) {
  auto it = self->state.operational.find({int(team), id});
  return it != self->state.operational.end() && it->second &&
         self->state.ctx.peers.find(team, id, msg::ACTOR_MISSION_MANAGER);
}

// Who plays: both teams with their team actors (id 0), or a scenario's robots.
std::vector<RobotKey> participants(const Self* self) {
  std::vector<RobotKey> keys;
  if (const auto& script = self->state.options.scenario) {
    for (const auto& r : script->robots) keys.push_back({int(r.team), r.id});
    std::sort(keys.begin(), keys.end());
    return keys;
  }
  const uint32_t size = self->state.options.match.league().team_size();
  for (auto team : kTeams)
    for (uint32_t id = 0; id <= size; ++id) keys.push_back({int(team), id});
  return keys;
}

bool distributed(const Self* self, msg::Team team) {
  const auto& match = self->state.options.match;
  const auto& config = team == msg::YELLOW ? match.yellow() : match.blue();
  return config.coordination() == msg::COORDINATION_DISTRIBUTED;
}

// Whether the barrier may still wait for `key`: its robot (or the team's
// node) is operational, and a team skills also needs its coach's node, which
// sends the command it answers with CycleDone.
bool still_expected(const Self* self, const BarrierKey& key) {
  const auto [team_value, id, kind] = key;
  const auto team = static_cast<msg::Team>(team_value);
  if (!is_operational(self, team, id)) return false;
  return kind != msg::ACTOR_TEAM_SKILLS || is_operational(self, team, 0);
}

bool everyone_ready(const Self* self) {
  for (const auto& [team, id] : participants(self))
    if (!is_operational(self, static_cast<msg::Team>(team), id)) return false;
  return true;
}

// Captures every global-camera frame due by the world's current time.
void capture_due_frames(Self* self) {
  auto& s = self->state;
  if (!s.camera) return;
  auto due_step = [&] { return static_cast<uint64_t>(std::llround(double(s.frames_captured) * s.frame_period_steps)); };
  while (s.steps >= due_step()) {
    msg::WorldTruth truth = s.physics->truth(s.cycle);
    msg::DetectionFrame frame = s.camera->observe(truth, s.frames_captured + 1, s.physics->time());
    ++s.frames_captured;
    const uint64_t delivery = s.steps + s.latency_steps;
    frame.set_t_sent(static_cast<double>(delivery) * s.options.match.sim().physics_step());
    WorldState::Capture capture{delivery, std::move(frame), std::nullopt};
    if (s.renderer) {
      capture.image = camera_image(s.renderer->render(truth, capture.frame.frame_number()),
                                   capture.frame.frame_number(), capture.frame.t_capture(), capture.frame.t_sent(),
                                   s.renderer->calibration());
    }
    s.in_flight.push_back(std::move(capture));
  }
}

// Answers everyone awaiting the end (once it has come).
void answer_waiting(Self* self) {
  auto& s = self->state;
  if (!s.failure.empty()) {
    for (auto& promise : s.waiting) promise.deliver(caf::make_error(caf::sec::runtime_error, s.failure));
  } else if (s.scenario_result) {
    for (auto& promise : s.waiting) promise.deliver(*s.scenario_result);
  } else {
    msg::GameState final_state = s.referee->state();
    for (auto& promise : s.waiting) promise.deliver(final_state);
  }
  s.waiting.clear();
}

void finish(Self* self) {
  auto& s = self->state;
  if (s.finished) return;
  s.finished = true;
  try {
    if (s.log) s.log->close();
  } catch (const std::exception& e) {
    s.failure = e.what();
    std::cerr << "robocaf: " << e.what() << '\n';
  }
  answer_waiting(self);
}

void log_events(Self* self, const std::vector<msg::RefereeEvent>& events, double t) {
  for (const msg::RefereeEvent& event : events) {
    log_record(self, [&](msg::LogRecord& r) { *r.mutable_referee() = event; });
    if (event.kind() != msg::REF_EVENT_SHOT && event.kind() != msg::REF_EVENT_REPOSITION &&
        event.kind() != msg::REF_EVENT_SPOT_CLEARED) {
      std::ostringstream line;
      line.precision(1);
      line << std::fixed << "[" << t << " s] " << event.reason();
      progress(self, line.str());
    }
  }
}

// The captures perception gets this cycle: every delivered one, or one
// empty "nothing new" frame so the robots' control loops still run.
std::vector<WorldState::Capture> deliver_frames(Self* self, double t) {
  auto& s = self->state;
  std::vector<WorldState::Capture> out;
  while (!s.in_flight.empty() && s.in_flight.front().due_step <= s.steps) {
    out.push_back(std::move(s.in_flight.front()));
    s.in_flight.pop_front();
  }
  for (auto& capture : out) {
    capture.frame.set_cycle(s.cycle);
    if (capture.image) capture.image->set_cycle(s.cycle);
  }
  if (out.empty()) {
    WorldState::Capture nothing;
    nothing.frame.set_t_capture(t);
    nothing.frame.set_t_sent(t);
    nothing.frame.set_cycle(s.cycle);
    out.push_back(std::move(nothing));
  }
  return out;
}

msg::GameState scenario_game_state(const Self* self, double t) {
  msg::GameState game;
  game.set_cycle(self->state.cycle);
  game.set_t(t);
  game.set_stage(msg::STAGE_FIRST_HALF);
  game.set_command(msg::REF_FORCE_START);
  game.set_blue_on_positive_side(!self->state.options.scenario->blue_attacks_positive_x);
  return game;
}

void end_cycle(Self* self);

void begin_cycle(Self* self) {
  auto& s = self->state;
  const double t = now(self);
  const auto& script = s.options.scenario;
  msg::GameState game;
  const bool lead_in = leading_in(self);
  if (lead_in)
    put_as_logged(*s.physics, s.options.lead_in[s.cycle].truth);
  else if (!script && !s.options.lead_in.empty() && s.cycle == s.options.lead_in.size() && s.options.start_from)
    put_as_logged(*s.physics, *s.options.start_from);
  if (script) {
    game = scenario_game_state(self, t);
  } else {
    if (!lead_in) {
      for (const auto& command : s.manual) log_events(self, s.referee->apply_manual(command, *s.physics, t), t);
      s.manual.clear();
      log_events(self, s.referee->update(*s.physics, t, s.cycle), t);
    }
    game = s.referee->state();
    if (lead_in) {
      // Play, as in the match before the moment; the referee has not begun.
      game.set_stage(msg::STAGE_FIRST_HALF);
      game.set_command(msg::REF_FORCE_START);
    }
    game.set_cycle(s.cycle);
    game.set_t(t);
    game.clear_robots_blue();
    game.clear_robots_yellow();
    const uint32_t size = s.options.match.league().team_size();
    for (uint32_t id = 1; id <= size; ++id) {
      if (is_operational(self, msg::BLUE, id)) game.add_robots_blue(id);
      if (is_operational(self, msg::YELLOW, id)) game.add_robots_yellow(id);
    }
  }
  const auto& last = s.last_logged_state;
  const bool changed = game.stage() != last.stage() || game.command() != last.command() ||
                       game.score_blue() != last.score_blue() || game.score_yellow() != last.score_yellow() ||
                       game.robots_blue_size() != last.robots_blue_size() ||
                       game.robots_yellow_size() != last.robots_yellow_size();
  if (changed || s.cycle % 50 == 0) {
    log_record(self, [&](msg::LogRecord& r) { *r.mutable_game_state() = game; });
    s.last_logged_state = game;
  }
  msg::WorldTruth truth = s.physics->truth(s.cycle);
  log_record(self, [&](msg::LogRecord& r) { *r.mutable_truth() = truth; });
  if (script && !s.scenario_result) {
    if (auto result = script->judge(*s.physics)) {
      s.scenario_result = std::move(*result);
    } else if (t >= script->time_limit) {
      msg::ScenarioResult timeout;
      timeout.set_success(false);
      timeout.set_reason("time limit reached");
      s.scenario_result = timeout;
    }
    if (s.scenario_result) {
      s.scenario_result->set_name(script->name);
      s.scenario_result->set_seed(s.options.match.seed());
      s.scenario_result->set_time(t);
      finish(self);
      return;
    }
  }
  const bool play_started = game.command() == msg::REF_NORMAL_START || game.command() == msg::REF_FORCE_START;
  if (game.stage() == msg::STAGE_POST_GAME ||
      (!script && !lead_in && s.options.stop_at_first_start && play_started)) {
    finish(self);
    return;
  }
  std::vector<WorldState::Capture> frames;
  if (s.camera) {
    capture_due_frames(self);
    frames = deliver_frames(self, t);
    // What perception was given: simulated detections are logged; images are
    // not (the truth and the seed reproduce them).
    for (const auto& capture : frames)
      if (capture.frame.frame_number() != 0 && !capture.image)
        log_record(self, [&](msg::LogRecord& r) { *r.mutable_detection() = capture.frame; });
  }

  s.pending.clear();
  s.commands.clear();
  // Onboard images of every robot that gets one this cycle, rendered side by
  // side (each image depends only on the truth, the robot and the frame
  // number, so the order of rendering cannot change a pixel).
  std::map<RobotKey, cv::Mat> onboard_images;
  if (s.onboard_renderer) {
    std::vector<RobotKey> robots;
    for (const auto& [team_value, id] : participants(self)) {
      const auto team = static_cast<msg::Team>(team_value);
      if (id != 0 && is_operational(self, team, id) && s.ctx.peers.find(team, id, msg::ACTOR_MOTOR) &&
          s.ctx.peers.find(team, id, msg::ACTOR_PERCEPTION) && s.physics->has_robot(team, id))
        robots.push_back({team_value, id});
    }
    std::vector<cv::Mat> images(robots.size());
    cv::parallel_for_(cv::Range(0, static_cast<int>(robots.size())), [&](const cv::Range& range) {
      for (int i = range.start; i < range.end; ++i)
        images[static_cast<size_t>(i)] = s.onboard_renderer->render(
            truth, static_cast<msg::Team>(robots[static_cast<size_t>(i)].first), robots[static_cast<size_t>(i)].second,
            s.cycle + 1);
    });
    for (size_t i = 0; i < robots.size(); ++i) onboard_images[robots[i]] = std::move(images[i]);
  }
  for (const auto& [team_value, id] : participants(self)) {
    const auto team = static_cast<msg::Team>(team_value);
    if (id == 0) {
      auto coach = s.ctx.peers.find(team, 0, msg::ACTOR_COACH);
      if (!coach || !is_operational(self, team, 0)) continue;
      if (distributed(self, team)) {
        // Every robot's team skills answers its coach's command: the barrier
        // waits for each (robots are added below, in key order).
        self->send(coach, game);
      } else if (s.ctx.peers.find(team, 0, msg::ACTOR_TEAM_SKILLS)) {
        self->send(coach, game);
        s.pending.insert({int(team), 0, msg::ACTOR_TEAM_SKILLS});
      }
      continue;
    }
    if (!is_operational(self, team, id)) continue;
    auto motor = s.ctx.peers.find(team, id, msg::ACTOR_MOTOR);
    auto perception = s.ctx.peers.find(team, id, msg::ACTOR_PERCEPTION);
    if (!motor || !perception) continue;
    msg::Odometry odometry = s.physics->odometry(team, id);
    odometry.set_cycle(s.cycle);
    odometry.set_t(t);
    if (script) {
      // The script stands in for team skills: the role, every cycle.
      if (auto skills = s.ctx.peers.find(team, id, msg::ACTOR_PLAYER_SKILLS)) {
        msg::PlayerInstruction instruction;
        instruction.set_cycle(s.cycle);
        instruction.set_t(t);
        instruction.set_directive(msg::COACH_PLAY);
        instruction.set_attack_positive_x((team == msg::BLUE) == script->blue_attacks_positive_x);
        for (const auto& r : script->robots)
          if (r.team == team && r.id == id) instruction.set_role(r.role);
        // Its place among the team's robots with that role, by id, as
        // RoleAssigner numbers them (two defenders form a wall).
        uint32_t index = 0, count = 0;
        for (const auto& r : script->robots) {
          if (r.team != team || r.role != instruction.role()) continue;
          ++count;
          if (r.id < id) ++index;
        }
        instruction.set_role_index(index);
        instruction.set_role_count(count);
        self->send(skills, std::move(instruction));
      }
    }
    // Odometry first: the motor must know the time before the cycle's command.
    self->send(motor, odometry);
    if (s.onboard) {
      self->send(perception, std::move(odometry));
      // Captured now and delivered at once, as the simulated frame is.
      if (auto it = onboard_images.find({team_value, id}); it != onboard_images.end()) {
        msg::CameraImage image = camera_image(it->second, s.cycle + 1, t, t, s.onboard_calibration);
        image.set_cycle(s.cycle);
        image.set_robot_frame(true);
        self->send(perception, std::move(image));
      } else if (!s.onboard_renderer) {
        msg::OnboardFrame frame = s.onboard->observe(truth, team, id, s.cycle + 1, t);
        frame.set_cycle(s.cycle);
        frame.set_t_sent(t);
        self->send(perception, std::move(frame));
      }
    } else {
      for (const auto& capture : frames) {
        if (capture.image) {
          self->send(perception, *capture.image);
        } else {
          self->send(perception, capture.frame);
        }
      }
    }
    s.pending.insert({int(team), id, msg::ACTOR_MOTOR});
    // A distributed robot's command does not come after its team skills' work
    // of the cycle (player skills act on the previous cycle's instruction), so
    // the cycle also waits for that team skills' CycleDone: what it sent this
    // cycle (instruction, claims) is then settled input for the next.
    if (distributed(self, team) && s.ctx.peers.find(team, id, msg::ACTOR_TEAM_SKILLS) &&
        s.ctx.peers.find(team, 0, msg::ACTOR_COACH) && is_operational(self, team, 0))
      s.pending.insert({int(team), id, msg::ACTOR_TEAM_SKILLS});
  }
  if (!s.options.realtime && s.pending.empty()) end_cycle(self);
}

void apply_due_commands(Self* self) {
  auto& s = self->state;
  while (!s.actuating.empty() && s.actuating.front().due_step <= s.steps) {
    const msg::RobotCommand& command = s.actuating.front().command;
    s.physics->set_command(command.team(), command.robot_id(), command, s.physics->time());
    s.actuating.pop_front();
  }
}

// A distributed team's assignment for the log: every robot's own entry
// announced this cycle, by robot id. In real time announcements lag and a
// busy node pauses: every operational robot's newest entry, as a central
// team's newest assignment stands until the next.
void merge_announced_roles(Self* self) {
  auto& s = self->state;
  for (auto team : kTeams) {
    if (!distributed(self, team)) continue;
    msg::RoleAssignment merged;
    merged.set_cycle(s.cycle);
    merged.set_t(now(self));
    merged.set_team(team);
    for (auto& [key, announced] : s.announced_roles) {
      const auto& [cycle, entry] = announced;
      if (key.first != int(team)) continue;
      const bool current = s.options.realtime ? is_operational(self, team, key.second) : cycle == s.cycle;
      if (current) *merged.add_roles() = entry;
    }
    s.roles[int(team)] = std::move(merged);
  }
}

void end_cycle(Self* self) {
  auto& s = self->state;
  if (leading_in(self)) {
    // The match's commands drive the robots, and the log says so.
    s.commands.clear();
    for (msg::RobotCommand command : s.options.lead_in[s.cycle].commands) {
      command.set_cycle(s.cycle);
      command.set_t(now(self));
      if (!s.physics->set_command(command.team(), command.robot_id(), command, now(self))) continue;
      s.commands[{int(command.team()), command.robot_id()}] = command;
    }
  }
  for (auto& [key, command] : s.commands) log_record(self, [&](msg::LogRecord& r) { *r.mutable_command() = command; });
  s.commands.clear();
  for (auto& [key, belief] : s.beliefs) log_record(self, [&](msg::LogRecord& r) { *r.mutable_belief() = belief; });
  s.beliefs.clear();
  for (auto& [key, intent] : s.intents) log_record(self, [&](msg::LogRecord& r) { *r.mutable_intent() = intent; });
  s.intents.clear();
  merge_announced_roles(self);
  for (auto& [team, assignment] : s.roles) {
    std::string roles;
    for (const auto& entry : assignment.roles()) roles += std::to_string(entry.robot_id()) + ":" + std::to_string(entry.role()) + " ";
    if (roles == s.logged_roles[team]) continue;
    s.logged_roles[team] = roles;
    log_record(self, [&](msg::LogRecord& r) { *r.mutable_roles() = assignment; });
  }
  const double dt = s.options.match.sim().physics_step();
  for (int i = 0; i < s.steps_per_cycle; ++i) {
    apply_due_commands(self);
    s.physics->step(dt);
    ++s.steps;
    capture_due_frames(self);  // a camera slower or faster than the control loop
  }
  ++s.cycle;
  try {
    if (s.log) s.log->flush();
  } catch (const std::exception& e) {
    stop_for_log(self, e.what());
    return;
  }
  if (!s.options.realtime) self->send(self, runtime::tick_atom::value);
}

void settle(Self* self, const BarrierKey& key) {
  auto& s = self->state;
  if (s.pending.erase(key) > 0 && s.pending.empty() && !s.options.realtime && s.started && !s.finished)
    end_cycle(self);
}

// Stops waiting for whatever can no longer come.
void settle_unexpected(Self* self) {
  auto pending = self->state.pending;
  for (const auto& key : pending)
    if (!still_expected(self, key)) settle(self, key);
}

// Real time: cycle k opens at kick-off + k periods of CAF's clock, whatever the
// cycles before cost, so the match does not drift behind the wall clock.
void schedule_realtime_tick(Self* self) {
  auto& s = self->state;
  const double ratio = s.options.match.sim().time_ratio() > 0.0 ? s.options.match.sim().time_ratio() : 1.0;
  auto due = s.kickoff_wall + std::chrono::duration_cast<caf::timespan>(std::chrono::duration<double>(
                                  period(self) * static_cast<double>(s.cycle + 1) / ratio));
  auto delay = std::max(caf::timespan{0}, std::chrono::duration_cast<caf::timespan>(due - self->clock().now()));
  self->delayed_send(self, delay, runtime::tick_atom::value);
}

void start_match(Self* self) {
  auto& s = self->state;
  if (s.started) return;
  s.started = true;
  if (!s.failure.empty()) {
    // The log could not even be opened: stop now that every actor is up
    // (stopping while they still start up can hang CAF 0.17's shutdown).
    stop_for_log(self, s.failure);
    return;
  }
  s.kickoff_wall = self->clock().now();
  progress(self, "kick-off: every robot has joined");
  begin_cycle(self);
  if (s.options.realtime) schedule_realtime_tick(self);
}

caf::behavior world(Self* self, caf::actor directory, WorldOptions options) {
  auto& st = self->state;
  st.options = std::move(options);
  const auto& match = st.options.match;
  runtime::ShellSetup setup{runtime::make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD), directory, {}};
  runtime::init_shell(self, st.ctx, setup);
  st.physics = std::make_unique<Physics>(match.league(), match.sim(), match.seed());
  if (match.league().vision() == msg::VISION_ONBOARD) {
    st.onboard = std::make_unique<OnboardCamera>(match.league(), match.sim().onboard_camera(),
                                                 derive_seed(match.seed(), kOnboardCameraStream));
  } else {
    st.camera = std::make_unique<GlobalCamera>(match.league().field(), match.sim().detection_noise(), match.seed());
  }
  const auto& camera = match.sim().global_camera();
  const double step = match.sim().physics_step();
  st.frame_period_steps = (camera.frame_rate() > 0.0 ? 1.0 / camera.frame_rate() : match.sim().control_period()) / step;
  st.latency_steps = static_cast<uint64_t>(std::llround(camera.latency() / step));
  if (st.camera && match.sim().perception_on_images())
    st.renderer = std::make_unique<camera::OverheadImageRenderer>(
        match.league(), camera, derive_seed(match.seed(), camera::kOverheadImageStream));
  if (st.onboard && match.sim().perception_on_images()) {
    st.onboard_renderer = std::make_unique<camera::OnboardImageRenderer>(
        match.league(), match.sim().onboard_camera(), derive_seed(match.seed(), camera::kOnboardImageStream));
    // Every robot carries its camera the same way: one calibration, relative to the robot.
    st.onboard_calibration = st.onboard_renderer->calibration_for(msg::Pose2());
  }
  st.referee = std::make_unique<Referee>(match);
  if (const auto& opening = st.options.opening_restart; opening && !st.options.scenario)
    st.referee->open_with_restart(opening->restart(), opening->restart_team(),
                                  {opening->ball_spot().x(), opening->ball_spot().y()});
  st.actuation_delay_steps = static_cast<uint64_t>(
      std::llround(runtime::actuation_delay(match.league().robot()) / match.sim().physics_step()));
  st.steps_per_cycle =
      std::max(1, static_cast<int>(std::lround(match.sim().control_period() / match.sim().physics_step())));
  if (const auto& script = st.options.scenario) {
    for (const auto& r : script->robots) st.physics->add_robot(r.team, r.id, r.pose);
    st.physics->place_ball({script->ball_position.x(), script->ball_position.y()},
                           {script->ball_velocity.x(), script->ball_velocity.y()});
  } else {
    for (auto team : kTeams) {
      auto poses = st.referee->kickoff_positions(team, match.league().team_size());
      for (uint32_t id = 1; id <= match.league().team_size(); ++id) {
        msg::Pose2 pose = poses.at(id - 1);
        const msg::RobotTruth* logged = nullptr;
        const msg::WorldTruth* first = !st.options.lead_in.empty() ? &st.options.lead_in.front().truth
                                       : st.options.start_from ? &*st.options.start_from
                                                               : nullptr;
        if (first)
          for (const auto& robot : first->robots())
            if (robot.team() == team && robot.robot_id() == id) logged = &robot;
        if (logged) pose = logged->pose();
        st.physics->add_robot(team, id, pose);
        if (logged) st.physics->set_robot_motion(*logged);
      }
    }
    if (st.options.start_from && st.options.lead_in.empty()) {
      const auto& ball = st.options.start_from->ball_position();
      st.physics->place_ball({ball.x(), ball.y()});
    }
  }
  if (!st.options.log_path.empty()) {
    msg::LogHeader header;
    header.set_format_version(1);
    *header.mutable_config() = match;
    header.set_seed(match.seed());
    header.set_producer("robocaf");
    try {
      st.log = std::make_unique<runtime::GameLogWriter>(st.options.log_path, header);
    } catch (const std::exception& e) {
      st.failure = e.what();  // answered once every robot has joined (start_match)
    }
  }
  // Stop waiting for participants that vanished in the middle of a cycle.
  st.ctx.on_roster_change = [self] { settle_unexpected(self); };
  runtime::join_directory(self, st.ctx);
  auto timeout = std::chrono::duration_cast<caf::timespan>(
      std::chrono::duration<double>(st.options.startup_timeout_seconds));
  self->delayed_send(self, timeout, runtime::start_atom::value);
  return caf::message_handler{
      [self](const msg::HealthReport& health) {
        auto& s = self->state;
        RobotKey key{int(health.team()), health.robot_id()};
        s.operational[key] = health.operational();
        if (!s.started && everyone_ready(self)) start_match(self);
        if (!health.operational()) settle_unexpected(self);
      },
      [self](const msg::RobotCommand& command) {
        auto& s = self->state;
        if (!s.started || s.finished) return;
        RobotKey key{int(command.team()), command.robot_id()};
        if (!s.options.realtime && command.cycle() != s.cycle) return;
        if (leading_in(self)) {
          // The lead-in's logged commands drive it (end_cycle).
        } else if (s.actuation_delay_steps == 0) {
          s.physics->set_command(command.team(), command.robot_id(), command, now(self));
        } else {
          s.actuating.push_back({s.steps + s.actuation_delay_steps, command});
        }
        s.commands[key] = command;
        settle(self, {key.first, key.second, msg::ACTOR_MOTOR});
      },
      [self](const msg::SelfBelief& belief) {
        // For the log only: it never steers the match, so it is no barrier.
        auto& s = self->state;
        if (!s.started || s.finished) return;
        if (belief.team() != msg::BLUE && belief.team() != msg::YELLOW) return;
        s.beliefs[{int(belief.team()), belief.robot_id()}] = belief;
      },
      [self](const msg::SkillIntent& intent) {
        // For the log only, like the beliefs.
        auto& s = self->state;
        if (!s.started || s.finished) return;
        if (intent.team() != msg::BLUE && intent.team() != msg::YELLOW) return;
        s.intents[{int(intent.team()), intent.robot_id()}] = intent;
      },
      [self](const msg::ManualRefereeCommand& command) {
        // Applied at the start of the next cycle, so in virtual time it lands
        // between cycles like every other input.
        if (!self->state.options.scenario) self->state.manual.push_back(command);
      },
      [self](const msg::RoleAssignment& roles) {
        auto& s = self->state;
        if (!s.options.realtime && roles.cycle() != s.cycle) return;
        if (roles.team() != msg::BLUE && roles.team() != msg::YELLOW) return;
        if (!distributed(self, roles.team())) {
          s.roles[int(roles.team())] = roles;
          return;
        }
        // A robot's own entry, merged with its teammates' at the end of the cycle.
        for (const auto& entry : roles.roles()) {
          if (entry.robot_id() == 0 || entry.robot_id() > s.options.match.league().team_size()) continue;
          auto& slot = s.announced_roles[{int(roles.team()), entry.robot_id()}];
          if (roles.cycle() >= slot.first) slot = {roles.cycle(), entry};
        }
      },
      [self](const msg::CycleDone& done) {
        auto& s = self->state;
        if (s.options.realtime || done.cycle() != s.cycle) return;
        settle(self, {int(done.address().team()), done.address().robot_id(), msg::ACTOR_TEAM_SKILLS});
      },
      [self](runtime::tick_atom) {
        auto& s = self->state;
        if (s.finished) return;
        if (s.options.realtime) {
          end_cycle(self);
          schedule_realtime_tick(self);
        }
        begin_cycle(self);
      },
      [self](runtime::start_atom) {
        auto& s = self->state;
        if (s.started) return;
        if (s.options.realtime) {
          progress(self, "startup timeout: playing with the robots that joined");
          start_match(self);
        } else {
          std::cerr << "robocaf: not every robot joined within the startup timeout\n";
          for (auto& promise : s.waiting)
            promise.deliver(caf::make_error(caf::sec::request_timeout, "robots did not join in time"));
          s.waiting.clear();
          self->quit(caf::sec::request_timeout);
        }
      },
      [self](runtime::await_atom) {
        auto promise = self->make_response_promise();
        self->state.waiting.push_back(promise);
        // Someone who asks after the end (a slow caller) gets the answer at once.
        if (self->state.finished) answer_waiting(self);
        return promise;
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_world(caf::actor_system& system, const caf::actor& directory, WorldOptions options) {
  return system.spawn(world, directory, std::move(options));
}

}  // namespace robocaf::sim
