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

msg::Team other_team(msg::Team t) {
  return t == msg::BLUE ? msg::YELLOW : t == msg::YELLOW ? msg::BLUE : msg::TEAM_UNSPECIFIED;
}

std::string robot_str(msg::Team team, std::uint32_t id) { return team_str(team) + " " + std::to_string(id); }

std::string speed_str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f m/s", v);
  return buf;
}

std::string metres(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f m", v);
  return buf;
}

const char* command_str(msg::RefereeCommand c) {
  switch (c) {
    case msg::REF_HALT: return "HALT";
    case msg::REF_STOP: return "STOP";
    case msg::REF_PREPARE_KICKOFF: return "PREPARE_KICKOFF";
    case msg::REF_NORMAL_START: return "NORMAL_START";
    case msg::REF_FORCE_START: return "FORCE_START";
    case msg::REF_PREPARE_RESTART: return "PREPARE_RESTART";
    default: return "unknown command";
  }
}

const char* restart_str(msg::RestartKind k) {
  switch (k) {
    case msg::RESTART_KICKOFF: return "kick-off";
    case msg::RESTART_FREE_KICK: return "free kick";
    case msg::RESTART_GOAL_KICK: return "goal kick";
    case msg::RESTART_CORNER_KICK: return "corner kick";
    case msg::RESTART_THROW_IN: return "throw-in";
    case msg::RESTART_PENALTY: return "penalty";
    case msg::RESTART_FREE_BALL: return "free ball";
    case msg::RESTART_DROP_BALL: return "drop ball";
    default: return "restart";
  }
}

Vector2d from_vec(const msg::Vec2& v) { return {v.x(), v.y()}; }

// Where a robot that must keep `min_dist` (centre to centre) from the ball at
// `spot` goes: the free point nearest to `from` with the robot inside the
// field, its centre out of both goal areas and clear of the `taken` centres.
// Candidates lie on rings around the spot, the first at min_dist, and
// include the point straight away from the spot, so a robot with room behind
// it moves straight back.
Vector2d keep_away_point(const msg::LeaguePreset& league, const Vector2d& spot, const Vector2d& from,
                         double min_dist, const std::vector<Vector2d>& taken) {
  const auto& f = league.field();
  const double r = league.robot().radius();
  const double xmax = 0.5 * f.length() - r, ymax = 0.5 * f.width() - r;
  const double clear = 2.0 * r + kMargin;
  auto legal = [&](const Vector2d& q) {
    if (std::abs(q.x()) > xmax || std::abs(q.y()) > ymax) return false;
    if ((q - spot).norm() < min_dist) return false;
    if (Referee::goal_area_side(f, q) != 0) return false;
    return std::all_of(taken.begin(), taken.end(), [&](const Vector2d& o) { return (o - q).norm() >= clear; });
  };
  const Vector2d away = from - spot;
  const double from_dist = away.norm();
  // Coincident with the spot: back towards the middle of the field.
  const Vector2d dir = from_dist > 1e-9 ? Vector2d(away / from_dist)
                       : spot.norm() > 1e-9 ? Vector2d(-spot.normalized())
                                             : Vector2d(1.0, 0.0);
  const double first = min_dist + kMargin;
  const double step = std::max(r, 0.01);
  const double reach = std::hypot(f.length(), f.width());
  Vector2d best = spot + dir * first;
  double best_d = std::numeric_limits<double>::infinity();
  if (legal(best)) return best;
  constexpr int kAngles = 72;
  for (double rad = first; rad <= first + reach; rad += step) {
    // No point on this ring or beyond can beat the best one found.
    if (rad - from_dist >= best_d) break;
    const Vector2d radial = spot + dir * rad;
    if (legal(radial) && (radial - from).norm() < best_d) {
      best = radial;
      best_d = (radial - from).norm();
    }
    for (int a = 0; a < kAngles; ++a) {
      const double ang = a * (2.0 * M_PI / kAngles);
      const Vector2d q = spot + rad * Vector2d(std::cos(ang), std::sin(ang));
      const double d = (q - from).norm();
      if (d < best_d && legal(q)) {
        best = q;
        best_d = d;
      }
    }
  }
  return best;  // nowhere legal: Physics separates overlapping robots
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
  const auto& rules = config_.league().rules();
  if (!(rules.pushing_seconds() >= 0.0) || !(rules.pushing_speed() >= 0.0) ||
      !(rules.restart_distance() >= 0.0) || !(rules.restart_timeout() >= 0.0)) {
    throw std::invalid_argument(
        "Referee: LeaguePreset.rules.pushing_seconds, pushing_speed, restart_distance and restart_timeout must "
        "be >= 0");
  }
  state_.set_stage(msg::STAGE_PRE_GAME);
  state_.set_command(msg::REF_HALT);
  state_.set_kickoff_team(msg::BLUE);
  state_.set_blue_on_positive_side(false);  // +x is yellow's goal in the first half
  state_.set_stage_time_left(config_.half_duration());
}

