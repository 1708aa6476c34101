#include "actors/player_skills/skill_controller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "actors/player_skills/bang_bang.hpp"
#include "actors/player_skills/intercept.hpp"
#include "actors/player_skills/oncoming.hpp"
#include "actors/player_skills/pass_selection.hpp"
#include "actors/player_skills/shot_geometry.hpp"
#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/kickoff_run.hpp"
#include "runtime/robot_spacing.hpp"
#include "runtime/run_off.hpp"

namespace robocaf::actors {

namespace {

using runtime::kPi;
constexpr double kBackOff = 0.15;  // m the attacker backs off along its line to take out a lateral offset
// m beyond the restart distance that a placing robot's planned circle
// reaches at least (see step()).
constexpr double kRestartCircleCreep = 0.02;
// m up-field of where it stands an MSL attacker waits while the ball rolls into their goal
constexpr double kReboundBackOff = 1.0;
// s: a ball over their line within this is going in, and the attacker waits for the rebound
constexpr double kGoingInSeconds = 1.0;
// m: spots of restarts nearer than this are the same one (a robot's exit
// from its circle is kept, exit_from_circle).
constexpr double kSameSpot = 0.05;
// A robot stepping out of the restart circle (step_out_of_circle): the
// points it considers, every kStepOutTurn (rad) up to kStepOutDirections
// either side of straight out, and the gap (m) it keeps to opponents' bodies.
// Fine: between an opponent touching it and a teammate 0.7 m off, 3 m from
// the spot, the points it may step to spanned a degree (5 cm).
constexpr double kStepOutTurn = M_PI / 720.0;
constexpr int kStepOutDirections = 240;
constexpr double kStepOutBodyGap = 0.02;
// m a robot standing in the boundary strip keeps from its outer edge
// (SkillController::standing_space_): the edge stops robots, so a point
// right at it is reached, if slowly.
constexpr double kStandingEdgeClearance = 0.02;
using V = Eigen::Vector2d;

using runtime::wrap_angle;

double angle_of(const V& v) { return std::atan2(v.y(), v.x()); }

V unit_or(const V& v, const V& fallback) {
  const double n = v.norm();
  return n > 1e-9 ? V(v / n) : fallback;
}

double limit_or(double v, double fallback) { return v > 0.0 ? v : fallback; }

double to_ball_now(const V& p, const msg::WorldEstimate& world) {
  return (V(world.ball().position().x(), world.ball().position().y()) - p).norm();
}

// Distance from q to the segment from a to b.
double distance_to_segment(const V& q, const V& a, const V& b) {
  const V ab = b - a;
  const double n2 = ab.squaredNorm();
  const double s = n2 > 1e-12 ? std::clamp((q - a).dot(ab) / n2, 0.0, 1.0) : 0.0;
  return (q - (a + s * ab)).norm();
}

// How far `p` lies outside `space` (0 inside it).
double outside_by(const FreeSpace& space, const V& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const Eigen::AlignedBox2d& box : space)
    best = std::min(best, (box.min() - p).cwiseMax(p - box.max()).cwiseMax(0.0).norm());
  return best;
}

// Whether the straight way from `from` to `to` stays in `space`, in steps of
// a centimetre; no further outside it than `from` lies (a robot pushed out
// of it may come back in).
bool way_within(const FreeSpace& space, const V& from, const V& to) {
  constexpr double kStep = 0.01;
  const double slack = outside_by(space, from) + 1e-6;
  const int steps = static_cast<int>(std::ceil((to - from).norm() / kStep));
  for (int k = 1; k <= steps; ++k)
    if (outside_by(space, from + (to - from) * (static_cast<double>(k) / steps)) > slack) return false;
  return true;
}

// `target` moved straight out to `radius` from `centre` when it lies closer
// (away from `from` when it sits on the centre itself).
V outside_circle(const V& target, const V& centre, double radius, const V& from) {
  if ((target - centre).norm() >= radius) return target;
  V away = target - centre;
  if (away.norm() < 1e-9) away = from - centre;
  if (away.norm() < 1e-9) away = V(1.0, 0.0);
  return centre + away.normalized() * radius;
}

// `target` moved straight out to `half_width` from the segment a-b when it
// lies closer (to the side it is on; on the segment, to the side of `from`).
V outside_lane(const V& target, const V& a, const V& b, double half_width, const V& from) {
  const V seg = b - a;
  const double len2 = seg.squaredNorm();
  const double lambda = len2 > 1e-12 ? std::clamp((target - a).dot(seg) / len2, 0.0, 1.0) : 0.0;
  return outside_circle(target, a + lambda * seg, half_width, from);
}

// Where the straight way from `from` to `to` passes `obstacle` closer than
// `radius` between its ends: the fraction of the way at the closest point,
// and the unit side to pass on (the side the way is already on).
struct CloseCall {
  double fraction;
  V side;
};
std::optional<CloseCall> passes_close(const V& from, const V& to, const V& obstacle, double radius) {
  const V seg = to - from;
  const double len2 = seg.squaredNorm();
  if (len2 < 1e-12) return std::nullopt;
  const double lambda = (obstacle - from).dot(seg) / len2;
  if (lambda <= 0.0 || lambda >= 1.0) return std::nullopt;
  const V closest = from + lambda * seg;
  if ((closest - obstacle).norm() >= radius) return std::nullopt;
  V perp = V(-seg.y(), seg.x()).normalized();
  if ((closest - obstacle).dot(perp) < 0.0) perp = -perp;
  return CloseCall{lambda, perp};
}

// s: a longer gap between two cycles is a pause, not a period the command
// will be held for (turn_compensation).
constexpr double kLongestCompensatedPeriod = 0.1;

}  // namespace

namespace {

PlannerParams planner_params(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league,
                             const SkillParams& params) {
  PlannerParams p;
  p.robot_radius = league.robot().radius();
  p.clearance = params.opponent_clearance;
  // About an inflated opponent's radius per extension (see PlannerParams::step).
  p.step = 2.0 * league.robot().radius() + params.opponent_clearance;
  p.goal_jump = 6.0 * p.step;
  // A plan that finds its way needs tens of nodes; more only goes into
  // targets opponents have walled off, 60 times a second.
  p.max_nodes = 100;
  p.seed = 2u * robot_id + (team == msg::YELLOW ? 1u : 0u);
  // What a radian of turning costs in metres not driven meanwhile.
  if (params.placing_turn_rate > 0.0) p.turn_cost = limit_or(league.robot().max_speed(), 1.0) / params.placing_turn_rate;
  return p;
}

// Walled in: no gap kept to the bodies, and steps of a radius, so that a
// gap little wider than the robot is found.
PlannerParams squeeze_params(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league,
                             const SkillParams& params) {
  PlannerParams p = planner_params(team, robot_id, league, params);
  p.clearance = 0.0;
  p.step = league.robot().radius();
  return p;
}

}  // namespace

SkillController::SkillController(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league,
                                 SkillParams params)
    : team_(team),
      robot_id_(robot_id),
      league_(league),
      formation_(league),
      params_(params),
      omni_(league.robot().drive() == msg::DRIVE_OMNI),
      symmetric_(league.robot().drive() == msg::DRIVE_DIFFERENTIAL && league.robot().kick_speed() <= 0.0),
      planner_(planner_params(team, robot_id, league, params)),
      escape_planner_(planner_params(team, robot_id, league, params)),
      squeeze_planner_(squeeze_params(team, robot_id, league, params)),
      free_space_(field_free_space(league.field().length(), league.field().width(), league.robot().radius(),
                                   league.field().goal_width(), league.field().goal_depth(),
                                   // Robots may leave an open field (MSL, SSL) to get behind a ball on a line.
                                   runtime::run_off(league))),
      standing_space_(field_free_space(league.field().length(), league.field().width(), league.robot().radius(),
                                       league.field().goal_width(), /*goal_depth=*/0.0,
                                       runtime::run_off(league, kStandingEdgeClearance))) {
  const auto& f = league.field();
  for (int side = 0; side < 2; ++side) {
    placing_space_[side] = free_space_;
    stepping_space_[side] = standing_space_;
    if (f.goal_area_depth() <= 0.0 || f.goal_area_width() <= 0.0) continue;
    // The area as the referee judges it (a robot's centre in it, beyond the
    // end line too) and half a radius: a restart's placing has no pushing
    // to allow for (goal_area_keep() does), and a strip that wide beside
    // the area shut robots in between it and a restart's circle.
    const double a = side == 0 ? 1.0 : -1.0;  // into the field from our goal
    const double line = -a * 0.5 * f.length(), keep = placing_goal_area_margin();
    const double front = line + a * (f.goal_area_depth() + keep);
    const double back = line - a * (f.boundary_width() + f.goal_depth() + 1.0);  // past the run-off
    const double side_y = 0.5 * f.goal_area_width() + keep;
    const Eigen::AlignedBox2d area(V(std::min(front, back), -side_y), V(std::max(front, back), side_y));
    placing_space_[side] = subtract_box(free_space_, area);
    stepping_space_[side] = subtract_box(standing_space_, area);
  }
}

// --- motion primitives ----------------------------------------------------------

SkillController::Vel SkillController::drive_to(const Pose& self, double tx, double ty, double speed_cap,
                                               bool stop_at_target, double face_theta, bool face,
                                               bool allow_reverse) {
  const auto& robot = league_.robot();
  if (avoid_goal_area_) {
    keep_out_of_own_goal_area(tx, ty);
    go_round_own_goal_area(self, tx, ty);
  }
  // Not stepping out of a restart circle: the point it steps to is clear of
  // its teammates already (step_out_of_circle), and a way round one it
  // stood within teammate_keep() of led 0.3 m off it, deeper into the
  // circle (MSL vs chaser, seed 81: 2 cm short at the restart).
  if (give_way_ && !stepping_out_) give_way_to_teammates(self, tx, ty);
  intent_.aim = V(tx, ty);
  if (avoid_opponents_ && !plan_round_.empty()) {
    // Placing, a way through our goal area (the keeper's) left a robot
    // standing in it at the restart (MSL corner kicks: boxed in beyond our
    // end line, it got out past the goal). One already in there leaves as
    // before: the planner would first clamp its start out of the area,
    // whatever lay that way. One in the margin strip beside it plans
    // without it: the planner stretches the strip's neighbouring free
    // rectangle to hold the start, which keeps it off the area itself; over
    // the whole field it cut the area's corner (MSL restart drill, a drop
    // ball: moved for standing in the area with the keeper).
    const bool off_area = placing_ && avoid_goal_area_ && !in_own_goal_area(V(self.x, self.y), 0.0);
    // Stepping out into the boundary strip, walled in: as far out as it may
    // stand (free_space_ keeps a wider berth from the strip's edge).
    const int side = own_goal_x_ > 0.0 ? 1 : 0;
    const FreeSpace& space = stepping_beyond_lines_ ? (off_area ? stepping_space_[side] : standing_space_)
                             : off_area             ? placing_space_[side]
                                                    : free_space_;
    // Placing, a differential robot's turn onto a way counts (StartHeading).
    const std::optional<StartHeading> heading =
        placing_ && !omni_ ? std::optional<StartHeading>(StartHeading{self.theta, !forwards_only_}) : std::nullopt;
    PlanResult plan = planner_.plan(V(self.x, self.y), V(tx, ty), plan_round_, space, heading);
    // A plan whose first waypoint is where the robot stands takes it nowhere.
    auto stays_put = [&](const PlanResult& p) { return (p.waypoints[1] - V(self.x, self.y)).norm() < 1e-3; };
    // Nor does one that ends no nearer its aim by a radius: the tree grew a
    // node or two about the robot, boxed in, and the plan ended there (SSL
    // vs chaser, seed 35: waypoints 2 cm off, by turns, for 3.5 s).
    const double to_aim = (V(tx, ty) - V(self.x, self.y)).norm();
    auto gets_nowhere = [&](const PlanResult& p) {
      return stays_put(p) ||
             (!p.reached_target && (p.waypoints.back() - V(tx, ty)).norm() > to_aim - league_.robot().radius());
    };
    // Boxed in, placing for a restart at which it keeps its distance, with
    // no way out at all: the ball closed the one gap the opponents left
    // (MSL restart drill, a free kick: four opponents round our robot, the
    // ball in front of it; it stood there for seconds and the referee moved
    // it). It goes past the ball, which the referee puts back on its spot.
    // Not at our own restarts, where it only has to stay off the ball.
    const bool walled_in = !plan.reached_target && gets_nowhere(plan);
    if (placing_ && walled_in) {
      // At our own restarts it keeps off the ball and its spot still.
      std::vector<CircleObstacle> bodies;
      for (const CircleObstacle& o : plan_round_)
        if (!keeping_distance_ || o.body < 0.0) bodies.push_back(o);
      if (bodies.size() < plan_round_.size()) {
        PlanResult past_ball = escape_planner_.plan(V(self.x, self.y), V(tx, ty), bodies, space);
        if (past_ball.inputs_valid && !gets_nowhere(past_ball))
          plan = std::move(past_ball);
      }
      // Still no way: between bodies with no gap kept to them, in shorter
      // steps. Two chasers left 19.5 cm between their bodies for our 18 cm
      // robot, the only way out of the boundary strip behind them; kept
      // 1 cm from each, it stood there for the whole 4 s and the referee
      // moved it (SSL vs chaser, seed 71, their throw-in). At our own
      // restarts too: behind our goal line, in our goal area by the
      // referee's judgement, a robot had three chasers and the goal round
      // it and stood 3.5 s until the referee moved it at our goal kick (SSL
      // vs chaser, seed 35).
      if (params_.squeeze_when_walled_in && gets_nowhere(plan)) {
        // And as far out into the boundary strip as it may stand: beside
        // our goal, the way round a chaser ran 4 cm further out than the
        // planner's strip.
        const FreeSpace& squeeze_space = off_area ? stepping_space_[side] : standing_space_;
        PlanResult squeeze = squeeze_planner_.plan(V(self.x, self.y), V(tx, ty), bodies, squeeze_space);
        if (squeeze.inputs_valid && !gets_nowhere(squeeze))
          plan = std::move(squeeze);
      }
    }
    walled_in_ = walled_in_ || (plan.inputs_valid && !plan.reached_target);
    if (plan.inputs_valid) {
      // Through a waypoint without braking; stop only where the path ends.
      if (plan.waypoints.size() > 2) stop_at_target = false;
      tx = plan.waypoints[1].x();
      ty = plan.waypoints[1].y();
      intent_.waypoint = V(tx, ty);
    }
  }
  const V d(tx - self.x, ty - self.y);
  const double dist = d.norm();
  double speed = speed_cap;
  if (stop_at_target) {
    // Plan the stop with part of the braking power: commands take effect a
    // cycle or two late.
    const double brake = params_.braking_fraction * limit_or(robot.max_deceleration(), 3.0);
    speed = std::min({speed, std::sqrt(2.0 * brake * dist), params_.position_gain * dist});
  }
  Vel out;
  if (dist < 1e-6) speed = 0.0;
  if (omni_) {
    V v_field = dist > 1e-9 ? V(d / dist * speed) : V::Zero();
    if (stop_at_target && (placing_ ? params_.time_optimal_placing : params_.time_optimal_in_play) && dist > 1e-6) {
      // Steered straight at where it is to stop, a robot already running
      // across that way slid on by its braking distance: SSL vs chaser,
      // seed 23, one running at 1.7 m/s along the field with its place
      // beside the halfway line 1.7 m to its side crossed the line by 0.4 m.
      const MotionLimits limits{speed_cap, limit_or(robot.max_acceleration(), 3.0),
                                params_.trajectory_braking_fraction * limit_or(robot.max_deceleration(), 3.0)};
      // From the velocity last asked for, which the motor holds, unless
      // the robot is far from moving at it (held up, or pushed): started
      // from the lagging estimate, each cycle asked for a little less than
      // the robot already had, and it hardly braked.
      const V asked = last_command_in_field(self.theta);
      const V start = (asked - own_velocity_).norm() <= params_.trajectory_command_trust ? asked : own_velocity_;
      const BangBang2D move(V(self.x, self.y), start, V(tx, ty), limits);
      v_field = move.velocity(params_.trajectory_lookahead);
      const V further = move.velocity(params_.trajectory_speed_up_lookahead);
      if (further.norm() > v_field.norm()) v_field = further;
      // Near its stop no faster than the position gain asks: the
      // estimate it steers by is noisy there.
      const double most = std::min(speed_cap, params_.position_gain * dist);
      if (v_field.norm() > most) v_field *= most / v_field.norm();
    }
    const double c = std::cos(self.theta), s = std::sin(self.theta);
    out.vx = c * v_field.x() + s * v_field.y();
    out.vy = -s * v_field.x() + c * v_field.y();
    if (face) out.omega = heading_rate(wrap_angle(face_theta - self.theta));
    return out;
  }
  if (dist < 1e-6) return out;
  double bearing = wrap_angle(angle_of(d) - self.theta);
  // Placing for a kick-off: whether its motion carries it away from the target (see below).
  const bool rolling_away = placing_for_kickoff_ && rolling_forward_ * std::cos(bearing) < 0.0;
  // Keep the direction of travel unless the other one is clearly shorter, or
  // the robot dithers between forwards and backwards at 90 degrees.
  allow_reverse = allow_reverse && !forwards_only_;
  int direction = allow_reverse ? drive_direction_ : 1;
  if (allow_reverse) {
    const double margin = 0.3;
    if (direction > 0 && std::abs(bearing) > kPi / 2 + margin) direction = -1;
    else if (direction < 0 && std::abs(bearing) < kPi / 2 - margin) direction = 1;
  }
  if (direction < 0) bearing = wrap_angle(bearing + kPi);
  drive_direction_ = direction;
  // Placing for a kick-off, still rolling the other way, away from the
  // target: brake straight first. Turning at speed swings the robot along an
  // arc on away from it, and the motor, scaling both wheels' changes alike,
  // spends the braking on the turn (MSL: scorers sent back to their half as
  // the ball crossed the line ran on into the goal for a second, and were
  // late at the kick-off). Rolling towards it, it turns as it slows. Not at
  // other restarts, whose places lie close and move as the opponents do: at
  // an MSL drop ball a robot stopped at every move of its place, and no run
  // showed a gain there. Nor in play, where the ball skills were tuned
  // turning as they brake (a MiroSot attacker then pushed a ball by the side
  // wall towards its own goal).
  if (rolling_away && direction * rolling_forward_ < -params_.reversal_brake_speed) return out;
  out.omega = heading_rate(bearing);
  // Turn first, then drive: at 90 degrees off, no forward speed at all.
  out.vx = direction * speed * std::max(0.0, std::cos(bearing));
  return out;
}

