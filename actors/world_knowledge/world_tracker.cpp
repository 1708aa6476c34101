#include "actors/world_knowledge/world_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/LU>

#include "runtime/angle.hpp"
#include "runtime/line_of_sight.hpp"

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

// A detection's own standard deviation when it carries one, else the default.
double measurement_sd(const msg::PerceivedObject& o, double default_sd, double floor) {
  return o.position_sd() > 0.0 ? std::max(o.position_sd(), floor) : default_sd;
}

template <int N>
void symmetrize(Eigen::Matrix<double, N, N>& P) {
  P = 0.5 * (P + P.transpose()).eval();
}

}  // namespace

WorldTracker::WorldTracker(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league, TrackerParams params)
    : team_(team),
      opponent_(opponent_of(team)),
      robot_id_(robot_id),
      ball_deceleration_(std::max(0.0, league.ball().rolling_deceleration())),
      params_(params),
      robot_model_(league.robot().drive() == msg::DRIVE_OMNI ? RobotMotionModel::kHolonomic
                                                               : RobotMotionModel::kUnicycle),
      robot_radius_(std::max(0.0, league.robot().radius())) {
  robot_ekf_params_.accel_noise_density = params_.robot_accel_noise_density;
  robot_ekf_params_.angular_accel_noise_density = params_.robot_angular_accel_noise_density;
  robot_ekf_params_.lateral_diffusion = params_.robot_lateral_diffusion;
  robot_ekf_params_.lost_position_sd = params_.robot_lost_position_sd;
  robot_ekf_params_.max_speed = params_.robot_limit_factor * std::max(0.0, league.robot().max_speed());
  robot_ekf_params_.max_omega = params_.robot_limit_factor * std::max(0.0, league.robot().max_omega());
}

// --- robots: one EKF each -----------------------------------------------------

RobotEkf::PoseCovariance WorldTracker::pose_covariance(double position_sd) const {
  const double rp = position_sd * position_sd;
  const double ro = params_.robot_orientation_sd * params_.robot_orientation_sd;
  return RobotEkf::PoseCovariance(Eigen::Vector3d(rp, rp, ro).asDiagonal());
}

WorldTracker::RobotTrack WorldTracker::new_track(const RobotSighting& z, double t) const {
  const double v = params_.robot_initial_velocity_sd, w = params_.robot_initial_omega_sd;
  return RobotTrack{RobotEkf(robot_model_, robot_ekf_params_, z.pose, z.R, t, v * v, w * w), t, 0, t};
}

bool WorldTracker::relocalised(const RobotEkf::Pose& predicted, const RobotEkf::Pose& z) const {
  return (z.head<2>() - predicted.head<2>()).norm() > params_.self_restart_distance ||
         std::abs(wrap_angle(z(2) - predicted(2))) > params_.self_restart_heading;
}

void WorldTracker::observe_robot(std::optional<RobotTrack>& track, const RobotSighting& z, double t,
                                 bool gate) const {
  if (!track) {
    track = new_track(z, t);
    return;
  }
  RobotEkf& ekf = track->ekf;
  ekf.predict_to(t);  // an out-of-order measurement is applied without prediction
  const bool near = (z.pose.head<2>() - ekf.pose().head<2>()).norm() <= params_.robot_gate_min_distance;
  if (gate && !near && ekf.mahalanobis2(z.pose, z.R) > params_.robot_gate_chi2) {
    // A wrong id or a reflection; but a robot the referee moved really is
    // elsewhere, and keeps being seen there.
    if (++track->rejections >= params_.robot_reset_after_rejections) track = new_track(z, t);
    return;
  }
  ekf.update(z.pose, z.R);
  track->t_observed = std::max(track->t_observed, t);
  track->t_sighted = std::max(track->t_sighted, t);
  track->rejections = 0;
}

