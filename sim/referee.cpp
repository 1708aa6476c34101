#include "sim/referee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace robocaf::sim {

using Eigen::Vector2d;

namespace {

// Clearance kept beyond the strict limits so a robot placed on a boundary is
// not judged illegal by rounding on the next check.
constexpr double kMargin = 1e-3;
// Simulated time is a sum of physics steps: compare durations with a little
// slack so "2 s later" is not missed by one rounding error.
constexpr double kTimeEps = 1e-6;

std::string team_str(msg::Team t) { return t == msg::BLUE ? "blue" : t == msg::YELLOW ? "yellow" : "-"; }

std::string fmt(const Vector2d& p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.3f, %.3f)", p.x(), p.y());
  return buf;
}

std::string seconds(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", v);
  return buf;
}

std::string score_str(const msg::GameState& s) {
  return "blue " + std::to_string(s.score_blue()) + " - " + std::to_string(s.score_yellow()) +
         " yellow";
}

struct KickoffRules {
  double half_length, half_width, robot_r, keep_out;  // keep_out: min centre distance to the spot
  double side;                                         // +1: own half is x > 0
};

KickoffRules rules_for(const msg::LeaguePreset& league, bool on_positive_side, bool kicking) {
  const auto& f = league.field();
  const double r = league.robot().radius();
  KickoffRules k;
  k.half_length = 0.5 * f.length();
  k.half_width = 0.5 * f.width();
  k.robot_r = r;
  k.keep_out = kicking ? r + league.ball().radius() + kMargin : f.center_circle_radius() + r + kMargin;
  k.side = on_positive_side ? 1.0 : -1.0;
  return k;
}

bool legal(const KickoffRules& k, const Vector2d& p) {
  const double eps = 1e-9;
  return std::abs(p.x()) <= k.half_length - k.robot_r + eps &&
         std::abs(p.y()) <= k.half_width - k.robot_r + eps && k.side * p.x() >= k.robot_r - eps &&
         p.norm() >= k.keep_out - eps;
}

Vector2d clamp_box(const KickoffRules& k, const Vector2d& p) {
  const double xmin = k.robot_r + kMargin, xmax = k.half_length - k.robot_r;
  const double sx = std::clamp(k.side * p.x(), xmin, std::max(xmin, xmax));
  const double ymax = k.half_width - k.robot_r;
  return {k.side * sx, std::clamp(p.y(), -ymax, ymax)};
}

Vector2d nearest_legal(const KickoffRules& k, const Vector2d& p) {
  if (legal(k, p)) return p;
  const Vector2d c1 = clamp_box(k, p);
  Vector2d cands[5];
  int n = 0;
  cands[n++] = c1;
  const Vector2d dir = c1.norm() > 1e-12 ? Vector2d(c1.normalized()) : Vector2d(k.side, 0.0);
  cands[n++] = clamp_box(k, dir * k.keep_out);
  const double x_line = k.robot_r + kMargin;
  if (k.keep_out > x_line) {
    const double y = std::sqrt(k.keep_out * k.keep_out - x_line * x_line) + kMargin;
    cands[n++] = clamp_box(k, {k.side * x_line, y});
    cands[n++] = clamp_box(k, {k.side * x_line, -y});
  }
  cands[n++] = clamp_box(k, {k.side * (k.keep_out + kMargin), 0.0});
  Vector2d best = cands[n - 1];
  double best_d = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    if (!legal(k, cands[i])) continue;
    const double d = (cands[i] - p).squaredNorm();
    if (d < best_d) {
      best_d = d;
      best = cands[i];
    }
  }
  return best;
}

// A legal point near `want` not overlapping any of `taken` (robot centres).
Vector2d free_legal(const KickoffRules& k, const Vector2d& want, const std::vector<Vector2d>& taken) {
  const double clear = 2.0 * k.robot_r + kMargin;
  auto free = [&](const Vector2d& q) {
    return std::all_of(taken.begin(), taken.end(),
                       [&](const Vector2d& o) { return (o - q).norm() >= clear; });
  };
  const Vector2d first = nearest_legal(k, want);
  if (free(first)) return first;
  // Rings around the wanted point, nearest first, in a fixed order.
  for (int ring = 1; ring <= 60; ++ring) {
    const double rad = ring * k.robot_r;
    for (int a = 0; a < 24; ++a) {
      const double ang = a * (2.0 * M_PI / 24.0);
      const Vector2d q = first + rad * Vector2d(std::cos(ang), std::sin(ang));
      if (legal(k, q) && free(q)) return q;
    }
  }
  return first;  // the half is full: overlapping robots are Physics' to separate
}

