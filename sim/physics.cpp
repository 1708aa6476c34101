#include "sim/physics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "runtime/angle.hpp"
#include "runtime/contact_cone.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::sim {

using Eigen::Vector2d;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A ball hitting things this often in one step is being squeezed between
// closing surfaces, where rigid bounces would pump it without bound (Fermi
// acceleration). It is jammed: it stops, and the robots stop at it.
constexpr int kJamHits = 5;
// Gauss-Seidel passes for overlapping robots (and a squeezed ball).
constexpr int kMaxResolvePasses = 8;
constexpr int kApproachPasses = 4;
constexpr int kMaxSeparationPasses = 12;
// Overlap a solver pass may leave behind (rounding): far below anything a
// test or a renderer could notice, and it keeps jams from spinning.
constexpr double kSolverTolerance = 1e-9;
// Contacts are resolved to this gap, so the next correction of a neighbour
// has some slack and jams converge in a few passes instead of geometrically.
constexpr double kSkin = 1e-6;
// Most a pair correction may slide a wall-held robot, times the overlap.
constexpr double kMaxSlideFactor = 10.0;
// A ball this close to a robot's front (beyond touching) counts as in the
// mouth: the kicker and dribbler reach a little past the bumper.
constexpr double kMouthReachFactor = 0.5;  // times the ball radius
// Gap left between a held ball and its holder so contact tests stay robust.
constexpr double kHoldGap = 1e-6;
// A push or kick counts as a shot only if it leaves the ball this fast and
// made it this much faster (grazes and nudges are not shots), and the same
// robot's repeated pushes in a dribble count once per kShotDebounce.
constexpr double kShotMinSpeed = 0.5;
constexpr double kShotMinGain = 0.2;
constexpr double kShotDebounce = 1.0;
constexpr double kContactSlop = 1e-9;
// m: how far apart two robots' outlines may be for their bumpers to touch
// (contacts are left with a 1 um gap).
constexpr double kBumperReach = 1e-3;
// A ball this close to a wall or robot is resting on it: a robot pushing it
// that way is blocked. Larger than kSkin, which robots keep from a ball.
constexpr double kRestingSlop = 1e-5;
// A pushed ball that can only escape at more than acos(kPinCos) (about 73
// degrees) from the push is pinned: the pusher stops at it. At shallower
// angles it squeezes out along the surface it rests on.
constexpr double kPinCos = 0.3;
// MI20's air model: drag acts above this speed, in air of this density.
constexpr double kDragMinSpeed = 0.1;
constexpr double kAirDensity = 1.29;
constexpr double kGravity = 9.81;
// Stream of derive_seed() reserved for the physics' own noise.
constexpr std::uint64_t kPhysicsNoiseStream = 1;

Vector2d rotate(double c, double s, const Vector2d& v) {
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}
Vector2d unrotate(double c, double s, const Vector2d& v) {
  return {c * v.x() + s * v.y(), -s * v.x() + c * v.y()};
}

using runtime::wrap_angle;

// Body-frame displacement of a constant twist over dt along the exact arc, and
// the cosine and sine of the turn. Small turns use the series so a straight
// drive has no drift and the per-step cost stays off libm.
struct Arc {
  double dx, dy, c, s;
};
inline Arc exact_arc(double vx, double vy, double omega, double dt) {
  const double x = omega * dt;
  double a, b;  // sin(x)/omega and (1 - cos(x))/omega
  if (std::abs(x) < 0.1) {
    // Taylor series to x^8: below 1e-16 relative error for |x| < 0.1.
    constexpr double s3 = 1.0 / 6, s5 = 1.0 / 120, s7 = 1.0 / 5040, s9 = 1.0 / 362880;
    constexpr double c2 = 1.0 / 2, c4 = 1.0 / 24, c6 = 1.0 / 720, c8 = 1.0 / 40320;
    const double x2 = x * x;
    a = dt * (1.0 - x2 * (s3 - x2 * (s5 - x2 * (s7 - x2 * s9))));
    b = dt * x * (c2 - x2 * (c4 - x2 * (c6 - x2 * c8)));
  } else {
    a = std::sin(x) / omega;
    b = (1.0 - std::cos(x)) / omega;
  }
  return {vx * a - vy * b, vx * b + vy * a, 1.0 - omega * b, omega * a};
}

// Moves a wheel (or any speed) towards its target: the braking limit applies
// while the magnitude shrinks, the acceleration limit while it grows. A
// reversal brakes to zero first.
inline double ramp(double cur, double target, double acc_step, double dec_step) {
  if (cur == target) return target;
  const bool braking = (cur > 0.0 && target < cur) || (cur < 0.0 && target > cur);
  if (braking) {
    double next = cur > 0.0 ? std::max(cur - dec_step, target) : std::min(cur + dec_step, target);
    if ((cur > 0.0 && next < 0.0) || (cur < 0.0 && next > 0.0)) next = 0.0;
    return next;
  }
  return cur < target ? std::min(cur + acc_step, target) : std::max(cur - acc_step, target);
}

// Earliest t >= 0 at which two circles with relative position d0 and relative
// velocity vr are `reach` apart while approaching; kInf if never.
inline double circle_toi(const Vector2d& d0, const Vector2d& vr, double reach) {
  const double b = d0.dot(vr);
  if (b >= 0.0) return kInf;
  const double c = d0.squaredNorm() - reach * reach;
  if (c <= 0.0) return 0.0;
  const double a = vr.squaredNorm();
  const double disc = b * b - a * c;
  if (disc < 0.0) return kInf;
  return c / (-b + std::sqrt(disc));  // the smaller root, without cancellation
}

void decelerate(Vector2d& v, double dec_step) {
  const double s = v.norm();
  if (s <= dec_step) {
    v.setZero();
  } else if (s > 0.0) {
    v *= (s - dec_step) / s;
  }
}

bool less_key(msg::Team ta, std::uint32_t ia, msg::Team tb, std::uint32_t ib) {
  return ta != tb ? ta < tb : ia < ib;
}

std::string team_name(msg::Team t) { return msg::Team_Name(t); }

[[noreturn]] void bad_config(const std::string& field, double value, const char* rule) {
  std::ostringstream os;
  os << "Physics: " << field << " " << rule << " (got " << value << ")";
  throw std::invalid_argument(os.str());
}

}  // namespace