void WorldTracker::associate_anonymous(std::map<uint32_t, RobotTrack>& tracks,
                                       const std::vector<RobotSighting>& sightings, std::set<uint32_t>& updated,
                                       bool own_team, double t) {
  if (sightings.empty()) return;
  // Candidates predicted to t on copies, so tracks nobody takes stay as they
  // were; id 0 stands for our own track.
  std::vector<std::pair<uint32_t, RobotEkf>> candidates;
  if (own_team && self_) candidates.emplace_back(0, self_->ekf);
  for (const auto& [id, track] : tracks)
    if (!updated.count(id)) candidates.emplace_back(id, track.ekf);
  for (auto& candidate : candidates) candidate.second.predict_to(t);

  struct Pair {
    double d2;
    size_t sighting, candidate;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < sightings.size(); ++i) {
    const Eigen::Vector2d z = sightings[i].pose.head<2>();
    const Eigen::Matrix2d R = sightings[i].R.topLeftCorner<2, 2>();
    for (size_t j = 0; j < candidates.size(); ++j) {
      const RobotEkf& ekf = candidates[j].second;
      const double d2 = ekf.mahalanobis2(z, R);
      const bool near = (z - ekf.pose().head<2>()).norm() <= params_.robot_gate_min_distance;
      if (near || d2 <= params_.robot_position_gate_chi2) pairs.push_back({d2, i, j});
    }
  }
  // Greedy, nearest first: with a handful of robots per team and gates
  // narrower than their spacing it gives the optimal assignment but for
  // near-ties. stable_sort keeps ties in input order (determinism).
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.d2 < b.d2; });
  std::vector<bool> sighting_used(sightings.size(), false), candidate_used(candidates.size(), false);
  for (const Pair& pair : pairs) {
    if (sighting_used[pair.sighting] || candidate_used[pair.candidate]) continue;
    sighting_used[pair.sighting] = candidate_used[pair.candidate] = true;
    const uint32_t id = candidates[pair.candidate].first;
    if (id == 0) continue;  // ourselves without our id: our pose comes from self_pose
    RobotTrack& track = tracks.at(id);
    const RobotSighting& z = sightings[pair.sighting];
    track.ekf = candidates[pair.candidate].second;
    track.ekf.update(Eigen::Vector2d(z.pose.head<2>()), Eigen::Matrix2d(z.R.topLeftCorner<2, 2>()));
    track.t_observed = std::max(track.t_observed, t);
    track.t_sighted = std::max(track.t_sighted, t);
    track.rejections = 0;
    updated.insert(id);
  }
  if (own_team) claim_unclaimed(tracks, sightings, sighting_used, updated, t);
}

void WorldTracker::claim_unclaimed(std::map<uint32_t, RobotTrack>& tracks, const std::vector<RobotSighting>& sightings,
                                   const std::vector<bool>& used, std::set<uint32_t>& updated, double t) {
  std::vector<UnclaimedSighting> still;
  for (size_t i = 0; i < sightings.size(); ++i) {
    if (used[i]) continue;
    const Eigen::Vector2d p = sightings[i].pose.head<2>();
    int count = 1;
    for (const auto& u : unclaimed_)
      if (t > u.t && t - u.t <= params_.robot_stale_after && (u.position - p).norm() <= params_.robot_claim_distance)
        count = std::max(count, u.count + 1);
    if (count >= params_.robot_claim_after_sightings) {
      std::optional<uint32_t> nearest;
      double least = std::numeric_limits<double>::infinity();
      for (const auto& [id, track] : tracks) {
        if (updated.count(id) || t - track.t_sighted <= params_.robot_stale_after) continue;
        const double d = (track.ekf.pose().head<2>() - p).norm();
        if (d < least) {
          least = d;
          nearest = id;
        }
      }
      if (nearest) {
        // An id-less sighting's heading is not trusted: the track's own.
        RobotTrack& track = tracks.at(*nearest);
        RobotSighting z = sightings[i];
        z.pose(2) = track.ekf.pose()(2);
        z.R(2, 2) = std::max(z.R(2, 2), track.ekf.pose_covariance()(2, 2));
        track = new_track(z, t);
        updated.insert(*nearest);
        continue;
      }
    }
    still.push_back({p, t, count});
  }
  unclaimed_ = std::move(still);
}

std::optional<RobotEkf> WorldTracker::reportable(const RobotTrack& track, double t, bool opponent) const {
  if (opponent && remembers_out_of_view()) {
    // Kept standing out of view (see "Out of view"): judged by its age, not
    // by a covariance grown as if it ran on all that time.
    if (t - track.t_observed > params_.opponent_out_of_view_keep) return std::nullopt;
    RobotEkf ekf = track.ekf;
    ekf.predict_to(std::min(t, track.t_observed + params_.robot_lost_after));
    if (ekf.lost()) return std::nullopt;
    ekf.predict_to(t);
    return ekf;
  }
  if (t - track.t_observed > params_.robot_lost_after) return std::nullopt;
  RobotEkf ekf = track.ekf;
  ekf.predict_to(t);
  if (ekf.lost()) return std::nullopt;
  return ekf;
}

