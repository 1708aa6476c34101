#pragma once
// Small builders and statistics shared by the simulator's tests.

#include <cmath>
#include <vector>

#include "messages/commands.pb.h"
#include "messages/geometry.pb.h"

namespace robocaf::sim::testing {

inline msg::Pose2 pose(double x, double y, double th = 0.0) {
  msg::Pose2 p;
  p.set_x(x);
  p.set_y(y);
  p.set_theta(th);
  return p;
}

inline msg::RobotCommand wheels(double l, double r) {
  msg::RobotCommand c;
  c.mutable_wheels()->set_left(l);
  c.mutable_wheels()->set_right(r);
  return c;
}

inline double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

/// Sample standard deviation (n - 1).
inline double sample_sd(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

}  // namespace robocaf::sim::testing
