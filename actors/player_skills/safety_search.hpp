#pragma once
// Dynamics Safety Search (DSS) among teammates (Botnia SSL, after Bruce and
// Veloso): a last check between a robot's skills and its motors that the
// acceleration it is about to command cannot make it run into a teammate.
// Plain C++ with Eigen, no CAF; SkillController calls it every cycle.

#include <array>
#include <limits>
#include <vector>

#include <Eigen/Dense>

namespace robocaf::actors {

/// One robot as DSS sees it: field frame, SI units.
struct DssRobot {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  /// What the robot's skills want for the next control period.
  Eigen::Vector2d desired_acceleration = Eigen::Vector2d::Zero();
  double max_acceleration = 0.0;  // m/s^2 the robot can speed up (or steer) with; >= 0
  double max_deceleration = 0.0;  // m/s^2 it brakes with; > 0, or it could never stop
  double radius = 0.0;            // m, bounding circle
  /// m of `radius` that is doubt about where the robot is rather than its
  /// body (0 <= doubt <= radius); see DssParams::overlap_slack.
  double doubt = 0.0;
  /// A robot that can only accelerate along one axis (differential drive: its
  /// heading) gets a unit vector here and is only offered accelerations along
  /// it; zero means any direction (omnidirectional).
  Eigen::Vector2d drive_axis = Eigen::Vector2d::Zero();
  /// rad/s, counter-clockwise: how fast the robot's direction of travel
  /// turns (a differential robot: its angular velocity). 0 is a straight
  /// path. A turning robot turns at this rate through the step and then keeps
  /// the curvature it has at the end of the step while it brakes (see
  /// SafetySearch, "Turning").
  double turn_rate = 0.0;
};

struct DssParams {
  double dt = 0.02;       // s: the control period, during which the chosen acceleration acts
  double margin = 0.01;   // m kept between two robots on top of their radii
  int ring_directions = 16;  // candidate directions (omnidirectional robots)
  int ring_levels = 3;       // candidate magnitudes per direction, up to the limit
  /// safe_acceleration(): teammates hold their velocity for the step before
  /// braking (true) instead of braking at once. Each robot of a team that
  /// decides alone then allows for the step its teammates are about to take
  /// (they decide at the same time), which Botnia's assumption leaves out.
  bool teammates_finish_step = false;
  /// rad: the most a turning robot's direction of travel may change within
  /// one window of the check; fewer windows (at most kMaxPieces per robot)
  /// when the path turns further.
  double max_window_turn = 0.2;
  /// s: more margin for robots in motion, per m/s of the two robots' speeds
  /// (their predicted paths are only as good as the velocities they start
  /// from). 0: `margin` alone.
  double speed_margin = 0.0;
  /// m: a pair that overlaps only by its doubt (DssRobot::doubt), the
  /// bodies still apart by the margin, and passes by (its relative motion
  /// over the horizon at least 60 degrees off the line between the two) may
  /// come this much closer than it is within the check's horizon, never so
  /// close that the bodies come within the margin. 0: it must not come any
  /// closer, as a pair whose bodies overlap. Two robots standing a doubt
  /// apart, one's way to its place passing the other, otherwise stand there
  /// for good: each step of the way brings them a millimetre closer at first.
  double overlap_slack = 0.0;
};

/// What DSS decided for one robot.
struct DssDecision {
  Eigen::Vector2d acceleration = Eigen::Vector2d::Zero();  // field frame, m/s^2
  bool changed = false;   // acceleration differs from the desired one
  bool safe = false;      // it passed the check; false: nothing passed, this is the least bad one
  bool inputs_valid = true;  // false: a non-finite or impossible input; the robot brakes
  /// Smallest distance to a checked teammate over the horizon, minus the
  /// distance the pair must keep (m): negative when unsafe; for teammates too
  /// far to matter, a lower bound; +infinity without teammates.
  double clearance = std::numeric_limits<double>::infinity();
};

/// Coefficients c0..c4 of |P + V t + A t^2|^2 = c4 t^4 + c3 t^3 + c2 t^2 + c1 t + c0:
/// c4 = |A|^2, c3 = 2 A.V, c2 = |V|^2 + 2 A.P, c1 = 2 P.V, c0 = |P|^2.
/// (Botnia's published expansion was wrong, BRIEF 4.5; this is the full one.)
std::array<double, 5> distance_squared_coefficients(const Eigen::Vector2d& P, const Eigen::Vector2d& V,
                                                    const Eigen::Vector2d& A);

/// The smallest |P + V t + A t^2|^2 for t in [0, duration] (duration >= 0):
/// the endpoints and every local minimum inside the window, where the cubic
/// derivative changes sign from - to +. Minima outside the window (where the
/// polynomial no longer describes the motion) are never considered.
double min_distance_squared(const Eigen::Vector2d& P, const Eigen::Vector2d& V, const Eigen::Vector2d& A,
                            double duration);

/// What a differential robot slows down with when it brakes keeping the
/// curvature of its path (m/s^2): its motor scales both wheels alike, so the
/// outer wheel, faster than the robot by |turn_rate| * half_track, reaches
/// the wheels' limit max_deceleration first:
/// max_deceleration * speed / (speed + |turn_rate| * half_track).
/// max_deceleration itself when the robot is not turning (or not moving).
double curvature_keeping_deceleration(double max_deceleration, double turn_rate, double speed, double half_track);

/// Dynamics Safety Search.
///
/// Model. Each robot is a disc moving as a double integrator. Over the next
/// control period [0, dt] it applies a constant acceleration a; after that it
/// brakes at max_deceleration along its velocity until it stops, and stays.
/// The braking tail is what makes the check sufficient: if no pair of
/// (step + brake) trajectories touches, every robot can still stop safely next
/// cycle whatever happens then, so a safe choice (braking on) exists next
/// cycle too. Checking only the step would let robots run into situations
/// they cannot brake out of.
///
/// Check. For two robots the relative motion on any interval where both have
/// constant acceleration is P + V t + A t^2 (A is half the relative
/// acceleration), so their squared distance is a quartic in t. The horizon is
/// split where either robot's acceleration changes: dt (end of the step), and
/// each robot's own stop time, which differ, so the brake phase becomes two
/// sub-segments (both braking, then one braking next to a stopped one). On
/// each window the minimum is found exactly from the cubic derivative,
/// restricted to the window: the closest approach inside a segment is caught
/// (checking segment ends would miss robots passing each other), and a root
/// of the quartic beyond the window (a braking robot's polynomial reversing
/// after it stopped) is no false alarm. A pair collides when the minimum
/// distance drops below r_a + r_b + margin. A pair that already overlaps must
/// only not get any closer than it is (by more than overlap_slack, where only
/// the doubt overlaps), so moving apart (or staying) is safe and moving in is
/// not; when its desired acceleration is replaced, a robot in an
/// overlap gets the closest one that moves the pair apart (or, hemmed in, the
/// closest that keeps the distance).
///
/// Search. The desired acceleration is kept if safe. Otherwise candidates are
/// tried in order of distance to the desired one, and the first safe one wins:
/// full brake, zero, the desired one scaled down, and a ring of directions at
/// several magnitudes up to the limit (max_acceleration where it speeds the
/// robot up, max_deceleration where it slows it down); a differential robot
/// gets magnitudes along its axis only. When nothing is safe (too late to
/// avoid a teammate), the candidate with the largest clearance is returned,
/// marked unsafe (the desired one when none measures better). The desired acceleration is checked at what the robot can
/// do (clamped to its limit), but returned unchanged when safe.
///
/// Turning. A robot with a turn_rate w follows an arc rather than a line:
/// over the step its velocity (v + a t) is rotated by w t (a differential
/// robot's acceleration along its heading turns with it), and while braking
/// it keeps the curvature it has at the end of the step, w / |u| (u the
/// velocity then), so its direction turns by w |u| / (2 max_deceleration)
/// until it stops. That is what a differential robot does when its motor
/// scales both wheels alike. The arc is cut into windows over which the
/// direction turns by at most max_window_turn; on each the velocity changes
/// linearly between its exact values at the window's ends (the chord of the
/// arc; positions chain from window to window), so the acceleration is
/// constant per window and the quartic check above applies unchanged. With
/// turn_rate 0 the plan is the straight one, exactly.
///
/// Invalid input (a non-finite number, max_deceleration <= 0, a negative
/// radius or max_acceleration, a doubt outside [0, radius], dt <= 0, a
/// negative margin or slack) is treated as unsafe: the robot brakes
/// (zero when even its velocity is unknown) and inputs_valid is false. Nothing
/// throws; nothing returns NaN.
class SafetySearch {
 public:
  explicit SafetySearch(DssParams params = {});

