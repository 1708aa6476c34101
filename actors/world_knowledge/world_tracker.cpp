#include "actors/world_knowledge/world_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using runtime::kPi;
using runtime::wrap_angle;

msg::Team opponent_of(msg::Team team) {
  return team == msg::BLUE ? msg::YELLOW : team == msg::YELLOW ? msg::BLUE : msg::TEAM_UNSPECIFIED;
}

// Egocentric (x forward, y left) back to the field frame.
Eigen::Vector2d to_field(const msg::Pose2& ref, const msg::Vec2& ego) {
  const double c = std::cos(ref.theta()), s = std::sin(ref.theta());
  return {ref.x() + c * ego.x() - s * ego.y(), ref.y() + s * ego.x() + c * ego.y()};
}

template <int N>
void symmetrize(Eigen::Matrix<double, N, N>& P) {
  P = 0.5 * (P + P.transpose()).eval();
}

}  // namespace

// --- robots: one (position, velocity) filter per coordinate -----------------

namespace {

struct AxisOps {
  static void init(Eigen::Vector2d& x, Eigen::Matrix2d& P, double pos, double pos_var, double vel_var) {
    x << pos, 0.0;
    P << pos_var, 0.0, 0.0, vel_var;
  }
  static void predict(Eigen::Vector2d& x, Eigen::Matrix2d& P, double dt, double accel_sd) {
    Eigen::Matrix2d F;
    F << 1.0, dt, 0.0, 1.0;
    const double q = accel_sd * accel_sd;
    Eigen::Matrix2d Q;
    Q << dt * dt * dt * dt / 4.0, dt * dt * dt / 2.0, dt * dt * dt / 2.0, dt * dt;
    x = F * x;
    P = F * P * F.transpose() + q * Q;
    symmetrize<2>(P);
  }
  // The residual comes from the caller so that angles can be wrapped first.
  static void update(Eigen::Vector2d& x, Eigen::Matrix2d& P, double residual, double meas_var) {
    const double S = P(0, 0) + meas_var;
    const Eigen::Vector2d K = P.col(0) / S;
    x += K * residual;
    Eigen::Matrix2d IKH = Eigen::Matrix2d::Identity();
    IKH.col(0) -= K;
    P = IKH * P * IKH.transpose() + meas_var * K * K.transpose();  // Joseph form stays PSD
    symmetrize<2>(P);
  }
};

}  // namespace

WorldTracker::WorldTracker(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league, TrackerParams params)
    : team_(team),
      opponent_(opponent_of(team)),
      robot_id_(robot_id),
      ball_deceleration_(std::max(0.0, league.ball().rolling_deceleration())),
      params_(params) {}

void WorldTracker::predict_robot(RobotTrack& tr, double t) const {
  const double dt = t - tr.t;
  if (dt <= 0.0) return;
  AxisOps::predict(tr.ax.x, tr.ax.P, dt, params_.robot_accel_sd);
  AxisOps::predict(tr.ay.x, tr.ay.P, dt, params_.robot_accel_sd);
  AxisOps::predict(tr.ath.x, tr.ath.P, dt, params_.robot_angular_accel_sd);
  tr.ath.x(0) = wrap_angle(tr.ath.x(0));
  tr.t = t;
}

void WorldTracker::observe_robot(RobotTrack& tr, bool& exists, const msg::Pose2& pose, double t) const {
  const double rp = params_.robot_position_sd * params_.robot_position_sd;
  const double ro = params_.robot_orientation_sd * params_.robot_orientation_sd;
  if (!exists) {
    AxisOps::init(tr.ax.x, tr.ax.P, pose.x(), rp, 1.0);
    AxisOps::init(tr.ay.x, tr.ay.P, pose.y(), rp, 1.0);
    AxisOps::init(tr.ath.x, tr.ath.P, wrap_angle(pose.theta()), ro, 25.0);
    tr.t = t;
    tr.t_observed = t;
    exists = true;
    return;
  }
  predict_robot(tr, t);  // an out-of-order measurement is applied without prediction
  AxisOps::update(tr.ax.x, tr.ax.P, pose.x() - tr.ax.x(0), rp);
  AxisOps::update(tr.ay.x, tr.ay.P, pose.y() - tr.ay.x(0), rp);
  AxisOps::update(tr.ath.x, tr.ath.P, wrap_angle(pose.theta() - tr.ath.x(0)), ro);
  tr.ath.x(0) = wrap_angle(tr.ath.x(0));
  tr.t_observed = std::max(tr.t_observed, t);
}

