#include "deploy/perception_evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <opencv2/core.hpp>

#include "actors/perception/detection_filter.hpp"
#include "actors/perception/image_detector.hpp"
#include "actors/world_knowledge/world_tracker.hpp"
#include "messages/log.pb.h"
#include "runtime/angle.hpp"
#include "runtime/game_log.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/random.hpp"

namespace robocaf::deploy {

namespace {

// A ball candidate this close to the true ball is the ball; farther, a false one.
constexpr double kBallMatch = 0.05;

struct SquareSum {
  double sum = 0.0;
  std::uint64_t n = 0;
  void add(double x) {
    sum += x * x;
    ++n;
  }
  double rms() const { return n ? std::sqrt(sum / static_cast<double>(n)) : 0.0; }
};

}  // namespace

PerceptionScores evaluate_overhead_perception(const std::string& log_path, std::uint64_t every) {
  runtime::GameLogReader reader{log_path};
  const msg::MatchConfig& config = reader.header().config();
  if (config.league().vision() != msg::VISION_GLOBAL)
    throw std::runtime_error(log_path + ": league '" + config.league().name() + "' has no global camera");
  sim::camera::OverheadImageRenderer renderer(config.league(), config.sim().global_camera(),
                                              sim::derive_seed(config.seed(), sim::camera::kOverheadImageStream));
  actors::ImageDetector detector(config.league(), renderer.calibration(), msg::ColourThresholds());
  actors::DetectionFilter filter(msg::BLUE, 1);
  actors::WorldTracker tracker(msg::BLUE, 1, config.league());

  SquareSum ball, robot, heading, tracked;
  std::uint64_t ball_frames = 0, robot_frames = 0, robots_right = 0;
  PerceptionScores scores;
  std::vector<double> frame_ms, tracked_errors;
  msg::LogRecord record;
  std::uint64_t truths = 0;
  while (reader.next(record)) {
    if (!record.has_truth()) continue;
    if (truths++ % std::max<std::uint64_t>(every, 1) != 0) continue;
    const msg::WorldTruth& truth = record.truth();
    const cv::Mat image = renderer.render(truth, truth.cycle());
    const auto start = std::chrono::steady_clock::now();
    const msg::DetectionFrame frame = detector.detect(image, truth.cycle() + 1, truth.t());
    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    ++scores.frames;

    const double bx = truth.ball_position().x(), by = truth.ball_position().y();
    double nearest = 1e300;
    for (const auto& b : frame.balls()) {
      const double d = std::hypot(b.x() - bx, b.y() - by);
      nearest = std::min(nearest, d);
      if (d > kBallMatch) ++scores.false_balls;
    }
    ++ball_frames;
    if (nearest <= kBallMatch) {
      ball.add(nearest);
      scores.ball_found += 1.0;
    }

    for (const auto& r : truth.robots()) {
      ++robot_frames;
      const auto& list = r.team() == msg::BLUE ? frame.robots_blue() : frame.robots_yellow();
      for (const auto& d : list) {
        if (d.robot_id() != r.robot_id()) continue;
        const double e = std::hypot(d.x() - r.pose().x(), d.y() - r.pose().y());
        if (e > config.league().robot().radius()) continue;  // right id, wrong place: not this robot
        ++robots_right;
        robot.add(e);
        heading.add(runtime::wrap_angle(d.orientation() - r.pose().theta()));
        break;
      }
    }
    for (const auto* list : {&frame.robots_blue(), &frame.robots_yellow()}) {
      const msg::Team team = list == &frame.robots_blue() ? msg::BLUE : msg::YELLOW;
      for (const auto& d : *list) {
        const bool real = std::any_of(truth.robots().begin(), truth.robots().end(), [&](const msg::RobotTruth& r) {
          return r.team() == team && r.robot_id() == d.robot_id();
        });
        if (!real) ++scores.false_robots;
      }
    }

    tracker.observe(filter.to_percept(frame));
    const msg::WorldEstimate estimate = tracker.estimate(truth.cycle(), truth.t());
    if (estimate.ball().valid()) {
      const double e = std::hypot(estimate.ball().position().x() - bx, estimate.ball().position().y() - by);
      tracked.add(e);
      tracked_errors.push_back(e);
    }
  }
  if (scores.frames == 0) throw std::runtime_error(log_path + ": no truth records to evaluate");
  std::sort(frame_ms.begin(), frame_ms.end());
  scores.frame_ms_median = frame_ms[frame_ms.size() / 2];
  scores.ball_rmse_mm = 1000.0 * ball.rms();
  scores.ball_found /= static_cast<double>(ball_frames);
  scores.robot_rmse_mm = 1000.0 * robot.rms();
  scores.heading_rmse_deg = heading.rms() * 180.0 / runtime::kPi;
  scores.id_accuracy = robot_frames ? static_cast<double>(robots_right) / static_cast<double>(robot_frames) : 0.0;
  scores.tracked_ball_rmse_mm = 1000.0 * tracked.rms();
  if (!tracked_errors.empty()) {
    std::nth_element(tracked_errors.begin(), tracked_errors.begin() + tracked_errors.size() / 2, tracked_errors.end());
    scores.tracked_ball_median_mm = 1000.0 * tracked_errors[tracked_errors.size() / 2];
  }
  return scores;
}

}  // namespace robocaf::deploy