Physics::Physics(const msg::LeaguePreset& league, const msg::SimConfig& sim, std::uint64_t seed)
    : league_(league), sim_(sim), noise_(derive_seed(seed, kPhysicsNoiseStream)) {
  validate();
  const auto& rs = league_.robot();
  const auto& bs = league_.ball();
  robot_r_ = rs.radius();
  ball_r_ = bs.radius();
  omni_ = rs.drive() == msg::DRIVE_OMNI;
  wheel_base_ = rs.wheel_base() > 0.0 ? rs.wheel_base() : 2.0 * robot_r_;
  inv_wheel_base_ = 1.0 / wheel_base_;
  max_speed_ = rs.max_speed();
  max_acc_ = rs.max_acceleration();
  max_dec_ = rs.max_deceleration();
  max_omega_ = rs.max_omega() > 0.0 ? rs.max_omega() : kInf;
  kick_max_ = rs.kick_speed();
  mouth_half_ = rs.mouth_width() > 0.0 ? 0.5 * rs.mouth_width() : 0.5 * robot_r_;
  ball_dec_ = runtime::ball_rolling_deceleration(bs);
  if (bs.drag_coefficient() > 0.0 && bs.mass() > 0.0) {
    ball_drag_ = 0.5 * kAirDensity * bs.drag_coefficient() * M_PI * ball_r_ * ball_r_ / bs.mass();
  }
  motor_model_ = omni_ ? msg::MOTOR_IDEAL : rs.motor_model();
  dc_ = rs.dc_motor();
  auto or_default = [](double v, double d) { return v > 0.0 ? v : d; };
  dc_.set_pid_alpha(or_default(dc_.pid_alpha(), 4512));
  dc_.set_pid_beta(or_default(dc_.pid_beta(), 4192));
  dc_.set_pid_gamma(or_default(dc_.pid_gamma(), 512));
  dc_.set_pid_output_limit(or_default(dc_.pid_output_limit(), 256));
  dc_.set_torque_constant(or_default(dc_.torque_constant(), 6.92e-3));
  dc_.set_resistance(or_default(dc_.resistance(), 1.94));
  dc_.set_voltage(or_default(dc_.voltage(), 6.0));
  dc_.set_gear_ratio(or_default(dc_.gear_ratio(), 25.0 / 3.0));
  dc_.set_efficiency(or_default(dc_.efficiency(), 0.82));
  dc_.set_wheel_radius(or_default(dc_.wheel_radius(), 0.0225));
  dc_.set_rolling_resistance(or_default(dc_.rolling_resistance(), 1.71e-2));
  dc_.set_sliding_friction(or_default(dc_.sliding_friction(), 0.4808));
  robot_mass_ = rs.mass();
  robot_drag_ = 0.5 * kAirDensity * rs.drag_coefficient() * rs.frontal_area();
  true_travel_ = 1.0 - rs.slip();
  side_bias_ = rs.side_bias();
  heading_noise_ = rs.heading_noise();
  mouth_captures_ = rs.mouth_captures();
  side_turn_ = rs.mouth_side_turn();
  wall_e_ = bs.wall_restitution();
  robot_e_ = bs.robot_restitution();
  step_ = sim_.physics_step() > 0.0 ? sim_.physics_step() : 0.001;
  motor_timeout_ = sim_.motor_timeout();
  // A safety net only: no sequence of pushes and bounces should get near it.
  max_ball_speed_ = std::max({10.0, 2.0 * kick_max_, 4.0 * max_speed_});
  build_arena();
  robots_.reserve(2 * std::max<std::uint32_t>(league_.team_size(), 1) + 2);
}

void Physics::validate() const {
  const auto& f = league_.field();
  const auto& r = league_.robot();
  const auto& b = league_.ball();
  if (!(f.length() > 0.0)) bad_config("LeaguePreset.field.length", f.length(), "must be > 0");
  if (!(f.width() > 0.0)) bad_config("LeaguePreset.field.width", f.width(), "must be > 0");
  if (!(f.goal_width() >= 0.0 && f.goal_width() < f.width()))
    bad_config("LeaguePreset.field.goal_width", f.goal_width(), "must be in [0, width)");
  if (!(f.goal_depth() >= 0.0)) bad_config("LeaguePreset.field.goal_depth", f.goal_depth(), "must be >= 0");
  if (!(f.boundary_width() >= 0.0))
    bad_config("LeaguePreset.field.boundary_width", f.boundary_width(), "must be >= 0");
  if (!(r.radius() > 0.0)) bad_config("LeaguePreset.robot.radius", r.radius(), "must be > 0");
  if (!(r.max_speed() > 0.0)) bad_config("LeaguePreset.robot.max_speed", r.max_speed(), "must be > 0");
  if (!(r.max_acceleration() > 0.0))
    bad_config("LeaguePreset.robot.max_acceleration", r.max_acceleration(), "must be > 0");
  if (!(r.max_deceleration() > 0.0))
    bad_config("LeaguePreset.robot.max_deceleration", r.max_deceleration(), "must be > 0");
  if (r.drive() == msg::DRIVE_DIFFERENTIAL && !(r.wheel_base() > 0.0))
    bad_config("LeaguePreset.robot.wheel_base", r.wheel_base(), "must be > 0 for differential drive");
  if (!(r.kick_speed() >= 0.0)) bad_config("LeaguePreset.robot.kick_speed", r.kick_speed(), "must be >= 0");
  if (!(r.slip() >= 0.0 && r.slip() < 1.0)) bad_config("LeaguePreset.robot.slip", r.slip(), "must be in [0, 1)");
  if (!(r.heading_noise() >= 0.0))
    bad_config("LeaguePreset.robot.heading_noise", r.heading_noise(), "must be >= 0");
  if (r.drive() == msg::DRIVE_DIFFERENTIAL && r.motor_model() == msg::MOTOR_DC_PID && !(r.mass() > 0.0))
    bad_config("LeaguePreset.robot.mass", r.mass(), "must be > 0 for MOTOR_DC_PID");
  if (!(b.radius() > 0.0)) bad_config("LeaguePreset.ball.radius", b.radius(), "must be > 0");
  if (!(b.rolling_deceleration() >= 0.0))
    bad_config("LeaguePreset.ball.rolling_deceleration", b.rolling_deceleration(), "must be >= 0");
  if (!(b.wall_restitution() >= 0.0 && b.wall_restitution() <= 1.0))
    bad_config("LeaguePreset.ball.wall_restitution", b.wall_restitution(), "must be in [0, 1]");
  if (!(b.robot_restitution() >= 0.0 && b.robot_restitution() <= 1.0))
    bad_config("LeaguePreset.ball.robot_restitution", b.robot_restitution(), "must be in [0, 1]");
  if (!(sim_.physics_step() >= 0.0 && std::isfinite(sim_.physics_step())))
    bad_config("SimConfig.physics_step", sim_.physics_step(), "must be > 0 (0 = default 0.001)");
  if (!(sim_.motor_timeout() >= 0.0))
    bad_config("SimConfig.motor_timeout", sim_.motor_timeout(), "must be >= 0 (0 = no watchdog)");
}

void Physics::build_arena() {
  const auto& f = league_.field();
  const double l2 = 0.5 * f.length(), w2 = 0.5 * f.width();
  const double g2 = 0.5 * f.goal_width(), gd = f.goal_depth();
  const bool goals = g2 > 0.0 && gd > 0.0;

  auto add = [this](const Vector2d& a, const Vector2d& b, bool one_sided, bool stops) {
    Segment s;
    s.a = a;
    s.b = b;
    s.length = (b - a).norm();
    if (s.length <= 0.0) return;
    s.d = (b - a) / s.length;
    s.n = Vector2d(-s.d.y(), s.d.x());  // left of a -> b: inside of a ccw polygon
    s.one_sided = one_sided;
    s.stops_ball = stops;
    segments_.push_back(s);
  };

  if (f.walls()) {
    // The arena is one counter-clockwise polygon: the field with a notch for
    // each goal. Its reflex corners are the posts.
    std::vector<Vector2d> poly = {{-l2, -w2}, {l2, -w2}};
    if (goals) {
      poly.insert(poly.end(), {{l2, -g2}, {l2 + gd, -g2}, {l2 + gd, g2}, {l2, g2}});
    }
    poly.insert(poly.end(), {{l2, w2}, {-l2, w2}});
    if (goals) {
      poly.insert(poly.end(), {{-l2, g2}, {-l2 - gd, g2}, {-l2 - gd, -g2}, {-l2, -g2}});
    }
    for (std::size_t i = 0; i < poly.size(); ++i) add(poly[i], poly[(i + 1) % poly.size()], true, false);
    if (goals) posts_ = {{l2, -g2}, {l2, g2}, {-l2, g2}, {-l2, -g2}};
    clear_x_ = l2;
    clear_y_ = w2;
  } else {
    // Open field: the outer boundary holds robots and stops the ball; goals
    // are free-standing thin walls whose every corner is exposed.
    double x = l2 + f.boundary_width();
    const double y = w2 + f.boundary_width();
    if (goals) x = std::max(x, l2 + gd);
    clear_x_ = goals ? l2 : x;
    clear_y_ = y;
    add({-x, -y}, {x, -y}, true, true);
    add({x, -y}, {x, y}, true, true);
    add({x, y}, {-x, y}, true, true);
    add({-x, y}, {-x, -y}, true, true);
    if (goals) {
      for (double s : {1.0, -1.0}) {
        const Vector2d p0(s * l2, g2), p1(s * (l2 + gd), g2), p2(s * (l2 + gd), -g2), p3(s * l2, -g2);
        add(p0, p1, false, false);
        add(p1, p2, false, false);
        add(p2, p3, false, false);
        posts_.insert(posts_.end(), {p0, p1, p2, p3});
      }
    }
  }
}