  /// Decentralised, what one robot's player skills use: `self` against
  /// teammates assumed to brake fully from now on (their desired accelerations
  /// are ignored), since each robot decides on its own and cannot know what
  /// its teammates will choose. Weaker than search(): two robots that each
  /// count on the other braking may both go on for a step, so the next cycle
  /// can find no safe choice left (the margin absorbs some of that);
  /// DssParams::teammates_finish_step closes that gap at some cost in speed.
  DssDecision safe_acceleration(const DssRobot& self, const std::vector<DssRobot>& teammates) const;

  /// Centralised, all robots of a team in one pass: robots in index order, each
  /// against the accelerations already chosen for the robots before it and
  /// full brake for those after it (whose own turn then checks against this
  /// one's choice), so every pair is checked with both final choices.
  std::vector<DssDecision> search(const std::vector<DssRobot>& robots) const;

  /// The check alone: clearance (m) of `self` applying `acceleration` for dt
  /// and then braking, against `other` doing the same with `other_acceleration`.
  /// Negative means the pair would come closer than allowed. Both robots must
  /// be valid.
  double pair_clearance(const DssRobot& self, const Eigen::Vector2d& acceleration, const DssRobot& other,
                        const Eigen::Vector2d& other_acceleration) const;

  /// Full brake over the step: max_deceleration against the velocity, or just
  /// enough to stop by the end of the step (so a velocity command derived
  /// from it stops rather than reverses).
  Eigen::Vector2d brake_acceleration(const DssRobot& robot) const;