std::string why_illegal(const KickoffRules& k, const Vector2d& p, bool kicking) {
  if (std::abs(p.x()) > k.half_length - k.robot_r || std::abs(p.y()) > k.half_width - k.robot_r)
    return "outside the field";
  if (k.side * p.x() < k.robot_r) return "not entirely in its own half";
  return kicking ? "on the ball" : "inside the centre circle";
}

}  // namespace

Referee::Referee(const msg::MatchConfig& config) : config_(config) {
  if (!(config_.half_duration() > 0.0)) {
    throw std::invalid_argument("Referee: MatchConfig.half_duration must be > 0 (got " +
                                std::to_string(config_.half_duration()) + ")");
  }
  if (!(config_.sim().stalemate_seconds() >= 0.0) || !(config_.sim().placement_seconds() >= 0.0)) {
    throw std::invalid_argument(
        "Referee: SimConfig.stalemate_seconds and placement_seconds must be >= 0");
  }
  state_.set_stage(msg::STAGE_PRE_GAME);
  state_.set_command(msg::REF_HALT);
  state_.set_kickoff_team(msg::BLUE);
  state_.set_blue_on_positive_side(false);  // +x is yellow's goal in the first half
  state_.set_stage_time_left(config_.half_duration());
}

bool Referee::in_play() const {
  return state_.command() == msg::REF_NORMAL_START || state_.command() == msg::REF_FORCE_START;
}

bool Referee::team_on_positive_side(msg::Team team) const {
  return (team == msg::BLUE) == state_.blue_on_positive_side();
}

void Referee::add_event(Events& ev, double t, msg::RefereeEventKind kind, msg::Team team,
                        std::uint32_t robot_id, const std::string& reason) const {
  msg::RefereeEvent e;
  e.set_t(t);
  e.set_kind(kind);
  e.set_team(team);
  e.set_robot_id(robot_id);
  e.set_reason(reason);
  e.set_score_blue(state_.score_blue());
  e.set_score_yellow(state_.score_yellow());
  ev.push_back(std::move(e));
}

void Referee::restart_clocks(const Physics& world, double t) {
  restart_time_ = t;
  anchor_ = world.ball_position();
  anchor_t_ = t;
}