void Referee::open_with_restart(msg::RestartKind kind, msg::Team team, const Vector2d& spot) {
  const bool team_restart = kind == msg::RESTART_FREE_KICK || kind == msg::RESTART_GOAL_KICK ||
                            kind == msg::RESTART_CORNER_KICK || kind == msg::RESTART_THROW_IN;
  if (!team_restart && kind != msg::RESTART_DROP_BALL)
    throw std::invalid_argument(std::string("Referee: a match cannot open with a ") + restart_str(kind));
  if (team_restart && team != msg::BLUE && team != msg::YELLOW)
    throw std::invalid_argument(std::string("Referee: the opening ") + restart_str(kind) + " needs a team");
  if (!spot.allFinite()) throw std::invalid_argument("Referee: the opening restart's spot is not a number");
  if (state_.stage() != msg::STAGE_PRE_GAME)
    throw std::invalid_argument("Referee: the match has begun; it can no longer open with a restart");
  opening_ = {kind, team_restart ? team : msg::TEAM_UNSPECIFIED, spot};
}

bool Referee::in_play() const {
  return state_.command() == msg::REF_NORMAL_START || state_.command() == msg::REF_FORCE_START;
}

bool Referee::team_on_positive_side(msg::Team team) const {
  return (team == msg::BLUE) == state_.blue_on_positive_side();
}

msg::Team Referee::defender_of(int goal_side) const {
  return team_on_positive_side(msg::BLUE) == (goal_side > 0) ? msg::BLUE : msg::YELLOW;
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
  restart_stalemate_clocks(world, t);
  reset_foul_clocks();
}

void Referee::restart_stalemate_clocks(const Physics& world, double t) {
  restart_time_ = t;
  anchor_ = world.ball_position();
  anchor_t_ = t;
}

void Referee::reset_foul_clocks() {
  crowded_since_[0] = crowded_since_[1] = -1.0;
  pushing_since_.clear();
}

void Referee::set_restart(msg::RestartKind kind, msg::Team team, const Vector2d& spot) {
  state_.set_restart(kind);
  state_.set_restart_team(team);
  state_.mutable_ball_spot()->set_x(spot.x());
  state_.mutable_ball_spot()->set_y(spot.y());
}