SkillController::Vel SkillController::turn_to(const Pose& self, double theta, bool either_end) const {
  double err = wrap_angle(theta - self.theta);
  if (either_end && std::abs(err) > kPi / 2) err = wrap_angle(err + kPi);
  Vel out;
  out.omega = heading_rate(err);
  return out;
}

double SkillController::heading_rate(double err) const {
  const auto& robot = league_.robot();
  double rate = std::min(limit_or(robot.max_omega(), 20.0), params_.heading_gain * std::abs(err));
  if (!omni_ && robot.wheel_base() > 0.0 && params_.turn_braking_fraction > 0.0) {
    const double wheel_change =
        std::min(limit_or(robot.max_acceleration(), 1e9), limit_or(robot.max_deceleration(), 1e9));
    const double turn_braking = params_.turn_braking_fraction * 2.0 * wheel_change / robot.wheel_base();
    // The turn already commanded goes on for the latency before braking bites.
    const double coasting = last_omega_ * err > 0.0 ? std::abs(last_omega_) * params_.turn_latency : 0.0;
    rate = std::min(rate, std::sqrt(2.0 * turn_braking * std::max(0.0, std::abs(err) - coasting)));
  }
  return std::copysign(rate, err);
}

SkillController::Vel SkillController::go_to_pose(const Pose& self, double tx, double ty, double theta,
                                                 bool exact_heading, std::optional<double> speed_fraction) {
  const double cruise = speed_fraction.value_or(params_.cruise_fraction) * limit_or(league_.robot().max_speed(), 1.0);
  if (std::hypot(tx - self.x, ty - self.y) > params_.arrive_tolerance)
    return drive_to(self, tx, ty, cruise, true, theta, true, !omni_);
  return turn_to(self, theta, !exact_heading && !omni_);
}

void SkillController::clamp_to_field(double& x, double& y) const {
  const V q = clamp_into_free_space(free_space_, V(x, y));
  x = q.x();
  y = q.y();
}

void SkillController::keep_out_of_own_goal_area(double& x, double& y) const {
  const auto& f = league_.field();
  if (f.goal_area_depth() <= 0.0 || f.goal_area_width() <= 0.0) return;
  const double margin = own_goal_area_keep();
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;  // into the field from our goal
  const double depth = a * (x - own_goal_x_);  // distance in front of our goal line
  const double front = f.goal_area_depth() + margin, side = 0.5 * f.goal_area_width() + margin;
  if (depth >= front || std::abs(y) >= side) return;
  // To whichever edge is nearer: the front, or the side the target is on.
  if (front - depth <= side - std::abs(y)) {
    x = own_goal_x_ + a * front;
  } else {
    y = y >= 0.0 ? side : -side;
  }
}

void SkillController::go_round_own_goal_area(const Pose& self, double& tx, double& ty) const {
  const auto& f = league_.field();
  if (f.goal_area_depth() <= 0.0 || f.goal_area_width() <= 0.0) return;
  // The area grown a little less than keep_out_of_own_goal_area's, so a
  // target on that edge lies outside.
  const double margin = own_goal_area_keep() - 0.02;
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;
  const double front = f.goal_area_depth() + margin, side = 0.5 * f.goal_area_width() + margin;
  auto inside = [&](const V& p) { return in_own_goal_area(p, margin); };
  auto clear = [&](const V& from, const V& to) {
    for (int k = 1; k < 32; ++k)
      if (inside(from + (k / 32.0) * (to - from))) return false;
    return true;
  };
  const V start(self.x, self.y), target(tx, ty);
  if (inside(start) || clear(start, target)) return;  // on its way out, or a free way
  // The shortest way round the front: by one front corner or both (the
  // goal line closes the back), each leg clear of the area. The corners lie
  // a little outside it, so the leg along the front is clear.
  const double cx = own_goal_x_ + a * (front + 0.05);
  const V corners[2] = {V(cx, -(side + 0.05)), V(cx, side + 0.05)};
  double best = std::numeric_limits<double>::infinity();
  V next = target;
  for (int first = 0; first < 2; ++first) {
    const V& c = corners[first];
    const V& other = corners[1 - first];
    if (!clear(start, c)) continue;
    if (clear(c, target)) {
      const double way = (c - start).norm() + (target - c).norm();
      if (way < best) best = way, next = c;
    }
    if (clear(other, target)) {
      const double way = (c - start).norm() + (other - c).norm() + (target - other).norm();
      if (way < best) best = way, next = c;
    }
  }
  if (!std::isfinite(best)) return;
  tx = next.x();
  ty = next.y();
}

bool SkillController::in_own_goal_area(const V& p, double grow) const {
  const auto& f = league_.field();
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;
  return a * (p.x() - own_goal_x_) < f.goal_area_depth() + grow && std::abs(p.y()) < 0.5 * f.goal_area_width() + grow;
}

double SkillController::goal_area_keep() const { return formation_.goal_area_keep(); }

double SkillController::placing_goal_area_margin() const { return 0.5 * league_.robot().radius(); }

// Placing, the band goal_area_keep() leaves beside the area (two radii in
// MSL) is no foul to stand in, and at the other team's corner kick it cut
// the crescent between the area and the restart's circle: a robot inside
// the circle by the corner flag had no way out but round the far side of
// the ball, past the opponents there (MSL restart drill, a corner kick:
// sent to spots beyond an opponent touching it, turning from one to the
// next for 8 s until the referee moved it).
double SkillController::own_goal_area_keep() const {
  return placing_ ? placing_goal_area_margin() + 0.02 : goal_area_keep();
}

double SkillController::teammate_keep() const { return runtime::teammate_keep(league_); }

V SkillController::clear_of_attackers_lane(const V& target, const Pose& self, const V& ball) const {
  V T = target;
  for (const V& attacker : attackers_) T = outside_lane(T, attacker, ball, teammate_keep(), V(self.x, self.y));
  return T;
}

V SkillController::clear_of_teammates(const V& target, const Pose& self) const {
  const double berth = kBerthRadii * league_.robot().radius();
  V T = target;
  for (const V& m : teammates_) T = outside_circle(T, m, berth, V(self.x, self.y));
  return T;
}

void SkillController::give_way_to_teammates(const Pose& self, double& tx, double& ty) const {
  // Robots without the ball keep out of their teammates' way: the safety
  // search only brakes, so two robots heading for the same spot, or crossing,
  // would stop nose to nose; going round them keeps both moving.
  const double r = league_.robot().radius();
  const double keep = teammate_keep();
  const V p(self.x, self.y);
  V T(tx, ty);
  for (const V& m : teammates_) T = outside_circle(T, m, keep, p);
  // The first teammate on the straight path, near enough to matter this
  // cycle: a waypoint beside it, on the side the robot already is.
  const double lookahead = 6.0 * r + 0.2;
  const double beside = 1.3 * keep;  // how far from the teammate the waypoint lies
  double first = 1.0;
  std::optional<V> waypoint;
  for (const V& m : teammates_) {
    if ((m - p).norm() > lookahead || (m - p).norm() < keep * 0.9) continue;
    const auto pass = passes_close(p, T, m, keep);
    if (!pass || pass->fraction >= first) continue;
    first = pass->fraction;
    waypoint = m + pass->side * beside;
  }
  if (waypoint) T = *waypoint;
  // Nearer a teammate than the berth, a way that closes in on it holds the
  // robot where it stands: the safety search lets the two only part. It
  // slides round the teammate instead, edging away. (MSL: a keeper backing
  // to its line with its attacker half a metre behind it stood still, and
  // the two crept into each other for 20 s.) Placing, so does one nearer
  // than the waypoint beside the teammate (MiroSot: heading for that
  // waypoint across the teammate's front, a robot crept 3 mm in 2 s and
  // was still in the centre circle at the kick-off). In play, where robots
  // crowd round the ball, only within the berth as before: that is all
  // the tracing supports, and own contacts in play are a target too.
  const double slide_within = placing_ ? beside : keep;
  for (const V& m : teammates_) {
    const V to_mate = m - p;
    const double dist = to_mate.norm();
    if (dist >= slide_within || dist < 1e-9) continue;
    const V u = to_mate / dist;
    const V way = T - p;
    if (way.dot(u) <= 0.0) continue;
    // Outside the berth only on the way past it, not to a place beside it
    // (MSL: defenders side by side on the restart distance's circle slid
    // along it, and into it).
    if (dist >= keep && way.norm() <= dist) continue;
    V slide = way - way.dot(u) * u;
    if (slide.norm() < 1e-9) slide = V(-u.y(), u.x());
    T = p + slide.normalized() * keep - u * std::max(keep - dist + 0.05, 0.0);
  }
  if ((T - V(tx, ty)).norm() < 1e-12) return;
  // A moved target stays on the field, unless the original was off it (a
  // restart taker behind a ball on the touch line stands outside).
  double x = T.x(), y = T.y();
  clamp_to_field(x, y);
  const double hx = std::max(std::abs(tx), std::abs(x)), hy = std::max(std::abs(ty), std::abs(y));
  tx = std::clamp(T.x(), -hx, hx);
  ty = std::clamp(T.y(), -hy, hy);
}

void SkillController::avoid_ball(const Pose& self, double bx, double by, double& tx, double& ty) const {
  // Robots without the ball have no business touching it: a target next to
  // the ball moves out of a wider berth, and the path goes round it. (A
  // defender running back at a ball near its goal would push it in.)
  const double extra = 0.03;
  const double R = ball_pass_radius(extra);
  const V b(bx, by), p(self.x, self.y);
  V T(tx, ty);
  if ((T - b).norm() < R) {
    T = outside_circle(T, b, R, p);
    double x = T.x(), y = T.y();
    clamp_to_field(x, y);
    T = V(x, y);
  }
  // A rolling ball: keep out of the lane it will roll along in the next
  // second too. A robot that cuts into that lane meets the ball from the
  // side and, with the ball heading for our goal, deflects it in.
  const double speed = ball_velocity_.norm();
  if (speed > 0.15) {
    const V dir = ball_velocity_ / speed;
    const double decel = std::max(league_.ball().rolling_deceleration(), 0.05);
    const double reach = std::min(speed * 1.0, speed * speed / (2.0 * decel));
    const double along = (T - b).dot(dir);
    const V n(-dir.y(), dir.x());
    const double across = (T - b).dot(n);
    if (along > 0.0 && along < reach && std::abs(across) < R) {
      const double side = std::abs(across) > 1e-6 ? (across > 0 ? 1.0 : -1.0) : ((p - b).dot(n) >= 0.0 ? 1.0 : -1.0);
      T += n * (side * 1.2 * R - across);
      double x = T.x(), y = T.y();
      clamp_to_field(x, y);
      T = V(x, y);
    }
  }
  tx = T.x();
  ty = T.y();
  detour_around_ball(self, bx, by, tx, ty, extra);
}

bool SkillController::holds_ball(const Pose& self, const V& ball) const {
  const auto& robot = league_.robot();
  const double mouth_half = 0.5 * robot.mouth_width();
  const double contact = robot.radius() + league_.ball().radius();
  const V p(self.x, self.y);
  return robot.mouth_captures() && mouth_half > 0.0 && (ball - p).norm() < contact + 0.04 &&
         std::abs(wrap_angle(angle_of(ball - p) - self.theta)) < std::asin(std::min(1.0, mouth_half / contact));
}

void SkillController::detour_around_ball(const Pose& self, double bx, double by, double& tx, double& ty,
                                         double extra) const {
  detour_round_zone(V(self.x, self.y), V(bx, by), ball_pass_radius(extra), false, tx, ty);
}

void SkillController::placing_detour_around_ball(const Pose& self, const std::optional<V>& spot,
                                                 const std::optional<V>& ball, double& tx, double& ty) const {
  // Close together, the spot and the ball knocked off it are one zone: the
  // waypoint beside the one lay on the other, and the robot drove at the
  // ball, backed off it and came again until the restart (MSL kick-offs).
  const V p(self.x, self.y);
  const double apart = spot && ball ? (*ball - *spot).norm() : std::numeric_limits<double>::infinity();
  if (apart < 2.0 * ball_pass_radius()) {
    detour_round_zone(p, 0.5 * (*spot + *ball), ball_pass_radius(0.5 * apart), true, tx, ty);
    return;
  }
  if (spot) detour_round_zone(p, *spot, ball_pass_radius(), true, tx, ty);
  if (ball) detour_round_zone(p, *ball, ball_pass_radius(), true, tx, ty);
}

void SkillController::detour_round_zone(const V& p, const V& centre, double berth, bool mind_teammates, double& tx,
                                        double& ty) const {
  const V T(tx, ty);
  if ((T - centre).norm() < berth) return;  // the target is in the zone: nothing to go round
  const auto pass = passes_close(p, T, centre, berth);
  if (!pass) return;
  auto waypoint = [&](const V& side) {
    double wx = centre.x() + side.x() * kBallWaypointFactor * berth;
    double wy = centre.y() + side.y() * kBallWaypointFactor * berth;
    clamp_to_field(wx, wy);
    return V(wx, wy);
  };
  // A side whose waypoint, or the way to it, a teammate stands in: the way
  // round that teammate (give_way_to_teammates, which knows nothing of the
  // ball) led back over the ball.
  const double keep = teammate_keep();
  auto crowded = [&](const V& w) {
    for (const V& m : teammates_)
      if ((w - m).norm() < keep || passes_close(p, w, m, keep)) return true;
    return false;
  };
  const V here = waypoint(pass->side), there = waypoint(-pass->side);
  // Squeezed against a wall: the other side. Crowded by a teammate where
  // the other side is free: that one too.
  const bool squeezed = (here - centre).norm() < berth;
  const bool other_side =
      squeezed || (mind_teammates && crowded(here) && !crowded(there) && (there - centre).norm() >= berth);
  const V w = other_side ? there : here;
  tx = w.x();
  ty = w.y();
}