RobotEkf WorldTracker::coasted(const RobotTrack& track, double t) const {
  RobotEkf ekf = track.ekf;
  ekf.predict_to(std::min(t, track.t_observed + params_.opponent_coast_seconds));
  return ekf;
}

void WorldTracker::forget_absent_opponents(const msg::Pose2& eye, const std::set<uint32_t>& updated, double t) {
  const Eigen::Vector2d at(eye.x(), eye.y());
  // Where each robot we track stands now, as estimate() reports it (an
  // opponent past its coast where the coast left it): teammates first,
  // then the opponents in the order of opponents_.
  std::vector<Eigen::Vector2d> robots;
  robots.reserve(teammates_.size() + opponents_.size());
  for (const auto& [id, track] : teammates_) {
    RobotEkf ekf = track.ekf;
    ekf.predict_to(t);
    robots.emplace_back(ekf.pose().head<2>());
  }
  for (const auto& [id, track] : opponents_) robots.emplace_back(coasted(track, t).pose().head<2>());
  // As the camera judges it: another robot's body across the line of sight
  // hides it; ours a robot radius wider, for the hidden one's own body.
  auto hidden = [&](std::size_t self, const runtime::LineOfSight& sight) {
    for (std::size_t k = 0; k < robots.size(); ++k)
      if (k != self && sight.blocked_by(robots[k].x() - at.x(), robots[k].y() - at.y(), 2.0 * robot_radius_))
        return true;
    return false;
  };
  const double half_fov = 0.5 * params_.view_fov - params_.view_margin_angle;
  const double range = params_.view_range - params_.view_margin_range;
  std::size_t k = teammates_.size();
  for (auto it = opponents_.begin(); it != opponents_.end(); ++k) {
    RobotTrack& track = it->second;
    const Eigen::Vector2d d = robots[k] - at;
    const runtime::LineOfSight sight(d.x(), d.y());
    const bool in_view = !updated.count(it->first) && sight.distance() > robot_radius_ &&
                         sight.distance() <= range &&
                         std::abs(wrap_angle(std::atan2(d.y(), d.x()) - eye.theta())) <= half_fov && !hidden(k, sight);
    if (!in_view) {
      track.t_absent_since = std::numeric_limits<double>::infinity();
    } else if (!std::isfinite(track.t_absent_since) || t < track.t_absent_since) {
      track.t_absent_since = t;
    } else if (t - track.t_absent_since >= params_.view_absent_seconds) {
      absent_[it->first] = t;
      it = opponents_.erase(it);
      continue;
    }
    ++it;
  }
}