Vector2d Physics::clamp_into_arena(const Vector2d& p, double radius) const {
  const auto& f = league_.field();
  const double l2 = 0.5 * f.length(), w2 = 0.5 * f.width();
  const double g2 = 0.5 * f.goal_width(), gd = f.goal_depth();
  Vector2d q = p;
  if (!std::isfinite(q.x())) q.x() = 0.0;
  if (!std::isfinite(q.y())) q.y() = 0.0;
  if (f.walls()) {
    const bool in_goal_lane = g2 > radius && gd > 0.0 && std::abs(q.y()) <= g2 - radius &&
                              std::abs(q.x()) > l2 - radius;
    const double xmax = in_goal_lane ? l2 + gd - radius : l2 - radius;
    q.x() = std::clamp(q.x(), -xmax, xmax);
    q.y() = std::clamp(q.y(), -(w2 - radius), w2 - radius);
  } else {
    double x = l2 + f.boundary_width();
    if (g2 > 0.0 && gd > 0.0) x = std::max(x, l2 + gd);
    const double y = w2 + f.boundary_width();
    q.x() = std::clamp(q.x(), -(x - radius), x - radius);
    q.y() = std::clamp(q.y(), -(y - radius), y - radius);
  }
  return q;
}

long Physics::find(msg::Team team, std::uint32_t id) const {
  for (std::size_t i = 0; i < robots_.size(); ++i) {
    if (robots_[i].team == team && robots_[i].id == id) return static_cast<long>(i);
  }
  return -1;
}

std::size_t Physics::index_of(msg::Team team, std::uint32_t id) const {
  const long i = find(team, id);
  if (i < 0) {
    throw std::out_of_range("Physics: no robot " + team_name(team) + " " + std::to_string(id));
  }
  return static_cast<std::size_t>(i);
}

bool Physics::has_robot(msg::Team team, std::uint32_t id) const { return find(team, id) >= 0; }

void Physics::add_robot(msg::Team team, std::uint32_t id, const msg::Pose2& pose) {
  if (team != msg::BLUE && team != msg::YELLOW) {
    throw std::invalid_argument("Physics::add_robot: team must be BLUE or YELLOW");
  }
  if (has_robot(team, id)) {
    throw std::invalid_argument("Physics::add_robot: robot " + team_name(team) + " " +
                                std::to_string(id) + " already exists");
  }
  Robot r;
  r.team = team;
  r.id = id;
  auto it = std::find_if(robots_.begin(), robots_.end(), [&](const Robot& o) {
    return less_key(team, id, o.team, o.id);
  });
  // Indices shift: keep the holder pointing at the same robot.
  const long at = it - robots_.begin();
  if (holder_ >= at) ++holder_;
  auto& placed = *robots_.insert(it, r);
  place_robot(team, id, pose);
  placed.odo_pos = placed.pos;
  placed.odo_theta = placed.theta;
  placed.odo_cos = placed.cos_t;
  placed.odo_sin = placed.sin_t;
}

void Physics::place_robot(msg::Team team, std::uint32_t id, const msg::Pose2& pose) {
  Robot& r = robots_[index_of(team, id)];
  r.pos = clamp_into_arena({pose.x(), pose.y()}, robot_r_);
  r.theta = std::isfinite(pose.theta()) ? wrap_angle(pose.theta()) : 0.0;
  r.cos_t = std::cos(r.theta);
  r.sin_t = std::sin(r.theta);
  r.wheel_l = r.wheel_r = 0.0;
  r.vx = r.vy = r.omega = 0.0;
  for (int w = 0; w < 2; ++w) r.pid_out[w] = r.pid_e1[w] = r.pid_e2[w] = 0.0;
  r.start = r.pos;
  r.step_vel.setZero();
  r.vel.setZero();
  if (holder_ >= 0 && &robots_[static_cast<std::size_t>(holder_)] == &r) holder_ = -1;
  dirty_ = true;
}

bool Physics::set_robot_motion(const msg::RobotTruth& logged) {
  Robot& r = robots_[index_of(logged.team(), logged.robot_id())];
  const double l = logged.wheel_left(), w = logged.wheel_right();
  const Vector2d velocity(logged.velocity().x(), logged.velocity().y());
  if (!std::isfinite(l) || !std::isfinite(w) || !velocity.allFinite()) return false;
  // truth() reports the wheels as they are; an omni robot's sideways speed
  // shows only in its velocity (ground_velocity(), inverted here).
  r.wheel_l = l;
  r.wheel_r = w;
  r.vx = 0.5 * (l + w);
  r.omega = (w - l) * inv_wheel_base_;
  r.vy = omni_ && true_travel_ > 0.0 ? unrotate(r.cos_t, r.sin_t, velocity).y() / true_travel_ - side_bias_ * r.vx
                                     : 0.0;
  for (int k = 0; k < 2; ++k) r.pid_out[k] = r.pid_e1[k] = r.pid_e2[k] = 0.0;
  r.vel = ground_velocity(r);
  r.step_vel = r.vel;
  dirty_ = true;
  return true;
}

void Physics::place_ball(const Vector2d& position, const Vector2d& velocity) {
  ball_pos_ = clamp_into_arena(position, ball_r_);
  ball_vel_ = velocity.allFinite() ? velocity : Vector2d::Zero();
  holder_ = -1;
  dirty_ = true;
}

bool Physics::set_command(msg::Team team, std::uint32_t id, const msg::RobotCommand& c,
                          double t_now) {
  const long i = find(team, id);
  if (i < 0) return false;
  double l = 0, rr = 0, vx = 0, vy = 0, w = 0;
  if (c.has_wheels()) {
    l = c.wheels().left();
    rr = c.wheels().right();
    vx = 0.5 * (l + rr);
    w = (rr - l) / wheel_base_;
  } else if (c.has_body()) {
    vx = c.body().vx();
    vy = c.body().vy();
    w = c.body().omega();
    l = vx - 0.5 * w * wheel_base_;
    rr = vx + 0.5 * w * wheel_base_;
  }
  if (!std::isfinite(l) || !std::isfinite(rr) || !std::isfinite(vx) || !std::isfinite(vy) ||
      !std::isfinite(w) || !std::isfinite(c.kick_speed()) || !std::isfinite(t_now)) {
    return false;
  }
  Robot& r = robots_[static_cast<std::size_t>(i)];
  r.has_command = true;
  r.cmd_time = t_now;
  r.cmd_l = std::clamp(l, -max_speed_, max_speed_);
  r.cmd_r = std::clamp(rr, -max_speed_, max_speed_);
  const double sp = std::hypot(vx, vy);
  const double k = sp > max_speed_ ? max_speed_ / sp : 1.0;
  r.cmd_vx = vx * k;
  r.cmd_vy = vy * k;
  r.cmd_omega = std::clamp(w, -max_omega_, max_omega_);
  r.kick_speed = (c.kick_speed() > 0.0 && kick_max_ > 0.0) ? std::min(c.kick_speed(), kick_max_) : 0.0;
  r.dribble = c.dribble();
  return true;
}

