#include "sim/onboard_camera.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "runtime/angle.hpp"
#include "runtime/line_of_sight.hpp"

namespace robocaf::sim {

namespace {

using runtime::kPi;
using runtime::wrap_angle;

// %g-like form: std::to_string would print a noise of 1e-7 as 0.000000.
std::string format(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

void require(bool ok, const char* field, double value, const char* rule) {
  if (!ok) {
    throw std::invalid_argument(std::string("OnboardCamera: ") + field + " " + rule + " (got " +
                                format(value) + ")");
  }
}

// The observer's pose, and field points turned into its frame.
struct Viewpoint {
  double x, y, cos_theta, sin_theta;

  // Robot frame: x forward, y left.
  std::pair<double, double> to_robot(double fx, double fy) const {
    const double dx = fx - x, dy = fy - y;
    return {cos_theta * dx + sin_theta * dy, -sin_theta * dx + cos_theta * dy};
  }
};

// True when a robot other than the observer and the object has its centre
// strictly between the camera and the object along the line of sight and
// within `radius` of that line (see the class comment for why the centre).
bool occluded(const Viewpoint& eye, double ox, double oy, const msg::WorldTruth& truth,
              int observer, int object, double radius) {
  const runtime::LineOfSight sight(ox - eye.x, oy - eye.y);
  if (!(sight.distance() > 0.0) || !(radius > 0.0)) return false;
  for (int k = 0; k < truth.robots_size(); ++k) {
    if (k == observer || k == object) continue;
    if (sight.blocked_by(truth.robots(k).pose().x() - eye.x, truth.robots(k).pose().y() - eye.y, radius)) return true;
  }
  return false;
}

}  // namespace

OnboardCamera::OnboardCamera(const msg::LeaguePreset& preset, const msg::OnboardCameraSpec& spec,
                             std::uint64_t seed)
    : spec_(spec), robot_radius_(preset.robot().radius()), seed_(seed), lines_(preset.field()) {
  require(spec.horizontal_fov() > 0.0 && spec.horizontal_fov() < kPi,
          "OnboardCameraSpec.horizontal_fov", spec.horizontal_fov(), "must be in (0, pi) rad");
  require(spec.range() > 0.0 && std::isfinite(spec.range()), "OnboardCameraSpec.range", spec.range(),
          "must be > 0 m");
  require(spec.noise_per_metre() >= 0.0 && std::isfinite(spec.noise_per_metre()),
          "OnboardCameraSpec.noise_per_metre", spec.noise_per_metre(), "must be >= 0");
  require(spec.miss_probability() >= 0.0 && spec.miss_probability() <= 1.0,
          "OnboardCameraSpec.miss_probability", spec.miss_probability(), "must be in [0, 1]");
  require(robot_radius_ >= 0.0 && std::isfinite(robot_radius_), "LeaguePreset.robot.radius",
          robot_radius_, "must be >= 0 m");
  const auto& field = preset.field();
  require(field.length() > 0.0 && std::isfinite(field.length()), "LeaguePreset.field.length",
          field.length(), "must be > 0 m");
  require(field.width() > 0.0 && std::isfinite(field.width()), "LeaguePreset.field.width",
          field.width(), "must be > 0 m");
  require(field.goal_width() >= 0.0 && std::isfinite(field.goal_width()),
          "LeaguePreset.field.goal_width", field.goal_width(), "must be >= 0 m");

  landmarks_ = runtime::field_landmarks(field);
}

SeededRandom& OnboardCamera::stream(msg::Team team, std::uint32_t robot_id) {
  const auto key = std::make_pair(static_cast<int>(team), robot_id);
  auto it = streams_.find(key);
  if (it == streams_.end()) {
    const std::uint64_t id = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(team)) << 32) | robot_id;
    it = streams_.emplace(key, SeededRandom(derive_seed(seed_, id))).first;
  }
  return it->second;
}

