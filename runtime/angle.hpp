#pragma once
// Angles in the field frame: radians, counter-clockwise.

#include <cmath>

namespace robocaf::runtime {

inline constexpr double kPi = 3.14159265358979323846;

/// The same direction as `a`, in (-pi, pi].
inline double wrap_angle(double a) {
  if (a > -kPi && a <= kPi) return a;  // the common case stays off libm
  a = std::remainder(a, 2.0 * kPi);
  return a <= -kPi ? a + 2.0 * kPi : a;
}

}  // namespace robocaf::runtime
