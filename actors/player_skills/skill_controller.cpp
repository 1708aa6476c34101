// SkillController: construction, the cycle (step()) and motion (drive, turn, ramp);
// placing, roles and safety among robots are in the skill_controller_*.cpp beside it.

#include "actors/player_skills/skill_controller.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "actors/player_skills/bang_bang.hpp"
#include "actors/player_skills/oncoming.hpp"
#include "actors/player_skills/skill_controller_internal.hpp"
#include "runtime/angle.hpp"
#include "runtime/kickoff_run.hpp"
#include "runtime/run_off.hpp"

namespace robocaf::actors {

using namespace skill_internal;

namespace {

// m: spots of restarts nearer than this are the same one (a robot's exit
// from its circle is kept, exit_from_circle).
constexpr double kSameSpot = 0.05;
// m a robot standing in the boundary strip keeps from its outer edge
// (SkillController::standing_space_): the edge stops robots, so a point
// right at it is reached, if slowly.
constexpr double kStandingEdgeClearance = 0.02;
// s: a longer gap between two cycles is a pause, not a period the command
// will be held for (turn_compensation).
constexpr double kLongestCompensatedPeriod = 0.1;

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
        intent_.planned_round.push_back({opponent.robot_id(), centre, std::max(0.0, t - opponent.t_observed()), false});
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
               way_ahead(centre, velocity, r, params_.placement_sweep_seconds, V(self.x, self.y), free_radius)) {
            plan_round_.push_back(o);
            intent_.planned_round.back().way_ahead = true;
          }
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
    // At the other team's kick-off on an open field where the run back is
    // short (SSL), round the centre circle: the coach sets no distance to
    // keep while the robots place (it would send ways round the circle
    // through the other half), but where a robot crosses the halfway line
    // matters all the same. A scorer 1.2 m into the other half, its place
    // behind the circle, went straight across and stood in the circle when
    // the 4 s were up (SSL vs chaser, seed 11). Kick-off drills of 12 SSL
    // matches: 225 of 1020 sooner, 91 later, 46 s sooner in all. Not from
    // inside the circle, which the robot leaves by the shortest way home,
    // nor to a place inside. Not in MSL, whose 2 m circle the long runs back
    // pass at speed, by the time the kick-off comes long gone (drills: up
    // to 3 s later going round it). Nor on MiroSot's walled field, where
    // the kick-off places lie 3 cm outside the circle and teammates crowd
    // the gap beside it: robots going round stood stuck on the halfway line
    // (vs chaser, seeds 1-20: 3 moved, against none).
    if (params_.kickoff_circle_zone && placing_for_kickoff_ && !standing_ones && !league_.field().walls() &&
        !instruction.we_kick_off() && !keeps_out) {
      const double circle = league_.field().center_circle_radius();
      if (circle > 0.0 && place.norm() >= circle + r && V(self.x, self.y).norm() >= circle + r)
        plan_round_.push_back({V(0.0, 0.0), circle, 0.0});
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

}  // namespace robocaf::actors