void Physics::step(double dt) {
  if (!(dt >= 0.0) || !std::isfinite(dt)) {
    throw std::invalid_argument("Physics::step: dt must be finite and >= 0");
  }
  if (dt == 0.0) return;
  const auto n = static_cast<long>(std::ceil(dt / step_ - 1e-9));
  const double h = dt / static_cast<double>(std::max(1L, n));
  for (long i = 0; i < std::max(1L, n); ++i) single_step(h);
}

void Physics::step() { single_step(step_); }

void Physics::run_for(double duration) {
  const long n = std::lround(duration / step_);
  for (long i = 0; i < n; ++i) single_step(step_);
}

void Physics::settle() {
  // Overlaps left by teleports are removed before anything moves, so they
  // never turn into a robot "velocity" that would hit the ball.
  for (Robot& r : robots_) {
    r.start = r.pos;
    r.drive_disp.setZero();
    r.step_vel.setZero();
    r.n_wall = 0;
    push_robot_out_of_walls(r);
  }
  n_contacts_ = 0;
  separate_robots(BallRule::ignore);
  resolve_ball_overlaps(false);
}

void Physics::single_step(double dt) {
  if (dirty_) {
    settle();
    dirty_ = false;
  }
  collect_ball_contacts();
  for (Robot& r : robots_) {
    r.start = r.pos;
    drive_robot(r, dt);
    r.drive_disp = r.pos - r.start;
  }
  for (Robot& r : robots_) {
    r.n_wall = 0;
    push_robot_out_of_walls(r);
  }
  separate_robots(BallRule::pinned);
  const double inv = 1.0 / dt;
  for (Robot& r : robots_) r.step_vel = (r.pos - r.start) * inv;
  ball_phase(dt);
  time_ += dt;
  if (const int g = ball_in_goal(); g != 0) goal_latch_ = g;
}

Vector2d Physics::ground_velocity(const Robot& r) const {
  return rotate(r.cos_t, r.sin_t, {true_travel_ * r.vx, true_travel_ * (r.vy + side_bias_ * r.vx)});
}

void Physics::drive_robot(Robot& r, double dt) {
  const bool live =
      r.has_command && (motor_timeout_ <= 0.0 || time_ - r.cmd_time <= motor_timeout_);
  const double acc = max_acc_ * dt, dec = max_dec_ * dt;
  double vx_avg, vy_avg, w_avg;
  double travel;  // distance the wheels rolled this step
  if (!omni_) {
    const double l0 = r.wheel_l, r0 = r.wheel_r;
    drive_wheels(r, live, dt, r.wheel_l, r.wheel_r);
    travel = 0.25 * (std::abs(l0) + std::abs(r.wheel_l) + std::abs(r0) + std::abs(r.wheel_r)) * dt;
    r.vx = 0.5 * (r.wheel_l + r.wheel_r);
    r.vy = 0.0;
    r.omega = (r.wheel_r - r.wheel_l) * inv_wheel_base_;
    // Averaging start and end of the step makes a linear ramp exact.
    vx_avg = 0.25 * (l0 + r0 + r.wheel_l + r.wheel_r);
    vy_avg = 0.0;
    w_avg = 0.5 * ((r0 - l0) + (r.wheel_r - r.wheel_l)) * inv_wheel_base_;
  } else {
    const double vx0 = r.vx, vy0 = r.vy, w0 = r.omega;
    const double tx = live ? r.cmd_vx : 0.0, ty = live ? r.cmd_vy : 0.0;
    const double tw = live ? r.cmd_omega : 0.0;
    const double dvx = tx - vx0, dvy = ty - vy0;
    const double dv = std::hypot(dvx, dvy);
    const double lim = (tx * tx + ty * ty >= vx0 * vx0 + vy0 * vy0) ? acc : dec;
    if (dv > lim) {
      r.vx = vx0 + dvx * (lim / dv);
      r.vy = vy0 + dvy * (lim / dv);
    } else {
      r.vx = tx;
      r.vy = ty;
    }
    // Turning uses the same wheels: the angular limit is the wheel limit
    // over the wheels' lever arm.
    const double arm = 0.5 * wheel_base_;
    r.omega = ramp(w0, tw, acc / arm, dec / arm);
    vx_avg = 0.5 * (vx0 + r.vx);
    vy_avg = 0.5 * (vy0 + r.vy);
    w_avg = 0.5 * (w0 + r.omega);
    r.wheel_l = r.vx - r.omega * arm;
    r.wheel_r = r.vx + r.omega * arm;
    travel = std::hypot(vx_avg, vy_avg) * dt;
  }

  const Arc arc = exact_arc(vx_avg, vy_avg, w_avg, dt);
  // The ground takes less than the wheels give (Clockwork Orange's f and b):
  // only the true pose sees it, odometry below integrates the wheels.
  const double true_dx = true_travel_ * arc.dx;
  const double true_dy = true_travel_ * arc.dy + side_bias_ * true_dx;
  // Component-wise: building a vector from two scalars and adding it stalls
  // on store forwarding, and this is the hottest line of a step.
  r.pos.x() += r.cos_t * true_dx - r.sin_t * true_dy;
  r.pos.y() += r.sin_t * true_dx + r.cos_t * true_dy;
  double turn_c = arc.c, turn_s = arc.s, turn = w_avg * dt;
  if (heading_noise_ > 0.0) {
    // Noise on the angular velocity, scaled by the wheels' travel so a robot
    // standing still does not wander: the heading random-walks by
    // heading_noise rad per sqrt(metre), which spreads the path sideways.
    if (travel > 0.0) {
      const double extra = heading_noise_ * std::sqrt(travel) * noise_.gaussian();
      turn += extra;
      const double ce = std::cos(extra), se = std::sin(extra);
      turn_c = arc.c * ce - arc.s * se;
      turn_s = arc.s * ce + arc.c * se;
    }
  }
  r.theta = wrap_angle(r.theta + turn);
  double c = r.cos_t * turn_c - r.sin_t * turn_s;
  double s = r.sin_t * turn_c + r.cos_t * turn_s;
  double k = 1.5 - 0.5 * (c * c + s * s);  // one Newton step keeps |(c, s)| = 1
  r.cos_t = c * k;
  r.sin_t = s * k;

  r.vel = ground_velocity(r);

  r.odo_pos.x() += r.odo_cos * arc.dx - r.odo_sin * arc.dy;
  r.odo_pos.y() += r.odo_sin * arc.dx + r.odo_cos * arc.dy;
  r.odo_theta = wrap_angle(r.odo_theta + w_avg * dt);
  c = r.odo_cos * arc.c - r.odo_sin * arc.s;
  s = r.odo_sin * arc.c + r.odo_cos * arc.s;
  k = 1.5 - 0.5 * (c * c + s * s);
  r.odo_cos = c * k;
  r.odo_sin = s * k;
}

void Physics::drive_wheels(Robot& r, bool live, double dt, double& left, double& right) {
  const double l0 = r.wheel_l, r0 = r.wheel_r;
  const double tl = live ? r.cmd_l : 0.0, tr = live ? r.cmd_r : 0.0;
  const double acc = max_acc_ * dt, dec = max_dec_ * dt;
  switch (motor_model_) {
    case msg::MOTOR_CURVATURE_KEEPING: {
      // MI20: when a wheel would exceed its limit, both changes shrink by
      // the same factor, so the ratio of the changes (the curvature the
      // controller asked for) is kept.
      const double dl = tl - l0, dr = tr - r0;
      auto limit = [&](double cur, double d) { return cur * d < 0.0 ? dec : acc; };
      double k = 1.0;
      if (std::abs(dl) > 0.0) k = std::min(k, limit(l0, dl) / std::abs(dl));
      if (std::abs(dr) > 0.0) k = std::min(k, limit(r0, dr) / std::abs(dr));
      left = l0 + k * dl;
      right = r0 + k * dr;
      return;
    }
    case msg::MOTOR_DC_PID:
      left = dc_motor_wheel(r, 0, l0, tl, dt);
      right = dc_motor_wheel(r, 1, r0, tr, dt);
      return;
    default:
      left = ramp(l0, tl, acc, dec);
      right = ramp(r0, tr, acc, dec);
      return;
  }
}