// --- ball --------------------------------------------------------------------

void WorldTracker::predict_ball(BallTrack& b, double t) const {
  const double dt = t - b.t;
  if (dt <= 0.0) return;
  Eigen::Vector2d p = b.x.head<2>();
  Eigen::Vector2d v = b.x.tail<2>();
  const double speed = v.norm();
  if (speed > 1e-9 && ball_deceleration_ > 0.0) {
    // Constant rolling deceleration until the ball stops, never beyond.
    const double t_stop = speed / ball_deceleration_;
    const double tau = std::min(dt, t_stop);
    const Eigen::Vector2d dir = v / speed;
    p += v * tau - 0.5 * ball_deceleration_ * tau * tau * dir;
    v = tau >= t_stop ? Eigen::Vector2d::Zero() : Eigen::Vector2d(dir * (speed - ball_deceleration_ * tau));
  } else {
    p += v * dt;
  }
  // Covariance with the constant-velocity Jacobian: slightly pessimistic, and it
  // keeps a stopped ball's velocity uncertain enough to follow a kick.
  Eigen::Matrix4d F = Eigen::Matrix4d::Identity();
  F(0, 2) = F(1, 3) = dt;
  const double accel_sd = b.maneuvering ? params_.ball_maneuver_accel_sd : params_.ball_accel_sd;
  const double q = accel_sd * accel_sd;
  Eigen::Matrix4d Q = Eigen::Matrix4d::Zero();
  Q(0, 0) = Q(1, 1) = q * dt * dt * dt * dt / 4.0;
  Q(0, 2) = Q(2, 0) = Q(1, 3) = Q(3, 1) = q * dt * dt * dt / 2.0;
  Q(2, 2) = Q(3, 3) = q * dt * dt;
  b.P = F * b.P * F.transpose() + Q;
  symmetrize<4>(b.P);
  b.x << p, v;
  b.t = t;
}

void WorldTracker::observe_ball(const msg::Percept& percept, const msg::Pose2& ref) {
  if (percept.balls_size() == 0) return;
  const double t = percept.t_capture();
  const double r = params_.ball_measurement_sd * params_.ball_measurement_sd;
  const double v0 = params_.ball_initial_velocity_sd * params_.ball_initial_velocity_sd;

  auto init_at = [&](const Eigen::Vector2d& z) {
    ball_.valid = true;
    ball_.x << z, 0.0, 0.0;
    ball_.P = Eigen::Vector4d(r, r, v0, v0).asDiagonal();
    ball_.t = std::max(ball_.t, t);
    ball_.t_observed = std::max(ball_.t_observed, t);
    ball_.rejections = 0;
    ball_.maneuvering = true;
  };

  if (!ball_.valid) {
    // Nothing to gate against yet: start on the most confident candidate.
    int best = 0;
    for (int i = 1; i < percept.balls_size(); ++i)
      if (percept.balls(i).confidence() > percept.balls(best).confidence()) best = i;
    init_at(to_field(ref, percept.balls(best).position()));
    return;
  }

  predict_ball(ball_, t);
  const Eigen::Matrix2d S = ball_.P.topLeftCorner<2, 2>() + r * Eigen::Matrix2d::Identity();
  const Eigen::Matrix2d S_inv = S.inverse();
  double best_d2 = std::numeric_limits<double>::infinity();
  Eigen::Vector2d best_z = Eigen::Vector2d::Zero();
  for (const auto& b : percept.balls()) {
    const Eigen::Vector2d z = to_field(ref, b.position());
    const Eigen::Vector2d y = z - ball_.x.head<2>();
    const double d2 = y.dot(S_inv * y);
    if (d2 < best_d2) {
      best_d2 = d2;
      best_z = z;
    }
  }
  const Eigen::Vector2d y = best_z - ball_.x.head<2>();
  if (best_d2 > params_.ball_gate_chi2 && y.norm() > params_.ball_gate_min_distance) {
    // A kick or bounce the model cannot follow looks like an outlier; if it
    // persists, it is the ball.
    if (++ball_.rejections >= params_.ball_reset_after_rejections) init_at(best_z);
    return;
  }
  Eigen::Matrix<double, 4, 2> K = ball_.P.leftCols<2>() * S_inv;
  ball_.x += K * y;
  Eigen::Matrix4d IKH = Eigen::Matrix4d::Identity();
  IKH.leftCols<2>() -= K;
  ball_.P = IKH * ball_.P * IKH.transpose() + r * K * K.transpose();
  symmetrize<4>(ball_.P);
  ball_.t_observed = std::max(ball_.t_observed, t);
  ball_.rejections = 0;
  ball_.maneuvering = best_d2 > params_.ball_maneuver_chi2;
}

