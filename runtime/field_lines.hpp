#pragma once
// The white lines of a field as geometry: what an onboard camera's line
// points are matched against in self-localisation, and what the simulated
// camera's scan rays cross. One table for both, as field_landmarks is for
// landmarks.

#include <array>
#include <vector>

#include <Eigen/Core>

#include "messages/config.pb.h"

namespace robocaf::runtime {

struct LineSegment {
  Eigen::Vector2d a, b;  ///< field frame, m
};

struct LineCircle {
  Eigen::Vector2d centre;
  double radius = 0.0;
};

/// The nearest line to a point: signed distance along `normal` (the unit
/// vector from the line's nearest point towards the point) is `distance`.
struct NearestLine {
  double distance = 0.0;        ///< m, >= 0
  Eigen::Vector2d normal;       ///< unit; arbitrary when distance is 0
};

/// The lines of one field: touch lines, goal lines, the halfway line, the
/// centre circle and the goal areas' lines (when the field has goal areas).
class FieldLines {
 public:
  explicit FieldLines(const msg::FieldGeometry& field);

  /// The line nearest to `p` (field frame).
  NearestLine nearest(const Eigen::Vector2d& p) const;

  /// The nearest line and the nearest other one (each segment and the
  /// circle count as one line; infinite distance when there is none). A
  /// point matched to a line while another lies almost as near, with its
  /// nearest point somewhere else, may belong to either.
  std::array<NearestLine, 2> nearest_two(const Eigen::Vector2d& p) const;

  /// Where the ray from `origin` along the unit vector `direction` crosses a
  /// line, nearest first, up to `range` metres away: the distances along the
  /// ray.
  std::vector<double> crossings(const Eigen::Vector2d& origin, const Eigen::Vector2d& direction,
                                double range) const;

 private:
  std::vector<LineSegment> segments_;
  std::vector<LineCircle> circles_;
};

}  // namespace robocaf::runtime
