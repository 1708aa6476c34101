// SkillController: placing for referee restarts and keeping off zones (our goal
// area, the ball, the restart circle): detours, brakes, and ways out.

#include "actors/player_skills/skill_controller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "actors/player_skills/skill_controller_internal.hpp"
#include "runtime/angle.hpp"
#include "runtime/run_off.hpp"

namespace robocaf::actors {

using namespace skill_internal;

namespace {

// A robot stepping out of the restart circle (step_out_of_circle): the
// points it considers, every kStepOutTurn (rad) up to kStepOutDirections
// either side of straight out, and the gap (m) it keeps to opponents' bodies.
// Fine: between an opponent touching it and a teammate 0.7 m off, 3 m from
// the spot, the points it may step to spanned a degree (5 cm).
constexpr double kStepOutTurn = M_PI / 720.0;
constexpr int kStepOutDirections = 240;
constexpr double kStepOutBodyGap = 0.02;

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

}  // namespace

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

}  // namespace robocaf::actors