std::vector<msg::RefereeEvent> Referee::update(Physics& world, double t, std::uint64_t cycle) {
  Events ev;
  if (state_.stage() == msg::STAGE_PRE_GAME) {
    last_t_ = t;
    begin_half(msg::STAGE_FIRST_HALF, msg::BLUE, world, t);
  }
  const double dt = std::max(0.0, t - last_t_);
  last_t_ = std::max(last_t_, t);
  const auto& sim = config_.sim();

  switch (state_.stage()) {
    case msg::STAGE_FIRST_HALF:
    case msg::STAGE_SECOND_HALF: {
      if (in_play()) {
        play_time_ += dt;
        report_shot(world, ev);
        int goal = world.take_goal_crossing();
        if (goal == 0) goal = world.ball_in_goal();
        if (goal != 0) {
          score_goal(goal, world, t, ev);
          break;
        }
      } else {
        world.take_goal_crossing();  // the ball is dead: nothing scores
        shots_seen_ = world.shot_count();
      }
      if (play_time_ >= config_.half_duration() - kTimeEps) {
        end_half(t, ev);
        break;
      }
      if (state_.command() == msg::REF_PREPARE_KICKOFF) {
        if (t - placement_start_ >= sim.placement_seconds() - kTimeEps) start_kickoff(world, t, ev);
        break;
      }
      if (in_play() && sim.stalemate_seconds() > 0.0) {
        if ((world.ball_position() - anchor_).norm() > kStuckRadius) {
          anchor_ = world.ball_position();
          anchor_t_ = t;
        }
        const Touch& touch = world.last_touch();
        const double since = std::max(restart_time_, touch.valid ? touch.t : restart_time_);
        if (t - since >= sim.stalemate_seconds() - kTimeEps) {
          free_ball("no robot touched the ball", world, t, ev);
        } else if (t - anchor_t_ >= sim.stalemate_seconds() - kTimeEps) {
          free_ball("the ball is stuck", world, t, ev);
        }
      }
      break;
    }
    case msg::STAGE_HALF_TIME:
      if (t - stage_start_ >= kHalfTimeSeconds - kTimeEps) {
        state_.set_blue_on_positive_side(!state_.blue_on_positive_side());
        add_event(ev, t, msg::REF_EVENT_SIDE_SWITCH, msg::TEAM_UNSPECIFIED, 0,
                  std::string("teams switch sides: blue now defends the ") +
                      (state_.blue_on_positive_side() ? "+x" : "-x") + " goal");
        begin_half(msg::STAGE_SECOND_HALF, msg::YELLOW, world, t);
      }
      break;
    case msg::STAGE_PRE_GAME:
    case msg::STAGE_POST_GAME:
    default:
      break;
  }

  state_.set_cycle(cycle);
  state_.set_t(t);
  switch (state_.stage()) {
    case msg::STAGE_FIRST_HALF:
    case msg::STAGE_SECOND_HALF:
      state_.set_stage_time_left(std::max(0.0, config_.half_duration() - play_time_));
      break;
    case msg::STAGE_HALF_TIME:
      state_.set_stage_time_left(std::max(0.0, kHalfTimeSeconds - (t - stage_start_)));
      break;
    default:
      state_.set_stage_time_left(0.0);
  }
  state_.clear_robots_blue();
  state_.clear_robots_yellow();
  for (const RobotKey& k : world.robot_keys()) {
    if (k.team == msg::BLUE) state_.add_robots_blue(k.id);
    if (k.team == msg::YELLOW) state_.add_robots_yellow(k.id);
  }
  return ev;
}

void Referee::report_shot(const Physics& world, Events& ev) {
  if (world.shot_count() == shots_seen_) return;
  shots_seen_ = world.shot_count();
  const Shot& s = world.last_shot();
  // Only shots at the opponents' goal: the team on the positive side attacks -x.
  const bool attacks_positive = !team_on_positive_side(s.team);
  if ((s.goal_side > 0) != attacks_positive) return;
  char speed[32];
  std::snprintf(speed, sizeof speed, "%.2f m/s", s.speed);
  add_event(ev, s.t, msg::REF_EVENT_SHOT, s.team, s.robot_id,
            team_str(s.team) + " " + std::to_string(s.robot_id) + " shoots at the " +
                (s.goal_side > 0 ? "+x" : "-x") + " goal at " + speed);
}

void Referee::begin_half(msg::Stage stage, msg::Team kickoff, Physics& world, double t) {
  state_.set_stage(stage);
  state_.set_command(msg::REF_PREPARE_KICKOFF);
  state_.set_kickoff_team(kickoff);
  play_time_ = 0.0;
  stage_start_ = t;
  placement_start_ = t;
  world.place_ball(Vector2d::Zero());
  world.take_goal_crossing();
  restart_clocks(world, t);
}