double Physics::dc_motor_wheel(Robot& r, int wheel, double v, double target, double dt) const {
  // MI20 section 5.1.4, with the time step their update leaves out and a
  // traction limit. The PID is in velocity form on m/s errors (the robot's
  // division by 8192 undoes its encoder's 8192 counts per m/s).
  const double e = target - v;
  double out = r.pid_out[wheel] + dc_.pid_alpha() * e - dc_.pid_beta() * r.pid_e1[wheel] +
               dc_.pid_gamma() * r.pid_e2[wheel];
  out = std::clamp(out, -dc_.pid_output_limit(), dc_.pid_output_limit());
  r.pid_out[wheel] = out;
  r.pid_e2[wheel] = r.pid_e1[wheel];
  r.pid_e1[wheel] = e;
  const double k = dc_.torque_constant(), res = dc_.resistance(), n = dc_.gear_ratio();
  const double rw = dc_.wheel_radius();
  const double omega_motor = v * n / rw;
  const double volts = out / dc_.pid_output_limit() * dc_.voltage();
  const double torque = volts * k / res - k * k * omega_motor / res;
  double force = torque * n * dc_.efficiency() / rw;
  const double half_mass = 0.5 * robot_mass_;
  const double grip = dc_.sliding_friction() * half_mass * kGravity;
  force = std::clamp(force, -grip, grip);  // the wheel spins beyond this
  if (std::abs(v) > kDragMinSpeed) force -= std::copysign(0.5 * robot_drag_ * v * v, v);
  double next = v + force / half_mass * dt;
  // Rolling resistance slows the wheel but never reverses it.
  const double rolling = dc_.rolling_resistance() * kGravity * dt;
  if (next > 0.0) {
    next = std::max(0.0, next - rolling);
  } else if (next < 0.0) {
    next = std::min(0.0, next + rolling);
  }
  return next;
}

double Physics::ball_deceleration(double s) const {
  return s > kDragMinSpeed ? ball_dec_ + ball_drag_ * s * s : ball_dec_;
}

Vector2d Physics::world_velocity(const Robot& r) const {
  return rotate(r.cos_t, r.sin_t, {r.vx, r.vy});
}

void Physics::push_robot_out_of_walls(Robot& r) {
  if (std::abs(r.pos.x()) < clear_x_ - robot_r_ - kContactSlop &&
      std::abs(r.pos.y()) < clear_y_ - robot_r_ - kContactSlop) {
    return;
  }
  auto resolve = [&](const Vector2d& normal, double pen) {
    if (pen < -kContactSlop) return;
    add_constraint(r, normal);  // touching: it may slide along, not into it
    if (pen <= 0.0) return;
    r.pos += pen * normal;
    const double un = r.vel.dot(normal);
    if (un < 0.0) r.vel -= un * normal;
  };
  for (const Segment& sg : segments_) {
    const Vector2d rel = r.pos - sg.a;
    const double u = rel.dot(sg.d);
    if (u < 0.0 || u > sg.length) continue;
    const double dist = rel.dot(sg.n);
    if (sg.one_sided) {
      resolve(sg.n, robot_r_ - dist);
    } else if (std::abs(dist) < robot_r_ + kContactSlop) {
      resolve(dist >= 0.0 ? sg.n : Vector2d(-sg.n), robot_r_ - std::abs(dist));
    }
  }
  for (const Vector2d& q : posts_) {
    const Vector2d d = r.pos - q;
    const double d2 = d.squaredNorm();
    if (d2 >= (robot_r_ + kContactSlop) * (robot_r_ + kContactSlop)) continue;
    const double dist = std::sqrt(d2);
    const Vector2d n = dist > 0.0 ? Vector2d(d / dist) : Vector2d(-q.normalized());
    resolve(n, robot_r_ - dist);
  }
}

void Physics::add_constraint(Robot& r, const Vector2d& m) {
  for (int k = 0; k < r.n_wall; ++k) {
    if (r.wall_n[k].dot(m) > 0.999) return;
  }
  if (r.n_wall < kMaxRobotConstraints) r.wall_n[r.n_wall++] = m;
}

Vector2d Physics::feasible(const Robot& r, Vector2d dir) const {
  // The robot's own self-localiser takes the same rule for what its wheels
  // moved it: projected out of the contacts one after another, a goal
  // post's radial contact or a push at an angle could leave a slide the
  // localiser says does not happen.
  Vector2d towards[kMaxRobotConstraints];
  for (int k = 0; k < r.n_wall; ++k) towards[k] = -r.wall_n[k];
  return runtime::nearest_free_motion(dir, towards, static_cast<std::size_t>(r.n_wall));
}