std::vector<msg::RefereeEvent> Referee::update(Physics& world, double t, std::uint64_t cycle) {
  Events ev;
  if (state_.stage() == msg::STAGE_PRE_GAME) {
    last_t_ = t;
    begin_half(msg::STAGE_FIRST_HALF, msg::BLUE, world, t, ev);
  }
  const double dt = std::max(0.0, t - last_t_);
  last_t_ = std::max(last_t_, t);
  const auto& sim = config_.sim();

  switch (state_.stage()) {
    case msg::STAGE_FIRST_HALF:
    case msg::STAGE_SECOND_HALF: {
      if (state_.command() != msg::REF_NORMAL_START) state_.set_waiting_for_taker(false);
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
        reset_foul_clocks();
      }
      if (play_time_ >= config_.half_duration() - kTimeEps) {
        end_half(t, ev);
        break;
      }
      if (state_.command() == msg::REF_PREPARE_KICKOFF) {
        if (t - placement_start_ >= kickoff_placement_seconds_ - kTimeEps) start_kickoff(world, t, ev);
        break;
      }
      if (state_.command() == msg::REF_PREPARE_RESTART) {
        if (t - placement_start_ >= sim.placement_seconds() - kTimeEps) start_restart(world, t, ev);
        break;
      }
      if (!in_play()) break;
      if (state_.waiting_for_taker()) check_taker(world, t, ev);
      if (check_ball_out(world, t, ev) || check_goal_area(world, t, ev) || check_pushing(world, t, ev)) break;
      if (sim.stalemate_seconds() > 0.0) {
        if ((world.ball_position() - anchor_).norm() > kStuckRadius) {
          anchor_ = world.ball_position();
          anchor_t_ = t;
        }
        const Touch& touch = world.last_touch();
        const double since = std::max(restart_time_, touch.valid ? touch.t : restart_time_);
        if (t - since >= sim.stalemate_seconds() - kTimeEps) {
          stalemate("no robot touched the ball", world, t, ev);
        } else if (t - anchor_t_ >= sim.stalemate_seconds() - kTimeEps) {
          stalemate("the ball is stuck", world, t, ev);
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
        begin_half(msg::STAGE_SECOND_HALF, msg::YELLOW, world, t, ev);
      }
      break;
    case msg::STAGE_PRE_GAME:
    case msg::STAGE_POST_GAME:
    default:
      break;
  }

  prev_ball_ = world.ball_position();
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

std::vector<msg::RefereeEvent> Referee::apply_manual(const msg::ManualRefereeCommand& command, Physics& world,
                                                     double t) {
  Events ev;
  const msg::RefereeCommand c = command.command();
  const msg::Team team = command.team();
  const bool named = team == msg::BLUE || team == msg::YELLOW;
  const std::string given = command.reason().empty() ? "no reason given" : command.reason();
  const std::string what = std::string("manual ") + command_str(c) + (named ? " for " + team_str(team) : "");
  auto refuse = [&](const std::string& why) {
    add_event(ev, t, msg::REF_EVENT_MANUAL, team, 0, what + " refused: " + why + " (" + given + ")");
    return ev;
  };
  auto accept = [&](const std::string& done) {
    add_event(ev, t, msg::REF_EVENT_MANUAL, team, 0, what + ": " + done + " (" + given + ")");
    return ev;
  };
  // Accepted, and then what the referee did placing the ball for it.
  auto accept_placed = [&](const std::string& done, const Events& placed) {
    accept(done);
    ev.insert(ev.end(), placed.begin(), placed.end());
    return ev;
  };
  const bool in_half = state_.stage() == msg::STAGE_FIRST_HALF || state_.stage() == msg::STAGE_SECOND_HALF;
  if (!in_half) {
    if (c == msg::REF_HALT) return accept("nothing to halt, play is already stopped");
    const char* stage = state_.stage() == msg::STAGE_PRE_GAME    ? "the match has not begun"
                        : state_.stage() == msg::STAGE_HALF_TIME ? "it is half time"
                                                                  : "the match is over";
    return refuse(stage);
  }
  // Time until now belongs to the state before the command: the clock must
  // not count a halted stretch as play, nor lose played time.
  if (in_play()) play_time_ += std::max(0.0, t - last_t_);
  last_t_ = std::max(last_t_, t);
  switch (c) {
    case msg::REF_HALT:
    case msg::REF_STOP:
      // Stopping a running game leaves nothing to resume; stopping a
      // preparation keeps its kick-off or restart for the next start.
      if (in_play()) set_restart(msg::RESTART_NONE, msg::TEAM_UNSPECIFIED, world.ball_position());
      state_.set_command(c);
      reset_foul_clocks();
      return accept(std::string(c == msg::REF_HALT ? "all robots halt" : "play stopped") +
                    ", the clock stops until play is started again");
    case msg::REF_PREPARE_KICKOFF: {
      if (!named) return refuse("a kick-off needs the team that takes it");
      Events placed;
      prepare_kickoff(team, world, t, placed);
      return accept_placed("ball on the centre spot, kick-off for " + team_str(team) + " after " +
                               seconds(config_.sim().placement_seconds()),
                           placed);
    }
    case msg::REF_PREPARE_RESTART: {
      if (!named) return refuse("a free kick needs the team that takes it");
      const Vector2d spot = legal_ball_spot(config_.league(), world.ball_position());
      Events placed;
      prepare_restart(msg::RESTART_FREE_KICK, team, spot, msg::REF_EVENT_FREE_KICK,
                      "free kick for " + team_str(team) + " at " + fmt(spot) + " by the human referee",
                      world, t, placed);
      return accept_placed("free kick for " + team_str(team) + " at " + fmt(spot), placed);
    }
    case msg::REF_NORMAL_START: {
      if (in_play()) return refuse("the ball is already in play");
      msg::Team taker = team;
      if (!named) {
        taker = state_.restart() == msg::RESTART_NONE ? msg::TEAM_UNSPECIFIED : state_.restart_team();
      }
      if (taker != msg::BLUE && taker != msg::YELLOW) {
        return refuse("no team to take it: name one, or use FORCE_START");
      }
      if (state_.restart() == msg::RESTART_NONE || state_.restart() == msg::RESTART_DROP_BALL ||
          state_.restart() == msg::RESTART_FREE_BALL) {
        set_restart(msg::RESTART_FREE_KICK, taker, world.ball_position());
      } else {
        state_.set_restart_team(taker);
      }
      if (state_.restart() == msg::RESTART_KICKOFF) state_.set_kickoff_team(taker);
      state_.set_command(msg::REF_NORMAL_START);
      world.take_goal_crossing();
      shots_seen_ = world.shot_count();
      restart_clocks(world, t);
      wait_for_taker(world);
      return accept(std::string(restart_str(state_.restart())) + " taken by " + team_str(taker) +
                    ", ball in play at " + fmt(world.ball_position()));
    }
    case msg::REF_FORCE_START:
      if (in_play()) return refuse("the ball is already in play");
      set_restart(msg::RESTART_NONE, msg::TEAM_UNSPECIFIED, world.ball_position());
      state_.set_command(msg::REF_FORCE_START);
      world.take_goal_crossing();
      shots_seen_ = world.shot_count();
      restart_clocks(world, t);
      return accept("either team may play the ball at " + fmt(world.ball_position()));
    default:
      return refuse("not a command a human can give");
  }
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

void Referee::begin_half(msg::Stage stage, msg::Team kickoff, Physics& world, double t, Events& ev) {
  state_.set_stage(stage);
  play_time_ = 0.0;
  stage_start_ = t;
  if (stage == msg::STAGE_FIRST_HALF && opening_.kind != msg::RESTART_NONE) {
    const msg::RefereeEventKind event = opening_.kind == msg::RESTART_FREE_KICK     ? msg::REF_EVENT_FREE_KICK
                                        : opening_.kind == msg::RESTART_GOAL_KICK   ? msg::REF_EVENT_GOAL_KICK
                                        : opening_.kind == msg::RESTART_CORNER_KICK ? msg::REF_EVENT_CORNER_KICK
                                        : opening_.kind == msg::RESTART_THROW_IN    ? msg::REF_EVENT_THROW_IN
                                                                                    : msg::REF_EVENT_DROP_BALL;
    prepare_restart(opening_.kind, opening_.team, opening_.spot, event,
                    std::string("the match opens with a ") + restart_str(opening_.kind) + " at " + fmt(opening_.spot),
                    world, t, ev);
    return;
  }
  prepare_kickoff(kickoff, world, t, ev);
  if (stage == msg::STAGE_SECOND_HALF) {
    // Every robot changes halves, the keeper from one goal to the other:
    // the placement time plus a run the field's length at top speed.
    const double top_speed = world.league().robot().max_speed();
    if (top_speed > 0.0) kickoff_placement_seconds_ += world.league().field().length() / top_speed;
  }
}

void Referee::prepare_kickoff(msg::Team team, Physics& world, double t, Events& ev) {
  state_.set_command(msg::REF_PREPARE_KICKOFF);
  state_.set_kickoff_team(team);
  set_restart(msg::RESTART_KICKOFF, team, Vector2d::Zero());
  placement_start_ = t;
  kickoff_placement_seconds_ = config_.sim().placement_seconds();
  // A robot standing where the ball is put would shove it off at once (MSL:
  // the other team's robot by the centre spot after our goal sent it
  // rolling into our half at 2.3 m/s, and our robot running back pushed it
  // along the touch line, off the field at the kick-off).
  move_robots_off_ball(Vector2d::Zero(), "on the centre spot", world, t, ev);
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
  wait_for_taker(world);
  add_event(ev, t, msg::REF_EVENT_KICKOFF, state_.kickoff_team(), 0,
            "kick-off for " + team_str(state_.kickoff_team()) + " (" +
                (state_.stage() == msg::STAGE_FIRST_HALF ? "first" : "second") + " half, " +
                score_str(state_) + ")");
}

void Referee::score_goal(int side, Physics& world, double t, Events& ev) {
  // The goal at +x is defended by the team on the positive side.
  const msg::Team conceding = defender_of(side);
  const msg::Team scoring = other_team(conceding);
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
  prepare_kickoff(conceding, world, t, ev);
}

void Referee::end_half(double t, Events& ev) {
  set_restart(msg::RESTART_NONE, msg::TEAM_UNSPECIFIED, Vector2d::Zero());
  reset_foul_clocks();
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

bool Referee::check_ball_out(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const auto& f = league.field();
  if (f.walls()) return false;  // the ball bounces back: it never leaves the field
  const double l2 = 0.5 * f.length(), w2 = 0.5 * f.width();
  const double rb = league.ball().radius();
  const Vector2d b = world.ball_position();
  const bool past_touch = std::abs(b.y()) > w2;
  const bool past_goal = std::abs(b.x()) > l2;
  if (!past_touch && !past_goal) return false;
  // Between the posts and not yet a goal (the ball is entering it): in play.
  const bool in_goal_mouth = !past_touch && std::abs(b.y()) < 0.5 * f.goal_width() &&
                             std::abs(b.x()) <= l2 + std::max(f.goal_depth(), rb);
  if (in_goal_mouth) return false;

  // Where it crossed: the first field line on the way from the previous
  // update's position, which a fast ball may have left far behind.
  bool touch_line = false;
  Vector2d cross = b;
  const Vector2d p0 = prev_ball_;
  if (std::abs(p0.x()) <= l2 && std::abs(p0.y()) <= w2) {
    const Vector2d d = b - p0;
    const double inf = std::numeric_limits<double>::infinity();
    const double tx = past_goal ? ((b.x() > 0 ? l2 : -l2) - p0.x()) / d.x() : inf;
    const double ty = past_touch ? ((b.y() > 0 ? w2 : -w2) - p0.y()) / d.y() : inf;
    touch_line = ty <= tx;
    cross = p0 + std::clamp(std::min(tx, ty), 0.0, 1.0) * d;
  } else {
    // It was already outside (put there by hand): the line it is furthest past.
    touch_line = std::abs(b.y()) - w2 >= std::abs(b.x()) - l2;
  }
  const int sx = cross.x() >= 0.0 ? 1 : -1, sy = cross.y() >= 0.0 ? 1 : -1;

  const Touch& touch = world.last_touch();
  const std::string by =
      touch.valid ? "last touched by " + robot_str(touch.team, touch.robot_id) : "touched by nobody";
  const std::string line = touch_line ? std::string(sy > 0 ? "+y" : "-y") + " touch line"
                                      : std::string(sx > 0 ? "+x" : "-x") + " goal line (" +
                                            team_str(defender_of(sx)) + "'s)";
  add_event(ev, t, msg::REF_EVENT_BALL_OUT, touch.valid ? touch.team : msg::TEAM_UNSPECIFIED,
            touch.valid ? touch.robot_id : 0,
            "ball out over the " + line + " at " + fmt(cross) + ", " + by);

  // Throw-ins and corners are taken a little inside the lines (SSL: 0.2 m),
  // so the taker can stand behind the ball without leaving the field.
  const double inset = std::max(rb, league.rules().line_restart_inset());
  if (touch_line) {
    const Vector2d spot(std::clamp(cross.x(), -(l2 - inset), l2 - inset), sy * (w2 - inset));
    if (!touch.valid) {
      prepare_restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, spot, msg::REF_EVENT_DROP_BALL,
                      "drop ball at " + fmt(spot) + " on the " + line + ": nobody touched the ball",
                      world, t, ev);
      return true;
    }
    const msg::Team taker = other_team(touch.team);
    prepare_restart(msg::RESTART_THROW_IN, taker, spot, msg::REF_EVENT_THROW_IN,
                    "throw-in for " + team_str(taker) + " at " + fmt(spot) + " on the " + line +
                        " where the ball left, " + by,
                    world, t, ev);
    return true;
  }
  const msg::Team defenders = defender_of(sx), attackers = other_team(defenders);
  if (touch.valid && touch.team == defenders) {
    const Vector2d spot(sx * (l2 - inset), sy * (w2 - inset));
    prepare_restart(msg::RESTART_CORNER_KICK, attackers, spot, msg::REF_EVENT_CORNER_KICK,
                    "corner kick for " + team_str(attackers) + " at " + fmt(spot) + ": " +
                        team_str(defenders) + " put the ball over its own goal line (" + by + ")",
                    world, t, ev);
  } else {
    const Vector2d spot = goal_kick_spot(league, sx, sy);
    prepare_restart(msg::RESTART_GOAL_KICK, defenders, spot, msg::REF_EVENT_GOAL_KICK,
                    "goal kick for " + team_str(defenders) + " at " + fmt(spot) +
                        " beside its goal area on the side the ball left (" + by + ")",
                    world, t, ev);
  }
  return true;
}

bool Referee::check_goal_area(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const std::uint32_t limit = league.rules().max_defenders_in_goal_area();
  if (limit == 0) return false;
  const auto& f = league.field();
  for (int side : {-1, 1}) {
    const msg::Team defenders = defender_of(side);
    std::vector<std::uint32_t> inside;
    for (const RobotKey& k : world.robot_keys()) {
      if (k.team != defenders) continue;
      const msg::Pose2 p = world.robot_pose(k.team, k.id);
      if (goal_area_side(f, {p.x(), p.y()}) == side) inside.push_back(k.id);
    }
    double& since = crowded_since_[side > 0 ? 1 : 0];
    if (inside.size() <= limit) {
      since = -1.0;
      continue;
    }
    if (since < 0.0) since = t;
    if (t - since < kGoalAreaGraceSeconds - kTimeEps) continue;

    std::string ids;
    for (std::uint32_t id : inside) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    add_event(ev, t, msg::REF_EVENT_FOUL_GOAL_AREA, defenders, inside.back(),
              team_str(defenders) + " has " + std::to_string(inside.size()) + " robots (" + ids +
                  ") in its goal area at " + (side > 0 ? "+x" : "-x") + " for " +
                  seconds(kGoalAreaGraceSeconds) + "; at most " + std::to_string(limit) +
                  " allowed");
    const double depth = f.goal_area_depth() + league.rules().restart_distance() + league.robot().radius();
    const Vector2d spot = legal_ball_spot(league, {side * (0.5 * f.length() - depth), 0.0});
    const msg::Team taker = other_team(defenders);
    prepare_restart(msg::RESTART_FREE_KICK, taker, spot, msg::REF_EVENT_FREE_KICK,
                    "free kick for " + team_str(taker) + " at " + fmt(spot) + " in front of " +
                        team_str(defenders) + "'s goal area: too many defenders in it",
                    world, t, ev);
    return true;
  }
  return false;
}

bool Referee::check_pushing(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const auto& rules = league.rules();
  if (!(rules.pushing_seconds() > 0.0)) return false;
  const double r = league.robot().radius();
  const double contact = (2.0 + kPushContactTolerance) * r;
  const auto keys = world.robot_keys();
  std::vector<Vector2d> pos;
  pos.reserve(keys.size());
  for (const RobotKey& k : keys) {
    const msg::Pose2 p = world.robot_pose(k.team, k.id);
    pos.emplace_back(p.x(), p.y());
  }
  // Everyone pushing now keeps (or starts) a clock; the others lose theirs.
  std::map<Key, double> still;
  std::map<Key, std::size_t> victim;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Vector2d drive = world.drive_velocity(keys[i].team, keys[i].id);
    for (std::size_t j = 0; j < keys.size(); ++j) {
      if (keys[j].team == keys[i].team) continue;
      const Vector2d d = pos[j] - pos[i];
      const double dist = d.norm();
      if (dist >= contact || dist < 1e-12) continue;
      if (drive.dot(d / dist) <= rules.pushing_speed()) continue;
      const Key key{keys[i].team, keys[i].id};
      auto was = pushing_since_.find(key);
      still[key] = was == pushing_since_.end() ? t : was->second;
      victim[key] = j;
      break;
    }
  }
  pushing_since_ = std::move(still);
  const Key* pusher = nullptr;
  for (const auto& [key, since] : pushing_since_) {
    if (t - since < rules.pushing_seconds() - kTimeEps) continue;
    if (pusher == nullptr || since < pushing_since_.at(*pusher)) pusher = &key;
  }
  if (pusher == nullptr) return false;

  const auto team = static_cast<msg::Team>(pusher->first);
  const std::uint32_t id = pusher->second;
  const std::size_t j = victim.at(*pusher);
  const msg::Pose2 pp = world.robot_pose(team, id);
  const Vector2d into = (pos[j] - Vector2d(pp.x(), pp.y())).normalized();
  add_event(ev, t, msg::REF_EVENT_FOUL_PUSHING, team, id,
            robot_str(team, id) + " pushed " + robot_str(keys[j].team, keys[j].id) + " at " + fmt(pos[j]) +
                " for " + seconds(rules.pushing_seconds()) + " (driving into it at " +
                speed_str(world.drive_velocity(team, id).dot(into)) + ", more than " +
                speed_str(rules.pushing_speed()) + ")");
  const Vector2d spot = legal_ball_spot(league, world.ball_position());
  const msg::Team taker = other_team(team);
  prepare_restart(msg::RESTART_FREE_KICK, taker, spot, msg::REF_EVENT_FREE_KICK,
                  "free kick for " + team_str(taker) + " at " + fmt(spot) + " (the ball's place) for " +
                      robot_str(team, id) + "'s pushing",
                  world, t, ev);
  return true;
}

void Referee::stalemate(const char* why, Physics& world, double t, Events& ev) {
  const Vector2d ball = world.ball_position();
  add_event(ev, t, msg::REF_EVENT_STALEMATE, msg::TEAM_UNSPECIFIED, 0,
            std::string("stalemate: ") + why + " for " + seconds(config_.sim().stalemate_seconds()) +
                " (ball at " + fmt(ball) + ")");
  if (config_.league().rules().stalemate_restart() == msg::STALEMATE_DROP_BALL) {
    const Vector2d spot = legal_ball_spot(config_.league(), ball);
    prepare_restart(msg::RESTART_DROP_BALL, msg::TEAM_UNSPECIFIED, spot, msg::REF_EVENT_DROP_BALL,
                    "drop ball at " + fmt(spot) + " after the stalemate (ball was at " + fmt(ball) +
                        "); either team may play it when it is in play",
                    world, t, ev);
  } else {
    free_ball(world, t, ev);
  }
}

void Referee::free_ball(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = world.league();
  const Vector2d ball = world.ball_position();
  const Vector2d spot = free_ball_spot(league.field(), ball);
  add_event(ev, t, msg::REF_EVENT_FREE_BALL, msg::TEAM_UNSPECIFIED, 0,
            "free ball at " + fmt(spot) + ", the free-ball spot nearest to the ball at " + fmt(ball));
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
    add_event(ev, t, msg::REF_EVENT_SPOT_CLEARED, k.team, k.id,
              team_str(k.team) + " " + std::to_string(k.id) + " on the free-ball spot: moved from " +
                  fmt(from) + " to " + fmt(to));
  }
  world.place_ball(spot);
  world.take_goal_crossing();
  set_restart(msg::RESTART_FREE_BALL, msg::TEAM_UNSPECIFIED, spot);
  state_.set_command(msg::REF_FORCE_START);
  restart_clocks(world, t);
}

void Referee::prepare_restart(msg::RestartKind kind, msg::Team team, const Vector2d& spot,
                              msg::RefereeEventKind event, const std::string& reason, Physics& world,
                              double t, Events& ev) {
  add_event(ev, t, event, team, 0, reason);
  set_restart(kind, team, spot);
  state_.set_command(msg::REF_PREPARE_RESTART);
  placement_start_ = t;
  move_robots_off_ball(spot, std::string("on the ") + restart_str(kind) + " spot", world, t, ev);
  world.place_ball(spot);
  world.take_goal_crossing();
  shots_seen_ = world.shot_count();
  restart_clocks(world, t);
}

void Referee::move_robots_off_ball(const Vector2d& spot, const std::string& where, Physics& world, double t,
                                   Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const double on_ball = league.robot().radius() + league.ball().radius() + kMargin;
  const auto keys = world.robot_keys();
  std::vector<Vector2d> taken;
  std::vector<std::size_t> movers;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d c(p.x(), p.y());
    if ((c - spot).norm() < on_ball) {
      movers.push_back(i);
    } else {
      taken.push_back(c);
    }
  }
  for (std::size_t i : movers) {
    msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d from(p.x(), p.y());
    const Vector2d to = keep_away_point(league, spot, from, on_ball + 0.01, taken);
    taken.push_back(to);
    p.set_x(to.x());
    p.set_y(to.y());
    world.place_robot(keys[i].team, keys[i].id, p);
    add_event(ev, t, msg::REF_EVENT_SPOT_CLEARED, keys[i].team, keys[i].id,
              robot_str(keys[i].team, keys[i].id) + " " + where + ": moved from " + fmt(from) + " to " +
                  fmt(to));
  }
}