// --- percepts ------------------------------------------------------------------

namespace {

bool finite_pose(const msg::Pose2& p) { return std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.theta()); }
bool finite_vec(const msg::Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

// One NaN would poison a filter for good; a message carrying one is dropped whole.
bool finite_percept(const msg::Percept& p) {
  if (!std::isfinite(p.t_capture()) || !finite_pose(p.self_pose())) return false;
  for (const auto* list : {&p.balls(), &p.teammates(), &p.opponents()})
    for (const auto& o : *list)
      if (!finite_vec(o.position()) || !std::isfinite(o.orientation())) return false;
  return true;
}

bool finite_robot(const msg::RobotEstimate& e) {
  if (!finite_pose(e.pose()) || !finite_vec(e.velocity()) || !std::isfinite(e.omega()) || !std::isfinite(e.t_observed()))
    return false;
  for (double c : e.covariance())
    if (!std::isfinite(c)) return false;
  return true;
}

bool finite_estimate(const msg::WorldEstimate& w) {
  if (!std::isfinite(w.t())) return false;
  const auto& b = w.ball();
  if (!finite_vec(b.position()) || !finite_vec(b.velocity()) || !std::isfinite(b.t_observed())) return false;
  for (double c : b.covariance())
    if (!std::isfinite(c)) return false;
  if (w.has_self() && !finite_robot(w.self())) return false;
  for (const auto* list : {&w.teammates(), &w.opponents()})
    for (const auto& e : *list)
      if (!finite_robot(e)) return false;
  return true;
}

}  // namespace

void WorldTracker::observe(const msg::Percept& percept) {
  if (percept.robot_id() != robot_id_ || (percept.team() != team_ && percept.team() != msg::TEAM_UNSPECIFIED))
    return;  // someone else's view: fuse() is the way for teammates' information
  if (!finite_percept(percept)) return;
  const double t = percept.t_capture();

  // Odometry drifts but is the only self pose an onboard robot has before it
  // localises; it is taken as a measurement like a sighting.
  if (percept.self_seen() || percept.self_dead_reckoned()) observe_robot(self_, has_self_, percept.self_pose(), t);

  msg::Pose2 ref;
  if (percept.self_seen() || percept.has_self_pose()) {
    ref = percept.self_pose();
  } else if (has_self_) {
    RobotTrack s = self_;
    predict_robot(s, t);
    ref.set_x(s.ax.x(0));
    ref.set_y(s.ay.x(0));
    ref.set_theta(s.ath.x(0));
  } else {
    return;  // egocentric objects without any reference pose cannot be placed
  }

  auto place = [&](const msg::PerceivedObject& o) {
    const Eigen::Vector2d p = to_field(ref, o.position());
    msg::Pose2 pose;
    pose.set_x(p.x());
    pose.set_y(p.y());
    pose.set_theta(wrap_angle(ref.theta() + o.orientation()));
    return pose;
  };
  for (const auto& o : percept.teammates()) {
    if (o.robot_id() == robot_id_) continue;
    bool exists = teammates_.count(o.robot_id()) > 0;
    observe_robot(teammates_[o.robot_id()], exists, place(o), t);
  }
  for (const auto& o : percept.opponents()) {
    bool exists = opponents_.count(o.robot_id()) > 0;
    observe_robot(opponents_[o.robot_id()], exists, place(o), t);
  }
  observe_ball(percept, ref);
}