void Physics::separate_robots(BallRule ball_rule) {
  const double reach = 2.0 * robot_r_;
  const double reach2 = reach * reach;
  const double ball_reach = robot_r_ + ball_r_;
  const std::size_t n = robots_.size();
  for (Robot& r : robots_) r.active = true;
  bool any = true;
  for (int pass = 0; pass < kMaxSeparationPasses && any; ++pass) {
    any = false;
    // First each robot gives back its own approach (robots that collide stop
    // along the normal, nobody is shoved). In a jam that can ping-pong, so
    // later passes split evenly.
    const bool by_approach = pass < kApproachPasses;
    for (std::size_t i = 0; i < n; ++i) {
      Robot& a = robots_[i];
      for (std::size_t j = i + 1; j < n; ++j) {
        Robot& b = robots_[j];
        // Pairs in which nobody moved since the last pass are known to be fine.
        if (!a.active && !b.active) continue;
        const Vector2d d = b.pos - a.pos;
        const double d2 = d.squaredNorm();
        if (d2 >= reach2) continue;
        const double dist = std::sqrt(d2);
        // Every correction is followed by a checking pass; overlaps within
        // the tolerance are left alone so the last pass moves nothing.
        if (reach - dist <= kSolverTolerance) continue;
        any = true;
        // Coincident centres (a teleport): separate along x, deterministically.
        const Vector2d nrm = dist > 0.0 ? Vector2d(d / dist) : Vector2d(1.0, 0.0);
        const double pen = reach + kSkin - dist;
        double wa = 0.5;
        if (by_approach) {
          const double da = std::max(0.0, a.drive_disp.dot(nrm));
          const double db = std::max(0.0, -b.drive_disp.dot(nrm));
          if (da + db > 1e-15) wa = da / (da + db);
        }
        // A robot held by a wall (or a pinned ball) can only slide along it:
        // move each within what its contacts allow, scaled so the pair still
        // separates fully. Without this, corner jams converge very slowly.
        const Vector2d ua = feasible(a, -nrm), ub = feasible(b, nrm);
        const double ka = -ua.dot(nrm), kb = ub.dot(nrm);
        double wb = 1.0 - wa;
        double reachable = wa * ka + wb * kb;
        if (reachable < 0.05) {  // the chosen robot cannot move that way: the other does
          if (ka + kb > 1e-9) {
            wa = ka / (ka + kb);
            wb = 1.0 - wa;
            reachable = wa * ka + wb * kb;
          }
        }
        if (reachable > 1e-9) {
          const double scale = std::min(pen / reachable, kMaxSlideFactor * pen);
          a.pos += ua * (scale * wa);
          b.pos += ub * (scale * wb);
        } else {  // wedged both ways: let the walls sort it out next pass
          a.pos -= nrm * (pen * wa);
          b.pos += nrm * (pen * wb);
        }
        a.moved = a.moved || wa > 0.0;
        b.moved = b.moved || wb > 0.0;
        const double an = a.vel.dot(nrm);
        if (an > 0.0) a.vel -= an * nrm;
        const double bn = b.vel.dot(nrm);
        if (bn < 0.0) b.vel -= bn * nrm;
      }
    }
    if (ball_rule != BallRule::ignore) {
      for (std::size_t i = 0; i < n; ++i) {
        Robot& r = robots_[i];
        if (!r.active && !r.moved) continue;
        const Vector2d d = ball_pos_ - r.pos;
        const double d2 = d.squaredNorm();
        if (d2 >= ball_reach * ball_reach || d2 == 0.0) continue;
        const double dist = std::sqrt(d2);
        const Vector2d push = d / dist;
        if (ball_rule == BallRule::pinned && !ball_pinned_against(push, static_cast<int>(i))) continue;
        // The ball cannot give way: the robot stops at it as at a wall,
        // backing off within what its other contacts allow.
        record_touch(r, time_);  // pressing on the ball is touching it
        const Vector2d away = feasible(r, -push);
        add_constraint(r, -push);
        const double un = r.vel.dot(push);
        if (un > 0.0) r.vel -= un * push;
        if (ball_reach - dist <= kSolverTolerance) continue;
        any = true;
        const double k = -away.dot(push);
        if (k < 0.05) continue;  // wedged: whoever pushes it here must yield
        const double pen = ball_reach + kSkin - dist;
        r.pos += away * std::min(pen / k, kMaxSlideFactor * pen);
        r.moved = true;
      }
    }
    for (Robot& r : robots_) {
      r.active = r.moved;
      if (!r.moved) continue;  // walls were checked when it last moved
      r.moved = false;
      push_robot_out_of_walls(r);
    }
  }
  if (!any) return;
  // Still jammed: robots that overlap go back to where they started the step,
  // which was a valid configuration, until nothing overlaps.
  for (bool changed = true; changed;) {
    changed = false;
    if (ball_rule != BallRule::ignore) {
      for (Robot& r : robots_) {
        if ((ball_pos_ - r.pos).norm() >= ball_reach - kSolverTolerance || r.pos == r.start) continue;
        r.pos = r.start;
        r.vel.setZero();
        changed = true;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        if ((robots_[j].pos - robots_[i].pos).norm() >= reach - kSolverTolerance) continue;
        for (Robot* r : {&robots_[i], &robots_[j]}) {
          if (r->pos != r->start) {
            r->pos = r->start;
            r->vel.setZero();
            changed = true;
          }
        }
      }
    }
  }
}

void Physics::collect_ball_contacts() {
  n_contacts_ = 0;
  if (!ball_clear_of_walls(kRestingSlop)) {
    for (const Segment& sg : segments_) {
      if (n_contacts_ == kMaxContacts) return;
      const Vector2d rel = ball_pos_ - sg.a;
      const double u = rel.dot(sg.d);
      if (u < 0.0 || u > sg.length) continue;
      const double dist = rel.dot(sg.n);
      if (std::abs(dist) > ball_r_ + kRestingSlop) continue;
      contacts_[n_contacts_] = (sg.one_sided || dist >= 0.0) ? sg.n : Vector2d(-sg.n);
      contact_owner_[n_contacts_++] = -1;
    }
    for (const Vector2d& q : posts_) {
      if (n_contacts_ == kMaxContacts) return;
      const Vector2d d = ball_pos_ - q;
      const double dist = d.norm();
      if (dist > ball_r_ + kRestingSlop || dist == 0.0) continue;
      contacts_[n_contacts_] = d / dist;
      contact_owner_[n_contacts_++] = -1;
    }
  }
  const double reach = robot_r_ + ball_r_;
  const double near2 = (reach + kRestingSlop) * (reach + kRestingSlop);
  for (std::size_t i = 0; i < robots_.size(); ++i) {
    if (n_contacts_ == kMaxContacts) return;
    const Vector2d d = ball_pos_ - robots_[i].pos;
    const double d2 = d.squaredNorm();
    if (d2 > near2 || d2 == 0.0) continue;
    const double dist = std::sqrt(d2);
    contacts_[n_contacts_] = d / dist;
    contact_owner_[n_contacts_++] = static_cast<int>(i);
  }
}

bool Physics::ball_pinned_against(const Vector2d& push, int robot) const {
  // The ball can give way if some direction allowed by all its contacts
  // (other than the pusher) moves it along the push. Such a direction is the
  // push itself or an edge of the allowed cone, i.e. along a contact surface.
  auto allowed = [&](const Vector2d& u) {
    for (int k = 0; k < n_contacts_; ++k) {
      if (contact_owner_[k] != robot && u.dot(contacts_[k]) < -1e-9) return false;
    }
    return true;
  };
  if (allowed(push)) return false;
  for (int k = 0; k < n_contacts_; ++k) {
    if (contact_owner_[k] == robot) continue;
    const Vector2d along(-contacts_[k].y(), contacts_[k].x());
    for (const Vector2d& u : {along, Vector2d(-along)}) {
      if (u.dot(push) > kPinCos && allowed(u)) return false;
    }
  }
  return true;
}

bool Physics::ball_in_mouth(const Vector2d& pos, double cos_t, double sin_t) const {
  const Vector2d local = unrotate(cos_t, sin_t, ball_pos_ - pos);
  if (local.x() <= 0.0 || std::abs(local.y()) > mouth_half_) return false;
  const double reach = robot_r_ + ball_r_ * (1.0 + kMouthReachFactor);
  return local.squaredNorm() <= reach * reach;
}

void Physics::record_touch(const Robot& r, double t) {
  last_touch_.valid = true;
  last_touch_.team = r.team;
  last_touch_.robot_id = r.id;
  last_touch_.t = t;
}

void Physics::check_shot(const Robot& r, double t, double speed_before) {
  const double speed = ball_vel_.norm();
  if (speed < kShotMinSpeed || speed < speed_before + kShotMinGain || ball_vel_.x() == 0.0) return;
  const auto& f = league_.field();
  const int side = ball_vel_.x() > 0.0 ? 1 : -1;
  const double tx = (side * 0.5 * f.length() - ball_pos_.x()) / ball_vel_.x();
  if (tx < 0.0) return;
  const double y_at = ball_pos_.y() + ball_vel_.y() * tx;
  if (std::abs(y_at) >= 0.5 * f.goal_width()) return;
  if (ball_dec_ > 0.0 && tx * speed > speed * speed / (2.0 * ball_dec_)) return;
  if (shot_count_ > 0 && last_shot_.team == r.team && last_shot_.robot_id == r.id &&
      last_shot_.goal_side == side && t - last_shot_.t < kShotDebounce) {
    return;
  }
  last_shot_ = Shot{r.team, r.id, t, side, speed};
  ++shot_count_;
}

