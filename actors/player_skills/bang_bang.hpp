#pragma once
// Time-optimal motion to rest at a point under a speed limit and
// acceleration limits ("bang-bang": every phase at a limit), replanned from
// the robot's present state each control cycle. Plain C++ with Eigen, no
// CAF. The two-axis form splits the limits between x and y so that both
// axes arrive together, the split SSL teams use for omnidirectional robots
// (TIGERs Mannheim's BangBangTrajectory2D): a robot already moving across
// the way to its target brakes that motion at once instead of steering its
// velocity at the target and sliding on by its braking distance.

#include <array>

#include <Eigen/Core>

namespace robocaf::actors {

/// Limits of a move: top speed (m/s), and the accelerations (m/s^2) it
/// speeds up with and slows down with; all positive.
struct MotionLimits {
  double max_speed = 1.0;
  double speed_up = 1.0;
  double slow_down = 1.0;
};

/// One axis: from position `s0` at velocity `v0` to rest at `s1` in the
/// least time, speeding up at no more than limits.speed_up, slowing down at
/// no more than limits.slow_down, and at no more than limits.max_speed (a
/// start above it slows down to it first). At most four phases of constant
/// acceleration: brake to rest if it cannot stop short of `s1` or moves
/// away from it; otherwise speed up (or slow down to the top speed), cruise,
/// brake.
class BangBang1D {
 public:
  BangBang1D() = default;
  BangBang1D(double s0, double v0, double s1, const MotionLimits& limits);

  /// Seconds until rest at the target.
  double duration() const { return t_; }
  /// Position and velocity `t` s from the start; at the target, at rest,
  /// from duration() on.
  double position(double t) const;
  double velocity(double t) const;

 private:
  struct Phase {
    double t0 = 0.0, t1 = 0.0;       // s from the start
    double s = 0.0, v = 0.0, a = 0.0;  // state at t0, constant acceleration
  };
  void add(double seconds, double a);

  std::array<Phase, 4> phases_{};
  int count_ = 0;
  double t_ = 0.0, s_ = 0.0, v_ = 0.0;  // end of the phases so far
  double target_ = 0.0;
};

/// Two axes, x and y in the field frame: each a BangBang1D with the limits
/// scaled by cos(alpha) for x and sin(alpha) for y, alpha found by
/// bisection so that both arrive at once (or, where one axis has nothing to
/// do, so that the other has nearly all of the limits). From rest the
/// whole speed then stays within the top speed, and the whole acceleration
/// within the larger of the two limits; an axis starting faster than its
/// share slows to it while the other speeds up, so a moving start may
/// exceed the top speed for a while.
class BangBang2D {
 public:
  BangBang2D(const Eigen::Vector2d& p0, const Eigen::Vector2d& v0, const Eigen::Vector2d& p1,
             const MotionLimits& limits);

  double duration() const;
  Eigen::Vector2d position(double t) const;
  Eigen::Vector2d velocity(double t) const;

 private:
  BangBang1D x_, y_;
};

}  // namespace robocaf::actors
