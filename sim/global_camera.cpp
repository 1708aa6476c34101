#include "sim/global_camera.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "runtime/angle.hpp"

namespace robocaf::sim {

namespace {

using runtime::wrap_angle;

// Stream of derive_seed() for the false ball candidates; the real objects use
// the seed itself, as they always did, so old seeds replay old frames.
constexpr std::uint64_t kFalseBallStream = 1;

// Poisson by Knuth's method multiplies uniforms down to exp(-mean), which
// underflows past ~700; no camera produces anywhere near this many.
constexpr double kMaxFalseBallRate = 100.0;

// Symmetry and semi-definiteness are checked up to this fraction of the
// matrix's largest entry, so a covariance written with rounded decimals (or
// a singular one whose eigenvalue comes out as -1e-20) still passes.
constexpr double kRelativeTolerance = 1e-9;

// %g-like form: std::to_string would print a covariance of 1e-7 as 0.000000.
std::string format(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw std::invalid_argument("GlobalCamera: NoiseSpec." + field + " " + what);
}

void require(bool ok, const char* field, double value, const char* rule) {
  if (!ok) fail(field, std::string(rule) + " (got " + format(value) + ")");
}

void require_sd(const char* field, double sd) {
  require(sd >= 0.0 && std::isfinite(sd), field, sd, "must be >= 0");
}

// S with S S^T = Sigma, row-major N x N. Without a covariance, Sigma is
// diag(sds^2) and S = diag(sds), so S z reproduces the per-axis noise bit for
// bit. With one, it is validated and factored (see the class comment).
template <int N>
std::array<double, N * N> noise_factor(const google::protobuf::RepeatedField<double>& covariance,
                                       const std::string& field, const char* axes,
                                       const std::array<double, N>& sds) {
  std::array<double, N * N> s{};
  if (covariance.empty()) {
    for (int i = 0; i < N; ++i) s[static_cast<std::size_t>(i * N + i)] = sds[static_cast<std::size_t>(i)];
    return s;
  }
  if (covariance.size() != N * N) {
    fail(field, "needs " + std::to_string(N * N) + " entries, a " + std::to_string(N) + "x" +
                    std::to_string(N) + " row-major matrix over " + axes + " (got " +
                    std::to_string(covariance.size()) + ")");
  }
  using Matrix = Eigen::Matrix<double, N, N, Eigen::RowMajor>;
  const Matrix a = Eigen::Map<const Matrix>(covariance.data());
  if (!a.allFinite()) fail(field, "has an entry that is not finite");
  const double scale = a.cwiseAbs().maxCoeff();
  const double tolerance = kRelativeTolerance * scale;
  for (int i = 0; i < N; ++i) {
    for (int j = i + 1; j < N; ++j) {
      if (std::abs(a(i, j) - a(j, i)) > tolerance) {
        fail(field, "is not symmetric: entry (" + std::to_string(i) + "," + std::to_string(j) +
                        ") = " + format(a(i, j)) + " but (" + std::to_string(j) + "," +
                        std::to_string(i) + ") = " + format(a(j, i)));
      }
    }
  }
  const Matrix sym = 0.5 * (a + a.transpose());
  const double min_eigenvalue = Eigen::SelfAdjointEigenSolver<Matrix>(sym, Eigen::EigenvaluesOnly)
                                    .eigenvalues()
                                    .minCoeff();
  if (min_eigenvalue < -tolerance) {
    fail(field, "is not positive semi-definite (smallest eigenvalue " +
                    format(min_eigenvalue) + ")");
  }

  Matrix factor;
  const Eigen::LLT<Matrix> llt(sym);
  if (llt.info() == Eigen::Success) {
    factor = llt.matrixL();
  } else {
    // Singular: Sigma = P^T L D L^T P with D >= 0 (up to rounding, clamped),
    // so S = P^T L sqrt(D) is a square root with the same covariance.
    const Eigen::LDLT<Matrix> ldlt(sym);
    const Eigen::Matrix<double, N, 1> root_d = ldlt.vectorD().cwiseMax(0.0).cwiseSqrt();
    const Matrix l = ldlt.matrixL();
    factor = ldlt.transpositionsP().transpose() * (l * root_d.asDiagonal());
  }
  Eigen::Map<Matrix>(s.data()) = factor;
  return s;
}

}  // namespace

GlobalCamera::GlobalCamera(const msg::FieldGeometry& field, const msg::NoiseSpec& noise,
                           std::uint64_t seed)
    : noise_(noise),
      half_length_(0.5 * field.length()),
      half_width_(0.5 * field.width()),
      rng_(seed),
      false_rng_(derive_seed(seed, kFalseBallStream)) {
  require_sd("position_sd", noise.position_sd());
  require_sd("orientation_sd", noise.orientation_sd());
  require_sd("ball_position_sd", noise.ball_position_sd());
  require(noise.miss_probability() >= 0.0 && noise.miss_probability() <= 1.0, "miss_probability",
          noise.miss_probability(), "must be in [0, 1]");
  require(noise.false_ball_rate() >= 0.0 && noise.false_ball_rate() <= kMaxFalseBallRate,
          "false_ball_rate", noise.false_ball_rate(), "must be in [0, 100]");
  robot_factor_ = noise_factor<3>(noise.robot_covariance(), "robot_covariance", "(x, y, theta)",
                                  {noise.position_sd(), noise.position_sd(), noise.orientation_sd()});
  ball_factor_ = noise_factor<2>(noise.ball_covariance(), "ball_covariance", "(x, y)",
                                 {noise.ball_position_sd(), noise.ball_position_sd()});
  false_balls_ = noise.false_ball_rate() > 0.0;
  if (false_balls_ && !(half_length_ > 0.0 && half_width_ > 0.0 && std::isfinite(half_length_) &&
                        std::isfinite(half_width_))) {
    fail("false_ball_rate", "needs a field with a positive length and width (got " +
                                format(field.length()) + " x " + format(field.width()) + ")");
  }
}

GlobalCamera::GlobalCamera(const msg::NoiseSpec& noise, std::uint64_t seed)
    : GlobalCamera(msg::FieldGeometry(), noise, seed) {}

msg::DetectionFrame GlobalCamera::observe(const msg::WorldTruth& truth,
                                          std::uint64_t frame_number, double t_capture) {
  msg::DetectionFrame f;
  f.set_frame_number(frame_number);
  f.set_t_capture(t_capture);
  f.set_t_sent(t_capture);
  f.set_camera_id(0);
  f.set_cycle(truth.cycle());

  {
    const bool seen = rng_.uniform() >= noise_.miss_probability();
    const double z0 = rng_.gaussian(), z1 = rng_.gaussian();
    const auto& s = ball_factor_;
    if (seen) {
      auto* b = f.add_balls();
      b->set_confidence(kConfidence);
      b->set_x(truth.ball_position().x() + (s[0] * z0 + s[1] * z1));
      b->set_y(truth.ball_position().y() + (s[2] * z0 + s[3] * z1));
    }
  }
  for (const auto& r : truth.robots()) {
    const bool seen = rng_.uniform() >= noise_.miss_probability();
    const double z0 = rng_.gaussian(), z1 = rng_.gaussian(), z2 = rng_.gaussian();
    if (!seen) continue;
    msg::DetectionRobot* d = nullptr;
    if (r.team() == msg::BLUE) {
      d = f.add_robots_blue();
    } else if (r.team() == msg::YELLOW) {
      d = f.add_robots_yellow();
    } else {
      continue;
    }
    const auto& s = robot_factor_;
    d->set_confidence(kConfidence);
    d->set_robot_id(r.robot_id());
    d->set_x(r.pose().x() + (s[0] * z0 + s[1] * z1 + s[2] * z2));
    d->set_y(r.pose().y() + (s[3] * z0 + s[4] * z1 + s[5] * z2));
    d->set_orientation(wrap_angle(r.pose().theta() + (s[6] * z0 + s[7] * z1 + s[8] * z2)));
  }

  if (false_balls_) {
    const int count = false_rng_.poisson(noise_.false_ball_rate());
    for (int k = 0; k < count; ++k) {
      auto* b = f.add_balls();
      b->set_confidence(kFalseBallConfidence);
      b->set_x((2.0 * false_rng_.uniform() - 1.0) * half_length_);
      b->set_y((2.0 * false_rng_.uniform() - 1.0) * half_width_);
    }
  }
  return f;
}

}  // namespace robocaf::sim