// --- teammates' estimates --------------------------------------------------------

namespace {

Eigen::Matrix4d ball_covariance(const msg::BallEstimate& b) {
  if (b.covariance_size() == 16) {
    Eigen::Matrix4d P;
    for (int i = 0; i < 16; ++i) P(i / 4, i % 4) = b.covariance(i);
    return P;
  }
  return Eigen::Vector4d(0.05 * 0.05, 0.05 * 0.05, 1.0, 1.0).asDiagonal();
}

}  // namespace

bool WorldTracker::should_adopt(const RobotTrack* ours, const msg::RobotEstimate& e, double t_now) const {
  // Only fresher news replaces a stale track: this also stops our own old
  // information from echoing back to us through a teammate.
  if (!ours) return true;
  return t_now - ours->t_observed > params_.robot_stale_after && e.t_observed() > ours->t_observed;
}

WorldTracker::RobotTrack WorldTracker::track_from(const msg::RobotEstimate& e, double t_now) const {
  RobotTrack tr;
  const bool full = e.covariance_size() == 9;
  const double rp = params_.robot_position_sd * params_.robot_position_sd;
  const double ro = params_.robot_orientation_sd * params_.robot_orientation_sd;
  AxisOps::init(tr.ax.x, tr.ax.P, e.pose().x(), full ? e.covariance(0) : rp, 0.25);
  AxisOps::init(tr.ay.x, tr.ay.P, e.pose().y(), full ? e.covariance(4) : rp, 0.25);
  AxisOps::init(tr.ath.x, tr.ath.P, wrap_angle(e.pose().theta()), full ? e.covariance(8) : ro, 4.0);
  tr.ax.x(1) = e.velocity().x();
  tr.ay.x(1) = e.velocity().y();
  tr.ath.x(1) = e.omega();
  tr.t = t_now;
  tr.t_observed = e.t_observed();
  return tr;
}

void WorldTracker::adopt_robot(std::map<uint32_t, RobotTrack>& tracks, const msg::RobotEstimate& e, double t_now) {
  auto it = tracks.find(e.robot_id());
  if (should_adopt(it == tracks.end() ? nullptr : &it->second, e, t_now)) tracks[e.robot_id()] = track_from(e, t_now);
}

void WorldTracker::fuse(const msg::WorldEstimate& from) {
  if (from.team() != team_ || from.robot_id() == robot_id_ || !finite_estimate(from)) return;
  const double tb = from.t();

  const msg::BallEstimate& fb = from.ball();
  if (fb.valid()) {
    BallTrack theirs;
    theirs.valid = true;
    theirs.x << fb.position().x(), fb.position().y(), fb.velocity().x(), fb.velocity().y();
    theirs.P = ball_covariance(fb);
    theirs.t = tb;
    theirs.t_observed = fb.t_observed();
    if (!ball_.valid) {
      ball_ = theirs;
    } else {
      const double tf = std::max(ball_.t, tb);
      predict_ball(theirs, tf);
      BallTrack ours = ball_;
      predict_ball(ours, tf);
      const bool stale = tf - ours.t_observed > params_.ball_stale_after;
      const double tr_ours = ours.P.topLeftCorner<2, 2>().trace();
      const double tr_theirs = theirs.P.topLeftCorner<2, 2>().trace();
      if (stale && theirs.t_observed > ours.t_observed) {
        ball_ = theirs;
      } else if (tr_ours > params_.ball_fuse_trace_ratio * tr_theirs) {
        // Covariance intersection: we may already hold some of their
        // information, so plain Kalman fusion would be over-confident.
        const Eigen::Matrix4d Ia = ours.P.inverse(), Ib = theirs.P.inverse();
        double best_trace = std::numeric_limits<double>::infinity();
        Eigen::Matrix4d best_P = ours.P;
        Eigen::Vector4d best_x = ours.x;
        for (int k = 1; k < 20; ++k) {
          const double w = 0.05 * k;
          const Eigen::Matrix4d P = (w * Ia + (1.0 - w) * Ib).inverse();
          if (P.trace() < best_trace) {
            best_trace = P.trace();
            best_P = P;
            best_x = P * (w * Ia * ours.x + (1.0 - w) * Ib * theirs.x);
          }
        }
        ours.x = best_x;
        ours.P = best_P;
        symmetrize<4>(ours.P);
        ours.t_observed = std::max(ours.t_observed, theirs.t_observed);
        ours.rejections = 0;
        ball_ = ours;
      }
    }
  }

  const double t_now = std::max(tb, latest_time());
  if (from.has_self()) adopt_robot(teammates_, from.self(), t_now);
  for (const auto& e : from.teammates()) {
    if (e.robot_id() != robot_id_) {
      adopt_robot(teammates_, e, t_now);
    } else if (should_adopt(has_self_ ? &self_ : nullptr, e, t_now)) {
      // Their view of us helps only when we have lost ourselves.
      self_ = track_from(e, t_now);
      has_self_ = true;
    }
  }
  for (const auto& e : from.opponents()) adopt_robot(opponents_, e, t_now);
}

