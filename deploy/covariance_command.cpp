// `robocaf covariance LOG`: MI20's vision covariance tool over a game log.

#include <iomanip>
#include <iostream>
#include <sstream>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/noise_covariance.hpp"

namespace robocaf::deploy {

namespace {

const char* kCovarianceUsage =
    "usage: robocaf covariance LOG [--object ball|blue/N|yellow/N] [--from SECONDS] [--to SECONDS]\n"
    "  the measurement covariance of an object standing still in the log's detections";

}  // namespace

int covariance_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"object", "from", "to"}, {"help"}, 1};
  if (arguments.has("help")) {
    std::cout << kCovarianceUsage << '\n';
    return 0;
  }
  if (arguments.positional().size() != 1) throw UsageError(std::string("give one game log\n") + kCovarianceUsage);
  const std::string object = arguments.value("object").value_or("ball");
  runtime::NoiseSubject subject;
  try {
    subject = runtime::parse_noise_subject(object);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--object: ") + e.what());
  }
  const double from = arguments.number("from", 0.0, 1e9).value_or(0.0);
  const double to = arguments.number("to", 0.0, 1e9).value_or(1e300);
  if (to < from) throw UsageError("--to must not be before --from");

  const auto estimate = runtime::estimate_detection_noise(arguments.positional()[0], subject, from, to);
  const bool ball = subject.ball;
  const char* names[] = {"x", "y", "theta"};
  std::cout << "object " << object << ": " << estimate.samples << " detections in " << estimate.stretches
            << " still stretch" << (estimate.stretches == 1 ? "" : "es");
  if (estimate.rejected_moving > 0) std::cout << " (" << estimate.rejected_moving << " left out: it moved)";
  std::cout << "\nmean (longest stretch) " << std::setprecision(6);
  for (int i = 0; i < estimate.mean.size(); ++i) std::cout << names[i] << " " << estimate.mean(i) << "  ";
  std::cout << "\nsd   ";
  for (int i = 0; i < estimate.mean.size(); ++i) std::cout << names[i] << " " << std::sqrt(estimate.covariance(i, i)) << "  ";
  std::cout << "\ncovariance (m, rad):\n" << estimate.covariance << '\n';
  std::ostringstream entries;
  for (int r = 0; r < estimate.covariance.rows(); ++r)
    for (int c = 0; c < estimate.covariance.cols(); ++c)
      entries << (r || c ? ", " : "") << std::setprecision(6) << estimate.covariance(r, c);
  std::cout << "for the config (sim.detection_noise): " << (ball ? "ball_covariance" : "robot_covariance") << ": ["
            << entries.str() << "]\n";
  return 0;
}

}  // namespace robocaf::deploy