void Referee::start_kickoff(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = world.league();
  std::vector<Vector2d> taken;
  const auto keys = world.robot_keys();
  taken.reserve(keys.size());
  // Robots already legal keep their place; only offenders move, around them.
  std::vector<bool> ok(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool kicking = keys[i].team == state_.kickoff_team();
    const KickoffRules k = rules_for(league, team_on_positive_side(keys[i].team), kicking);
    const msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    ok[i] = legal(k, {p.x(), p.y()});
    if (ok[i]) taken.emplace_back(p.x(), p.y());
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (ok[i]) continue;
    const bool kicking = keys[i].team == state_.kickoff_team();
    const KickoffRules k = rules_for(league, team_on_positive_side(keys[i].team), kicking);
    msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d from(p.x(), p.y());
    const Vector2d to = free_legal(k, from, taken);
    taken.push_back(to);
    p.set_x(to.x());
    p.set_y(to.y());
    world.place_robot(keys[i].team, keys[i].id, p);
    add_event(ev, t, msg::REF_EVENT_REPOSITION, keys[i].team, keys[i].id,
              team_str(keys[i].team) + " " + std::to_string(keys[i].id) + " " +
                  why_illegal(k, from, kicking) + " at kick-off: moved from " + fmt(from) +
                  " to " + fmt(to));
  }
  const Vector2d ball = world.ball_position();
  if (ball.norm() > kMargin || world.ball_velocity().norm() > 0.0) {
    add_event(ev, t, msg::REF_EVENT_REPOSITION, msg::TEAM_UNSPECIFIED, 0,
              "ball at " + fmt(ball) + " placed on the centre spot for the kick-off");
  }
  world.place_ball(Vector2d::Zero());
  world.take_goal_crossing();
  state_.set_command(msg::REF_NORMAL_START);
  restart_clocks(world, t);
  add_event(ev, t, msg::REF_EVENT_KICKOFF, state_.kickoff_team(), 0,
            "kick-off for " + team_str(state_.kickoff_team()) + " (" +
                (state_.stage() == msg::STAGE_FIRST_HALF ? "first" : "second") + " half, " +
                score_str(state_) + ")");
}

void Referee::score_goal(int side, Physics& world, double t, Events& ev) {
  // The goal at +x is defended by the team on the positive side.
  const msg::Team conceding = team_on_positive_side(msg::BLUE) == (side > 0) ? msg::BLUE : msg::YELLOW;
  const msg::Team scoring = conceding == msg::BLUE ? msg::YELLOW : msg::BLUE;
  if (scoring == msg::BLUE) {
    state_.set_score_blue(state_.score_blue() + 1);
  } else {
    state_.set_score_yellow(state_.score_yellow() + 1);
  }
  const Touch& touch = world.last_touch();
  std::string by = "no robot touched it";
  std::uint32_t robot = 0;
  if (touch.valid) {
    by = "last touched by " + team_str(touch.team) + " " + std::to_string(touch.robot_id);
    if (touch.team == scoring) {
      robot = touch.robot_id;
    } else {
      by += " (own goal)";
    }
  }
  add_event(ev, t, msg::REF_EVENT_GOAL, scoring, robot,
            team_str(scoring) + " scores: the ball crossed the " + (side > 0 ? "+x" : "-x") +
                " goal line between the posts, " + by + "; " + score_str(state_));
  state_.set_command(msg::REF_PREPARE_KICKOFF);
  state_.set_kickoff_team(conceding);
  placement_start_ = t;
  world.place_ball(Vector2d::Zero());
  world.take_goal_crossing();
  restart_clocks(world, t);
}

void Referee::end_half(double t, Events& ev) {
  if (state_.stage() == msg::STAGE_FIRST_HALF) {
    add_event(ev, t, msg::REF_EVENT_HALF_END, msg::TEAM_UNSPECIFIED, 0,
              "first half over after " + seconds(config_.half_duration()) + " of play; " +
                  score_str(state_));
    state_.set_stage(msg::STAGE_HALF_TIME);
    state_.set_command(msg::REF_HALT);
    stage_start_ = t;
  } else {
    std::string result = state_.score_blue() > state_.score_yellow()   ? "blue wins"
                         : state_.score_blue() < state_.score_yellow() ? "yellow wins"
                                                                       : "draw";
    add_event(ev, t, msg::REF_EVENT_MATCH_END, msg::TEAM_UNSPECIFIED, 0,
              "match over: " + score_str(state_) + ", " + result);
    state_.set_stage(msg::STAGE_POST_GAME);
    state_.set_command(msg::REF_HALT);
  }
}