msg::OnboardFrame OnboardCamera::observe(const msg::WorldTruth& truth, msg::Team team,
                                         std::uint32_t robot_id, std::uint64_t frame_number,
                                         double t_capture) {
  int observer = -1;
  for (int k = 0; k < truth.robots_size(); ++k) {
    if (truth.robots(k).team() == team && truth.robots(k).robot_id() == robot_id) {
      observer = k;
      break;
    }
  }
  if (observer < 0) {
    throw std::invalid_argument("OnboardCamera: no robot " + std::to_string(robot_id) + " of team " +
                                msg::Team_Name(team) + " in the world truth");
  }
  const auto& pose = truth.robots(observer).pose();
  const Viewpoint eye{pose.x(), pose.y(), std::cos(pose.theta()), std::sin(pose.theta())};
  SeededRandom& rng = stream(team, robot_id);

  msg::OnboardFrame f;
  f.set_frame_number(frame_number);
  f.set_t_capture(t_capture);
  f.set_t_sent(t_capture);
  f.set_cycle(truth.cycle());
  f.set_team(team);
  f.set_robot_id(robot_id);

  const double half_fov = 0.5 * spec_.horizontal_fov();
  // The draws for one object or line-point slot, always the same three.
  struct Draws {
    bool missed;
    double eps_x, eps_y;
  };
  auto draw = [&] {
    const bool missed = rng.uniform() < spec_.miss_probability();
    const double eps_x = rng.gaussian() * spec_.noise_per_metre();
    const double eps_y = rng.gaussian() * spec_.noise_per_metre();
    return Draws{missed, eps_x, eps_y};
  };
  // Returns whether the object is reported and, if so, its noisy
  // robot-frame position in `out`.
  auto sense = [&](double fx, double fy, int object, std::pair<double, double>& out) {
    const auto [missed, eps_x, eps_y] = draw();
    const auto [rx, ry] = eye.to_robot(fx, fy);
    const double distance = std::hypot(rx, ry);
    const bool visible = distance <= spec_.range() && std::abs(std::atan2(ry, rx)) <= half_fov &&
                         !occluded(eye, fx, fy, truth, observer, object, robot_radius_);
    if (!visible || missed) return false;
    out = {rx + distance * eps_x, ry + distance * eps_y};
    return true;
  };

  std::pair<double, double> p;
  if (sense(truth.ball_position().x(), truth.ball_position().y(), -1, p)) {
    auto* b = f.add_balls();
    b->mutable_position()->set_x(p.first);
    b->mutable_position()->set_y(p.second);
    b->set_confidence(kConfidence);
  }
  for (int k = 0; k < truth.robots_size(); ++k) {
    if (k == observer) continue;
    const auto& r = truth.robots(k);
    if (!sense(r.pose().x(), r.pose().y(), k, p)) continue;
    auto* o = f.add_robots();
    o->mutable_position()->set_x(p.first);
    o->mutable_position()->set_y(p.second);
    o->set_orientation(wrap_angle(r.pose().theta() - pose.theta()));
    o->set_robot_id(r.robot_id());
    o->set_team(r.team());
    o->set_confidence(kConfidence);
  }
  for (const auto& l : landmarks_) {
    if (!sense(l.x, l.y, -1, p)) continue;
    auto* m = f.add_landmarks();
    m->set_kind(l.kind);
    m->set_index(l.index);
    m->mutable_position()->set_x(p.first);
    m->mutable_position()->set_y(p.second);
  }
  // Line points: kLineRays rays spread evenly over the field of view, each
  // reporting up to kCrossingsPerRay crossings with the field's lines, the
  // way MSL vision scans its image radially for white. Every slot takes its
  // three draws whether it holds a crossing or not.
  for (int ray = 0; ray < kLineRays; ++ray) {
    const double bearing = -half_fov + spec_.horizontal_fov() * (ray + 0.5) / kLineRays;
    const double heading = pose.theta() + bearing;
    const Eigen::Vector2d dir(std::cos(heading), std::sin(heading));
    const std::vector<double> hits = lines_.crossings({pose.x(), pose.y()}, dir, spec_.range());
    for (int slot = 0; slot < kCrossingsPerRay; ++slot) {
      const auto [missed, eps_x, eps_y] = draw();
      if (slot >= static_cast<int>(hits.size()) || missed) continue;
      const double d = hits[static_cast<std::size_t>(slot)];
      if (occluded(eye, pose.x() + d * dir.x(), pose.y() + d * dir.y(), truth, observer, -1, robot_radius_)) continue;
      auto* q = f.add_line_points();
      q->set_x(d * std::cos(bearing) + d * eps_x);
      q->set_y(d * std::sin(bearing) + d * eps_y);
    }
  }
  return f;
}

}  // namespace robocaf::sim
