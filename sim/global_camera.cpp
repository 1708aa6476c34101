#include "sim/global_camera.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/angle.hpp"

namespace robocaf::sim {

namespace {

using runtime::wrap_angle;

void require(bool ok, const char* field, double value, const char* rule) {
  if (!ok) {
    throw std::invalid_argument(std::string("GlobalCamera: NoiseSpec.") + field + " " + rule +
                                " (got " + std::to_string(value) + ")");
  }
}

}  // namespace

GlobalCamera::GlobalCamera(const msg::NoiseSpec& noise, std::uint64_t seed)
    : noise_(noise), rng_(seed) {
  require(noise.position_sd() >= 0.0 && std::isfinite(noise.position_sd()), "position_sd",
          noise.position_sd(), "must be >= 0");
  require(noise.orientation_sd() >= 0.0 && std::isfinite(noise.orientation_sd()),
          "orientation_sd", noise.orientation_sd(), "must be >= 0");
  require(noise.ball_position_sd() >= 0.0 && std::isfinite(noise.ball_position_sd()),
          "ball_position_sd", noise.ball_position_sd(), "must be >= 0");
  require(noise.miss_probability() >= 0.0 && noise.miss_probability() <= 1.0,
          "miss_probability", noise.miss_probability(), "must be in [0, 1]");
}

double GlobalCamera::uniform() {
  return static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);  // 53 bits
}

double GlobalCamera::gaussian() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - uniform();  // (0, 1]: the log stays finite
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(2.0 * M_PI * u2);
  has_spare_ = true;
  return r * std::cos(2.0 * M_PI * u2);
}

msg::DetectionFrame GlobalCamera::observe(const msg::WorldTruth& truth,
                                          std::uint64_t frame_number, double t_capture) {
  msg::DetectionFrame f;
  f.set_frame_number(frame_number);
  f.set_t_capture(t_capture);
  f.set_t_sent(t_capture);
  f.set_camera_id(0);
  f.set_cycle(truth.cycle());

  {
    const bool seen = uniform() >= noise_.miss_probability();
    const double nx = gaussian() * noise_.ball_position_sd();
    const double ny = gaussian() * noise_.ball_position_sd();
    if (seen) {
      auto* b = f.add_balls();
      b->set_confidence(kConfidence);
      b->set_x(truth.ball_position().x() + nx);
      b->set_y(truth.ball_position().y() + ny);
    }
  }
  for (const auto& r : truth.robots()) {
    const bool seen = uniform() >= noise_.miss_probability();
    const double nx = gaussian() * noise_.position_sd();
    const double ny = gaussian() * noise_.position_sd();
    const double nt = gaussian() * noise_.orientation_sd();
    if (!seen) continue;
    msg::DetectionRobot* d = nullptr;
    if (r.team() == msg::BLUE) {
      d = f.add_robots_blue();
    } else if (r.team() == msg::YELLOW) {
      d = f.add_robots_yellow();
    } else {
      continue;
    }
    d->set_confidence(kConfidence);
    d->set_robot_id(r.robot_id());
    d->set_x(r.pose().x() + nx);
    d->set_y(r.pose().y() + ny);
    d->set_orientation(wrap_angle(r.pose().theta() + nt));
  }
  return f;
}

}  // namespace robocaf::sim