double WorldTracker::latest_time() const {
  double t = ball_.valid ? ball_.t : 0.0;
  if (has_self_) t = std::max(t, self_.t);
  for (const auto& [id, tr] : teammates_) t = std::max(t, tr.t);
  for (const auto& [id, tr] : opponents_) t = std::max(t, tr.t);
  return t;
}

// --- output ------------------------------------------------------------------------

void WorldTracker::fill_robot(const RobotTrack& track, msg::Team team, uint32_t id, double t,
                              msg::RobotEstimate* out) const {
  RobotTrack tr = track;
  predict_robot(tr, t);
  out->set_team(team);
  out->set_robot_id(id);
  out->mutable_pose()->set_x(tr.ax.x(0));
  out->mutable_pose()->set_y(tr.ay.x(0));
  out->mutable_pose()->set_theta(wrap_angle(tr.ath.x(0)));
  out->mutable_velocity()->set_x(tr.ax.x(1));
  out->mutable_velocity()->set_y(tr.ay.x(1));
  out->set_omega(tr.ath.x(1));
  const double diag[3] = {tr.ax.P(0, 0), tr.ay.P(0, 0), tr.ath.P(0, 0)};
  for (int i = 0; i < 9; ++i) out->add_covariance(i % 4 == 0 ? diag[i / 4] : 0.0);
  out->set_t_observed(tr.t_observed);
}

msg::WorldEstimate WorldTracker::estimate(uint64_t cycle, double t) const {
  msg::WorldEstimate w;
  w.set_cycle(cycle);
  w.set_t(t);
  w.set_team(team_);
  w.set_robot_id(robot_id_);

  if (ball_.valid && t - ball_.t_observed <= params_.ball_lost_after) {
    BallTrack b = ball_;
    predict_ball(b, t);
    auto* out = w.mutable_ball();
    out->mutable_position()->set_x(b.x(0));
    out->mutable_position()->set_y(b.x(1));
    out->mutable_velocity()->set_x(b.x(2));
    out->mutable_velocity()->set_y(b.x(3));
    for (int i = 0; i < 16; ++i) out->add_covariance(b.P(i / 4, i % 4));
    out->set_t_observed(b.t_observed);
    out->set_valid(true);
  }
  if (has_self_) fill_robot(self_, team_, robot_id_, t, w.mutable_self());
  for (const auto& [id, tr] : teammates_)
    if (t - tr.t_observed <= params_.robot_lost_after) fill_robot(tr, team_, id, t, w.add_teammates());
  for (const auto& [id, tr] : opponents_)
    if (t - tr.t_observed <= params_.robot_lost_after) fill_robot(tr, opponent_, id, t, w.add_opponents());
  return w;
}

}  // namespace robocaf::actors