double SkillController::ball_pass_radius(double extra) const {
  // A cube's corners reach out to sqrt(2) r; 1.25 r is a compromise.
  return 1.25 * league_.robot().radius() + league_.ball().radius() + params_.ball_clearance + extra;
}

void SkillController::detour_around_circle(const Pose& self, const V& c, double R, double& tx, double& ty) const {
  const V p(self.x, self.y), T(tx, ty);
  if ((T - c).norm() < R) return;  // the target is inside: nothing to go round
  const auto pass = passes_close(p, T, c, R);
  if (!pass) return;
  // Along the tangent from the robot to the circle, on the side the way
  // already passes, and on past the tangent point: recomputed every cycle,
  // the robot runs round the circle's edge without slowing for a waypoint.
  const double d = (p - c).norm();
  const V u = d > 1e-9 ? V((p - c) / d) : pass->side;
  const double alpha = d > R ? std::acos(std::clamp(R / d, -1.0, 1.0)) : 0.0;
  V best = c + u * R;
  V along = V(-u.y(), u.x());
  // The tangent point further towards the side the way passes: from just
  // outside the edge both lie on that side, and the first of them sent a
  // robot round the long way and back in across the edge.
  double most = -std::numeric_limits<double>::infinity();
  for (double turn : {alpha, -alpha}) {
    const V radial = Eigen::Rotation2Dd(turn) * u;
    if (!(radial.dot(pass->side) > most)) continue;
    most = radial.dot(pass->side);
    best = c + radial * R;
    along = V(-radial.y(), radial.x());
  }
  if (along.dot(alpha > 0.0 ? V(best - p) : V(T - p)) < 0.0) along = -along;
  V w = best + along * std::max(1.0, 0.5 * R);
  double wx = w.x(), wy = w.y();
  clamp_to_field(wx, wy);
  tx = wx;
  ty = wy;
}

void SkillController::never_nearer(const Pose& self, const V& spot, double R, Vel& v) const {
  const V away = V(self.x, self.y) - spot;
  const double d = away.norm();
  if (d < 1e-9 || d >= R) return;
  const V out = away / d;
  const V heading(std::cos(self.theta), std::sin(self.theta)), left(-std::sin(self.theta), std::cos(self.theta));
  if (!omni_) {
    if (v.vx * heading.dot(out) < 0.0) v.vx = 0.0;
    return;
  }
  V moving = heading * v.vx + left * v.vy;
  const double inwards = moving.dot(out);
  if (inwards >= 0.0) return;
  moving -= inwards * out;
  v.vx = moving.dot(heading);
  v.vy = moving.dot(left);
}

void SkillController::brake_short_of_circle(const Pose& self, const V& velocity, const V& spot, double keep_out,
                                            Vel& v, bool hold_sideways) const {
  const V away = V(self.x, self.y) - spot;
  const double d = away.norm();
  if (d < 1e-9 || d < keep_out) return;
  brake_within(self, velocity, -away / d, d - keep_out - kRestartCircleCreep, v, hold_sideways);
}

void SkillController::brake_short_of_halfway_line(const Pose& self, const V& velocity, Vel& v,
                                                  bool hold_sideways) const {
  const double home = own_goal_x_ > 0.0 ? 1.0 : -1.0;
  // The referee wants the whole body in our half.
  const double room = home * self.x - league_.robot().radius() - kRestartCircleCreep;
  if (room < 0.0) return;  // on the line or beyond it: on its way home
  brake_within(self, velocity, V(-home, 0.0), room, v, hold_sideways);
}

void SkillController::brake_short_of_own_goal_area(const Pose& self, const V& velocity, Vel& v,
                                                   bool hold_sideways) const {
  const auto& f = league_.field();
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;  // into the field from our goal
  const double front = own_goal_x_ + a * f.goal_area_depth();
  const double back = own_goal_x_ - a * (f.boundary_width() + f.goal_depth() + 1.0);  // past the run-off
  const Eigen::AlignedBox2d area(V(std::min(front, back), -0.5 * f.goal_area_width()),
                                 V(std::max(front, back), 0.5 * f.goal_area_width()));
  const V p(self.x, self.y);
  const V off = p - p.cwiseMax(area.min()).cwiseMin(area.max());
  const double d = off.norm();
  if (d < 1e-9) return;  // in it: on its way out
  brake_within(self, velocity, -off / d, d - kRestartCircleCreep, v, hold_sideways);
}

void SkillController::brake_for_restart_again(const Pose& self, Vel& v) const {
  // Only taking speed off: holding the sideways speed here would give back
  // what the safety search took off to miss a teammate.
  if (restart_brakes_.circle_spot)
    brake_short_of_circle(self, own_velocity_, *restart_brakes_.circle_spot, restart_brakes_.keep_out, v,
                          /*hold_sideways=*/false);
  if (restart_brakes_.halfway_line) brake_short_of_halfway_line(self, own_velocity_, v, /*hold_sideways=*/false);
  if (restart_brakes_.own_goal_area) brake_short_of_own_goal_area(self, own_velocity_, v, /*hold_sideways=*/false);
}

void SkillController::brake_within(const Pose& self, const V& velocity, const V& towards, double room,
                                   Vel& v, bool hold_sideways) const {
  // Where its speed takes it before a command now bites: the estimate
  // lags, and the wheels answer a cycle late.
  const double coming = velocity.allFinite() ? std::max(0.0, velocity.dot(towards)) : 0.0;
  room -= coming * params_.circle_braking_lag;
  // Turning its speed from inwards to along the edge takes the wheels'
  // speeding up as much as their slowing down.
  const auto& robot = league_.robot();
  const double braking = params_.circle_braking_fraction *
                         std::min(limit_or(robot.max_acceleration(), 3.0), limit_or(robot.max_deceleration(), 3.0));
  const double most = std::sqrt(2.0 * braking * std::max(0.0, room));
  const V heading(std::cos(self.theta), std::sin(self.theta)), left(-std::sin(self.theta), std::cos(self.theta));
  if (!omni_) {
    const double inwards = v.vx * heading.dot(towards);
    if (inwards > most) v.vx *= most / inwards;
    return;
  }
  V moving = heading * v.vx + left * v.vy;
  const double inwards = moving.dot(towards);
  if (inwards <= most && coming <= most) return;
  if (inwards > most) moving -= (inwards - most) * towards;
  // Coming in faster than that, it keeps its speed sideways meanwhile:
  // the wheels' change is one budget, and a command that turns the
  // velocity sideways spends it on the turn (a robot at 2.8 m/s, 0.9 m
  // from the halfway line with its place 1.8 m to its side, slowed at
  // 1.7 m/s² and crossed the line by 0.9 m).
  if (hold_sideways && coming > most) {
    const V side = V(-towards.y(), towards.x());
    moving += (velocity.dot(side) - moving.dot(side)) * side;
  }
  v.vx = moving.dot(heading);
  v.vy = moving.dot(left);
}

V SkillController::exit_from_circle(const Pose& self, const V& c, double R, const V& place,
                                    const std::vector<CircleObstacle>& occupied, const std::optional<V>& kept) const {
  // Straight out from the centre is shortest, but near an end line or a
  // corner it lies off the field, where a robot stops at the boundary and
  // never gets round (tried: MSL illegal positions 104 -> 390). So the edge
  // points inside the lines, by the length of the way out and round.
  const double r = league_.robot().radius();
  const double out = R + 0.5 * r;
  const V p(self.x, self.y);
  const double place_bearing = angle_of(place - c);
  // First only points the robot reaches without coming nearer the centre,
  // where the taker will stand, and where no robot stands (MSL: a robot
  // sent out to the point its teammate stood on dithered beside it, inside
  // the circle, until the drop ball); when the lines leave none, any.
  auto free = [&](const V& e) {
    return std::none_of(occupied.begin(), occupied.end(),
                        [&](const CircleObstacle& o) { return (e - o.centre).norm() < o.radius; });
  };
  auto usable = [&](const V& e, bool outwards_only, bool free_only) {
    // Nor where drive_to() would not take it: a point by our goal area
    // became the area's corner, inside the circle (MSL drop ball by our
    // corner flag: a robot stood there beside an opponent for 4 s).
    if (!may_stand_at(e)) return false;
    if (outwards_only && (e - p).dot(p - c) < 0.0) return false;
    return !free_only || free(e);
  };
  constexpr int kDirections = 72;
  constexpr std::pair<bool, bool> kPasses[] = {{true, true}, {false, true}, {true, false}, {false, false}};
  for (const auto& [outwards_only, free_only] : kPasses) {
    std::optional<V> best;
    double best_cost = std::numeric_limits<double>::infinity();
    for (int k = 0; k < kDirections; ++k) {
      const double a = k * (2.0 * M_PI / kDirections);
      const V e = c + out * V(std::cos(a), std::sin(a));
      if (!usable(e, outwards_only, free_only)) continue;
      const double cost = (e - p).norm() + out * std::abs(wrap_angle(a - place_bearing));
      if (cost < best_cost) {
        best_cost = cost;
        best = e;
      }
    }
    if (!best) continue;
    // The point it was heading for, while still usable and not much further
    // off: as the robots round it moved and its place along the circle
    // changed, the best point jumped from one side of it to the other, and
    // a robot 0.3 m inside turned to and fro until the restart (MSL drop
    // balls in corners, restart drills: seed 37 restart 78). Out of the
    // circle first; the way round to the place can change after.
    if (kept && params_.exit_keep_radii >= 0.0 && usable(*kept, outwards_only, /*free_only=*/true) &&
        (*kept - p).norm() <= (*best - p).norm() + params_.exit_keep_radii * r)
      return *kept;
    return *best;
  }
  // No edge point inside the lines (a circle wider than the field): the place.
  return place;
}

bool SkillController::way_clear_of(const V& from, const V& to, const std::vector<V>& robots) const {
  const double touch = 2.0 * league_.robot().radius();
  return std::all_of(robots.begin(), robots.end(), [&](const V& o) {
    // Against one it already touches, no nearer than it stands.
    return distance_to_segment(o, from, to) >= std::min(touch, (o - from).norm()) - 1e-3;
  });
}

bool SkillController::may_step_to(const V& from, const V& q, const std::vector<V>& teammates,
                                  const std::vector<V>& opponents, const std::vector<V>& robots) const {
  // Clear of the robots beside it: opponents' bodies, and teammates by as
  // much as the skills keep from them (or no nearer than it stands), else
  // the safety search holds it back short of the point.
  const double body_gap = 2.0 * league_.robot().radius() + kStepOutBodyGap;
  return std::all_of(opponents.begin(), opponents.end(), [&](const V& o) { return (q - o).norm() >= body_gap; }) &&
         std::all_of(teammates.begin(), teammates.end(),
                     [&](const V& m) { return (q - m).norm() >= std::min(teammate_keep(), (from - m).norm()) - 1e-3; }) &&
         way_clear_of(from, q, robots);
}

std::optional<V> SkillController::step_out_of_circle(const Pose& self, const V& c, double keep_out, double R,
                                                     const std::vector<V>& teammates,
                                                     const std::vector<V>& opponents, bool beyond_lines) const {
  const V p(self.x, self.y);
  const V radial = unit_or(p - c, V(1.0, 0.0));
  std::vector<V> robots = teammates;
  robots.insert(robots.end(), opponents.begin(), opponents.end());
  // As far out as the robots on the edge leave room for: the edge of the
  // circle it keeps out of, halfway there, or just past the distance.
  for (const double ring : {R, 0.5 * (keep_out + R), keep_out + 2.0 * kRestartCircleCreep}) {
    std::optional<V> best;
    for (int k = -kStepOutDirections; k <= kStepOutDirections; ++k) {
      const V q = c + ring * (Eigen::Rotation2Dd(k * kStepOutTurn) * radial);
      if (!may_stand_at(q, beyond_lines)) continue;
      if (!may_step_to(p, q, teammates, opponents, robots)) continue;
      if (!best || (q - p).norm() < (*best - p).norm()) best = q;
    }
    if (best) return best;
  }
  return std::nullopt;
}

std::optional<V> SkillController::step_out_of_own_goal_area(const Pose& self, const std::vector<V>& teammates,
                                                            const std::vector<V>& opponents) const {
  constexpr double kStep = 0.01;
  const auto& f = league_.field();
  const V p(self.x, self.y);
  std::vector<V> robots = teammates;
  robots.insert(robots.end(), opponents.begin(), opponents.end());
  // The area's edge, out past the strip kept off it, on the front and both
  // sides, from the back of the run-off to the front.
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;
  const double grow = own_goal_area_keep() + kStep;
  const double front = own_goal_x_ + a * (f.goal_area_depth() + grow);
  const double side = 0.5 * f.goal_area_width() + grow;
  const double back = own_goal_x_ - a * runtime::run_off(league_);
  auto will_do = [&](const V& q) {
    // Not past our goal: behind our goal line, one chose a point beyond the
    // goal, which no way reaches (SSL vs chaser, seed 35).
    return may_stand_at(q, /*beyond_lines=*/true) && may_step_to(p, q, teammates, opponents, robots) &&
           way_within(standing_space_, p, q);
  };
  std::optional<V> best;
  auto consider = [&](const V& q) {
    if (best && (q - p).norm() >= (*best - p).norm()) return;
    if (will_do(q)) best = q;
  };
  for (double y = -side; y <= side; y += kStep) consider(V(front, y));
  for (double along = 0.0; along <= std::abs(front - back); along += kStep)
    for (const double s : {-1.0, 1.0}) consider(V(front - a * along, s * side));
  return best;
}

std::optional<V> SkillController::make_way_for_teammate_inside(const Pose& self, const V& c, double keep_out) const {
  // Teammates stand on the edge of the distance teammate_keep() apart, a
  // wall the ball cannot pass, nor a robot still inside behind it: one walled
  // in so by two stood 0.3 m inside for five seconds while its way round
  // them was taken by opponents, and the referee moved it (MSL restart
  // drill, a drop ball by our corner flag). The one outside stands back
  // instead, which it may: further out is never nearer the ball.
  const V p(self.x, self.y);
  const double from_centre = (p - c).norm();
  if (from_centre < keep_out || from_centre < 1e-9) return std::nullopt;
  const double r = league_.robot().radius();
  const double reach = teammate_keep() + 2.0 * r;
  const bool walls_one_in = std::any_of(teammates_.begin(), teammates_.end(), [&](const V& m) {
    const double mate_from_centre = (m - c).norm();
    return mate_from_centre < keep_out && mate_from_centre < from_centre && (m - p).norm() < reach;
  });
  if (!walls_one_in) return std::nullopt;
  const V back = c + (from_centre + teammate_keep()) * (p - c) / from_centre;
  if (!may_stand_at(back)) return std::nullopt;
  return back;
}

bool SkillController::may_stand_at(const V& q, bool beyond_lines) const {
  const auto& f = league_.field();
  const double r = league_.robot().radius();
  if (beyond_lines) {
    if ((clamp_into_free_space(standing_space_, q) - q).norm() > 1e-9) return false;
  } else if (std::abs(q.x()) > 0.5 * f.length() - r || std::abs(q.y()) > 0.5 * f.width() - r) {
    return false;
  }
  return !(avoid_goal_area_ && in_own_goal_area(q, own_goal_area_keep()));
}