void Physics::ball_phase(double dt) {
  const double t0 = time_;
  auto live = [this](const Robot& r) {
    return r.has_command && (motor_timeout_ <= 0.0 || time_ - r.cmd_time <= motor_timeout_);
  };
  // The kicker fires first: a kicked ball leaves the mouth this very step.
  for (Robot& r : robots_) {
    if (r.kick_speed > 0.0 && live(r) && ball_in_mouth(r.pos, r.cos_t, r.sin_t)) {
      const double before = ball_vel_.norm();
      ball_vel_ = r.step_vel + r.kick_speed * Vector2d(r.cos_t, r.sin_t);
      r.kick_speed = 0.0;
      holder_ = -1;
      record_touch(r, t0);
      check_shot(r, t0, before);
      move_ball_ccd(dt);
      resolve_ball_overlaps(true);
      return;
    }
  }

  // A dribbler holds the ball whichever way the robot drives; a passive mouth
  // (Clockwork Orange's scoop) only while the robot does not back away.
  auto grips = [&](const Robot& r) {
    return live(r) && (r.dribble || (mouth_captures_ && r.vx >= 0.0));
  };
  if (holder_ >= 0) {
    const Robot& h = robots_[static_cast<std::size_t>(holder_)];
    if (!(grips(h) && ball_in_mouth(h.pos, h.cos_t, h.sin_t))) holder_ = -1;
  }
  if (holder_ < 0) {
    for (std::size_t i = 0; i < robots_.size(); ++i) {
      const Robot& r = robots_[i];
      if (!(grips(r) && ball_in_mouth(r.pos, r.cos_t, r.sin_t))) continue;
      const Vector2d local = unrotate(r.cos_t, r.sin_t, ball_pos_ - r.pos);
      // A passive mouth only meets balls closing in: one just kicked or
      // turned away is still within reach for a step or two, and leaves.
      const double closing = r.dribble ? -1.0 : (ball_vel_ - r.vel).dot(ball_pos_ - r.pos);
      if (closing > 0.0) continue;
      if (!r.dribble && side_turn_ > 0.0 && std::abs(local.y()) > mouth_half_ - 0.5 * ball_r_) {
        if (closing == 0.0) continue;
        side_hit(r, local);
        move_ball_ccd(dt);
        resolve_ball_overlaps(true);
        return;
      }
      holder_ = static_cast<int>(i);
      // Keep the ball where it met the mouth, on the bumper, within the mouth.
      const double reach = robot_r_ + ball_r_ + kHoldGap;
      const double max_angle = std::asin(std::min(1.0, mouth_half_ / reach));
      const double angle = std::clamp(std::atan2(local.y(), local.x()), -max_angle, max_angle);
      hold_offset_ = reach * Vector2d(std::cos(angle), std::sin(angle));
      break;
    }
  }
  if (holder_ >= 0) {
    const Robot& h = robots_[static_cast<std::size_t>(holder_)];
    const Vector2d off = rotate(h.cos_t, h.sin_t, hold_offset_);
    ball_pos_ = h.pos + off;
    ball_vel_ = h.vel + h.omega * Vector2d(-off.y(), off.x());
    record_touch(h, t0 + dt);
  } else {
    move_ball_ccd(dt);
  }
  resolve_ball_overlaps(true);
}

void Physics::side_hit(const Robot& r, const Vector2d& local) {
  // Clockwork Orange: a ball meeting the side of the mouth is not caught but
  // leaves along the robot's heading turned outwards by side_turn.
  const double before = ball_vel_.norm();
  const double angle = r.theta + (local.y() > 0.0 ? side_turn_ : -side_turn_);
  const double speed = std::max(std::max(0.0, r.vx), before * robot_e_);
  ball_vel_ = speed * Vector2d(std::cos(angle), std::sin(angle));
  record_touch(r, time_);
  check_shot(r, time_, before);
}

void Physics::move_ball_ccd(double dt) {
  const double t0 = time_;
  // Half before, half after: exact distance under constant deceleration.
  decelerate(ball_vel_, 0.5 * ball_deceleration(ball_vel_.norm()) * dt);
  const double reach = robot_r_ + ball_r_;
  double elapsed = 0.0;
  for (int hit = 0; elapsed < dt; ++hit) {
    if (hit == kJamHits) {
      ball_vel_.setZero();
      break;
    }
    const double remaining = dt - elapsed;
    const Vector2d v = ball_vel_;
    double best = remaining;
    enum class Kind { none, segment, post, robot } kind = Kind::none;
    std::size_t which = 0;
    Vector2d normal(0, 0);

    const bool near_walls = !ball_clear_of_walls(v.norm() * remaining);
    for (std::size_t k = 0; near_walls && k < segments_.size(); ++k) {
      const Segment& sg = segments_[k];
      const Vector2d rel = ball_pos_ - sg.a;
      const double dist = rel.dot(sg.n);
      const double sgn = (sg.one_sided || dist >= 0.0) ? 1.0 : -1.0;
      const double vn = sgn * v.dot(sg.n);
      if (vn >= 0.0) continue;
      const double t = std::max(0.0, (sgn * dist - ball_r_) / -vn);
      if (t >= best) continue;
      const double u = (rel + v * t).dot(sg.d);
      if (u < 0.0 || u > sg.length) continue;  // a post or a neighbour takes it
      best = t;
      kind = Kind::segment;
      which = k;
      normal = sgn * sg.n;
    }
    for (std::size_t k = 0; near_walls && k < posts_.size(); ++k) {
      const double t = circle_toi(ball_pos_ - posts_[k], v, ball_r_);
      if (t < best) {
        best = t;
        kind = Kind::post;
        which = k;
      }
    }
    for (std::size_t k = 0; k < robots_.size(); ++k) {
      const Robot& r = robots_[k];
      const Vector2d c = r.start + r.step_vel * elapsed;
      const double t = circle_toi(ball_pos_ - c, v - r.step_vel, reach);
      if (t < best) {
        best = t;
        kind = Kind::robot;
        which = k;
      }
    }

    ball_pos_ += v * best;
    elapsed += best;
    if (kind == Kind::none) break;

    if (kind == Kind::segment) {
      const double vn = ball_vel_.dot(normal);
      if (vn < 0.0) {
        if (segments_[which].stops_ball) {
          ball_vel_.setZero();
        } else {
          ball_vel_ -= (1.0 + wall_e_) * vn * normal;
        }
      }
    } else if (kind == Kind::post) {
      const Vector2d d = ball_pos_ - posts_[which];
      const double len = d.norm();
      if (len > 0.0) {
        normal = d / len;
        const double vn = ball_vel_.dot(normal);
        if (vn < 0.0) ball_vel_ -= (1.0 + wall_e_) * vn * normal;
      }
    } else {
      const Robot& r = robots_[which];
      const Vector2d c = r.start + r.step_vel * elapsed;
      const Vector2d d = ball_pos_ - c;
      const double len = d.norm();
      if (len > 0.0) {
        normal = d / len;
        // Reflection in the robot's moving frame. The spin part of the
        // contact-point velocity is tangential to a circle and drops out.
        const double vrn = (ball_vel_ - r.step_vel).dot(normal);
        if (vrn < 0.0) {
          const double before = ball_vel_.norm();
          ball_vel_ -= (1.0 + robot_e_) * vrn * normal;
          record_touch(r, t0 + elapsed);
          check_shot(r, t0 + elapsed, before);
        }
      }
    }
  }
  decelerate(ball_vel_, 0.5 * ball_deceleration(ball_vel_.norm()) * dt);
  const double speed = ball_vel_.norm();
  if (speed > max_ball_speed_) ball_vel_ *= max_ball_speed_ / speed;
}

