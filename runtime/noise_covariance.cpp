#include "runtime/noise_covariance.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "messages/log.pb.h"
#include "runtime/angle.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::runtime {

namespace {

// Truth faster than this means the object moved: its detections would add
// motion to the noise.
constexpr double kStillSpeed = 0.001;
// A detection this far from the previous one starts a new still stretch:
// far beyond any camera noise, well within any placement by hand.
constexpr double kJump = 0.05;
// Shorter stretches are left out; their means would be noise themselves.
constexpr std::size_t kMinStretch = 10;

const msg::RobotTruth* truth_of(const msg::WorldTruth& truth, const NoiseSubject& s) {
  for (const auto& r : truth.robots())
    if (r.team() == s.team && r.robot_id() == s.robot_id) return &r;
  return nullptr;
}

}  // namespace

NoiseSubject parse_noise_subject(const std::string& text) {
  NoiseSubject s;
  if (text == "ball") return s;
  const auto slash = text.find('/');
  if (slash != std::string::npos) {
    const std::string team = text.substr(0, slash), id = text.substr(slash + 1);
    s.ball = false;
    s.team = team == "blue" ? msg::BLUE : team == "yellow" ? msg::YELLOW : msg::TEAM_UNSPECIFIED;
    char* end = nullptr;
    const unsigned long n = id.empty() ? 0 : std::strtoul(id.c_str(), &end, 10);
    if (s.team != msg::TEAM_UNSPECIFIED && end && *end == '\0' && n > 0 && n < 1000) {
      s.robot_id = static_cast<std::uint32_t>(n);
      return s;
    }
  }
  throw std::invalid_argument("'" + text + "' is not an object: use ball, blue/N or yellow/N");
}

NoiseEstimate estimate_detection_noise(const std::string& path, const NoiseSubject& subject, double t_from,
                                       double t_to) {
  GameLogReader reader{path};
  msg::LogRecord record;
  bool moving = false;  // from the newest truth record, if any
  // Still stretches: a new one starts after the truth moved or when a
  // detection jumps away from the stretch (an object put somewhere else).
  std::vector<std::vector<Eigen::Vector3d>> stretches(1);
  NoiseEstimate estimate;
  auto start_stretch = [&] {
    if (!stretches.back().empty()) stretches.emplace_back();
  };
  while (reader.next(record)) {
    if (record.t() < t_from || record.t() > t_to) continue;
    if (record.has_truth()) {
      const auto& truth = record.truth();
      if (subject.ball) {
        moving = std::hypot(truth.ball_velocity().x(), truth.ball_velocity().y()) > kStillSpeed;
      } else if (const auto* r = truth_of(truth, subject)) {
        moving = std::hypot(r->velocity().x(), r->velocity().y()) > kStillSpeed || std::abs(r->omega()) > kStillSpeed;
      }
      continue;
    }
    if (!record.has_detection()) continue;
    const auto& frame = record.detection();
    std::vector<Eigen::Vector3d> found;
    if (subject.ball) {
      for (const auto& b : frame.balls()) found.emplace_back(b.x(), b.y(), 0.0);
    } else {
      const auto& robots = subject.team == msg::BLUE ? frame.robots_blue() : frame.robots_yellow();
      for (const auto& r : robots)
        if (r.robot_id() == subject.robot_id) found.emplace_back(r.x(), r.y(), r.orientation());
    }
    if (found.empty()) continue;
    if (moving) {
      ++estimate.rejected_moving;
      start_stretch();
      continue;
    }
    auto& current = stretches.back();
    // Several ball candidates in one frame: the object is the one nearest
    // to what this stretch saw so far (false candidates land anywhere).
    Eigen::Vector3d pick = found.front();
    if (!current.empty()) {
      double best = 1e300;
      for (const auto& f : found) {
        const double d = (f.head<2>() - current.back().head<2>()).squaredNorm();
        if (d < best) {
          best = d;
          pick = f;
        }
      }
      if (std::sqrt(best) > kJump) start_stretch();
    }
    stretches.back().push_back(pick);
  }
  // Pooled within-stretch covariance: each stretch about its own mean, so
  // an object standing at several places in one log still measures noise
  // only. Stretches too short to have a mean are left out.
  const int dim = subject.ball ? 2 : 3;
  Eigen::MatrixXd scatter = Eigen::MatrixXd::Zero(dim, dim);
  std::size_t used = 0, groups = 0, longest = 0;
  for (const auto& stretch : stretches) {
    if (stretch.size() < kMinStretch) continue;
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(dim);
    double sin_sum = 0.0, cos_sum = 0.0;
    for (const auto& p : stretch) {
      mean.head<2>() += p.head<2>();
      sin_sum += std::sin(p.z());
      cos_sum += std::cos(p.z());
    }
    mean.head<2>() /= static_cast<double>(stretch.size());
    if (dim == 3) mean(2) = std::atan2(sin_sum, cos_sum);  // circular mean: headings wrap
    for (const auto& p : stretch) {
      Eigen::VectorXd d(dim);
      d.head<2>() = p.head<2>() - mean.head<2>();
      if (dim == 3) d(2) = wrap_angle(p.z() - mean(2));
      scatter += d * d.transpose();
    }
    if (stretch.size() > longest) {
      longest = stretch.size();
      estimate.mean = mean;
    }
    used += stretch.size();
    ++groups;
  }
  if (used < groups + 2 || groups == 0)
    throw std::runtime_error(path + ": only " + std::to_string(used) +
                             " detections of the object standing still in the window; need at least " +
                             std::to_string(kMinStretch) + " in a row");
  estimate.samples = used;
  estimate.stretches = groups;
  estimate.covariance = scatter / static_cast<double>(used - groups);
  return estimate;
}

}  // namespace robocaf::runtime