std::optional<V> SkillController::along_wall(const V& b, const V& u0, double a) const {
  const auto& f = league_.field();
  const double r = league_.robot().radius(), rb = league_.ball().radius();
  const double contact = r + rb;
  const double behind = contact + params_.approach_distance;
  auto reachable = [this](const V& v) {
    double x = v.x(), y = v.y();
    clamp_to_field(x, y);
    return std::abs(x - v.x()) < 1e-9 && std::abs(y - v.y()) < 1e-9;
  };
  // The walls the ball lies against: outward normal and the ball centre's
  // distance from it. The end walls count beside the goal mouth only.
  struct Wall {
    V out;
    double dist;
  };
  std::vector<Wall> walls;
  const double reach = r + 0.5 * contact;
  const double sy = b.y() >= 0.0 ? 1.0 : -1.0, sx = b.x() >= 0.0 ? 1.0 : -1.0;
  if (0.5 * f.width() - std::abs(b.y()) < reach) walls.push_back({V(0.0, sy), 0.5 * f.width() - std::abs(b.y())});
  if (std::abs(b.y()) > 0.5 * f.goal_width() - r && 0.5 * f.length() - std::abs(b.x()) < reach)
    walls.push_back({V(sx, 0.0), 0.5 * f.length() - std::abs(b.x())});
  std::sort(walls.begin(), walls.end(), [](const Wall& l, const Wall& m) { return l.dist < m.dist; });

  // Along the nearest wall, tilted into it just enough that the robot's
  // centre stays on the field: the ball slides along the wall. Of the two
  // ways, the one nearer the goal direction; never along the own end wall
  // towards the own goal mouth.
  std::optional<V> best;
  double best_score = -1e9;
  for (const Wall& w : walls) {
    const double s_min = (r + 0.003 - w.dist) / contact;
    // Along the opponent end wall, towards the goal mouth, steeper: the ball
    // must keep going into the goal when the wall ends at the post.
    const bool opponent_end_wall = w.out.x() * a > 0.0;
    const double tilt = std::clamp(std::max(s_min + 0.05, opponent_end_wall ? 0.35 : 0.0), 0.0, 0.9);
    const V t0(-w.out.y(), w.out.x());
    for (const V& t : {t0, V(-t0)}) {
      const V u = (t * std::sqrt(1.0 - tilt * tilt) + w.out * tilt).normalized();
      if (!reachable(b - u * contact) || !reachable(b - u * behind)) continue;
      // Never from inside the own goal mouth (the keeper's place): a touch
      // there puts the ball in.
      const V start = b - u * (behind + params_.run_up);
      auto in_own_mouth = [&](const V& v) {
        return a * v.x() < -(0.5 * f.length() - r - 0.03) && std::abs(v.y()) < 0.5 * f.goal_width() + r;
      };
      if (in_own_mouth(b - u * contact) || in_own_mouth(start)) continue;
      const bool own_end_wall = w.out.x() * a < 0.0;
      if (own_end_wall && t.y() * b.y() < 0.0) continue;  // towards the own goal mouth
      const double score = u.dot(u0);
      if (score > best_score) {
        best_score = score;
        best = u;
      }
    }
    if (best) break;  // the nearest wall with a way along it decides
  }
  return best;
}

// --- roles ------------------------------------------------------------------------

std::vector<ShotObstacle> SkillController::opponent_bodies(const msg::WorldEstimate& world) const {
  const double r = league_.robot().radius();
  std::vector<ShotObstacle> bodies;
  for (const auto& o : world.opponents()) bodies.push_back({V(o.pose().x(), o.pose().y()), r});
  return bodies;
}

std::vector<ShotObstacle> SkillController::shot_obstacles(const msg::WorldEstimate& world) const {
  const double r = league_.robot().radius();
  std::vector<ShotObstacle> obstacles = opponent_bodies(world);
  for (const auto& m : world.teammates())
    if (m.robot_id() != robot_id_) obstacles.push_back({V(m.pose().x(), m.pose().y()), r});
  return obstacles;
}

PassParams SkillController::lane_params() const {
  const auto& robot = league_.robot();
  PassParams params;
  params.opponent_speed = limit_or(robot.max_speed(), params.opponent_speed);
  params.opponent_acceleration = limit_or(robot.max_acceleration(), params.opponent_acceleration);
  return params;
}

double SkillController::shot_aim_y(const V& b, const msg::WorldEstimate& world, double a, double straight_y) {
  const auto& f = league_.field();
  if (!params_.aim_at_open_gaps) return straight_y;
  const std::vector<GoalGap> gaps = open_goal_gaps(b, a * 0.5 * f.length(), 0.5 * f.goal_width(),
                                                   league_.ball().radius(), shot_obstacles(world));
  if (gaps.empty()) {
    aim_y_.reset();
    return straight_y;
  }
  // An aim in the middle half of a gap misses the robots at its edges by a
  // safe angle (a post's edge needs no margin: straight_y keeps its own);
  // one that stays there is kept, so two gaps of about the same width (a
  // keeper in the middle) do not swap the line the robot lines up on every
  // cycle.
  auto well_inside = [&](double y) { return well_inside_open_gap(gaps, y); };
  if (well_inside(straight_y)) aim_y_ = straight_y;
  else if (!aim_y_ || !well_inside(*aim_y_))
    aim_y_ = std::max_element(gaps.begin(), gaps.end(), [](const GoalGap& x, const GoalGap& y) {
               return x.angle < y.angle;
             })->aim_y;
  return *aim_y_;
}

bool SkillController::open_shot_ahead(const Pose& self, const V& ball, const msg::WorldEstimate& world,
                                      double a) const {
  const auto& f = league_.field();
  const auto& robot = league_.robot();
  const double goal_x = a * 0.5 * f.length();
  const double depth = a * (goal_x - ball.x()), heading_x = std::cos(self.theta);
  if (!params_.aim_at_open_gaps || !(robot.kick_speed() > 0.0) || depth <= 0.0 || a * heading_x <= 1e-3)
    return false;
  const double y_hit = ball.y() + std::tan(self.theta) * (goal_x - ball.x());
  const double along = std::hypot(depth, y_hit - ball.y());
  const std::vector<GoalGap> gaps =
      open_goal_gaps(ball, goal_x, 0.5 * f.goal_width(), league_.ball().radius(), shot_obstacles(world));
  if (!well_inside_open_gap(gaps, y_hit, params_.open_shot_margin * along)) return false;
  // Only the opponents go for the ball.
  return pass_lane_safe(ball, V(goal_x, y_hit), robot.kick_speed(), runtime::ball_rolling_deceleration(league_.ball()),
                        opponent_bodies(world), lane_params());
}

std::optional<Pass> SkillController::pass_from(const V& b, const msg::WorldEstimate& world, double a) {
  const auto& robot = league_.robot();
  if (!params_.pass || !(robot.kick_speed() > 0.0)) {
    pass_to_.reset();
    return std::nullopt;
  }
  const auto& f = league_.field();
  const double rb = league_.ball().radius();
  const std::vector<ShotObstacle> opponents = opponent_bodies(world);
  std::vector<PassReceiver> receivers;
  for (const auto& m : world.teammates()) {
    const V q(m.pose().x(), m.pose().y());
    if (m.robot_id() == robot_id_ || a * (q.x() - b.x()) < -0.5) continue;
    receivers.push_back({m.robot_id(), q});
  }
  const PassParams pass_params = lane_params();
  auto choose = [&](const std::vector<PassReceiver>& among) {
    return choose_pass(b, a * 0.5 * f.length(), 0.5 * f.goal_width(), rb, robot.kick_speed(),
                       runtime::ball_rolling_deceleration(league_.ball()), among, opponents, pass_params);
  };
  std::optional<Pass> pass;
  if (pass_to_) {
    for (const auto& q : receivers)
      if (q.id == *pass_to_) pass = choose({q});
  }
  if (!pass) pass = choose(receivers);
  if (pass) pass_to_ = pass->receiver_id;
  else pass_to_.reset();
  return pass;
}

std::optional<V> SkillController::receiving_point(const Pose& self, const msg::WorldEstimate& world) const {
  const V b(world.ball().position().x(), world.ball().position().y());
  const V bv(world.ball().velocity().x(), world.ball().velocity().y());
  const double speed = bv.norm();
  if (!params_.pass || !(speed > 0.5)) return std::nullopt;
  const V dir = bv / speed, p(self.x, self.y);
  const double r = league_.robot().radius();
  const double deceleration = runtime::ball_rolling_deceleration(league_.ball());
  const double along = (p - b).dot(dir);
  const double rolls = deceleration > 0.0 ? speed * speed / (2.0 * deceleration) : 1e9;
  if (along < 2.0 * r || along > rolls + r) return std::nullopt;
  const V q = b + dir * along;
  // Only a ball coming its way: within a few radii of its path, and it gets
  // there first.
  const double off = (q - p).norm();
  if (off > 4.0 * r + 0.2) return std::nullopt;
  const double cruise = params_.cruise_fraction * limit_or(league_.robot().max_speed(), 1.0);
  if (off / cruise > rolling_time(speed, deceleration, along)) return std::nullopt;
  return q;
}

std::optional<double> SkillController::seconds_into_goal(const V& from, const V& velocity, double a) const {
  const double line = a * 0.5 * league_.field().length();
  if (!(a * velocity.x() > 0.0 && a * (from.x() - line) < 0.0)) return std::nullopt;
  // Along its straight way, how far the ball rolls to the line.
  const double speed = velocity.norm();
  const double to_line = (line - from.x()) * speed / velocity.x();
  const double y_at_line = from.y() + velocity.y() / speed * to_line;
  if (!(std::abs(y_at_line) < 0.5 * league_.field().goal_width() - league_.ball().radius())) return std::nullopt;
  const double t = rolling_time(speed, runtime::ball_rolling_deceleration(league_.ball()), to_line);
  if (!std::isfinite(t)) return std::nullopt;
  return t;
}

