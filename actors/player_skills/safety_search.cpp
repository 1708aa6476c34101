#include "actors/player_skills/safety_search.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace robocaf::actors {

namespace {

using V = Eigen::Vector2d;

// A pair that comes within this of its required distance still counts as
// safe: rounding, not geometry (a pair moving apart from an overlap touches
// its own starting distance at t = 0).
constexpr double kTolerance = 1e-7;  // m
// A turning robot's arc is cut into windows that bend away from their
// starting tangent by at most this much: the parabola of a window then
// follows the arc to within a small fraction of it.
constexpr double kMaxWindowBend = 2e-3;  // m
// How much further apart an overlapping pair must end up for a replacement
// acceleration to count as separating them (a fraction of a millimetre: one
// step at a third of the limit, then braking).
constexpr double kSeparation = 1e-4;  // m
// A pair overlapping by its doubt gets DssParams::overlap_slack only when its
// relative motion over the horizon runs at least 60 degrees off the line
// between the two (cos 60 degrees).
constexpr double kPassingCosine = 0.5;

bool finite(const V& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

// Real roots of a x^2 + b x + c in the open interval (lo, hi), ascending.
// The stable form (no cancellation when b^2 >> ac), which also degrades
// gracefully to the linear case when a is tiny.
int roots_in(double a, double b, double c, double lo, double hi, double out[2]) {
  int n = 0;
  auto keep = [&](double r) {
    if (r > lo && r < hi) out[n++] = r;
  };
  if (a == 0.0) {
    if (b != 0.0) keep(-c / b);
    return n;
  }
  const double disc = b * b - 4.0 * a * c;
  if (disc < 0.0) return 0;
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  if (q != 0.0) {
    keep(q / a);
    keep(c / q);
  } else {
    keep(0.0);  // b = 0 and c = 0: a double root at 0
  }
  if (n == 2 && out[0] > out[1]) std::swap(out[0], out[1]);
  return n;
}

}  // namespace

std::array<double, 5> distance_squared_coefficients(const V& P, const V& Vel, const V& A) {
  return {P.squaredNorm(), 2.0 * P.dot(Vel), Vel.squaredNorm() + 2.0 * A.dot(P), 2.0 * A.dot(Vel), A.squaredNorm()};
}

double min_distance_squared(const V& P, const V& Vel, const V& A, double duration) {
  // Distances are evaluated from the vector itself, not the expanded
  // polynomial: far-apart robots passing close would lose the small result
  // to cancellation between large coefficients.
  auto f = [&](double t) { return (P + Vel * t + A * (t * t)).squaredNorm(); };
  // f'(t) = 2 (P + V t + A t^2) . (V + 2 A t), a cubic; f''(t) its derivative.
  auto df = [&](double t) { return 2.0 * (P + Vel * t + A * (t * t)).dot(Vel + 2.0 * A * t); };
  const auto c = distance_squared_coefficients(P, Vel, A);
  auto ddf = [&](double t) { return (12.0 * c[4] * t + 6.0 * c[3]) * t + 2.0 * c[2]; };

  double best = f(0.0);
  if (!(duration > 0.0)) return best;
  best = std::min(best, f(duration));
  // Split the window where f'' = 0: on each piece f' is monotone, so it has
  // at most one root there, and it is a minimum of f when f' goes - to +.
  double splits[2];
  const int n = roots_in(12.0 * c[4], 6.0 * c[3], 2.0 * c[2], 0.0, duration, splits);
  double bounds[4] = {0.0, 0.0, 0.0, 0.0};
  int nb = 0;
  bounds[nb++] = 0.0;
  for (int i = 0; i < n; ++i) {
    bounds[nb++] = splits[i];
    best = std::min(best, f(splits[i]));  // a minimum can sit exactly on a split (f' with a triple root)
  }
  bounds[nb++] = duration;
  for (int i = 0; i + 1 < nb; ++i) {
    double lo = bounds[i], hi = bounds[i + 1];
    double glo = df(lo), ghi = df(hi);
    if (!(glo < 0.0 && ghi > 0.0)) continue;
    // Newton inside the bracket, bisection when Newton would leave it.
    double t = lo - glo * (hi - lo) / (ghi - glo);
    // Newton approaches from one side, so the bracket alone need not shrink:
    // stop on a small step too.
    const double tolerance = 1e-12 * (1.0 + duration);
    for (int it = 0; it < 60; ++it) {
      const double g = df(t);
      if (g == 0.0) break;
      if (g < 0.0) lo = t; else hi = t;
      const double slope = ddf(t);
      const double newton = slope > 0.0 ? t - g / slope : lo - 1.0;
      const double next = (newton > lo && newton < hi) ? newton : 0.5 * (lo + hi);
      const double step = std::abs(next - t);
      t = next;
      if (step <= tolerance || hi - lo <= tolerance) break;
    }
    best = std::min(best, f(t));
  }
  return best;
}

double SafetySearch::pair_margin(const DssRobot& a, const DssRobot& b) const {
  if (params_.speed_margin == 0.0) return params_.margin;
  return params_.margin + params_.speed_margin * (a.velocity.norm() + b.velocity.norm());
}

double curvature_keeping_deceleration(double max_deceleration, double turn_rate, double speed, double half_track) {
  const double lever = std::abs(turn_rate) * half_track;
  if (!(speed > 0.0) || !(lever > 0.0)) return max_deceleration;
  return max_deceleration * speed / (speed + lever);
}

SafetySearch::SafetySearch(DssParams params)
    : params_(params),
      params_valid_(std::isfinite(params.dt) && params.dt > 0.0 && std::isfinite(params.margin) &&
                    params.margin >= 0.0 && std::isfinite(params.speed_margin) && params.speed_margin >= 0.0 &&
                    std::isfinite(params.overlap_slack) && params.overlap_slack >= 0.0) {
  params_.ring_directions = std::clamp(params_.ring_directions, 0, 256);
  params_.ring_levels = std::clamp(params_.ring_levels, 0, 32);
}

bool SafetySearch::valid(const DssRobot& r) {
  return finite(r.position) && finite(r.velocity) && finite(r.desired_acceleration) && finite(r.drive_axis) &&
         std::isfinite(r.turn_rate) &&
         std::isfinite(r.max_acceleration) && r.max_acceleration >= 0.0 && std::isfinite(r.max_deceleration) &&
         r.max_deceleration > 0.0 && std::isfinite(r.radius) && r.radius >= 0.0 && std::isfinite(r.doubt) &&
         r.doubt >= 0.0 && r.doubt <= r.radius;
}

V SafetySearch::brake_acceleration(const DssRobot& robot) const {
  const double speed = robot.velocity.norm();
  if (!(speed > 1e-12) || !std::isfinite(speed) || !params_valid_) return V::Zero();
  // A robot whose limit is unusable is asked to stop within the step: the
  // motor then brakes as hard as it really can.
  const bool limit_ok = std::isfinite(robot.max_deceleration) && robot.max_deceleration > 0.0;
  const double magnitude = limit_ok ? std::min(robot.max_deceleration, speed / params_.dt) : speed / params_.dt;
  return -robot.velocity / speed * magnitude;
}

V SafetySearch::feasible(const DssRobot& robot, const V& acceleration) const {
  // Speeding up (or steering at a right angle) is bounded by max_acceleration,
  // slowing down by max_deceleration.
  const double limit = acceleration.dot(robot.velocity) >= 0.0 ? robot.max_acceleration : robot.max_deceleration;
  const double n = acceleration.norm();
  return n > limit ? V(acceleration * (limit / n)) : acceleration;
}

void SafetySearch::plan(const DssRobot& robot, const V& acceleration, Plan& out) const {
  if (robot.turn_rate != 0.0) {
    turning_plan(robot, acceleration, out);
    return;
  }
  const double dt = params_.dt;
  Piece& step = out.pieces[0];
  step.t0 = 0.0;
  step.t1 = dt;
  step.p = robot.position;
  step.v = robot.velocity;
  step.a = acceleration;
  out.count = 1;
  const V p1 = robot.position + robot.velocity * dt + 0.5 * acceleration * dt * dt;
  const V u = robot.velocity + acceleration * dt;
  const double speed = u.norm();
  // Path length bound for the step: |v| dt + |a| dt^2 / 2.
  out.reach = robot.velocity.norm() * dt + 0.5 * acceleration.norm() * dt * dt;
  out.rest = p1;
  if (speed > 1e-12) {
    const double b = robot.max_deceleration;
    const double stop = speed / b;
    Piece& brake = out.pieces[1];
    brake.t0 = dt;
    brake.t1 = dt + stop;
    brake.p = p1;
    brake.v = u;
    brake.a = -u / speed * b;
    out.count = 2;
    out.rest = p1 + 0.5 * u * stop;  // straight-line braking covers v^2 / 2b
    out.reach += 0.5 * speed * stop;
  }
}

void SafetySearch::turning_plan(const DssRobot& robot, const V& acceleration, Plan& out) const {
  const double dt = params_.dt;
  const double w = robot.turn_rate;
  // Windows over which the direction of travel turns by at most this much;
  // a path turning further than the pieces allow gets wider windows.
  const double max_turn =
      std::isfinite(params_.max_window_turn) && params_.max_window_turn > 1e-3 ? params_.max_window_turn : 1e-3;
  constexpr int kMaxStepPieces = 4;
  auto rotated = [](const V& x, double angle) { return V(Eigen::Rotation2Dd(angle) * x); };

  // The velocity along the arc. The step: (v0 + a t) turned by w t, the
  // robot's own acceleration turning with it. Then the brake, keeping the
  // curvature k = w / speed of the end of the step: after braking for tau
  // the robot has covered s(tau) = speed tau - b tau^2 / 2 and turned by k s.
  const V u = rotated(robot.velocity + acceleration * dt, w * dt);  // velocity at the end of the step
  const double speed = u.norm();
  const double b = robot.max_deceleration;
  const double stop = speed > 1e-12 ? speed / b : 0.0;
  const V dir = speed > 1e-12 ? V(u / speed) : V::Zero();
  const double curvature = speed > 1e-12 ? w / speed : 0.0;
  auto velocity = [&](double t) {
    if (t <= dt) return rotated(robot.velocity + acceleration * t, w * t);
    const double tau = std::min(t - dt, stop);
    return V(rotated(dir, curvature * (speed * tau - 0.5 * b * tau * tau)) * (speed - b * tau));
  };

  // Each window is the parabola through the arc's points at its start,
  // middle and end (found with Simpson's rule on the exact velocity): the
  // windows' ends lie on the arc, so nothing builds up from window to window,
  // and in between a parabola follows an arc turning by max_window_turn to
  // within a fraction of a millimetre.
  out.count = 0;
  out.reach = 0.0;
  V p = robot.position;
  V v0 = velocity(0.0);
  auto add = [&](double t0, double t1) {
    const double T = t1 - t0;
    const V vq = velocity(t0 + 0.25 * T), vm = velocity(t0 + 0.5 * T), v3 = velocity(t0 + 0.75 * T),
            v1 = velocity(t1);
    const V pm = p + T / 12.0 * (v0 + 4.0 * vq + vm);
    const V p1 = pm + T / 12.0 * (vm + 4.0 * v3 + v1);
    // p(tau) = p + B tau + C tau^2 through pm at T / 2 and p1 at T.
    const V C = 2.0 * (p1 - 2.0 * pm + p) / (T * T);
    const V B = (p1 - p) / T - C * T;
    Piece& piece = out.pieces[out.count++];
    piece.t0 = t0;
    piece.t1 = t1;
    piece.p = p;
    piece.v = B;
    piece.a = 2.0 * C;
    // The parabola's length: its speed |B + 2 C tau| is convex, so on each
    // quarter of the window at most the larger of the quarter's ends.
    double previous = B.norm();
    for (int q = 1; q <= 4; ++q) {
      const double next = (B + 2.0 * C * (0.25 * q * T)).norm();
      out.reach += 0.25 * T * std::max(previous, next);
      previous = next;
    }
    p = p1;
    v0 = v1;
  };

  // How many windows a stretch of path of length `length` turning by `turn`
  // needs: each turns by at most max_turn, and bends away from its start's
  // tangent by at most kMaxWindowBend (turn * length / 2 for the whole
  // stretch, a quarter of that for half as long a window), which bounds what
  // a parabola misses of an arc when the speed changes along it.
  auto windows = [&](double turn, double length, int most) {
    const double by_turn = std::ceil(turn / max_turn);
    const double by_bend = std::ceil(std::sqrt(0.5 * turn * length / kMaxWindowBend));
    const double n = std::max(by_turn, by_bend);
    return n >= most ? most : std::max(1, static_cast<int>(n));  // NaN: 1
  };
  const double step_length = robot.velocity.norm() * dt + 0.5 * acceleration.norm() * dt * dt;
  const int step_pieces = windows(std::abs(w) * dt, step_length, kMaxStepPieces);
  for (int k = 1; k <= step_pieces; ++k) add(dt * (k - 1) / step_pieces, k == step_pieces ? dt : dt * k / step_pieces);
  if (speed > 1e-12) {
    // Windows of equal turn are windows of equal path length: the k-th ends
    // where k / pieces of the braking distance are covered.
    const double brake_length = speed * speed / (2.0 * b);
    const double total_turn = std::abs(w) * speed / (2.0 * b);
    const int pieces = windows(total_turn, brake_length, kMaxPieces - step_pieces);
    for (int k = 1; k <= pieces; ++k) {
      const double tau = k == pieces ? stop : stop * (1.0 - std::sqrt(1.0 - static_cast<double>(k) / pieces));
      add(out.pieces[out.count - 1].t1, dt + tau);
    }
  }
  out.rest = p;
}

double SafetySearch::plan_clearance(const DssRobot& a, const Plan& pa, const DssRobot& b, const Plan& pb,
                                    bool separate, double stop_below, double cap) const {
  const double d0 = (a.position - b.position).norm();
  const double keep = a.radius + b.radius + pair_margin(a, b);
  // Already overlapping: the pair must only not come any closer; where only
  // the doubt overlaps, not by more than the slack, and the bodies no nearer
  // than the margin.
  const bool overlapping = d0 < keep;
  double required = std::min(keep, d0);
  if (overlapping && params_.overlap_slack > 0.0 && d0 > 0.0) {
    // Passing by, not closing in: over the horizon the pair moves mostly
    // across the line between them. Straight in, a robot sent to a place
    // within the doubt of a teammate crept in by the slack every step.
    const V across = (a.position - b.position) / d0;
    const V moved = (pa.rest - a.position) - (pb.rest - b.position);
    if (std::abs(moved.dot(across)) <= kPassingCosine * moved.norm()) {
      const double bodies = keep - a.doubt - b.doubt;
      required = std::max(std::min(bodies, d0), d0 - params_.overlap_slack);
    }
  }
  // Too far apart to meet whatever the shape of the paths: a lower bound is
  // enough, as it is positive.
  const double apart = d0 - pa.reach - pb.reach;
  if (!overlapping && apart >= required) return apart - required;

  // Windows: every boundary of either plan (the end of the step, each
  // robot's stop time and a turning robot's arc windows), walked through
  // both plans at once. They differ, so e.g. the brake phase of two straight
  // robots splits into sub-segments at the earlier stop. After the later
  // stop both are at rest: nothing changes.
  struct State {
    V p, v, a;
  };
  // The state at t0 of a plan's piece i (or at rest after its last), and
  // the acceleration from there.
  auto state = [](const Plan& plan, int i, double t0) {
    if (i >= plan.count) return State{plan.rest, V::Zero(), V::Zero()};
    const Piece& piece = plan.pieces[i];
    const double tau = t0 - piece.t0;
    return State{piece.p + piece.v * tau + 0.5 * piece.a * tau * tau, piece.v + piece.a * tau, piece.a};
  };

  // Only windows that could bring the distance below both the closest so far
  // and `required + cap` need solving; once below `required + stop_below`,
  // the answer is known to be "too close".
  const double cap_distance = required + cap;
  const double stop_distance = required + stop_below;
  const double stop2 = stop_distance > 0.0 ? stop_distance * stop_distance : -1.0;
  double min2 = d0 * d0;
  constexpr double kForever = std::numeric_limits<double>::infinity();
  int ia = 0, ib = 0;
  double t0 = 0.0;
  // Each pass ends at least one piece: bounded even if a time were NaN.
  for (int pass = 0; pass < pa.count + pb.count && !(min2 < stop2); ++pass) {
    const double end_a = ia < pa.count ? pa.pieces[ia].t1 : kForever;
    const double end_b = ib < pb.count ? pb.pieces[ib].t1 : kForever;
    const double t1 = std::min(end_a, end_b);
    if (!(t1 < kForever)) break;
    const double T = t1 - t0;
    if (T > 1e-12) {
      const State sa = state(pa, ia, t0), sb = state(pb, ib, t0);
      const V P = sa.p - sb.p, Vel = sa.v - sb.v, A = 0.5 * (sa.a - sb.a);
      const double lower = P.norm() - Vel.norm() * T - A.norm() * T * T;  // nearest the window could get
      if (!(lower > 0.0 && (lower * lower >= min2 || lower >= cap_distance)))
        min2 = std::min(min2, min_distance_squared(P, Vel, A, T));
    }
    // A piece shorter than the tolerance is passed over, as before.
    if (!(end_a > t1)) ++ia;
    if (!(end_b > t1)) ++ib;
    t0 = t1;
  }
  const double clearance = std::sqrt(min2) - required;
  if (!overlapping || !separate) return clearance;
  return std::min(clearance, (pa.rest - pb.rest).norm() - d0 - kSeparation);
}

double SafetySearch::pair_clearance(const DssRobot& self, const V& acceleration, const DssRobot& other,
                                    const V& other_acceleration) const {
  if (!params_valid_ || !valid(self) || !valid(other) || !finite(acceleration) || !finite(other_acceleration))
    return -std::numeric_limits<double>::infinity();
  Plan mine, theirs;
  plan(self, acceleration, mine);
  plan(other, other_acceleration, theirs);
  return plan_clearance(self, mine, other, theirs, false,
                        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
}

std::vector<V> SafetySearch::candidates(const DssRobot& robot) const {
  std::vector<V> out;
  const V desired = feasible(robot, robot.desired_acceleration);
  out.push_back(brake_acceleration(robot));
  out.push_back(V::Zero());
  for (double f : {0.75, 0.5, 0.25}) out.push_back(desired * f);
  const int levels = params_.ring_levels;
  const double axis_norm = robot.drive_axis.norm();
  if (axis_norm > 1e-9) {
    // Along the axis only, forwards and backwards, twice as finely: there are
    // far fewer of them than on a ring.
    for (double sign : {1.0, -1.0}) {
      const V dir = sign * robot.drive_axis / axis_norm;
      const double limit = dir.dot(robot.velocity) >= 0.0 ? robot.max_acceleration : robot.max_deceleration;
      for (int k = 1; k <= 2 * levels; ++k) out.push_back(dir * limit * (static_cast<double>(k) / (2.0 * levels)));
    }
    return out;
  }
  const int directions = params_.ring_directions;
  for (int d = 0; d < directions; ++d) {
    const double angle = 2.0 * 3.14159265358979323846 * d / directions;
    const V dir(std::cos(angle), std::sin(angle));
    const double limit = dir.dot(robot.velocity) >= 0.0 ? robot.max_acceleration : robot.max_deceleration;
    for (int k = 1; k <= levels; ++k) out.push_back(dir * limit * (static_cast<double>(k) / levels));
  }
  return out;
}

DssDecision SafetySearch::brake_decision(const DssRobot& self) const {
  DssDecision out;
  out.acceleration = brake_acceleration(self);
  if (!finite(out.acceleration)) out.acceleration = V::Zero();
  out.changed = !(out.acceleration == self.desired_acceleration);
  out.safe = false;
  out.inputs_valid = false;
  out.clearance = -std::numeric_limits<double>::infinity();
  return out;
}

DssDecision SafetySearch::decide(const DssRobot& self, const std::vector<const DssRobot*>& others,
                                 const std::vector<V>& other_accelerations) const {
  if (!params_valid_ || !valid(self)) return brake_decision(self);
  for (std::size_t j = 0; j < others.size(); ++j)
    if (!valid(*others[j]) || !finite(other_accelerations[j])) return brake_decision(self);

  std::vector<Plan> other_plans(others.size());
  for (std::size_t j = 0; j < others.size(); ++j) plan(*others[j], other_accelerations[j], other_plans[j]);

  // Smallest clearance against all teammates, or, as soon as it drops below
  // `stop_below`, a value below that (enough to reject a candidate). The
  // teammate that rejected the previous candidate is asked first: next to a
  // conflict, it usually rejects the next one too. With `separate`, a pair
  // that already overlaps must also end up further apart.
  const double kAll = -std::numeric_limits<double>::infinity();
  std::size_t first = 0;
  Plan mine;
  auto clearance_of = [&](const V& acceleration, double stop_below, bool separate = false) {
    plan(self, acceleration, mine);
    double worst = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < others.size(); ++k) {
      const std::size_t j = (first + k) % others.size();
      worst = std::min(worst, plan_clearance(self, mine, *others[j], other_plans[j], separate, stop_below, worst));
      if (worst < stop_below) {
        first = j;
        break;
      }
    }
    return worst;
  };

  DssDecision out;
  const V desired = feasible(self, self.desired_acceleration);
  const double desired_clearance = clearance_of(desired, -kTolerance);
  if (desired_clearance >= -kTolerance) {
    out.acceleration = self.desired_acceleration;
    out.safe = true;
    out.clearance = desired_clearance;
    return out;
  }

  std::vector<V> options = candidates(self);
  // Closest to what the skills wanted first; stable so ties keep brake first.
  std::stable_sort(options.begin(), options.end(), [&](const V& l, const V& r) {
    return (l - desired).squaredNorm() < (r - desired).squaredNorm();
  });
  // Replacing the desired acceleration next to an overlapping teammate: one
  // that moves the pair apart first, else one that at least keeps the
  // distance (hemmed in between two).
  bool overlapping = false;
  for (const DssRobot* other : others)
    overlapping =
        overlapping || (self.position - other->position).norm() < self.radius + other->radius + pair_margin(self, *other);
  for (bool separate : {true, false}) {
    if (separate && !overlapping) continue;
    for (const V& option : options) {
      const double c = clearance_of(option, -kTolerance, separate);
      if (c >= -kTolerance) {
        out.acceleration = option;
        out.changed = !(option == self.desired_acceleration);
        out.safe = true;
        out.clearance = separate ? clearance_of(option, kAll) : c;
        return out;
      }
    }
  }

  // Nothing is safe: the least bad. A candidate stops being measured once it
  // cannot beat the best so far. (Starting from full brake instead, so that
  // options that all end in contact leave the robot braking, doubled own
  // collisions in MiroSot matches: 42-53 against 19-23 on the same seeds;
  // robots standing within the margin froze instead of moving apart.)
  out.acceleration = self.desired_acceleration;
  out.clearance = clearance_of(desired, kAll);
  for (const V& option : options) {
    const double c = clearance_of(option, out.clearance + kTolerance);
    if (c > out.clearance + kTolerance) {
      out.acceleration = option;
      out.clearance = c;
    }
  }
  out.changed = !(out.acceleration == self.desired_acceleration);
  out.safe = false;
  return out;
}

DssDecision SafetySearch::safe_acceleration(const DssRobot& self, const std::vector<DssRobot>& teammates) const {
  std::vector<const DssRobot*> others;
  std::vector<V> accelerations;
  others.reserve(teammates.size());
  accelerations.reserve(teammates.size());
  for (const auto& mate : teammates) {
    others.push_back(&mate);
    accelerations.push_back(params_.teammates_finish_step ? V::Zero() : brake_acceleration(mate));
  }
  return decide(self, others, accelerations);
}

std::vector<DssDecision> SafetySearch::search(const std::vector<DssRobot>& robots) const {
  const std::size_t n = robots.size();
  std::vector<DssDecision> out(n);
  // One unknown robot endangers everyone: all brake.
  const bool all_valid =
      params_valid_ && std::all_of(robots.begin(), robots.end(), [](const DssRobot& r) { return valid(r); });
  if (!all_valid) {
    for (std::size_t i = 0; i < n; ++i) out[i] = brake_decision(robots[i]);
    return out;
  }
  std::vector<const DssRobot*> others;
  std::vector<V> accelerations;
  others.reserve(n);
  accelerations.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    others.clear();
    accelerations.clear();
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      others.push_back(&robots[j]);
      // Earlier robots do what was chosen for them (as far as they can);
      // later ones are assumed to brake until their turn.
      accelerations.push_back(j < i ? feasible(robots[j], out[j].acceleration) : brake_acceleration(robots[j]));
    }
    out[i] = decide(robots[i], others, accelerations);
  }
  return out;
}

}  // namespace robocaf::actors