void Referee::wait_for_taker(const Physics& world) {
  state_.set_waiting_for_taker(config_.league().rules().restart_timeout() > 0.0);
  taker_spot_ = world.ball_position();
}

void Referee::check_taker(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const msg::Team taker = state_.restart_team();
  const bool kickoff = state_.restart() == msg::RESTART_KICKOFF;
  const std::string what = restart_str(state_.restart());
  const double distance = league.rules().restart_distance();
  const auto keys = world.robot_keys();
  auto xy = [](const msg::Pose2& p) { return Vector2d(p.x(), p.y()); };
  // Sends robot i back to the nearest place it may stand, clear of the others.
  auto send_back = [&](std::size_t i, const std::string& did) {
    std::vector<Vector2d> taken;
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (k != i) taken.push_back(xy(world.robot_pose(keys[k].team, keys[k].id)));
    msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d from(p.x(), p.y());
    const Vector2d to = kickoff ? free_legal(rules_for(league, team_on_positive_side(keys[i].team), false), from, taken)
                                : keep_away_point(league, taker_spot_, from, distance, taken);
    p.set_x(to.x());
    p.set_y(to.y());
    world.place_robot(keys[i].team, keys[i].id, p);
    add_event(ev, t, msg::REF_EVENT_ENCROACHMENT, keys[i].team, keys[i].id,
              robot_str(keys[i].team, keys[i].id) + " " + did + " before " + team_str(taker) + " took the " + what +
                  ": moved from " + fmt(from) + " to " + fmt(to));
  };
  const Touch& touch = world.last_touch();
  if ((world.ball_position() - taker_spot_).norm() > kInPlayDistance) {
    if (!(touch.valid && touch.t >= restart_time_ && touch.team != taker)) {
      state_.set_waiting_for_taker(false);  // taken: in play for both
      return;
    }
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i].team == touch.team && keys[i].id == touch.robot_id) send_back(i, "played the ball");
    world.place_ball(taker_spot_);
    return;
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].team == taker) continue;
    const Vector2d p = xy(world.robot_pose(keys[i].team, keys[i].id));
    if (kickoff) {
      const KickoffRules k = rules_for(league, team_on_positive_side(keys[i].team), false);
      if (p.norm() < k.keep_out - kEncroachTolerance) send_back(i, "entered the centre circle");
      else if (k.side * p.x() < k.robot_r - kEncroachTolerance) send_back(i, "crossed the halfway line");
    } else if ((p - taker_spot_).norm() < distance - kEncroachTolerance) {
      send_back(i, "came closer than " + metres(distance) + " to the ball");
    }
  }
  if (t - restart_time_ >= league.rules().restart_timeout() - kTimeEps) {
    state_.set_waiting_for_taker(false);
    add_event(ev, t, msg::REF_EVENT_BALL_IN_PLAY, taker, 0,
              team_str(taker) + " did not take the " + what + " within " +
                  seconds(league.rules().restart_timeout()) + ": the ball is in play for both teams");
    // Play is open to both teams only now: the stalemate clocks start here.
    // Counted from the restart's start, the stalemate (MSL: 10 s, as the
    // timeout) fell on this very update and the team kept off the ball
    // never got to play it.
    restart_stalemate_clocks(world, t);
  }
}