SkillController::Vel SkillController::attacker(const Pose& self, const msg::WorldEstimate& world,
                                               bool attack_positive_x, double& kick) {
  const auto& f = league_.field();
  const auto& robot = league_.robot();
  const double a = attack_positive_x ? 1.0 : -1.0;
  const double r = robot.radius(), rb = league_.ball().radius();
  const double contact = r + rb;
  const double behind = contact + params_.approach_distance;
  const double max_speed = limit_or(robot.max_speed(), 1.0);
  const double cruise = params_.cruise_fraction * max_speed;
  const V p(self.x, self.y);

  // Chase where the ball will be when we get there, roughly.
  V b(world.ball().position().x(), world.ball().position().y());
  const V bv(world.ball().velocity().x(), world.ball().velocity().y());
  // A ball our keeper is to clear: wait up-field of it, beside the way it
  // will be kicked, out of the keeper's way (and out of the goal area).
  if (!clearing_ && keeper_clears(b, bv, false) && (keeper_on_team_ || teammate_in_own_goal_area(world))) {
    phase_ = AttackPhase::kApproach;
    side_ = 0;
    const V up = unit_or(V(a * 0.5 * f.length(), 0.0) - b, V(a, 0.0));
    const V n(-up.y(), up.x());
    const double side = (p - b).dot(n) >= 0.0 ? 1.0 : -1.0;
    const V w = b + up * (contact + 2.0 * r) + n * side * (2.0 * r + 0.2);
    double wx = w.x(), wy = w.y();
    clamp_to_field(wx, wy);
    avoid_ball(self, b.x(), b.y(), wx, wy);
    return drive_to(self, wx, wy, cruise, true, angle_of(b - p), true, !omni_);
  }
  // A ball on its way into their goal, over the line within a second: the
  // attacker waits for a rebound before the goal mouth rather than follow
  // it in. Where the run back to a kick-off takes seconds (MSL), scorers
  // that followed the ball into the goal mouth stood between the goal and
  // its keeper coming home, and five of the seven late at kick-offs in 40
  // matches first ran home 3-4 s after the goal. It waits straight
  // up-field of where it stands, not before the goal mouth: from beside the
  // goal, the way there crossed the mouth into the keeper coming home, and
  // four of the five scorers late at kick-offs in 20 matches lost 3-4 s in
  // that scrum.
  // Its own shot into the goal it knows of from the kick on; the ball
  // estimate shows the ball rolling only frames later (MSL seed 90: 0.26 s,
  // in which the scorer drove on after it at 1.4 m/s into the corner of
  // their goal area; at the goal it was still rolling that way, braked, and
  // was 0.07 m short of its half at the kick-off).
  const double line = a * 0.5 * f.length();
  if (own_shot_in_until_ && !(world.t() <= *own_shot_in_until_)) own_shot_in_until_.reset();
  bool going_in =
      own_shot_in_until_ && !holds_ball(self, V(world.ball().position().x(), world.ball().position().y()));
  if (!going_in) {
    const std::optional<double> in = seconds_into_goal(b, bv, a);
    going_in = in && *in <= kGoingInSeconds;
  }
  if (runtime::long_kickoff_run(league_) && going_in) {
    const double off_line = f.goal_area_depth() + 2.0 * r;
    double wx = line - a * std::max(off_line, a * (line - p.x()) + kReboundBackOff), wy = p.y();
    clamp_to_field(wx, wy);
    return drive_to(self, wx, wy, cruise, true, angle_of(b - p), true, !omni_);
  }
  // Within this of the ball the robot plays it rather than travels to it.
  const double close_to_ball = 4.0 * r + 0.1;
  if (params_.intercept && !f.walls() && (b - p).norm() > close_to_ball) {
    // Where the robot can first meet the rolling ball; failing that within
    // the horizon, where the ball will be at its end. Not close to the
    // ball: there the approach below lines up on the ball itself, and a
    // point ahead of it would have the robot cut across its path. Not
    // within walls: the model lets the ball roll on where a wall turns it
    // back (in MiroSot unit situations the robot then pushed balls towards
    // its own goal).
    const RollingBall rolling{b, bv, runtime::ball_rolling_deceleration(league_.ball())};
    InterceptRobot me;
    me.position = p;
    me.velocity = V(world.self().velocity().x(), world.self().velocity().y());
    me.heading = self.theta;
    me.omni = omni_;
    me.max_speed = cruise;
    me.max_acceleration = limit_or(robot.max_acceleration(), 3.0);
    me.max_omega = limit_or(robot.max_omega(), 6.0);
    me.reach = contact;
    const auto hit = earliest_intercept(me, rolling, params_.intercept_horizon);
    b = hit ? hit->point : rolling.at(params_.intercept_horizon);
  } else {
    b += bv * std::min(params_.ball_lookahead_max, (b - p).norm() / std::max(0.3, cruise));
  }
  b.x() = std::clamp(b.x(), -0.5 * f.length(), 0.5 * f.length());
  b.y() = std::clamp(b.y(), -0.5 * f.width() + rb, 0.5 * f.width() - rb);

  // Shoot straight when the ball is in front of the goal mouth, else at a
  // point on the goal line well inside the near post: from a steep angle the
  // mouth looks narrow.
  const double aim_margin = rb + 0.25 * f.goal_width();
  const double straight_y = std::clamp(b.y(), -std::max(0.0, 0.5 * f.goal_width() - aim_margin),
                                       std::max(0.0, 0.5 * f.goal_width() - aim_margin));
  const std::optional<Pass> pass = pass_from(b, world, a);
  const V goal = pass ? pass->target : V(a * 0.5 * f.length(), shot_aim_y(b, world, a, straight_y));
  // From a steep angle the near post hides the mouth: a shot would hit it.
  // Take the ball in front of the goal first (MI20's and Clockwork Orange's
  // corner ball), and shoot once the mouth has opened up.
  const double open = goal_open_angle(b, a * 0.5 * f.length(), 0.5 * f.goal_width(), rb);
  if (open < params_.min_shot_angle) to_shot_spot_ = true;
  else if (open > 2.0 * params_.min_shot_angle) to_shot_spot_ = false;
  const double spot_depth = std::max(f.goal_width(), f.goal_area_depth() + 2.0 * r);
  const V shot_spot(a * (0.5 * f.length() - spot_depth), 0.0);
  const bool beside_goal = a * b.x() > 0.5 * f.length() - spot_depth;
  auto reachable = [this](const V& v) {
    double x = v.x(), y = v.y();
    clamp_to_field(x, y);
    return std::abs(x - v.x()) < 1e-9 && std::abs(y - v.y()) < 1e-9;
  };
  V u = unit_or(goal - b, V(a, 0.0));
  if (to_shot_spot_ && beside_goal && !pass) {
    // Unless the ball lies against a wall: pushed along it, it slides in.
    const V to_spot = unit_or(shot_spot - b, V(a, 0.0));
    if (reachable(b - to_spot * behind)) u = to_spot;
  }
  const V q = b - u * behind;
  // A ball being pushed along the opponent end wall keeps its push direction
  // into the goal mouth (there the line to the goal is reachable again, but
  // turning to it would let the ball roll across the mouth).
  const bool at_goal_line = a * b.x() > 0.5 * f.length() - contact - 0.02;
  if (!reachable(q)) {
    const std::optional<V> along = along_wall(b, u, a);
    if (!along && a * b.x() < 0.0) {
      // No safe way to move a ball at the own end wall (by the own post):
      // leave it to the keeper and wait in front of it, off the goal line.
      phase_ = AttackPhase::kApproach;
      wall_push_ = false;
      double wx = b.x() + a * 0.2, wy = b.y();
      clamp_to_field(wx, wy);
      avoid_ball(self, b.x(), b.y(), wx, wy);
      return go_to_pose(self, wx, wy, a > 0.0 ? 0.0 : kPi, false);
    }
    u = along ? *along : V(a, 0.0);
    wall_push_ = true;
  } else if (wall_push_ && phase_ == AttackPhase::kPush && at_goal_line) {
    u = wall_u_;
  } else {
    wall_push_ = false;
  }
  wall_u_ = u;
  const V n(-u.y(), u.x());
  const V rel = p - b;
  const double s = rel.dot(u), lat = rel.dot(n);
  const double phi = angle_of(u);
  double herr = wrap_angle(phi - self.theta);
  if (symmetric_ && std::abs(herr) > kPi / 2) herr = wrap_angle(herr + kPi);

  // With a round robot the ball leaves along the line from the robot's centre
  // through the ball's, so what matters at contact is the lateral offset from
  // the ball-goal line, more than the heading. A run-up along the line lets
  // the push correct what offset is left.
  const double lat_tol = std::max(0.004, 0.1 * (robot.mouth_width() > 0.0 ? robot.mouth_width() : 2.0 * r));
  // Near a wall the run-up (and the back-off, below) shortens to what fits on the field.
  auto fitting = [&](double want, double least) {
    for (double d = want; d > least; d -= 0.01)
      if (reachable(b - u * d)) return d;
    return least;
  };
  const double start = fitting(behind + params_.run_up, behind);
  const double back_off = fitting(start + kBackOff, start) - start;
  const V q_start = b - u * start;
  const double cone = lat_tol + 0.1 * std::max(0.0, -s - behind);
  const bool behind_ball = s < -(contact - 0.01);
  // A mouth that holds the ball (a passive scoop while the robot does not
  // back away) lets the robot carry it and turn with it. Turning to align
  // would fling it out sideways; the robot keeps pushing towards its aim
  // instead, turning gently.
  const bool holding = holds_ball(self, V(world.ball().position().x(), world.ball().position().y()));
  if (holding) phase_ = AttackPhase::kPush;
  switch (phase_) {
    case AttackPhase::kPush: {
      if (holding) break;
      const bool passed = s > -0.5 * r;
      const bool off_line = std::abs(lat) > 1.5 * cone + 0.01;
      if (passed || off_line || std::abs(herr) > 1.0) phase_ = AttackPhase::kApproach;
      break;
    }
    case AttackPhase::kAlign:
      if ((q_start - p).norm() > kBackOff + 0.08 || !behind_ball || std::abs(lat) > 0.08)
        phase_ = AttackPhase::kApproach;
      else if (std::abs(lat) < cone && std::abs(herr) < params_.align_tolerance)
        phase_ = AttackPhase::kPush;
      break;
    case AttackPhase::kApproach:
      if (behind_ball && s > -(start + 0.4) && std::abs(lat) < cone && std::abs(herr) < params_.push_heading_tolerance)
        phase_ = AttackPhase::kPush;
      else if ((q_start - p).norm() < 0.04 && behind_ball && std::abs(lat) < 0.06) {
        phase_ = AttackPhase::kAlign;
        align_back_ = std::abs(lat) >= cone;
      }
      break;
  }

  if (phase_ != AttackPhase::kApproach) avoid_opponents_ = false;
  if (phase_ == AttackPhase::kPush) {
    side_ = 0;
    // Head for where the robot's centre must be when it touches the ball (on
    // the line, one contact distance behind), then drive through; after a
    // bounce the ball is ahead again and the chase starts over.
    const V contact_point = b - u * (contact - 0.015);
    V aim = (contact_point - p).norm() > params_.push_lookahead ? contact_point : V(b + u * 0.3);
    double push = params_.push_fraction * max_speed;
    if (holding) {
      aim = b + u * 0.5;
      // Slow while the heading is still far from the aim.
      push *= std::max(0.2, std::cos(std::min(std::abs(herr), kPi / 2)));
    }
    Vel v = drive_to(self, aim.x(), aim.y(), push, false, phi, true, symmetric_ && !holding);
    if (holding) {
      v.omega = std::clamp(v.omega, -params_.carry_omega, params_.carry_omega);
      v.vx = std::max(v.vx, 0.0);  // backing away would drop it
    }
    if (pass) {
      // A pass goes off only along its line: the receiver is small.
      if (to_ball_now(p, world) < contact + 0.03 && std::abs(herr) < params_.carry_kick_tolerance)
        kick = pass->kick_speed;
    } else if (robot.kick_speed() > 0.0) {
      const double ball_bearing = wrap_angle(angle_of(b - p) - self.theta);
      const double heading_x = std::cos(self.theta);
      // Carrying the ball the robot can wait until it faces its aim, but
      // need not where the way it already faces is open (open_shot_ahead).
      const bool aimed =
          !holding || (!to_shot_spot_ && (std::abs(herr) < params_.carry_kick_tolerance ||
                                          open_shot_ahead(self, V(world.ball().position().x(),
                                                                  world.ball().position().y()), world, a)));
      if (aimed && to_ball_now(p, world) < contact + 0.03 && std::abs(ball_bearing) < 0.25 && heading_x * a > 0.0) {
        const double y_hit = self.y + std::tan(self.theta) * (a * 0.5 * f.length() - self.x);
        // The keeper clearing kicks whatever it faces up-field: away is enough.
        if (clearing_ || std::abs(y_hit) < 0.5 * f.goal_width() - rb) kick = robot.kick_speed();
        // A shot going in: see the rebound wait above. A tenth of a second
        // more for the estimate to take over.
        const std::optional<double> in =
            seconds_into_goal(p, robot.kick_speed() * V(std::cos(self.theta), std::sin(self.theta)), a);
        if (kick > 0.0 && !clearing_ && in && *in <= kGoingInSeconds) own_shot_in_until_ = world.t() + *in + 0.1;
      }
    }
    return v;
  }
  if (phase_ == AttackPhase::kAlign) {
    side_ = 0;
    if (std::abs(lat) < cone) return turn_to(self, phi, symmetric_);
    // Beside the line: a differential robot cannot step sideways. It backs
    // off along the line, which takes the offset out, and comes forward again.
    const V back = b - u * (start + back_off);
    if (align_back_ && ((back - p).norm() < 0.03 || back_off < 0.03)) align_back_ = false;
    if (!align_back_ && (q_start - p).norm() < 0.02) align_back_ = true;
    const V target = align_back_ ? back : q_start;
    return drive_to(self, target.x(), target.y(), 0.5 * cruise, true, phi, true, !omni_);
  }

  // Near the ball, an opponent fighting for it is to be contested, not avoided.
  avoid_opponents_ = avoid_opponents_ && (b - p).norm() > close_to_ball;
  // Approach. From the wrong side: round the ball (never through it). From
  // behind: chase a point on the line behind the ball that slides towards the
  // ball as the robot closes in, so it arrives on the line already aligned.
  const double R = ball_pass_radius();
  const double to_ball = (b - p).norm();
  // Slow near the ball, but never slower than the ball itself.
  const double near_ball_cap = std::min(max_speed, std::clamp(2.0 * (to_ball - contact), 0.3, cruise) + bv.norm());
  if (s > -0.3 * R) {
    if (side_ == 0) side_ = lat > 0.0 ? 1 : lat < 0.0 ? -1 : (b.y() * a > 0.0 ? -1 : 1);
    auto waypoint = [&](int side) {
      return s > 0.3 * R ? V(b + n * side * R) : V(b + n * side * R - u * R);
    };
    V w = waypoint(side_);
    if (!reachable(w)) {
      side_ = -side_;  // no room on this side (wall)
      w = waypoint(side_);
    }
    double wx = w.x(), wy = w.y();
    clamp_to_field(wx, wy);
    return drive_to(self, wx, wy, near_ball_cap, false, phi, true, !omni_);
  }
  side_ = 0;
  const double lead = std::clamp(0.6 * to_ball, start, std::max(start, 0.4));
  double tx = b.x() - u.x() * lead, ty = b.y() - u.y() * lead;
  clamp_to_field(tx, ty);
  detour_around_ball(self, b.x(), b.y(), tx, ty);
  return drive_to(self, tx, ty, near_ball_cap, lead <= start + 1e-9, phi, true, !omni_);
}

bool SkillController::keeper_clears(const V& b, const V& bv, bool clearing) const {
  const auto& f = league_.field();
  if (league_.rules().max_defenders_in_goal_area() == 0 || f.goal_area_depth() <= 0.0 || f.goal_area_width() <= 0.0)
    return false;
  if (!b.allFinite() || !bv.allFinite()) return false;
  const double r = league_.robot().radius(), rb = league_.ball().radius();
  // A field player reaches a ball from two radii and the ball's away; the
  // keeper at it keeps going a radius further, so the ball rolling off its
  // push does not bring it straight back to the line.
  const double grow = 2.0 * r + rb + (clearing ? r : 0.0);
  const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;
  const bool on_field = a * (b.x() - own_goal_x_) > 0.0;  // not over our goal line
  if (!on_field || !in_own_goal_area(b, grow)) return false;
  if (bv.norm() < (clearing ? 2.0 : 1.0) * params_.keeper_clear_speed) return true;
  // A still ball only within a robot and a ball of the area, where no field
  // player gets behind it: further out the attacker went for it too, and the
  // two met (MSL vs chaser: 30 keeper-attacker contacts in 12 matches).
  if (!(params_.keeper_clear_still_seconds > 0.0) || !in_own_goal_area(b, r + rb + (clearing ? r : 0.0))) return false;
  return clearing ? bv.norm() < 1.0 : ball_still_for_ >= params_.keeper_clear_still_seconds;
}

bool SkillController::teammate_in_own_goal_area(const msg::WorldEstimate& world) const {
  for (const auto& mate : world.teammates())
    if (mate.robot_id() != robot_id_ && in_own_goal_area(V(mate.pose().x(), mate.pose().y()), 0.0)) return true;
  return false;
}

SkillController::Vel SkillController::keeper(const Pose& self, const msg::WorldEstimate& world,
                                             bool attack_positive_x, double& kick) {
  const auto& f = league_.field();
  const V ball(world.ball().position().x(), world.ball().position().y());
  clearing_ = world.ball().valid() && keeper_clears(ball, ball_velocity_, clearing_);
  if (clearing_) return attacker(self, world, attack_positive_x, kick);
  const double a = attack_positive_x ? 1.0 : -1.0;
  const double r = league_.robot().radius(), rb = league_.ball().radius();
  const double goal_x = -a * 0.5 * f.length();
  const double kx = goal_x + a * (r + 0.02);
  const double half_goal = 0.5 * f.goal_width();
  double y = 0.0;
  if (world.ball().valid()) {
    const double bx = world.ball().position().x(), by = world.ball().position().y();
    // The line from a point half a goal width behind the goal centre to the
    // ball: it covers the near post as the ball comes closer.
    const double depth = half_goal;
    y = by * (std::abs(kx - goal_x) + depth) / (std::abs(bx - goal_x) + depth);
    const double toward = -a * world.ball().velocity().x();  // speed towards our goal line
    if (toward > 0.05) {
      const double t_hit = a * (bx - kx) / toward;
      if (t_hit >= 0.0 && t_hit < 3.0) {
        const double y_hit = by + world.ball().velocity().y() * t_hit;
        if (std::abs(y_hit) < half_goal + rb) y = y_hit;
      }
    }
  }
  const double limit = std::max(0.0, half_goal - 0.5 * r);
  y = std::clamp(y, -limit, limit);
  const double max_speed = limit_or(league_.robot().max_speed(), 1.0);
  if (std::hypot(kx - self.x, y - self.y) > params_.arrive_tolerance) {
    const double face = omni_ && world.ball().valid()
                            ? angle_of(V(world.ball().position().x() - self.x, world.ball().position().y() - self.y))
                            : kPi / 2;
    return drive_to(self, kx, y, max_speed, true, face, true, !omni_);
  }
  // Parked: a differential keeper faces along the goal line to move along it at once.
  if (omni_ && world.ball().valid())
    return turn_to(self, angle_of(V(world.ball().position().x() - self.x, world.ball().position().y() - self.y)),
                   false);
  return turn_to(self, kPi / 2, !omni_);
}

SkillController::Vel SkillController::defender(const Pose& self, const msg::WorldEstimate& world,
                                               bool attack_positive_x) {
  const auto& f = league_.field();
  const double a = attack_positive_x ? 1.0 : -1.0;
  const double r = league_.robot().radius(), rb = league_.ball().radius();
  const V b(world.ball().position().x(), world.ball().position().y());
  const V dir = unit_or(V(-a * 0.5 * f.length(), 0.0) - b, V(-a, 0.0));
  V T = formation_.defender(b, attack_positive_x);
  // Make room for a lower-id teammate already there (two defenders).
  for (const auto& mate : world.teammates()) {
    if (mate.robot_id() >= robot_id_) continue;
    if (std::hypot(mate.pose().x() - T.x(), mate.pose().y() - T.y()) < 3.0 * r) {
      const V n(-dir.y(), dir.x());
      const double side = (V(self.x, self.y) - T).dot(n) >= 0.0 ? 1.0 : -1.0;
      T += n * side * 3.0 * r;
      break;
    }
  }
  // Where an attacker gets behind the ball to play it up-field. With the
  // ball near our goal it is the defender's own spot on the ball-goal line,
  // and the two met there (MSL vs chaser: most attacker-defender contacts).
  const V up = unit_or(V(a * 0.5 * f.length(), 0.0) - b, V(a, 0.0));
  T = outside_circle(T, b - up * (r + rb + params_.approach_distance), kBerthRadii * r, V(self.x, self.y));
  T = clear_of_attackers_lane(T, self, b);
  T = clear_of_teammates(T, self);
  double tx = T.x(), ty = T.y();
  clamp_to_field(tx, ty);
  avoid_ball(self, b.x(), b.y(), tx, ty);
  return go_to_pose(self, tx, ty, angle_of(b - V(self.x, self.y)), false);
}

SkillController::Vel SkillController::wall_defender(const Pose& self, const msg::WorldEstimate& world,
                                                    bool attack_positive_x, uint32_t index, uint32_t count) {
  const V b(world.ball().position().x(), world.ball().position().y());
  // The wall covers the goal from the ball while staying out of the keeper's area.
  const V T = formation_.wall_slot(b, attack_positive_x, index, count);
  double tx = T.x(), ty = T.y();
  clamp_to_field(tx, ty);
  avoid_ball(self, b.x(), b.y(), tx, ty);
  return go_to_pose(self, tx, ty, angle_of(b - V(self.x, self.y)), false);
}

SkillController::Vel SkillController::supporter(const Pose& self, const msg::WorldEstimate& world,
                                                bool attack_positive_x, uint32_t index, uint32_t count) {
  const double r = league_.robot().radius();
  const V b(world.ball().position().x(), world.ball().position().y());
  // A pass (or any ball) rolling this way: step onto its path, facing it.
  if (const std::optional<V> q = receiving_point(self, world)) {
    double qx = q->x(), qy = q->y();
    clamp_to_field(qx, qy);
    return go_to_pose(self, qx, qy, angle_of(b - V(qx, qy)), false);
  }
  support_side_ = formation_.support_side(support_side_, b.y());
  V T = formation_.supporter(b, attack_positive_x, support_side_, index, count, robot_id_);
  if (count < 2) {
    // A lower-id teammate already at the spot keeps it.
    for (const auto& mate : world.teammates()) {
      if (mate.robot_id() >= robot_id_) continue;
      if (std::hypot(mate.pose().x() - T.x(), mate.pose().y() - T.y()) < 4.0 * r) {
        T = formation_.lone_supporter_alternative(b, attack_positive_x, support_side_, robot_id_);
        break;
      }
    }
  }
  T = clear_of_attackers_lane(T, self, b);
  T = clear_of_teammates(T, self);
  double tx = T.x(), ty = T.y();
  clamp_to_field(tx, ty);
  avoid_ball(self, b.x(), b.y(), tx, ty);
  return go_to_pose(self, tx, ty, angle_of(b - V(self.x, self.y)), false);
}