void WorldTracker::prune(std::map<uint32_t, RobotTrack>& tracks, const std::set<uint32_t>& updated, double t,
                         bool opponents) const {
  // Tracks just updated are fresh; estimate() checks every track anyway.
  for (auto it = tracks.begin(); it != tracks.end();) {
    if (updated.count(it->first) || reportable(it->second, t, opponents)) {
      ++it;
    } else {
      it = tracks.erase(it);
    }
  }
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

void WorldTracker::observe_ball(const std::vector<BallSighting>& balls, double t) {
  if (balls.empty()) return;
  const double v0 = params_.ball_initial_velocity_sd * params_.ball_initial_velocity_sd;

  auto init_at = [&](const BallSighting& z) {
    ball_.valid = true;
    ball_.x << z.position, 0.0, 0.0;
    ball_.P.setZero();
    ball_.P.topLeftCorner<2, 2>() = z.R;
    ball_.P(2, 2) = ball_.P(3, 3) = v0;
    ball_.t = std::max(ball_.t, t);
    ball_.t_observed = std::max(ball_.t_observed, t);
    ball_.rejections = 0;
    ball_.maneuvering = true;
  };

  if (!ball_.valid) {
    // Nothing to gate against yet: start on the most confident candidate.
    size_t best = 0;
    for (size_t i = 1; i < balls.size(); ++i)
      if (balls[i].confidence > balls[best].confidence) best = i;
    init_at(balls[best]);
    return;
  }

  predict_ball(ball_, t);
  // Each candidate with its own noise: a far one is allowed a larger miss.
  double best_d2 = std::numeric_limits<double>::infinity();
  const BallSighting* best = nullptr;
  for (const auto& b : balls) {
    const Eigen::Vector2d y = b.position - ball_.x.head<2>();
    const Eigen::Matrix2d S = ball_.P.topLeftCorner<2, 2>() + b.R;
    const double d2 = y.dot(S.inverse() * y);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = &b;
    }
  }
  const Eigen::Vector2d y = best->position - ball_.x.head<2>();
  if (best_d2 > params_.ball_gate_chi2 && y.norm() > params_.ball_gate_min_distance) {
    // A kick or bounce the model cannot follow looks like an outlier; if it
    // persists, it is the ball.
    if (++ball_.rejections >= params_.ball_reset_after_rejections) init_at(*best);
    return;
  }
  const Eigen::Matrix2d S = ball_.P.topLeftCorner<2, 2>() + best->R;
  const Eigen::Matrix<double, 4, 2> K = ball_.P.leftCols<2>() * S.inverse();
  ball_.x += K * y;
  Eigen::Matrix4d IKH = Eigen::Matrix4d::Identity();
  IKH.leftCols<2>() -= K;
  ball_.P = IKH * ball_.P * IKH.transpose() + K * best->R * K.transpose();
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
  for (double c : p.self_covariance())
    if (!std::isfinite(c)) return false;
  for (const auto& c : p.contacts())
    if (!finite_vec(c)) return false;
  for (const auto* list : {&p.balls(), &p.teammates(), &p.opponents()})
    for (const auto& o : *list)
      if (!finite_vec(o.position()) || !std::isfinite(o.orientation()) || !std::isfinite(o.position_sd()))
        return false;
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
  const bool dead_reckoned = percept.self_dead_reckoned() && !percept.self_seen();

  self_contacts_.clear();  // what the bumper touches now, nothing older
  for (const auto& c : percept.contacts()) {
    const Eigen::Vector2d u(c.x(), c.y());
    if (u.norm() > 0.0) self_contacts_.push_back(u.normalized());
  }
  self_contacts_t_ = t;

  // Odometry drifts but is the only self pose an onboard robot has before it
  // localises; it is taken as a measurement like a sighting. It is not gated:
  // it is perception's own fused pose, which cannot belong to another robot,
  // and its landmark corrections step by more than a gate would let through.
  if (dead_reckoned && percept.self_covariance_size() == 9)
    self_localisation_sd_ = std::sqrt(std::max({0.0, percept.self_covariance(0), percept.self_covariance(4)}));
  if (percept.self_seen() || percept.self_dead_reckoned()) {
    const msg::Pose2& p = percept.self_pose();
    const RobotSighting z{{p.x(), p.y(), wrap_angle(p.theta())}, pose_covariance(params_.robot_position_sd)};
    // observe_robot's own prediction to t, done first to compare with.
    if (dead_reckoned && self_) self_->ekf.predict_to(t);
    if (dead_reckoned && self_ && relocalised(self_->ekf.pose(), z.pose)) {
      self_ = new_track(z, t);  // at rest where perception now puts us, not a jump explained by speed
    } else {
      observe_robot(self_, z, t, !dead_reckoned);
    }
  }

  msg::Pose2 ref;
  if (percept.self_seen() || percept.has_self_pose()) {
    ref = percept.self_pose();
  } else if (self_) {
    RobotEkf s = self_->ekf;
    s.predict_to(t);
    ref.set_x(s.pose().x());
    ref.set_y(s.pose().y());
    ref.set_theta(s.pose().z());
  } else {
    return;  // egocentric objects without any reference pose cannot be placed
  }

  // An egocentric object inherits the error of the pose it is placed from:
  // with a dead-reckoned reference, its position's and heading's (the
  // heading's times the object's distance, across the line of sight).
  // Linearised: J diag(sd_p^2, sd_p^2, sd_theta^2) J^T, J the derivative of
  // the field pose with respect to the reference pose.
  auto reference_noise = [&](const Eigen::Vector2d& field_position) {
    RobotEkf::PoseCovariance extra = RobotEkf::PoseCovariance::Zero();
    if (!dead_reckoned) return extra;
    const Eigen::Vector2d offset = field_position - Eigen::Vector2d(ref.x(), ref.y());
    RobotEkf::PoseCovariance J = RobotEkf::PoseCovariance::Identity();
    J.block<2, 1>(0, 2) = Eigen::Vector2d(-offset.y(), offset.x());
    const double sp = params_.dead_reckoned_position_sd, sh = params_.dead_reckoned_heading_sd;
    extra = J * Eigen::Vector3d(sp * sp, sp * sp, sh * sh).asDiagonal() * J.transpose();
    return extra;
  };

  auto place = [&](const msg::PerceivedObject& o) {
    const Eigen::Vector2d p = to_field(ref, o.position());
    return RobotSighting{{p.x(), p.y(), wrap_angle(ref.theta() + o.orientation())},
                         pose_covariance(measurement_sd(o, params_.robot_position_sd, params_.min_measurement_sd)) +
                             reference_noise(p)};
  };
  auto observe_team = [&](const google::protobuf::RepeatedPtrField<msg::PerceivedObject>& seen,
                          std::map<uint32_t, RobotTrack>& tracks, bool own_team) {
    std::set<uint32_t> updated;
    std::vector<RobotSighting> anonymous;
    for (const auto& o : seen) {
      if (own_team && o.robot_id() == robot_id_) continue;
      if (o.robot_id() == 0) {
        anonymous.push_back(place(o));
        continue;
      }
      std::optional<RobotTrack> track;
      auto it = tracks.find(o.robot_id());
      if (it != tracks.end()) track = std::move(it->second);
      observe_robot(track, place(o), t, true);
      tracks.insert_or_assign(o.robot_id(), std::move(*track));
      updated.insert(o.robot_id());
    }
    associate_anonymous(tracks, anonymous, updated, own_team, t);
    prune(tracks, updated, t, !own_team);
    return updated;
  };
  observe_team(percept.teammates(), teammates_, true);
  const std::set<uint32_t> opponents_seen = observe_team(percept.opponents(), opponents_, false);
  if (remembers_out_of_view()) forget_absent_opponents(ref, opponents_seen, t);

  std::vector<BallSighting> balls;
  for (const auto& b : percept.balls()) {
    const double sd = measurement_sd(b, params_.ball_measurement_sd, params_.min_measurement_sd);
    const Eigen::Vector2d z = to_field(ref, b.position());
    balls.push_back({z, sd * sd * Eigen::Matrix2d::Identity() + reference_noise(z).topLeftCorner<2, 2>(),
                     b.confidence()});
  }
  observe_ball(balls, t);
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

bool WorldTracker::should_adopt_self(const RobotTrack* ours, const msg::RobotEstimate& e, double t_now) const {
  // Our own track, from a teammate's view of us: only fresher news replaces
  // it, and only once stale (this also stops our own old information from
  // echoing back to us through a teammate).
  if (!ours) return true;
  return t_now - ours->t_observed > params_.robot_stale_after && e.t_observed() > ours->t_observed;
}

WorldTracker::RobotTrack WorldTracker::track_from(const msg::RobotEstimate& e, double t) const {
  RobotEkf::PoseCovariance cov;
  if (e.covariance_size() == 9) {
    for (int i = 0; i < 9; ++i) cov(i / 3, i % 3) = e.covariance(i);
  } else {
    cov = pose_covariance(params_.robot_position_sd);
  }
  const double v = params_.robot_shared_velocity_sd, w = params_.robot_shared_omega_sd;
  const RobotEkf::Pose pose(e.pose().x(), e.pose().y(), wrap_angle(e.pose().theta()));
  const Eigen::Vector2d velocity(e.velocity().x(), e.velocity().y());
  return RobotTrack{
      RobotEkf::from_estimate(robot_model_, robot_ekf_params_, pose, cov, velocity, e.omega(), t, v * v, w * w),
      e.t_observed(), 0};
}

void WorldTracker::adopt_robot(std::map<uint32_t, RobotTrack>& tracks, const msg::RobotEstimate& e, double t,
                               double t_now) {
  if (e.robot_id() == 0) return;  // no id: nothing to key it by
  auto it = tracks.find(e.robot_id());
  // Only fresher news replaces a track (so our own old information does not
  // echo back to us through a teammate), and not one our own camera keeps
  // up. A track only teammates' reports keep up takes each fresher one:
  // waiting for it to go stale let it coast for 0.3 s between shares, and a
  // teammate turning at 1 m/s was then 0.16 m off where the safety search
  // believed it (MSL: a defender struck its supporter). A track stale by
  // t_observed is stale by t_sighted too (never later), so it is replaced
  // as before.
  const bool adopt = it == tracks.end() || (e.t_observed() > it->second.t_observed &&
                                            t_now - it->second.t_sighted > params_.robot_stale_after);
  // An opponent we looked for and did not see comes back only with news
  // from after that (see "Out of view").
  if (&tracks == &opponents_) {
    const auto gone = absent_.find(e.robot_id());
    if (gone != absent_.end() && e.t_observed() <= gone->second) return;
  }
  if (adopt) tracks.insert_or_assign(e.robot_id(), track_from(e, t));
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
  // Their estimate is predicted to their time tb; ours move on from there.
  if (from.has_self()) adopt_robot(teammates_, from.self(), tb, t_now);
  for (const auto& e : from.teammates()) {
    if (e.robot_id() != robot_id_) {
      adopt_robot(teammates_, e, tb, t_now);
    } else if (should_adopt_self(self_ ? &*self_ : nullptr, e, t_now)) {
      // Their view of us helps only when we have lost ourselves.
      self_ = track_from(e, tb);
    }
  }
  for (const auto& e : from.opponents()) adopt_robot(opponents_, e, tb, t_now);
}

double WorldTracker::latest_time() const {
  double t = ball_.valid ? ball_.t : 0.0;
  if (self_) t = std::max(t, self_->ekf.time());
  for (const auto& [id, tr] : teammates_) t = std::max(t, tr.ekf.time());
  for (const auto& [id, tr] : opponents_) t = std::max(t, tr.ekf.time());
  return t;
}

// --- output ------------------------------------------------------------------------

void WorldTracker::fill_robot(const RobotEkf& ekf, double t_observed, msg::Team team, uint32_t id,
                              msg::RobotEstimate* out) const {
  const RobotEkf::Pose pose = ekf.pose();
  const Eigen::Vector2d velocity = ekf.velocity();
  out->set_team(team);
  out->set_robot_id(id);
  out->mutable_pose()->set_x(pose.x());
  out->mutable_pose()->set_y(pose.y());
  out->mutable_pose()->set_theta(wrap_angle(pose.z()));
  out->mutable_velocity()->set_x(velocity.x());
  out->mutable_velocity()->set_y(velocity.y());
  out->set_omega(ekf.omega());
  const RobotEkf::PoseCovariance cov = ekf.pose_covariance();
  for (int i = 0; i < 9; ++i) out->add_covariance(cov(i / 3, i % 3));
  out->set_t_observed(t_observed);
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
  if (self_) {
    RobotEkf ekf = self_->ekf;
    ekf.predict_to(t);
    fill_robot(ekf, self_->t_observed, team_, robot_id_, w.mutable_self());
    w.set_self_localisation_sd(self_localisation_sd_);
  }
  if (t - self_contacts_t_ <= params_.contacts_keep)
    for (const Eigen::Vector2d& u : self_contacts_) {
      msg::Vec2* c = w.add_self_contacts();
      c->set_x(u.x());
      c->set_y(u.y());
    }
  for (const auto& [id, tr] : teammates_)
    if (const auto ekf = reportable(tr, t, false)) fill_robot(*ekf, tr.t_observed, team_, id, w.add_teammates());
  for (const auto& [id, tr] : opponents_) {
    const auto ekf = reportable(tr, t, true);
    if (!ekf) continue;
    auto* out = w.add_opponents();
    fill_robot(*ekf, tr.t_observed, opponent_, id, out);
    const double coast_end = tr.t_observed + params_.opponent_coast_seconds;
    if (t <= coast_end) continue;
    // Standing where the coast left it; its uncertainty grows on as if it
    // ran on (it may have).
    const RobotEkf held = coasted(tr, t);
    out->mutable_pose()->set_x(held.pose().x());
    out->mutable_pose()->set_y(held.pose().y());
    out->mutable_pose()->set_theta(wrap_angle(held.pose().z()));
    out->mutable_velocity()->set_x(0.0);
    out->mutable_velocity()->set_y(0.0);
    out->set_omega(0.0);
  }
  return w;
}

}  // namespace robocaf::actors