void Referee::start_restart(Physics& world, double t, Events& ev) {
  const msg::LeaguePreset& league = config_.league();
  const Vector2d spot = from_vec(state_.ball_spot());
  const msg::Team taker = state_.restart_team();
  const bool neutral = taker != msg::BLUE && taker != msg::YELLOW;
  const double distance = league.rules().restart_distance();
  const double on_ball = league.robot().radius() + league.ball().radius() + kMargin;
  const std::string what = restart_str(state_.restart());

  // Robots already where they may stand keep their place; offenders move
  // around them, in (team, id) order.
  const auto keys = world.robot_keys();
  std::vector<Vector2d> taken;
  struct Mover {
    std::size_t index;
    double keep;      // centre distance it must keep from the ball
    std::string why;
  };
  // A team with more robots in its own goal area than the rules allow would
  // be called again as soon as play starts: the ones furthest from the goal
  // leave it now (the one nearest, its keeper, stays).
  std::vector<bool> crowding(keys.size(), false);
  const std::uint32_t limit = league.rules().max_defenders_in_goal_area();
  for (int side : {-1, 1}) {
    if (limit == 0) break;
    const msg::Team defenders = defender_of(side);
    const Vector2d goal(side * 0.5 * league.field().length(), 0.0);
    std::vector<std::pair<double, std::size_t>> inside;  // distance to the goal, index
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i].team != defenders) continue;
      const msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
      if (goal_area_side(league.field(), {p.x(), p.y()}) == side)
        inside.emplace_back((Vector2d(p.x(), p.y()) - goal).norm(), i);
    }
    std::sort(inside.begin(), inside.end());
    for (std::size_t k = limit; k < inside.size(); ++k) crowding[inside[k].second] = true;
  }
  std::vector<Mover> movers;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d c(p.x(), p.y());
    const double d = (c - spot).norm();
    const bool opponent = neutral || keys[i].team != taker;
    if (opponent && !legal_at_restart(league, spot, c)) {
      movers.push_back({i, distance, "closer than " + metres(distance) + " to the ball"});
    } else if (d < on_ball) {
      movers.push_back({i, on_ball + 0.01, "on the ball"});
    } else if (crowding[i]) {
      movers.push_back({i, opponent ? distance : on_ball + 0.01,
                        "one robot too many in its goal area (at most " + std::to_string(limit) + ")"});
    } else {
      taken.push_back(c);
    }
  }
  for (const auto& [i, keep, why] : movers) {
    msg::Pose2 p = world.robot_pose(keys[i].team, keys[i].id);
    const Vector2d from(p.x(), p.y());
    const Vector2d to = keep_away_point(league, spot, from, keep, taken);
    taken.push_back(to);
    p.set_x(to.x());
    p.set_y(to.y());
    world.place_robot(keys[i].team, keys[i].id, p);
    add_event(ev, t, msg::REF_EVENT_REPOSITION, keys[i].team, keys[i].id,
              robot_str(keys[i].team, keys[i].id) + " " + why + " at the " + what + ": moved from " +
                  fmt(from) + " to " + fmt(to));
  }
  const Vector2d ball = world.ball_position();
  if ((ball - spot).norm() > kMargin || world.ball_velocity().norm() > 0.0) {
    add_event(ev, t, msg::REF_EVENT_REPOSITION, msg::TEAM_UNSPECIFIED, 0,
              "ball at " + fmt(ball) + " put back on the " + what + " spot " + fmt(spot));
  }
  world.place_ball(spot);
  world.take_goal_crossing();
  shots_seen_ = world.shot_count();
  state_.set_command(neutral ? msg::REF_FORCE_START : msg::REF_NORMAL_START);
  restart_clocks(world, t);
  if (!neutral) wait_for_taker(world);
}