// --- safety search -------------------------------------------------------------------

void SkillController::apply_safety_search(const msg::WorldEstimate& world, double period, Vel& v) {
  if (!world.has_self()) return;
  const auto& robot = league_.robot();
  // The step the command will act for: the time between successive calls,
  // unless that is missing or implausible (first call, a pause, a restart).
  const double dt = period >= 1e-3 && period <= 0.1 ? period : 0.02;
  const auto& me = world.self();
  const double theta = me.pose().theta();
  const V heading(std::cos(theta), std::sin(theta)), left(-std::sin(theta), std::cos(theta));
  // The velocity the robot moves on with: the slower of its estimate and
  // what was asked for last cycle, which the motor is at or ramping to and
  // is known exactly. The estimate alone is noisy (in MiroSot matches often
  // 0.05 m/s above the truth): a command holding the speed then looked like
  // braking, and "estimate less a step's braking" asked for about the speed
  // the robot already had, so pairs whose searches had both chosen to brake
  // met at 0.3 m/s (21 own collisions a match; 0.75 with this).
  const V estimated(me.velocity().x(), me.velocity().y());
  const V asked = last_command_in_field(theta);
  const V velocity = asked.norm() < estimated.norm() ? asked : estimated;
  const double max_acceleration = limit_or(robot.max_acceleration(), 3.0);
  // What the search counts on braking with: estimates lag and the motor's
  // ramps cost a little of the wheels' limit.
  const double max_deceleration = params_.dss_braking_fraction * limit_or(robot.max_deceleration(), 3.0);
  const double half_track = 0.5 * std::max(robot.wheel_base(), 0.0);
  auto finite_or_zero = [](double x) { return std::isfinite(x) ? x : 0.0; };
  // A differential robot that brakes keeping its curvature slows by less than
  // its wheels' limit (the outer wheel reaches it first); an omni robot does not turn
  // its path, so it brakes at the limit.
  auto braking = [&](double turn_rate, double speed) {
    return omni_ ? max_deceleration : curvature_keeping_deceleration(max_deceleration, turn_rate, speed, half_track);
  };

  DssRobot self;
  self.position = V(me.pose().x(), me.pose().y());
  self.velocity = velocity;
  // What the skills ask for, as a field-frame acceleration over the step.
  const V commanded = heading * v.vx + left * (omni_ ? v.vy : 0.0);
  self.desired_acceleration = (commanded - velocity) / dt;
  self.max_acceleration = max_acceleration;
  // Where a robot may be besides where it is estimated: two standard
  // deviations of its position estimate, capped (onboard cameras and shared
  // estimates place teammates decimetres off; a global camera millimetres).
  const double least_doubt = league_.vision() == msg::VISION_ONBOARD ? params_.dss_onboard_doubt : 0.0;
  auto position_doubt = [least_doubt](const msg::RobotEstimate& estimate) {
    if (estimate.covariance_size() != 9) return least_doubt;
    const double variance = std::max(estimate.covariance(0), estimate.covariance(4));
    return std::max(least_doubt,
                    std::isfinite(variance) && variance > 0.0 ? std::min(2.0 * std::sqrt(variance), 0.15) : 0.0);
  };
  self.doubt = position_doubt(me);
  self.radius = robot.radius() + self.doubt;
  const double own_omega = finite_or_zero(me.omega());
  if (!omni_) {
    self.drive_axis = heading;  // a differential robot can only change its forward speed
    // Its path turns as the robot turns: towards the commanded rate, as far
    // as the wheels can change in one step.
    const double turn_change =
        half_track > 0.0 ? (max_acceleration + max_deceleration) * dt / (2.0 * half_track) : 0.0;
    self.turn_rate = std::clamp(finite_or_zero(v.omega), own_omega - turn_change, own_omega + turn_change);
  }
  self.max_deceleration = braking(self.turn_rate, velocity.norm());

  DssParams dss;
  dss.dt = dt;
  dss.margin = params_.dss_margin;
  dss.teammates_finish_step = true;  // every robot of the team decides this same cycle
  dss.speed_margin = params_.dss_speed_margin;
  // Placing, robots stand and pass one another slowly within the doubt of
  // the teammates' shared estimates (up to 0.15 m each): no step may bring
  // such a pair closer, and one whose place lay past a teammate 0.68 m off
  // stood 8 s inside the distance (MSL throw-in). Not in play, where the
  // rule holds as it was tuned.
  dss.overlap_slack = placing_ ? params_.dss_placing_overlap_slack : 0.0;

  // Teammates that could meet the robot before both have stopped: both radii,
  // the margin, both paths (the robot at most speeding up for a step, the
  // teammate holding its speed for it, each then braking as it can) and a
  // radius to spare.
  auto path = [&](double speed, double deceleration) { return speed * dt + speed * speed / (2.0 * deceleration); };
  const double own_speed = velocity.norm() + max_acceleration * dt;
  const double own_path = path(own_speed, self.max_deceleration);
  std::vector<DssRobot> teammates;
  for (const auto& mate : world.teammates()) {
    if (mate.robot_id() == robot_id_) continue;
    DssRobot other;
    other.position = V(mate.pose().x(), mate.pose().y());
    other.velocity = V(mate.velocity().x(), mate.velocity().y());
    other.max_acceleration = max_acceleration;
    if (!omni_) other.turn_rate = finite_or_zero(mate.omega());
    other.max_deceleration = braking(other.turn_rate, other.velocity.norm());
    other.doubt = position_doubt(mate);
    other.radius = robot.radius() + other.doubt;
    const double speed = other.velocity.norm();
    const double reach = self.radius + other.radius + 2.0 * robot.radius() + dss.margin +
                         dss.speed_margin * (own_speed + speed) + own_path + path(speed, other.max_deceleration);
    // Written so a non-finite teammate is kept: the search then brakes.
    if (!((other.position - self.position).norm() > reach)) teammates.push_back(other);
  }
  const DssDecision decision = SafetySearch(dss).safe_acceleration(self, teammates);
  // A differential robot with nothing safe still goes on below: even the
  // least bad command must brake as the search assumed.
  if (!decision.changed && (decision.safe || omni_)) return;
  // The new command: that velocity plus the chosen acceleration over the
  // step; a braking command never reverses the robot.
  V field = velocity + decision.acceleration * dt;
  const bool slowing = decision.acceleration.dot(velocity) < 0.0;
  if (slowing && field.dot(velocity) < 0.0) field = V::Zero();
  // Non-finite input: stop (the motor brakes as hard as it can).
  if (!decision.inputs_valid) field = V::Zero();
  if (omni_) {
    v.vx = heading.dot(field);
    v.vy = left.dot(field);
  } else {
    // Differential: only the forward speed can change; the ramp goes on from
    // what was really asked for.
    const double forward = heading.dot(velocity);
    v.vx = heading.dot(field);
    last_vx_ = v.vx;
    // Slowing down, keep the path's curvature: both wheels then slow in
    // proportion and the robot brakes as the search counted on. Left to the
    // skills, a sharp turn would take the wheels' whole budget (the motor
    // scales both wheels' changes alike) and the robot would hardly slow.
    // Placing, not from a creep the wheels shed within two steps: a robot
    // all but standing turns on the spot as its skills ask, which brings its
    // body no nearer anyone. Its turn scaled with its speed to nothing, a
    // robot facing a teammate 0.63 m off, its way out to the side, stood for
    // 1.7 s a step from its place (MSL restart drill, a drop ball). Not in
    // play, where the ball skills were tuned with it (MiroSot vs chaser,
    // seeds 1-20, in play too: 403-27 against 422-15).
    const bool creeping = placing_ && std::abs(forward) <= 2.0 * max_deceleration * dt;
    if (!creeping && std::abs(forward) > 1e-3 && v.vx * forward >= 0.0 && std::abs(v.vx) < std::abs(forward))
      v.omega = own_omega * v.vx / forward;
  }
}

SkillController::Vel SkillController::search_ball(const Pose& self, const msg::WorldEstimate& world) {
  // Nobody sees the ball (onboard cameras see a narrow cone): turn on the
  // spot, first towards where it was last seen, or towards the middle of the
  // field, where a ball is most likely and most of the field lies, and keep
  // turning that way until a camera finds it.
  if (search_direction_ == 0) {
    const bool seen_before = world.ball().t_observed() > 0.0;
    const V look = seen_before ? V(world.ball().position().x(), world.ball().position().y()) : V(0.0, 0.0);
    const double error = wrap_angle(angle_of(look - V(self.x, self.y)) - self.theta);
    search_direction_ = error >= 0.0 ? 1 : -1;
  }
  Vel out;
  out.omega = search_direction_ * std::min(params_.search_omega, limit_or(league_.robot().max_omega(), 20.0));
  return out;
}

// --- step -----------------------------------------------------------------------------

double SkillController::ramp_forward_speed(double vx, double t, double fraction) {
  // The motor scales the change of both wheels alike when one would exceed
  // its acceleration limit (MI20), so a forward speed change at the limit
  // leaves nothing for turning. Ask for a fraction of the limit and keep the
  // rest for steering.
  const auto& robot = league_.robot();
  const double dt = last_t_ ? std::clamp(t - *last_t_, 0.0, 0.1) : 0.02;
  const double up = fraction * limit_or(robot.max_acceleration(), 1e9) * dt;
  const double down = fraction * limit_or(robot.max_deceleration(), 1e9) * dt;
  const bool speeding_up = vx * last_vx_ >= 0.0 && std::abs(vx) > std::abs(last_vx_);
  const double limit = speeding_up ? up : down;
  last_vx_ += std::clamp(vx - last_vx_, -limit, limit);
  // Placing, a robot whose skills stop it or turn it about brakes from the
  // speed its last command really went, never faster: the pushing limit
  // (limit_pushing) cuts the command after the ramp and leaves the ramp at
  // the speed the skills wanted. (MSL seed 58: a scorer held to 0.5 m/s
  // backing out of the goal mouth past the keeper turned to drive forwards,
  // and backed at 1.4 m/s while "braking" from the 1.9 it had never
  // reached; it was late at the kick-off.) Otherwise the ramp goes on from
  // the wanted speed: once the limit lets go, the motor takes the wheels
  // there at its full acceleration. Ramped from the held speed always, or
  // whenever slowing, MSL vs chaser (seeds 21-40) scored 338-44 and 323-42
  // against 402-41: the attackers' pushes in scrums were tuned so.
  const double commanded = last_command_body_.x();
  if (placing_ && vx * last_vx_ <= 0.0 && last_vx_ * commanded >= 0.0 && std::abs(last_vx_) > std::abs(commanded))
    last_vx_ = commanded;
  last_t_ = t;
  return last_vx_;
}