void Referee::free_ball(const char* why, Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = world.league();
  const Vector2d ball = world.ball_position();
  const Vector2d spot = free_ball_spot(league.field(), ball);
  add_event(ev, t, msg::REF_EVENT_STALEMATE, msg::TEAM_UNSPECIFIED, 0,
            std::string("stalemate: ") + why + " for " +
                seconds(config_.sim().stalemate_seconds()) + "; free ball at " +
                fmt(spot) + " (ball was at " + fmt(ball) + ")");
  // Robots standing on the spot step back so the ball can be put down.
  const double r = league.robot().radius();
  const double clear = r + league.ball().radius() + 0.01;
  for (const RobotKey& k : world.robot_keys()) {
    msg::Pose2 p = world.robot_pose(k.team, k.id);
    const Vector2d from(p.x(), p.y());
    const Vector2d d = from - spot;
    if (d.norm() >= clear) continue;
    const double back = team_on_positive_side(k.team) ? 1.0 : -1.0;
    const Vector2d dir = d.norm() > 1e-9 ? Vector2d(d.normalized()) : Vector2d(back, 0.0);
    const Vector2d want = spot + dir * (clear + 0.04);
    p.set_x(want.x());
    p.set_y(want.y());
    world.place_robot(k.team, k.id, p);
    const msg::Pose2 placed = world.robot_pose(k.team, k.id);
    const Vector2d to(placed.x(), placed.y());
    add_event(ev, t, msg::REF_EVENT_REPOSITION, k.team, k.id,
              team_str(k.team) + " " + std::to_string(k.id) + " on the free-ball spot: moved from " +
                  fmt(from) + " to " + fmt(to));
  }
  world.place_ball(spot);
  world.take_goal_crossing();
  state_.set_command(msg::REF_FORCE_START);
  restart_clocks(world, t);
}

Vector2d Referee::free_ball_spot(const msg::FieldGeometry& field, const Vector2d& p) {
  const double x = 0.25 * field.length(), y = 0.25 * field.width();
  return {p.x() >= 0.0 ? x : -x, p.y() >= 0.0 ? y : -y};
}

Vector2d Referee::nearest_legal_kickoff_point(const msg::LeaguePreset& league, const Vector2d& p,
                                              bool on_positive_side, bool kicking) {
  return nearest_legal(rules_for(league, on_positive_side, kicking), p);
}

std::vector<msg::Pose2> Referee::kickoff_positions(const msg::LeaguePreset& league, std::size_t n,
                                                   bool on_positive_side, bool kicking) {
  const auto& f = league.field();
  const double l = f.length(), w = f.width();
  const double r = league.robot().radius(), rb = league.ball().radius();
  // Laid out for the team defending -x, then mirrored.
  std::vector<Vector2d> slots = {
      {-0.5 * l + std::max(r + 0.02, 0.5 * f.goal_area_depth()), 0.0},  // keeper
      kicking ? Vector2d(-(r + rb + 0.01), 0.0) : Vector2d(-(f.center_circle_radius() + r + 0.05), 0.0),
      {-0.15 * l, 0.25 * w},
      {-0.15 * l, -0.25 * w},
      {-0.3 * l, 0.1 * w},
      {-0.3 * l, -0.1 * w},
  };
  for (double fx : {0.1, 0.2, 0.3, 0.4}) {
    for (double fy : {0.4, -0.4, 0.2, -0.2, 0.0}) slots.emplace_back(-fx * l, fy * w);
  }
  const KickoffRules k = rules_for(league, false, kicking);
  std::vector<Vector2d> taken;
  std::vector<msg::Pose2> out;
  for (std::size_t i = 0; i < n; ++i) {
    const Vector2d want = i < slots.size() ? slots[i] : Vector2d(-0.25 * l, 0.0);
    const Vector2d q = free_legal(k, want, taken);
    taken.push_back(q);
    msg::Pose2 p;
    p.set_x(on_positive_side ? -q.x() : q.x());
    p.set_y(q.y());
    p.set_theta(on_positive_side ? M_PI : 0.0);
    out.push_back(p);
  }
  return out;
}

std::vector<msg::Pose2> Referee::kickoff_positions(msg::Team team, std::size_t n) const {
  return kickoff_positions(config_.league(), n, team_on_positive_side(team),
                           team == state_.kickoff_team());
}

}  // namespace robocaf::sim