bool Physics::push_ball_out_of_walls() {
  if (ball_clear_of_walls(0.0)) return false;
  bool contact = false;
  auto resolve = [&](const Vector2d& normal, double pen, bool stops) {
    if (pen >= -kContactSlop) contact = true;
    if (pen <= 0.0) return;
    ball_pos_ += pen * normal;
    const double vn = ball_vel_.dot(normal);
    if (vn < 0.0) {
      if (stops) {
        ball_vel_.setZero();
      } else {
        ball_vel_ -= (1.0 + wall_e_) * vn * normal;
      }
    }
  };
  for (const Segment& sg : segments_) {
    const Vector2d rel = ball_pos_ - sg.a;
    const double u = rel.dot(sg.d);
    if (u < 0.0 || u > sg.length) continue;
    const double dist = rel.dot(sg.n);
    if (sg.one_sided) {
      resolve(sg.n, ball_r_ - dist, sg.stops_ball);
    } else if (std::abs(dist) < ball_r_ + kContactSlop) {
      resolve(dist >= 0.0 ? sg.n : Vector2d(-sg.n), ball_r_ - std::abs(dist), sg.stops_ball);
    }
  }
  for (const Vector2d& q : posts_) {
    const Vector2d d = ball_pos_ - q;
    const double d2 = d.squaredNorm();
    if (d2 >= (ball_r_ + kContactSlop) * (ball_r_ + kContactSlop)) continue;
    const double dist = std::sqrt(d2);
    const Vector2d n = dist > 0.0 ? Vector2d(d / dist) : Vector2d(-q.normalized());
    resolve(n, ball_r_ - dist, false);
  }
  return contact;
}

void Physics::resolve_ball_overlaps(bool record_touches) {
  const double reach = robot_r_ + ball_r_;
  const double reach2 = reach * reach;
  bool robots_moved = false;
  for (int pass = 0; pass < kMaxResolvePasses; ++pass) {
    const bool walled = push_ball_out_of_walls();
    bool any = false;
    for (Robot& r : robots_) {
      const Vector2d d = ball_pos_ - r.pos;
      const double d2 = d.squaredNorm();
      if (d2 >= reach2) continue;
      any = true;
      const double dist = std::sqrt(d2);
      const Vector2d n = dist > 0.0 ? Vector2d(d / dist) : Vector2d(r.cos_t, r.sin_t);
      const double pen = reach - dist;
      // A robot stops along the normal: it first gives back its own approach
      // in this step. The rest moves the ball, unless the ball is pinned
      // (against a wall, or still overlapping after several passes).
      const bool pinned = walled || pass >= kMaxResolvePasses / 2;
      const double back = pinned ? pen : std::min(pen, std::max(0.0, (r.pos - r.start).dot(n)));
      if (back > 0.0) {
        r.pos -= n * back;
        const double un = r.vel.dot(n);
        if (un > 0.0) r.vel -= un * n;
        robots_moved = true;
      }
      if (pen > back) ball_pos_ += n * (pen - back);
      const double vrn = (ball_vel_ - r.vel).dot(n);
      if (vrn < 0.0) ball_vel_ -= (1.0 + robot_e_) * vrn * n;
      if (record_touches) record_touch(r, time_);
    }
    if (!any) break;
  }
  if (robots_moved) {
    // Robots that gave way to a pinned ball may now press on each other; the
    // ball stays put for them.
    for (Robot& r : robots_) push_robot_out_of_walls(r);
    separate_robots(BallRule::always);
    // Last resort, for a jam the solver had to undo (robots back where they
    // started, the ball maybe not): the ball yields, walls first.
    for (int pass = 0; pass < kMaxResolvePasses; ++pass) {
      push_ball_out_of_walls();
      bool moved = false;
      for (const Robot& r : robots_) {
        const Vector2d d = ball_pos_ - r.pos;
        const double d2 = d.squaredNorm();
        if (d2 >= reach2 || d2 == 0.0) continue;
        const double dist = std::sqrt(d2);
        ball_pos_ += d * ((reach - dist) / dist);
        moved = true;
      }
      if (!moved) break;
    }
  }
}

bool Physics::ball_clear_of_walls(double margin) const {
  const double m = ball_r_ + margin + kContactSlop;
  return std::abs(ball_pos_.x()) < clear_x_ - m && std::abs(ball_pos_.y()) < clear_y_ - m;
}

int Physics::ball_in_goal() const {
  const auto& f = league_.field();
  if (std::abs(ball_pos_.y()) >= 0.5 * f.goal_width()) return 0;
  if (ball_pos_.x() > 0.5 * f.length() + ball_r_) return 1;
  if (ball_pos_.x() < -0.5 * f.length() - ball_r_) return -1;
  return 0;
}

int Physics::take_goal_crossing() {
  const int g = goal_latch_;
  goal_latch_ = 0;
  return g;
}

std::vector<RobotKey> Physics::robot_keys() const {
  std::vector<RobotKey> keys;
  keys.reserve(robots_.size());
  for (const Robot& r : robots_) keys.push_back({r.team, r.id});
  return keys;
}

msg::Pose2 Physics::robot_pose(msg::Team team, std::uint32_t id) const {
  const Robot& r = robots_[index_of(team, id)];
  msg::Pose2 p;
  p.set_x(r.pos.x());
  p.set_y(r.pos.y());
  p.set_theta(r.theta);
  return p;
}

Vector2d Physics::robot_velocity(msg::Team team, std::uint32_t id) const {
  return robots_[index_of(team, id)].vel;
}

Vector2d Physics::drive_velocity(msg::Team team, std::uint32_t id) const {
  return world_velocity(robots_[index_of(team, id)]);
}

msg::WorldTruth Physics::truth(std::uint64_t cycle) const {
  msg::WorldTruth t;
  fill_truth(cycle, &t);
  return t;
}

void Physics::fill_truth(std::uint64_t cycle, msg::WorldTruth* out) const {
  out->set_cycle(cycle);
  out->set_t(time_);
  out->mutable_ball_position()->set_x(ball_pos_.x());
  out->mutable_ball_position()->set_y(ball_pos_.y());
  out->mutable_ball_velocity()->set_x(ball_vel_.x());
  out->mutable_ball_velocity()->set_y(ball_vel_.y());
  auto* robots = out->mutable_robots();
  while (robots->size() > static_cast<int>(robots_.size())) robots->RemoveLast();
  for (std::size_t i = 0; i < robots_.size(); ++i) {
    const Robot& r = robots_[i];
    msg::RobotTruth* rt =
        static_cast<int>(i) < robots->size() ? robots->Mutable(static_cast<int>(i)) : robots->Add();
    rt->set_team(r.team);
    rt->set_robot_id(r.id);
    rt->mutable_pose()->set_x(r.pos.x());
    rt->mutable_pose()->set_y(r.pos.y());
    rt->mutable_pose()->set_theta(r.theta);
    rt->mutable_velocity()->set_x(r.vel.x());
    rt->mutable_velocity()->set_y(r.vel.y());
    rt->set_omega(r.omega);
    rt->set_wheel_left(r.wheel_l);
    rt->set_wheel_right(r.wheel_r);
  }
}

msg::Odometry Physics::odometry(msg::Team team, std::uint32_t id) const {
  const Robot& r = robots_[index_of(team, id)];
  msg::Odometry o;
  o.set_t(time_);
  o.mutable_pose()->set_x(r.odo_pos.x());
  o.mutable_pose()->set_y(r.odo_pos.y());
  o.mutable_pose()->set_theta(r.odo_theta);
  o.mutable_wheels()->set_left(r.wheel_l);
  o.mutable_wheels()->set_right(r.wheel_r);
  const double c = std::cos(r.theta), s = std::sin(r.theta);
  auto feel = [&](const Vector2d& towards) {
    auto* b = o.add_bumper();
    b->set_x(c * towards.x() + s * towards.y());
    b->set_y(-s * towards.x() + c * towards.y());
  };
  for (const Robot& other : robots_) {
    if (&other == &r) continue;
    const Vector2d d = other.pos - r.pos;
    const double n = d.norm();
    if (n > 0.0 && n < 2.0 * robot_r_ + kBumperReach) feel(d / n);
  }
  for (int k = 0; k < r.n_wall; ++k) feel(-r.wall_n[k]);
  return o;
}

}  // namespace robocaf::sim