msg::MotionCommand SkillController::step(const msg::WorldEstimate& world, const msg::PlayerInstruction& instruction,
                                         uint64_t cycle, double t) {
  msg::MotionCommand cmd;
  intent_ = Intent{};
  stepping_out_ = false;
  stepping_beyond_lines_ = false;
  was_walled_in_ = walled_in_;
  walled_in_ = false;
  const std::optional<double> previous_step_t = previous_step_t_;  // safety search's control period
  if (std::isfinite(t)) previous_step_t_ = t;
  cmd.set_cycle(cycle);
  cmd.set_t(t);
  cmd.mutable_velocity();

  const bool playing = instruction.directive() == msg::COACH_PLAY;
  if (!playing || instruction.role() != last_role_) {
    phase_ = AttackPhase::kApproach;
    side_ = 0;
    clearing_ = false;
  }
  last_role_ = playing ? instruction.role() : msg::ROLE_NONE;
  own_goal_x_ = (instruction.attack_positive_x() ? -0.5 : 0.5) * league_.field().length();
  avoid_goal_area_ = false;
  if (league_.rules().max_defenders_in_goal_area() > 0) {
    const auto role = instruction.role();
    if (role == msg::ROLE_DEFENDER || role == msg::ROLE_SUPPORTER) {
      avoid_goal_area_ = true;
    } else if (role == msg::ROLE_ATTACKER) {
      // A ball just in front of the area can only be played from inside it:
      // the attacker may step in for it (the referee allows a short visit).
      // A ball inside the area is the keeper's.
      const auto& f = league_.field();
      const double a = own_goal_x_ < 0.0 ? 1.0 : -1.0;
      const double depth = a * (world.ball().position().x() - own_goal_x_);
      const double half_width = 0.5 * f.goal_area_width() + league_.ball().radius();
      const double reach = 2.0 * league_.robot().radius() + league_.ball().radius();
      const bool level_with_area = std::abs(world.ball().position().y()) < half_width + reach;
      const bool just_outside = depth > f.goal_area_depth() && depth < f.goal_area_depth() + reach;
      const bool beside = depth <= f.goal_area_depth() && std::abs(world.ball().position().y()) >= half_width;
      // Not while a teammate (the keeper) is in there: two would be a foul.
      avoid_goal_area_ = !(level_with_area && (just_outside || beside)) || teammate_in_own_goal_area(world);
    }
  }

  const auto finite = [](const auto&... v) { return (std::isfinite(v) && ...); };
  const auto& sp = world.self().pose();
  const auto& bp = world.ball().position();
  const auto& bvel = world.ball().velocity();
  const auto& pl = instruction.placement();
  const bool sane = finite(sp.x(), sp.y(), sp.theta(), bp.x(), bp.y(), bvel.x(), bvel.y(), pl.x(), pl.y(), pl.theta(), t);
  if (!sane || !world.has_self() || instruction.directive() == msg::COACH_HOLD) {
    last_vx_ = 0.0;
    last_command_body_ = V::Zero();
    last_omega_ = 0.0;
    last_wanted_speed_ = 0.0;
    if (std::isfinite(t)) last_t_ = t;
    return cmd;
  }
  const Pose self{world.self().pose().x(), world.self().pose().y(), world.self().pose().theta()};
  rolling_forward_ =
      std::cos(self.theta) * world.self().velocity().x() + std::sin(self.theta) * world.self().velocity().y();
  ball_velocity_ = V(world.ball().velocity().x(), world.ball().velocity().y());
  if (!ball_velocity_.allFinite()) ball_velocity_ = V::Zero();
  own_velocity_ = V(world.self().velocity().x(), world.self().velocity().y());
  if (!own_velocity_.allFinite()) own_velocity_ = V::Zero();
  if (world.ball().valid() && ball_velocity_.norm() < kStillBallSpeed) {
    if (!ball_still_since_) ball_still_since_ = t;
    ball_still_for_ = t - *ball_still_since_;
  } else {
    ball_still_since_.reset();
    ball_still_for_ = 0.0;
  }
  teammates_.clear();
  for (const auto& mate : world.teammates())
    if (mate.robot_id() != robot_id_) teammates_.emplace_back(mate.pose().x(), mate.pose().y());
  // Where the team's other attackers stand, and whether it has a keeper.
  attackers_.clear();
  keeper_on_team_ = false;
  for (const auto& entry : instruction.team_roles()) {
    if (entry.robot_id() == robot_id_) continue;
    keeper_on_team_ = keeper_on_team_ || entry.role() == msg::ROLE_KEEPER;
    if (entry.role() != msg::ROLE_ATTACKER) continue;
    for (const auto& mate : world.teammates())
      if (mate.robot_id() == entry.robot_id()) attackers_.emplace_back(mate.pose().x(), mate.pose().y());
  }
  // The attacker has right of way (it goes for the ball); everyone else,
  // placing for a restart included, goes round teammates.
  placing_ = instruction.directive() == msg::COACH_PLACE;
  placing_for_kickoff_ = placing_ && instruction.restart() == msg::RESTART_KICKOFF;
  if (!placing_) {
    last_exit_.reset();
    walled_in_at_spot_.reset();
  }
  give_way_ = params_.give_way && (placing_ || instruction.role() != msg::ROLE_ATTACKER);
  const bool ball = world.ball().valid();
  opponents_.clear();
  for (const auto& opponent : world.opponents())
    opponents_.push_back({V(opponent.pose().x(), opponent.pose().y()), league_.robot().radius()});
  // Placing for a restart, the robot goes round the opponents at hand: a
  // robot that drove straight through them pushed one for half a second
  // before it took a way round, and was boxed in beside the ball or late
  // (MSL vs chaser, free kicks, drop balls and throw-ins: 31 robots the
  // referee moved in 20 matches, 15 with this). Not round those further
  // off: they are placing too, and a detour round them all only made robots
  // late (MSL illegal positions 58 -> 187). At kick-offs, where robots run
  // back the field's length past the other team running the other way, only
  // round those standing (nearly) still at hand (the other keeper, their
  // kicker): a way round each one running past kept changing sides and made
  // robots late (59 in 11 matches against 26), while driving into those
  // standing cost seconds (round them: 18 late in 20 matches against 28).
  // And round all at hand once the robot is stuck against one, asking for
  // speed and hardly moving.
  // So is one that drove into an opponent touching it, at whatever speed it
  // asked: near its waypoint it asks for little (SSL: a scorer boxed in by
  // the other team's kick-off group, its waypoint beside the ball lying on
  // an opponent, pressed into it at a tenth of top speed for 2 s and stood
  // in the wrong half at the kick-off).
  const double top_speed = limit_or(league_.robot().max_speed(), 1.0);
  const double moving = std::hypot(world.self().velocity().x(), world.self().velocity().y());
  if (placing_ && moving < 0.25 * last_wanted_speed_ &&
      (last_wanted_speed_ > 0.2 * top_speed || presses_into_opponent(self, world))) {
    if (!placement_blocked_since_) placement_blocked_since_ = t;
    if (t - *placement_blocked_since_ >= params_.placement_stuck_seconds) {
      placement_detour_until_ = t + params_.placement_detour_seconds;
      // Backing into what stops it, a robot with an onboard camera does not
      // see it, nor does anyone tell it (MSL drop ball: sent to a spot an
      // opponent had taken behind it, one pushed it for 3 s until the
      // referee moved it). It turns to drive forwards, camera first. Not at
      // kick-offs: there the robot stuck is the one that scored, boxed in
      // at the goal, and turning round cost it the seconds it had (robots
      // late at kick-offs, MSL seeds 1-20: 10 against 1).
      if (!omni_ && drive_direction_ < 0 && league_.vision() == msg::VISION_ONBOARD &&
          instruction.restart() != msg::RESTART_KICKOFF)
        forwards_until_ = placement_detour_until_;
    }
  } else {
    placement_blocked_since_.reset();
  }
  // Backing blind towards a place, robots drove into opponents that had
  // come to stand behind them and stayed boxed in there, inside the
  // distance (MSL vs chaser, 40 matches: five of seven robots moved at
  // drop balls and free kicks). Placing for those has seconds to spare
  // for a turn (drop balls ready at the median in 2.8 s of 8); placing for a
  // kick-off, after our goal, has none.
  const bool blind_backwards = !omni_ && league_.vision() == msg::VISION_ONBOARD &&
                               instruction.restart() != msg::RESTART_KICKOFF &&
                               std::hypot(instruction.placement().x() - self.x, instruction.placement().y() - self.y) >
                                   params_.placement_reverse_reach;
  forwards_only_ = placing_ && (t < forwards_until_ || blind_backwards);
  // A robot whose place is outside the distance the rules keep it from the
  // ball's spot goes round that circle, not through it: straight through,
  // it stood inside when play restarted, or slid along the circle's edge
  // with the referee moving it back out time after time (MSL).
  const std::optional<V> spot =
      instruction.has_ball_spot() && std::isfinite(instruction.ball_spot().x()) &&
              std::isfinite(instruction.ball_spot().y())
          ? std::optional<V>(V(instruction.ball_spot().x(), instruction.ball_spot().y()))
          : std::nullopt;
  const double keep_out = instruction.keep_out_radius();
  const bool keeps_out = spot && std::isfinite(keep_out) && keep_out > 0.0;
  keeping_distance_ = placing_ && !placing_for_kickoff_ && keeps_out;
  // The circle placing robots keep out of: the distance and half a radius.
  const double R = keep_out + 0.5 * league_.robot().radius();
  plan_round_ = opponents_;
  bool detouring = false;
  bool ball_planned_round = false;
  const V place(instruction.placement().x(), instruction.placement().y());
  // The robot goes round that circle to a place outside it; how far it
  // stands from the spot.
  const bool round_circle = keeps_out && (place - *spot).norm() >= R;
  const double from_spot = spot ? (V(self.x, self.y) - *spot).norm() : 0.0;
  // A place this near the ball is the taker's.
  const double taker_reach = 2.0 * (league_.robot().radius() + league_.ball().radius());
  if (placing_) {
    const bool every_one = instruction.restart() != msg::RESTART_KICKOFF || t < placement_detour_until_;
    // Where the run back takes a second (MiroSot), the other team stands
    // still at its spots while ours come back through them, and a way round
    // each led robots astray (49 late in 20 matches against 12).
    const bool standing_ones = runtime::long_kickoff_run(league_);
    const double at_hand = 4.0 * league_.robot().radius() + 0.1;
    const double still = params_.placement_still_opponent_fraction * top_speed;
    plan_round_.clear();
    // Where robots run back for seconds (MSL), one at speed came on an
    // opponent standing in its way within four radii, a third of a second
    // off, could not swerve and ran into it (10 of 28 robots late at
    // kick-offs lost one to two and a half seconds so): those standing are
    // planned round from as far as it runs in the look-ahead.
    const double at_hand_standing = at_hand + moving * params_.placement_still_opponent_lookahead;
    // And round those on a collision course with it: running back blind,
    // scorers met the other team's robots head on, one coming home to its
    // goal, and stood pushing against them for seconds (MSL, 20 matches:
    // three robots late at kick-offs, two so). Those merely running past
    // are left alone, as above.
    const V self_velocity(world.self().velocity().x(), world.self().velocity().y());
    const double r = league_.robot().radius();
    for (const auto& opponent : world.opponents()) {
      const V centre(opponent.pose().x(), opponent.pose().y());
      const V velocity(opponent.velocity().x(), opponent.velocity().y());
      const double distance = (centre - V(self.x, self.y)).norm();
      const bool standing = velocity.norm() < still;
      const bool oncoming = standing_ones && !standing && velocity.allFinite() &&
                            on_collision_course(V(self.x, self.y), self_velocity, centre, velocity,
                                                2.0 * r + params_.placement_collision_margin,
                                                params_.placement_collision_horizon);
      const bool round_this =
          (every_one && distance <= at_hand) || (standing_ones && standing && distance <= at_hand_standing) || oncoming;
      if (round_this) {
        plan_round_.push_back({centre, r});
        // And round where it goes: planned round where it stood, the way of
        // a scorer running back led in front of the other team's robots
        // crossing it to their places, or their keeper going to its goal;
        // they met and pushed, and it turned about for seconds (MSL
        // kick-off drills on four builds' logs of seeds 21-40: moved 15 -> 9
        // of 1876, no change in the mean). Not at other restarts, whose
        // places lie near and among the opponents' (MSL restart drills:
        // moved 3 -> 6 of 1717), nor where the run back is short (SSL: 13
        // of 20 matches changed, 10 with fewer goals).
        if (standing_ones && instruction.restart() == msg::RESTART_KICKOFF) {
          const double free_radius = 2.0 * r + params_.opponent_clearance;
          for (const CircleObstacle& o :
               way_ahead(centre, velocity, r, params_.placement_sweep_seconds, V(self.x, self.y), free_radius))
            plan_round_.push_back(o);
        }
      }
    }
    // Round the ball and the spot it goes back to, unless the place is at
    // the ball (the taker's). Going round only the target's last leg, a robot
    // led past the ball by its way round an opponent, or reversing into it
    // while it turned about, pushed the ball off its spot; the referee put it
    // back behind the robot, which then stood inside the distance (MSL vs
    // chaser: 5 of the 32 robots moved at restarts other than kick-offs).
    // Not at kick-offs, where the robots of the team not kicking off go round
    // the centre circle, and the others' spots lie away from the ball;
    // unless the robot is stuck there, going round opponents at hand: its
    // waypoint beside the ball, found blind to them, lay on the one it
    // pressed into (SSL seed 16, a scorer boxed in between the other team's
    // kicker and the ball, not yet back on the spot).
    // As wide as detour_around_ball() passes it (the planner adds the robot's
    // radius and its clearance): a plan pulled taut round the ball alone
    // grazed it, and a differential robot cutting the corner touched it.
    const double ball_berth =
        kBallWaypointFactor * ball_pass_radius() - league_.robot().radius() - params_.opponent_clearance;
    // Zones, not bodies: a robot boxed in on the spot by opponents may
    // cross it (nothing is there until the ball is put back), and pass the
    // ball nearer than the berth (PathPlanner).
    auto keep_off = [&](const V& at, double body) {
      if (std::isfinite(at.x()) && std::isfinite(at.y()) && (place - at).norm() > taker_reach)
        plan_round_.push_back({at, ball_berth, body});
    };
    const size_t opponents_planned_round = plan_round_.size();
    if (instruction.restart() != msg::RESTART_KICKOFF || t < placement_detour_until_) {
      if (ball) keep_off(V(world.ball().position().x(), world.ball().position().y()), league_.ball().radius());
      if (spot) keep_off(*spot, 0.0);
    }
    ball_planned_round = plan_round_.size() > opponents_planned_round;
    // Out of the taker's way to the ball: at the other team's restarts the
    // robot nearest the spot comes to it. A robot of ours by the ball took
    // the gap between it and the thrower coming along the touch line; the
    // thrower closed it, the robot turned to the way round the ball, the
    // gap opened again as the thrower stepped about, and so on for 8 s
    // until the referee moved it (MSL throw-in). Zones, not bodies: a robot
    // already in that lane leaves it any way it can.
    if (params_.keep_out_of_takers_lane && keeping_distance_ && spot &&
        instruction.restart() != msg::RESTART_DROP_BALL) {
      const auto& opponents = world.opponents();
      const auto nearest = std::min_element(opponents.begin(), opponents.end(), [&](const auto& a, const auto& b) {
        return (V(a.pose().x(), a.pose().y()) - *spot).squaredNorm() <
               (V(b.pose().x(), b.pose().y()) - *spot).squaredNorm();
      });
      if (nearest != opponents.end()) {
        const V taker(nearest->pose().x(), nearest->pose().y());
        const V to_spot = *spot - taker;
        // Where it will stand: touching the ball, on the line it comes along.
        const double lane = to_spot.norm() - (r + league_.ball().radius());
        if (std::isfinite(lane) && lane > 0.0 && lane <= keep_out) {
          const V along = to_spot.normalized();
          for (double s = std::min(r, lane); s <= lane + 1e-9; s += r) plan_round_.push_back({taker + s * along, r, 0.0});
        }
      }
    }
    // A robot standing legally also plans round the circle itself, no
    // nearer the spot than it stands (within the margin): waypoints round
    // the circle keep the way's end outside, but the way there, round an
    // opponent or to an exit point, could cut inside. One standing 3.02 m
    // from the spot went round an opponent along a chord and stood 2.92 m
    // off at the restart (MSL vs chaser, a drop ball by our corner flag).
    // One inside goes out by exit_from_circle(), which may lead it deeper
    // first past a teammate standing where the way out is shortest.
    // A body, not a zone: boxed in, it stands where it may rather than
    // cross. At least a little more than the distance: each cycle's circle
    // through where the robot stands let it creep in a centimetre at a time
    // (in a unit scene, to 2.79 m).
    if (round_circle && from_spot >= keep_out) {
      const double rim = std::min(R, std::max(from_spot, keep_out + kRestartCircleCreep));
      plan_round_.push_back({*spot, rim - league_.robot().radius() - params_.opponent_clearance});
    }
    detouring = !plan_round_.empty();
  }
  avoid_opponents_ =
      params_.plan_around_opponents && ((playing && instruction.role() != msg::ROLE_KEEPER) || detouring);

  restart_brakes_ = {};
  Vel v;
  double kick = 0.0;
  if (instruction.directive() == msg::COACH_PLACE) {
    double tx = instruction.placement().x(), ty = instruction.placement().y();
    const std::optional<V> stand_back = round_circle && params_.make_way_for_teammates_inside &&
                                                instruction.role() != msg::ROLE_KEEPER
                                            ? make_way_for_teammate_inside(self, *spot, keep_out)
                                            : std::nullopt;
    // Inside our goal area, with a robot on the straight way to its place:
    // out of the area first, by the nearest clear point. Among five
    // chasers at the area's corner, a robot 3 cm inside its side planned
    // round them one way and the other, as its place moved, and stood in
    // the area until the referee moved it (SSL vs chaser, their free kick
    // for too many defenders in our area).
    // Stepping out (of our goal area, or of the circle below) goes among
    // the robots' centres.
    std::vector<V> opponents;
    for (const auto& opponent : world.opponents()) opponents.emplace_back(opponent.pose().x(), opponent.pose().y());
    std::vector<V> robots = teammates_;
    robots.insert(robots.end(), opponents.begin(), opponents.end());
    std::optional<V> out_of_area;
    if (params_.step_out_of_own_goal_area && instruction.role() != msg::ROLE_KEEPER &&
        league_.rules().max_defenders_in_goal_area() > 0 && in_own_goal_area(V(self.x, self.y), 0.0) &&
        !in_own_goal_area(place, 0.0) && !way_clear_of(V(self.x, self.y), place, robots))
      out_of_area = step_out_of_own_goal_area(self, teammates_, opponents);
    if (out_of_area) {
      intent_.exit = *out_of_area;
      intent_.stepping_out = stepping_out_ = true;
      stepping_beyond_lines_ = true;  // the point may lie in the boundary strip
      tx = out_of_area->x();
      ty = out_of_area->y();
    } else if (stand_back) {
      intent_.making_way = true;
      tx = stand_back->x();
      ty = stand_back->y();
    } else if (round_circle) {
      if (from_spot < R) {
        // Inside: out first, then round. Straight across, a robot the
        // referee had moved to the edge walked back in, and was moved out
        // again every quarter of a second (MSL: 22 times in 6 s).
        std::vector<CircleObstacle> occupied;
        for (const V& mate : teammates_) occupied.push_back({mate, teammate_keep()});
        for (const auto& opponent : world.opponents())
          occupied.push_back({V(opponent.pose().x(), opponent.pose().y()),
                              2.0 * league_.robot().radius() + params_.opponent_clearance});
        // Kept while it is for the same circle.
        if (last_exit_ && (last_exit_spot_ - *spot).norm() > kSameSpot) last_exit_.reset();
        V exit = exit_from_circle(self, *spot, R, place, occupied, last_exit_);
        last_exit_ = exit;
        last_exit_spot_ = *spot;
        // A few centimetres short of the distance, with a robot in the way
        // to that point: out past the distance first, between the robots on
        // the edge. Going round the one in its way, a robot 2 cm short went
        // 0.15 m deeper, its place moved round the circle meanwhile, and the
        // referee moved it (MSL vs chaser, a drop ball by our corner flag).
        // Only that near: from deeper, stepping out towards a gap between
        // teammates or a point a teammate was coming to left robots standing
        // inside, pressing or turning to and fro (MSL seeds 101-120, with a
        // band of two radii: moved 1 -> 4).
        if (!placing_for_kickoff_ && from_spot < keep_out &&
            from_spot >= keep_out - params_.step_out_band_radii * league_.robot().radius()) {
          if (!way_clear_of(V(self.x, self.y), exit, robots))
            if (const auto out = step_out_of_circle(self, *spot, keep_out, R, teammates_, opponents)) {
              exit = *out;
              stepping_out_ = true;
            }
        }
        // Deeper in, walled in by opponents so that the planner finds no
        // way to the exit: out where a straight way is clear, in the
        // boundary strip too, until out of the circle or none is left. The
        // only ways out of a corner kick's or throw-in's circle often run
        // behind the opponents beyond the lines (SSL vs chaser: a robot
        // stood 0.3 m from the spot among five opponents for the whole 4 s
        // of placing, and the referee moved it). Kept once started: the
        // planner finds a way to that point, so it is walled in no longer.
        if (walled_in_at_spot_ && (*walled_in_at_spot_ - *spot).norm() > kSameSpot) walled_in_at_spot_.reset();
        if (!stepping_out_ && !placing_for_kickoff_ && params_.step_out_when_walled_in &&
            (walled_in_at_spot_ || was_walled_in_)) {
          walled_in_at_spot_.reset();
          if (const auto out = step_out_of_circle(self, *spot, keep_out, R, teammates_, opponents,
                                                  /*beyond_lines=*/true)) {
            exit = *out;
            stepping_out_ = true;
            stepping_beyond_lines_ = true;
            walled_in_at_spot_ = *spot;
          }
        }
        intent_.exit = exit;
        intent_.stepping_out = stepping_out_;
        tx = exit.x();
        ty = exit.y();
        // Of the two ends, the one pointing away from the spot leads: the
        // robot moves out while it turns onto its way (drive_to still
        // takes the other where it is clearly shorter).
        const V front(std::cos(self.theta), std::sin(self.theta));
        if (!omni_) drive_direction_ = front.dot(V(self.x, self.y) - *spot) >= 0.0 ? 1 : -1;
      } else {
        detour_around_circle(self, *spot, R, tx, ty);
      }
    }
    // Round where the referee will put the ball, and round the ball itself,
    // unless the planner already goes round them: a waypoint beside the
    // ball could lie on an opponent there, and the plan to it then swung
    // from one side of the ball to the other.
    if (!(avoid_opponents_ && ball_planned_round)) {
      const std::optional<V> ball_at =
          ball ? std::optional<V>(V(world.ball().position().x(), world.ball().position().y())) : std::nullopt;
      placing_detour_around_ball(self, spot, ball_at, tx, ty);
    }
    const double fraction = placing_for_kickoff_ ? params_.kickoff_placement_fraction : params_.placement_fraction;
    v = go_to_pose(self, tx, ty, instruction.placement().theta(), true, fraction);
    // On its way round the circle, its speed towards the spot is no more
    // than it can brake before the distance: the way passes the circle, but
    // the robot's speed turns with it only as fast as its acceleration
    // allows. Sent at 1.3 m/s towards the circle's side to a new place
    // beside the ball, a robot swung 1 cm inside (SSL vs chaser, a corner
    // kick: moved by the referee).
    if (params_.brake_short_of_circle && keeping_distance_ && round_circle && from_spot >= keep_out) {
      brake_short_of_circle(self, own_velocity_, *spot, keep_out, v);
      restart_brakes_.circle_spot = *spot;
      restart_brakes_.keep_out = keep_out;
    }
    // Placing for a kick-off, likewise short of the halfway line. A robot
    // running across its half at 1.7 m/s towards its place beside the line,
    // 1.7 m to its side (an opponent alongside had kept it from turning),
    // crossed the line by 0.4 m with the speed it could not turn in time,
    // and was 5 cm short of its half at the kick-off (SSL vs chaser, seed
    // 23: moved by the referee).
    if (params_.brake_short_of_halfway_line && placing_for_kickoff_) {
      brake_short_of_halfway_line(self, own_velocity_, v);
      restart_brakes_.halfway_line = true;
    }
    // And short of our goal area, where only the keeper may stand. Its
    // place beside the area's front taken by a teammate stepping out of the
    // free kick's circle, a robot pressed towards it, the safety search
    // turned it along the edge and into the area by turns, and the referee
    // moved it (SSL vs chaser, seed 3).
    if (params_.brake_short_of_own_goal_area && instruction.role() != msg::ROLE_KEEPER &&
        league_.rules().max_defenders_in_goal_area() > 0 && !in_own_goal_area(place, 0.0)) {
      brake_short_of_own_goal_area(self, own_velocity_, v);
      restart_brakes_.own_goal_area = true;
    }
    // A ball held in the mouth goes wherever the robot drives or turns: it
    // backs straight off it first, which leaves the ball where it lies (MSL:
    // a robot whose push was a foul carried the ball for the whole placement,
    // the free kick's spot with it, and the referee moved it off at the end).
    // Not a taker, whose place is at the ball. Nor a robot stuck backing
    // (detouring): boxed in with an opponent against its back, it pushed
    // into it at the pushing speed for six seconds and the referee moved it
    // (MSL restart drill, a free kick); it turns onto its way instead, and
    // the ball, swept aside, goes back to its spot at the restart.
    const V held(world.ball().position().x(), world.ball().position().y());
    if (ball && holds_ball(self, held) && (place - held).norm() > taker_reach && t >= placement_detour_until_) {
      v = Vel{};
      v.vx = -fraction * limit_or(league_.robot().max_speed(), 1.0);
    }
    // Their restart has started and waits for the taker: every robot stands
    // where it may (the referee moved the others out to the distance), so
    // within the margin none drives nearer the spot; it turns, and goes on
    // round or out. Turning towards its place along the circle, a
    // differential robot drove a few centimetres along its axis towards the
    // ball, was moved back, and came in again (MSL vs chaser: seven times in
    // 2 s at one throw-in). Before the start the same rule held robots whose
    // only way out of the circle led nearer the spot first (130 illegal
    // positions in 20 MSL matches).
    if (instruction.waiting_for_taker() && keeps_out) never_nearer(self, *spot, R, v);
  } else {
    const msg::Role role = instruction.role();
    if (!ball && (role == msg::ROLE_ATTACKER || role == msg::ROLE_DEFENDER || role == msg::ROLE_SUPPORTER)) {
      v = search_ball(self, world);
    } else {
      search_direction_ = 0;
    }
    switch (instruction.role()) {
      case msg::ROLE_KEEPER: v = keeper(self, world, instruction.attack_positive_x(), kick); break;
      case msg::ROLE_ATTACKER:
        if (ball) v = attacker(self, world, instruction.attack_positive_x(), kick);
        break;
      case msg::ROLE_DEFENDER:
        if (ball && instruction.role_count() > 1)
          v = wall_defender(self, world, instruction.attack_positive_x(), instruction.role_index(),
                            instruction.role_count());
        else if (ball)
          v = defender(self, world, instruction.attack_positive_x());
        break;
      case msg::ROLE_SUPPORTER:
        if (ball)
          v = supporter(self, world, instruction.attack_positive_x(), instruction.role_index(),
                        instruction.role_count());
        break;
      default: break;
    }
  }
  if (relocalising(world.self_localisation_sd(), t)) {
    // Lost, it turns to bring lines and landmarks into view, from which the
    // localiser restarts. MSL: a robot pushing against opponents in a corner,
    // no line in view, drifted 3 m in 50 s; placed for a free kick where it
    // believed it stood, it was inside the distance and moved by the referee
    // 40 times. It turns the way its skills would have turned it, so that
    // found again it faces its way: always counter-clockwise, a robot sent
    // out of a corner after a drop ball turned 1.9 s on the spot, most of
    // it away from its way out (MSL). The way is chosen once for the turn:
    // as the robot turns, its skills' own turn swings from one side to the
    // other.
    if (relocalise_direction_ == 0) relocalise_direction_ = v.omega < 0.0 ? -1 : 1;
    v = Vel{};
    v.omega = relocalise_direction_ * params_.search_omega;
    kick = 0.0;
  } else {
    relocalise_direction_ = 0;
  }
  // Keep half the wheel acceleration for steering while turning; a keeper
  // moving along its line, or anyone driving straight, gets (nearly) all of it.
  // So does a robot placing for a kick-off where the run back takes seconds
  // (MSL), which has its half to reach in time: turning about after the goal
  // it gathered speed at half the wheels' limit (MSL kick-off drills on four
  // builds' logs, 1853 goals: 0.06 s sooner on average with all of it, over
  // 6 s 232 against 264). Not where the run is short (MiroSot vs chaser,
  // seeds 1-20: 398-17 and 0.30 own collisions a match with it, against
  // 443-19 and 0.05), nor at other restarts, whose places lie close among
  // opponents (restart drills: more robots moved, 5 against 3).
  if (!omni_) {
    const bool keeper = playing && instruction.role() == msg::ROLE_KEEPER;
    const bool long_run_back = placing_for_kickoff_ && runtime::long_kickoff_run(league_);
    const double fraction = keeper                    ? 1.0
                            : long_run_back           ? params_.kickoff_acceleration_fraction
                            : std::abs(v.omega) < 1.0 ? 0.9
                                                      : 0.5;
    v.vx = ramp_forward_speed(v.vx, t, fraction);
  }
  if (omni_) {
    // The motor holds the body-frame velocity, so a robot turning at omega
    // swings its path at omega until the next command. Quick turns at speed
    // made paths the safety search (straight for omni robots) could not
    // foresee; turning is capped at what the acceleration limit could
    // follow, max_acceleration / speed. Placing, only a share of it: the
    // turn then took all of the wheels' change, none was left to keep the
    // way, and a robot turning about on a 1.5 m run to its place swung
    // 0.27 m off it (unit scene; 0.08 m with half); the referee judges
    // where it stands, not where it faces.
    const double speed = std::hypot(v.vx, v.vy);
    const double share = placing_ ? params_.placing_turn_share : 1.0;
    const double most = share * limit_or(league_.robot().max_acceleration(), 1e9) / std::max(speed, 1e-3);
    v.omega = std::clamp(v.omega, -most, most);
  }
  last_wanted_speed_ = std::hypot(v.vx, omni_ ? v.vy : 0.0);
  apply_safety_search(world, previous_step_t ? t - *previous_step_t : 0.0, v);
  limit_pushing(self, world, t, v);
  // Both change the command after the restart brakes: the search, turning
  // a robot on the circle's edge away from a teammate beside it, sent it
  // in at 0.09 m/s, and it stood 5 cm inside at the restart (SSL vs
  // chaser, seed 3, their free kick in front of our goal area).
  if (params_.brake_again_after_safety_search) brake_for_restart_again(self, v);
  if (omni_ && placing_ && params_.turn_compensation && previous_step_t) {
    // The motor holds the body-frame velocity while the robot turns, so
    // over a period its way swings by the turn: asked in the frame the
    // robot has halfway through, its mean velocity points where the skills
    // meant. Turning at 10 rad/s round its place by the free kick's circle,
    // a robot drifted 30 degrees off its way, towards the spot (SSL vs
    // chaser, seed 3).
    const double period = t - *previous_step_t;
    if (period > 0.0 && period <= kLongestCompensatedPeriod) {
      const V asked = Eigen::Rotation2Dd(-0.5 * v.omega * period) * V(v.vx, v.vy);
      v.vx = asked.x();
      v.vy = asked.y();
    }
  }
  last_command_body_ = V(v.vx, omni_ ? v.vy : 0.0);
  last_omega_ = v.omega;
  cmd.mutable_velocity()->set_vx(v.vx);
  cmd.mutable_velocity()->set_vy(omni_ ? v.vy : 0.0);
  cmd.mutable_velocity()->set_omega(v.omega);
  cmd.set_kick_speed(kick);
  return cmd;
}

