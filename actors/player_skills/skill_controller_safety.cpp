// SkillController: safety among robots: room kept from teammates and their
// ways, the safety search, and the limit on pushing opponents.

#include "actors/player_skills/skill_controller.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "actors/player_skills/safety_search.hpp"
#include "actors/player_skills/skill_controller_internal.hpp"
#include "runtime/robot_spacing.hpp"

namespace robocaf::actors {

using namespace skill_internal;

namespace {

// `target` moved straight out to `half_width` from the segment a-b when it
// lies closer (to the side it is on; on the segment, to the side of `from`).
V outside_lane(const V& target, const V& a, const V& b, double half_width, const V& from) {
  const V seg = b - a;
  const double len2 = seg.squaredNorm();
  const double lambda = len2 > 1e-12 ? std::clamp((target - a).dot(seg) / len2, 0.0, 1.0) : 0.0;
  return outside_circle(target, a + lambda * seg, half_width, from);
}

}  // namespace

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
