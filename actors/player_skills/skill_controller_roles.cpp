// SkillController: ball play and the roles in play (attacker, keeper, defender,
// wall, supporter), with shots, passes and pushing the ball along a wall.

#include "actors/player_skills/skill_controller.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "actors/player_skills/intercept.hpp"
#include "actors/player_skills/pass_selection.hpp"
#include "actors/player_skills/shot_geometry.hpp"
#include "actors/player_skills/skill_controller_internal.hpp"
#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/kickoff_run.hpp"

namespace robocaf::actors {

using namespace skill_internal;

namespace {

constexpr double kBackOff = 0.15;  // m the attacker backs off along its line to take out a lateral offset
// m up-field of where it stands an MSL attacker waits while the ball rolls into their goal
constexpr double kReboundBackOff = 1.0;
// s: a ball over their line within this is going in, and the attacker waits for the rebound
constexpr double kGoingInSeconds = 1.0;

double to_ball_now(const V& p, const msg::WorldEstimate& world) {
  return (V(world.ball().position().x(), world.ball().position().y()) - p).norm();
}

}  // namespace

// --- roles ------------------------------------------------------------------------

bool SkillController::holds_ball(const Pose& self, const V& ball) const {
  const auto& robot = league_.robot();
  const double mouth_half = 0.5 * robot.mouth_width();
  const double contact = robot.radius() + league_.ball().radius();
  const V p(self.x, self.y);
  return robot.mouth_captures() && mouth_half > 0.0 && (ball - p).norm() < contact + 0.04 &&
         std::abs(wrap_angle(angle_of(ball - p) - self.theta)) < std::asin(std::min(1.0, mouth_half / contact));
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
  return stand_facing_ball(self, T, b);
}

SkillController::Vel SkillController::stand_facing_ball(const Pose& self, const V& spot, const V& ball) {
  double tx = spot.x(), ty = spot.y();
  clamp_to_field(tx, ty);
  avoid_ball(self, ball.x(), ball.y(), tx, ty);
  return go_to_pose(self, tx, ty, angle_of(ball - V(self.x, self.y)), false);
}

SkillController::Vel SkillController::wall_defender(const Pose& self, const msg::WorldEstimate& world,
                                                    bool attack_positive_x, uint32_t index, uint32_t count) {
  const V b(world.ball().position().x(), world.ball().position().y());
  // The wall covers the goal from the ball while staying out of the keeper's area.
  const V T = formation_.wall_slot(b, attack_positive_x, index, count);
  return stand_facing_ball(self, T, b);
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
  return stand_facing_ball(self, T, b);
}

}  // namespace robocaf::actors