int Referee::goal_area_side(const msg::FieldGeometry& field, const Vector2d& p) {
  if (!(field.goal_area_depth() > 0.0) || !(field.goal_area_width() > 0.0)) return 0;
  if (std::abs(p.y()) > 0.5 * field.goal_area_width()) return 0;
  const double front = 0.5 * field.length() - field.goal_area_depth();
  if (p.x() >= front) return 1;
  if (p.x() <= -front) return -1;
  return 0;
}

Vector2d Referee::legal_ball_spot(const msg::LeaguePreset& league, const Vector2d& p) {
  const auto& f = league.field();
  const double rb = league.ball().radius();
  const double xmax = std::max(0.0, 0.5 * f.length() - rb), ymax = std::max(0.0, 0.5 * f.width() - rb);
  Vector2d q(std::clamp(p.x(), -xmax, xmax), std::clamp(p.y(), -ymax, ymax));
  const int side = goal_area_side(f, q);
  if (side == 0) return q;
  // Out over the nearer edge of the area: its front or the side the ball is on.
  const double front = 0.5 * f.length() - f.goal_area_depth() - rb - kMargin;
  const double edge = 0.5 * f.goal_area_width() + rb + kMargin;
  const double to_front = std::abs(q.x()) - front;
  const double to_side = edge - std::abs(q.y());
  if (to_front <= to_side || edge > ymax) {
    q.x() = side * front;
  } else {
    q.y() = q.y() >= 0.0 ? edge : -edge;
  }
  return q;
}