bool SkillController::relocalising(double localisation_sd, double t) {
  if (!(params_.lost_position_sd > 0.0) || !std::isfinite(localisation_sd)) {
    relocalise_until_.reset();
    return false;
  }
  if (relocalise_until_) {
    if (localisation_sd < params_.found_position_sd) {
      relocalise_until_.reset();
    } else if (t >= *relocalise_until_) {
      // Given up: it plays on for a while (a corner with nothing in sight).
      relocalise_until_.reset();
      relocalise_again_after_ = t + params_.relocalise_seconds;
    }
  } else if (localisation_sd > params_.lost_position_sd && t >= relocalise_again_after_) {
    relocalise_until_ = t + params_.relocalise_seconds;
  }
  return relocalise_until_.has_value();
}

V SkillController::last_command_in_field(double theta) const {
  const V heading(std::cos(theta), std::sin(theta)), left(-std::sin(theta), std::cos(theta));
  return heading * last_command_body_.x() + left * last_command_body_.y();
}

bool SkillController::presses_into_opponent(const Pose& self, const msg::WorldEstimate& world) const {
  const V asked = last_command_in_field(self.theta);
  const double r = league_.robot().radius();
  for (const auto& opponent : world.opponents()) {
    const V d = V(opponent.pose().x(), opponent.pose().y()) - V(self.x, self.y);
    if (d.norm() - 2.0 * r < params_.pushing_reach && asked.dot(d) > 0.0) return true;
  }
  return false;
}

void SkillController::limit_pushing(const Pose& self, const msg::WorldEstimate& world, double t, Vel& v) {
  const auto& rules = league_.rules();
  if (!(rules.pushing_seconds() > 0.0)) return;
  if (world.self_contacts_size() > 0) {
    if (!contact_since_ || t - last_contact_t_ > params_.contact_gap_seconds) contact_since_ = t;
    last_contact_t_ = t;
  }
  const double r = league_.robot().radius();
  const double base_most = params_.pushing_speed_fraction * rules.pushing_speed();
  const double c = std::cos(self.theta), s = std::sin(self.theta);
  // Takes v's speed along `toward` (a unit vector, body frame) down to `most`.
  auto hold = [&](const V& toward, double most) {
    if (omni_) {
      const V body(v.vx, v.vy);
      const double into = body.dot(toward);
      if (into <= most) return;
      const V kept = body - (into - most) * toward;
      v.vx = kept.x();
      v.vy = kept.y();
    } else if (std::abs(toward.x()) > 1e-9 && v.vx * toward.x() > most) {
      // Only forward speed can be taken away; the robot may still turn.
      v.vx = most / toward.x();
    }
  };
  for (const auto& opponent : world.opponents()) {
    const V d = V(opponent.pose().x(), opponent.pose().y()) - V(self.x, self.y);
    const double dist = d.norm();
    if (dist < 1e-9 || dist - r - r >= params_.pushing_reach) continue;  // the gap between the bodies
    // Placing, play is stopped and the referee judges no pushing: the robot
    // may follow an opponent that moves off, closing on it no faster than
    // the limit. (MSL: scorers running home behind opponents leaving their
    // goal were held to the limit for over a second.) In play the referee
    // judges our own speed into the opponent, whatever it does.
    const V moving(opponent.velocity().x(), opponent.velocity().y());
    const double off = moving.allFinite() ? std::max(0.0, moving.dot(d / dist)) : 0.0;
    const double most = placing_ ? base_most + off : base_most;
    hold(V(c * d.x() / dist + s * d.y() / dist, -s * d.x() / dist + c * d.y() / dist), most);
  }
  // In play, whatever the bumper touches is held to the limit as well once
  // the contact has lasted half the time the referee allows: an opponent
  // beside or behind the robot lies outside its camera's view and so, often,
  // outside its world. (MSL vs chaser, seeds 21-40: 72 pushing fouls by us
  // against 7 by them; in most, our attacker drove the ball on at full
  // speed with the opponent it pushed 33-74 degrees off its heading, the
  // rest backed into one.) Held from the first touch, the attackers lost
  // the ball in the scrums: 364 goals against 444 on those seeds; short
  // pushes win it. A teammate or a wall touched is held alike: driving into
  // either gains nothing. Placing, the referee judges no pushing, and a
  // robot may shove its way to its place.
  if (placing_ || (contact_since_ && t - *contact_since_ < params_.contact_push_fraction * rules.pushing_seconds()))
    return;
  for (const auto& contact : world.self_contacts()) {
    const V toward(contact.x(), contact.y());
    if (toward.allFinite() && toward.norm() > 1e-9) hold(toward.normalized(), base_most);
  }
}

}  // namespace robocaf::actors