  /// Whether the robot's numbers are finite and physically possible.
  static bool valid(const DssRobot& robot);

  const DssParams& params() const { return params_; }

 private:
  // A robot's trajectory over the horizon: pieces of constant acceleration
  // (a straight robot: the step, then braking; a turning one: windows of its
  // arc), then at rest at `rest`.
  struct Piece {
    double t0, t1;
    Eigen::Vector2d p, v, a;  // state at t0; acceleration over [t0, t1]
  };

 public:
  /// Most pieces in one robot's plan (windows of a turning robot's arc).
  static constexpr int kMaxPieces = 24;

 private:
  struct Plan {
    std::array<Piece, kMaxPieces> pieces;
    int count = 0;
    Eigen::Vector2d rest;
    double reach = 0.0;  // bound on the path length, for a cheap far-apart test
  };

  // The plan of `robot` applying `acceleration` for the step, into `out`
  // (plans are large: filled in place rather than returned).
  void plan(const DssRobot& robot, const Eigen::Vector2d& acceleration, Plan& out) const;
  void turning_plan(const DssRobot& robot, const Eigen::Vector2d& acceleration, Plan& out) const;
  // What the pair keeps on top of its radii.
  double pair_margin(const DssRobot& a, const DssRobot& b) const;
  // Clearance of two plans; with `separate`, a pair that already overlaps
  // must also end up further apart than it starts. Exact when below both
  // `cap` and `stop_below`; otherwise only known to be >= cap, or < stop_below
  // (the caller needs no more).
  double plan_clearance(const DssRobot& a, const Plan& pa, const DssRobot& b, const Plan& pb, bool separate,
                        double stop_below, double cap) const;
  // What the robot can actually do of `acceleration`: clamped to its limit.
  Eigen::Vector2d feasible(const DssRobot& robot, const Eigen::Vector2d& acceleration) const;
  std::vector<Eigen::Vector2d> candidates(const DssRobot& robot) const;
  // Chooses for `self` against `others` each doing its given acceleration.
  DssDecision decide(const DssRobot& self, const std::vector<const DssRobot*>& others,
                     const std::vector<Eigen::Vector2d>& other_accelerations) const;
  DssDecision brake_decision(const DssRobot& self) const;

  DssParams params_;
  bool params_valid_;
};

}  // namespace robocaf::actors
