#include "actors/perception/self_localiser.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include "runtime/angle.hpp"
#include "runtime/contact_cone.hpp"

namespace robocaf::actors {

namespace {

using runtime::wrap_angle;

Eigen::Matrix2d rotation(double theta) { return Eigen::Rotation2Dd(theta).toRotationMatrix(); }

// d/dtheta of rotation(theta).
Eigen::Matrix2d rotation_derivative(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Eigen::Matrix2d r;
  r << -s, -c, c, -s;
  return r;
}

void symmetrize(Eigen::Matrix3d& P) { P = 0.5 * (P + P.transpose()).eval(); }

}  // namespace

SelfLocaliser::SelfLocaliser(const msg::FieldGeometry& field, double noise_per_metre, SelfLocaliserParams params)
    : lines_(field), landmarks_(field, noise_per_metre), noise_per_metre_(noise_per_metre),
      params_(params) {}

double SelfLocaliser::measurement_sd(double distance) const {
  return std::max(params_.min_measurement_sd, noise_per_metre_ * distance);
}

void SelfLocaliser::restart(const Pose& pose, double position_sd, double heading_sd) {
  x_ = pose;
  x_.z() = wrap_angle(x_.z());
  P_ = Eigen::Vector3d(position_sd * position_sd, position_sd * position_sd, heading_sd * heading_sd).asDiagonal();
  rejections_ = 0;
}

void SelfLocaliser::predict(const msg::Pose2& odometry, double t) {
  if (!std::isfinite(odometry.x()) || !std::isfinite(odometry.y()) || !std::isfinite(odometry.theta()) ||
      !std::isfinite(t))
    return;
  if (!started_) {
    started_ = true;
    restart({odometry.x(), odometry.y(), odometry.theta()}, params_.start_position_sd, params_.start_heading_sd);
    last_odometry_ = odometry;
    last_t_ = t;
    return;
  }
  // The change since the last odometry pose, in that pose's frame.
  Eigen::Vector2d moved =
      rotation(last_odometry_.theta()).transpose() *
      Eigen::Vector2d(odometry.x() - last_odometry_.x(), odometry.y() - last_odometry_.y());
  // Uncertainty grows with what the wheels turned, contact or not.
  const double travel = moved.norm();
  // Wedged between contacts the robot does not move at all. Slid along one
  // instead, a robot pushing the ball into a wall of opponents for a minute
  // drifted 1 m with its wheels at the pushing limit, and a landmark restart
  // then put it 5 m off (MSL vs chaser, seed 53: it stood on the ball at the
  // drop ball).
  std::vector<Eigen::Vector2d> touching = contacts_;
  touching.insert(touching.end(), seen_contacts_.begin(), seen_contacts_.end());
  // The nearest motion that points into no contact: taken out of the
  // contacts one after another, a robot pushing forwards with an opponent
  // ahead on its left and the ball ahead on its right slid right and back by
  // a third of what its wheels turned, 0.85 m in 13 s while it stood, and its
  // line fit later walked to the mirror pose 5 m off (MSL vs chaser, seed 67).
  moved = runtime::nearest_free_motion(moved, touching.data(), touching.size());
  const double turned = wrap_angle(odometry.theta() - last_odometry_.theta());
  const double dt = std::max(0.0, t - last_t_);
  last_odometry_ = odometry;
  last_t_ = t;

  const Eigen::Matrix2d R = rotation(x_.z());
  Eigen::Matrix3d F = Eigen::Matrix3d::Identity();
  F.block<2, 1>(0, 2) = rotation_derivative(x_.z()) * moved;
  x_.head<2>() += R * moved;
  x_.z() = wrap_angle(x_.z() + turned);

  // Noise in the robot's frame (along, across, heading), turned into the field's.
  Eigen::Matrix3d Q = Eigen::Matrix3d::Zero();
  Q(0, 0) = params_.along_variance_per_m * travel + params_.push_variance_per_s * dt;
  Q(1, 1) = params_.side_variance_per_m * travel + params_.push_variance_per_s * dt;
  Q(2, 2) = params_.heading_variance_per_m * travel + params_.heading_variance_per_rad * std::abs(turned);
  Eigen::Matrix3d G = Eigen::Matrix3d::Identity();
  G.topLeftCorner<2, 2>() = R;
  P_ = F * P_ * F.transpose() + G * Q * G.transpose();
  symmetrize(P_);
}

void SelfLocaliser::update(const msg::OnboardFrame& frame) {
  matched_ = 0;
  if (!started_) return;
  if (const auto lone = update_landmarks(frame.landmarks())) {
    // Where a single landmark puts the robot is only as good as the heading
    // it was found with; the frame's line points check both. Without lines
    // in view it is believed no farther than odometry runs off.
    int usable = 0, fitting = 0;
    const Eigen::Matrix2d R = rotation(lone->pose.z());
    for (const auto& v : frame.line_points()) {
      const Eigen::Vector2d q(v.x(), v.y());
      if (!q.allFinite()) continue;
      ++usable;
      const Eigen::Vector2d at = lone->pose.head<2>() + R * q;
      if (lines_.nearest(at).distance <= 3.0 * measurement_sd(q.norm()) + params_.lone_line_tolerance) ++fitting;
    }
    const bool lines_agree = usable >= params_.min_line_points && fitting >= params_.lone_line_fraction * usable;
    const bool near = (lone->pose.head<2>() - x_.head<2>()).norm() <= params_.lone_landmark_max_correction;
    if (lines_agree || (near && usable < params_.min_line_points))
      restart(lone->pose, lone->position_sd, lone->heading_sd);
  }
  update_lines(frame.line_points());
}

std::optional<SelfLocaliser::LoneFix> SelfLocaliser::update_landmarks(
    const google::protobuf::RepeatedPtrField<msg::Landmark>& seen) {
  struct Known {
    Eigen::Vector2d seen;   // robot frame
    Eigen::Vector2d field;  // where it is (before a symmetric landmark's choice)
    bool symmetric;
    msg::LandmarkKind kind;
    uint32_t index;
  };
  std::vector<Known> known;
  for (const auto& l : seen) {
    const Eigen::Vector2d q(l.position().x(), l.position().y());
    if (!q.allFinite()) continue;
    if (const auto at = landmarks_.field_position(l.kind(), l.index()))
      known.push_back({q, *at, l.symmetric(), l.kind(), l.index()});
  }
  if (known.empty()) return std::nullopt;
  msg::Pose2 prior;
  prior.set_x(x_.x());
  prior.set_y(x_.y());
  prior.set_theta(x_.z());
  // Two or more that do not fit the field together are a misread: none is used.
  std::optional<msg::Pose2> fix;
  if (known.size() >= 2) {
    fix = landmarks_.locate(seen, &prior);
    if (!fix) return std::nullopt;
  }
  bool rejected = false;
  for (const Known& l : known) {
    const Eigen::Vector2d& q = l.seen;
    Eigen::Vector2d L = l.field;
    if (l.symmetric) {
      // The reading nearer where the prediction puts what was seen.
      const Eigen::Vector2d seen_at = x_.head<2>() + rotation(x_.z()) * q;
      if ((-L - seen_at).norm() < (L - seen_at).norm()) L = -L;
    }
    const Eigen::Matrix2d Rt = rotation(x_.z()).transpose();
    const Eigen::Vector2d offset = L - x_.head<2>();
    const Eigen::Vector2d predicted = Rt * offset;
    Eigen::Matrix<double, 2, 3> H;
    H.leftCols<2>() = -Rt;
    H.col(2) = rotation_derivative(x_.z()).transpose() * offset;
    const double sd = measurement_sd(q.norm());
    const Eigen::Matrix2d S = H * P_ * H.transpose() + sd * sd * Eigen::Matrix2d::Identity();
    const Eigen::Vector2d innovation = q - predicted;
    if (innovation.dot(S.ldlt().solve(innovation)) > params_.landmark_gate_chi2) {
      rejected = true;
      continue;
    }
    const Eigen::Matrix<double, 3, 2> K = P_ * H.transpose() * S.inverse();
    x_ += K * innovation;
    x_.z() = wrap_angle(x_.z());
    P_ = (Eigen::Matrix3d::Identity() - K * H) * P_;
    symmetrize(P_);
  }
  if (!rejected) {
    rejections_ = 0;
    lone_ = {};
    return std::nullopt;
  }
  if (++rejections_ >= params_.reset_after_rejections && fix) {
    restart({fix->x(), fix->y(), fix->theta()}, params_.restart_position_sd, params_.restart_heading_sd);
    return std::nullopt;
  }
  if (known.size() != 1 || known[0].symmetric) return std::nullopt;
  // One landmark that tells which it is, disagreeing frame after frame, each
  // time putting the robot in the same place (at the heading the filter has):
  // odometry ran off (wheels spinning against an opponent), and line points
  // alone cannot bring the estimate back from a metre away. A misread would
  // not keep agreeing with itself.
  const Known& l = known[0];
  const Eigen::Vector2d implied = l.field - rotation(x_.z()) * l.seen;
  const bool same = lone_.frames > 0 && lone_.kind == l.kind && lone_.index == l.index &&
                    (implied - lone_.position).norm() <= params_.lone_landmark_agreement;
  lone_ = {l.kind, l.index, implied, same ? lone_.frames + 1 : 1};
  if (lone_.frames < params_.lone_landmark_frames || !landmarks_.in_arena(implied.x(), implied.y()))
    return std::nullopt;
  lone_ = {};
  // Placed by one landmark, the position is as good as the heading is over
  // the landmark's distance.
  const double heading_sd = std::sqrt(std::max(P_(2, 2), 0.0));
  const double range = l.seen.norm();
  return LoneFix{Pose(implied.x(), implied.y(), x_.z()),
                 std::max(params_.restart_position_sd, std::hypot(measurement_sd(range), range * heading_sd)),
                 std::max(heading_sd, 1e-3)};
}

void SelfLocaliser::update_lines(const google::protobuf::RepeatedPtrField<msg::Vec2>& points) {
  if (points.size() < params_.min_line_points) return;
  const Pose x0 = x_;
  const Eigen::Matrix3d prior_information = (P_ + 1e-12 * Eigen::Matrix3d::Identity()).inverse();
  const double position_sd = std::sqrt(std::max(P_(0, 0), P_(1, 1)));
  const double gate = std::clamp(3.0 * position_sd, params_.min_line_gate, params_.max_line_gate);

  struct Point {
    Eigen::Vector2d q;  // robot frame
    double sd;
  };
  std::vector<Point> matched;
  for (const auto& v : points) {
    const Eigen::Vector2d q(v.x(), v.y());
    if (!q.allFinite()) continue;
    const double sd = measurement_sd(q.norm());
    const Eigen::Vector2d at = x0.head<2>() + rotation(x0.z()) * q;
    const auto [first, second] = lines_.nearest_two(at);
    if (first.distance > gate + 3.0 * sd) continue;
    // Two lines within the gate whose nearest points lie apart: the point
    // may be on either, and the fit would go where the wrong one puts it
    // (MSL: a robot pushed 0.25 m in the centre circle took a point of the
    // halfway line for the circle, and with two more points the fit moved it
    // 0.4 m the wrong way; the next fits kept it 2-3 m off for 30 s).
    const Eigen::Vector2d first_foot = at - first.distance * first.normal;
    const Eigen::Vector2d second_foot = at - second.distance * second.normal;
    if (second.distance <= gate + 3.0 * sd && (first_foot - second_foot).norm() > 3.0 * sd) continue;
    matched.push_back({q, sd});
  }
  if (static_cast<int>(matched.size()) < params_.min_line_points) return;

  Pose x = x0;
  Eigen::Matrix3d information = prior_information;
  for (int iteration = 0; iteration < params_.line_iterations; ++iteration) {
    information = prior_information;
    Eigen::Vector3d gradient = prior_information * Pose(x.x() - x0.x(), x.y() - x0.y(), wrap_angle(x.z() - x0.z()));
    const Eigen::Matrix2d R = rotation(x.z()), dR = rotation_derivative(x.z());
    for (const Point& p : matched) {
      const runtime::NearestLine line = lines_.nearest(x.head<2>() + R * p.q);
      Eigen::RowVector3d J;
      J << line.normal.x(), line.normal.y(), line.normal.dot(dR * p.q);
      const double r = line.distance;
      const double k = params_.huber_sd * p.sd;
      const double w = (r <= k ? 1.0 : k / r) / (p.sd * p.sd);
      information += w * J.transpose() * J;
      gradient += w * J.transpose() * r;
    }
    const Eigen::Vector3d step = information.ldlt().solve(gradient);
    if (!step.allFinite()) return;
    x -= step;
    x.z() = wrap_angle(x.z());
    if (step.head<2>().norm() < 1e-5 && std::abs(step.z()) < 1e-6) break;
  }
  x_ = x;
  P_ = information.inverse();
  symmetrize(P_);
  matched_ = static_cast<int>(matched.size());
}

}  // namespace robocaf::actors
