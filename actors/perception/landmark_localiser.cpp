#include "actors/perception/landmark_localiser.hpp"

#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include "runtime/angle.hpp"
#include "runtime/field_landmarks.hpp"

namespace robocaf::actors {

using runtime::kPi;

LandmarkLocaliser::LandmarkLocaliser(const msg::FieldGeometry& field, double noise_per_metre, double tolerance)
    : field_(field), noise_per_metre_(noise_per_metre), tolerance_(tolerance) {}

std::optional<Eigen::Vector2d> LandmarkLocaliser::field_position(msg::LandmarkKind kind, uint32_t index) const {
  const auto landmark = runtime::field_landmark(field_, kind, index);
  if (!landmark) return std::nullopt;
  return Eigen::Vector2d(landmark->x, landmark->y);
}

std::optional<msg::Pose2> LandmarkLocaliser::locate(
    const google::protobuf::RepeatedPtrField<msg::Landmark>& seen, const msg::Pose2* prior) const {
  std::vector<Eigen::Vector2d> in_robot, in_field;
  bool all_symmetric = true;
  for (const auto& landmark : seen) {
    const auto where = runtime::field_landmark(field_, landmark.kind(), landmark.index());
    const Eigen::Vector2d p(landmark.position().x(), landmark.position().y());
    if (!where || !p.allFinite()) continue;
    in_robot.push_back(p);
    in_field.emplace_back(where->x, where->y);
    all_symmetric = all_symmetric && landmark.symmetric();
  }
  const auto n = static_cast<Eigen::Index>(in_robot.size());
  if (n < 2) return std::nullopt;
  // Rigid bodies keep their distances: a pair that does not is a misread.
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j) {
      const double seen_d = (in_robot[i] - in_robot[j]).norm();
      const double true_d = (in_field[i] - in_field[j]).norm();
      const double allowed = tolerance_ + 3.0 * noise_per_metre_ * (in_robot[i].norm() + in_robot[j].norm());
      if (std::abs(seen_d - true_d) > allowed) return std::nullopt;
    }
  // Dynamic in both sizes: with Matrix2Xd GCC 12 warns of a 16-byte load
  // from an 8-byte block inside Eigen's umeyama (-Wstringop-overread).
  Eigen::MatrixXd src(2, n), dst(2, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    src.col(i) = in_robot[i];
    dst.col(i) = in_field[i];
  }
  const Eigen::Matrix3d t = Eigen::umeyama(src, dst, false);
  double x = t(0, 2), y = t(1, 2), theta = std::atan2(t(1, 0), t(0, 0));
  if (all_symmetric && prior &&
      std::abs(runtime::wrap_angle(theta - prior->theta())) > std::abs(runtime::wrap_angle(theta + kPi - prior->theta()))) {
    x = -x;
    y = -y;
    theta = runtime::wrap_angle(theta + kPi);
  }
  if (!std::isfinite(theta) || !in_arena(x, y)) return std::nullopt;
  msg::Pose2 pose;
  pose.set_x(x);
  pose.set_y(y);
  pose.set_theta(theta);
  return pose;
}

bool LandmarkLocaliser::in_arena(double x, double y) const {
  const double margin = std::max(0.0, field_.boundary_width());
  return std::isfinite(x) && std::isfinite(y) && std::abs(x) <= 0.5 * field_.length() + margin &&
         std::abs(y) <= 0.5 * field_.width() + margin;
}

}  // namespace robocaf::actors