Vector2d Referee::goal_kick_spot(const msg::LeaguePreset& league, int goal_side, int y_side) {
  const auto& f = league.field();
  const double r = league.robot().radius();
  // Level with the area's front edge and two robot radii outside its side
  // edge: the taker stands behind the ball, outside the area, so a goal kick
  // never starts with one defender too many in it.
  const double x = 0.5 * f.length() - std::max(f.goal_area_depth(), 2.0 * r);
  const double y = 0.5 * f.goal_area_width() + 2.0 * r;
  return legal_ball_spot(league, {(goal_side > 0 ? 1.0 : -1.0) * x, (y_side > 0 ? 1.0 : -1.0) * y});
}

Vector2d Referee::free_ball_spot(const msg::FieldGeometry& field, const Vector2d& p) {
  const double x = 0.25 * field.length(), y = 0.25 * field.width();
  return {p.x() >= 0.0 ? x : -x, p.y() >= 0.0 ? y : -y};
}

const char* Referee::restart_name(msg::RestartKind kind) { return restart_str(kind); }

bool Referee::legal_at_kickoff(const msg::LeaguePreset& league, const Vector2d& p, bool on_positive_side,
                               bool kicking) {
  return legal(rules_for(league, on_positive_side, kicking), p);
}

bool Referee::legal_at_restart(const msg::LeaguePreset& league, const Vector2d& spot, const Vector2d& p) {
  return (p - spot).norm() >= league.rules().restart_distance();
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
