#include "actors/player_skills/bang_bang.hpp"

#include <algorithm>
#include <cmath>

namespace robocaf::actors {

namespace {

constexpr double kTiny = 1e-9;
// Bisection steps for the split of the limits between the axes: the split
// angle ends within (pi/2) / 2^20 of where both axes take the same time.
constexpr int kSplitSteps = 20;

MotionLimits scaled(const MotionLimits& limits, double k) {
  return {limits.max_speed * k, limits.speed_up * k, limits.slow_down * k};
}

}  // namespace

BangBang1D::BangBang1D(double s0, double v0, double s1, const MotionLimits& limits)
    : s_(s0), v_(v0), target_(s1) {
  const double up = std::max(limits.speed_up, kTiny), down = std::max(limits.slow_down, kTiny);
  const double top = std::max(limits.max_speed, 0.0);
  const double d = s1 - s0;
  const double stop = v0 * std::abs(v0) / (2.0 * down);  // signed way to rest
  if (std::abs(v0) > kTiny && (v0 * d < 0.0 || std::abs(stop) > std::abs(d))) {
    // Moving away, or unable to stop short of it: to rest first.
    add(std::abs(v0) / down, v0 > 0.0 ? -down : down);
  } else if (std::abs(v0) > top) {
    add((std::abs(v0) - top) / down, v0 > 0.0 ? -down : down);
  }
  const double rest = target_ - s_;
  if (std::abs(rest) < kTiny && std::abs(v_) < kTiny) return;
  const double dir = rest > 0.0 ? 1.0 : -1.0;
  const double u = std::max(0.0, v_ * dir);  // speed towards the target
  const double D = std::abs(rest);
  // Highest speed from which it still stops at the target, speeding up
  // from u: (p^2 - u^2) / 2up + p^2 / 2down = D.
  const double peak = std::sqrt((D + u * u / (2.0 * up)) / (1.0 / (2.0 * up) + 1.0 / (2.0 * down)));
  if (peak <= top) {
    add((peak - u) / up, dir * up);
    add(peak / down, -dir * down);
  } else {
    add((top - u) / up, dir * up);
    const double cruise = D - (top * top - u * u) / (2.0 * up) - top * top / (2.0 * down);
    add(top > kTiny ? std::max(0.0, cruise) / top : 0.0, 0.0);
    add(top / down, -dir * down);
  }
}

void BangBang1D::add(double seconds, double a) {
  seconds = std::max(0.0, seconds);
  if (count_ >= static_cast<int>(phases_.size()) || seconds <= 0.0) return;
  phases_[count_++] = {t_, t_ + seconds, s_, v_, a};
  s_ += v_ * seconds + 0.5 * a * seconds * seconds;
  v_ += a * seconds;
  t_ += seconds;
}

double BangBang1D::position(double t) const {
  for (int k = 0; k < count_; ++k) {
    const Phase& p = phases_[k];
    if (t < p.t1) {
      const double dt = std::max(0.0, t - p.t0);
      return p.s + p.v * dt + 0.5 * p.a * dt * dt;
    }
  }
  return target_;
}

double BangBang1D::velocity(double t) const {
  for (int k = 0; k < count_; ++k) {
    const Phase& p = phases_[k];
    if (t < p.t1) return p.v + p.a * std::max(0.0, t - p.t0);
  }
  return 0.0;
}

BangBang2D::BangBang2D(const Eigen::Vector2d& p0, const Eigen::Vector2d& v0, const Eigen::Vector2d& p1,
                       const MotionLimits& limits) {
  auto plan = [&](double alpha) {
    x_ = BangBang1D(p0.x(), v0.x(), p1.x(), scaled(limits, std::cos(alpha)));
    y_ = BangBang1D(p0.y(), v0.y(), p1.y(), scaled(limits, std::sin(alpha)));
  };
  // x's time grows with alpha and y's falls: bisect for where they meet.
  double lo = 0.0, hi = 0.5 * M_PI;
  for (int k = 0; k < kSplitSteps; ++k) {
    const double mid = 0.5 * (lo + hi);
    plan(mid);
    if (x_.duration() < y_.duration()) lo = mid;
    else hi = mid;
  }
  plan(0.5 * (lo + hi));
}

double BangBang2D::duration() const { return std::max(x_.duration(), y_.duration()); }

Eigen::Vector2d BangBang2D::position(double t) const { return {x_.position(t), y_.position(t)}; }

Eigen::Vector2d BangBang2D::velocity(double t) const { return {x_.velocity(t), y_.velocity(t)}; }

}  // namespace robocaf::actors
