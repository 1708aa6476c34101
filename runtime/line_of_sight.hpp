#pragma once
// Whether a robot's body hides something from a camera: the one test the
// simulated onboard camera applies to what it reports and the world
// tracker to what it expects to see.

#include <cmath>

namespace robocaf::runtime {

/// The straight line from a camera to a point `(dx, dy)` away from it.
class LineOfSight {
 public:
  LineOfSight(double dx, double dy) : distance_(std::hypot(dx, dy)) {
    if (distance_ > 0.0) {
      ux_ = dx / distance_;
      uy_ = dy / distance_;
    }
  }

  double distance() const { return distance_; }

  /// True when a body centred `(qx, qy)` away from the camera has its centre
  /// strictly between the camera and the point along the line, and within
  /// `radius` of the line.
  bool blocked_by(double qx, double qy, double radius) const {
    const double along = ux_ * qx + uy_ * qy;
    if (along <= 0.0 || along >= distance_) return false;
    return std::abs(ux_ * qy - uy_ * qx) < radius;
  }

 private:
  double distance_;
  double ux_ = 0.0, uy_ = 0.0;
};

}  // namespace robocaf::runtime
