// Image perception on one core: ImageDetector::detect on rendered overhead
// frames (MiroSot 640x480, SSL 1280x1024), and OnboardImageDetector::detect
// (ball, robots, goal posts, field lines) and FieldLineDetector::detect alone
// on an MSL robot's onboard 640x480 image, against a baseline measured in the
// same run on the same image: OpenCV's plain cvtColor to HSV + inRange +
// connectedComponentsWithStats for the ball colour only, i.e. the least a
// per-class OpenCV pipeline costs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "actors/perception/colour_segmenter.hpp"
#include "actors/perception/field_line_detector.hpp"
#include "actors/perception/image_detector.hpp"
#include "actors/perception/onboard_image_detector.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/statistics.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/referee.hpp"

namespace {

using robocaf::msg::MatchConfig;

constexpr double kPi = 3.14159265358979323846;

struct Frame {
  MatchConfig match;
  robocaf::msg::CameraCalibration calibration;
  cv::Mat image;
};

// A full team each side at random poses (at least 2.2 radii apart) and a ball.
Frame render(const std::string& preset) {
  Frame f;
  f.match = robocaf::runtime::preset_match_config(preset);
  const auto& league = f.match.league();
  const robocaf::sim::camera::OverheadImageRenderer renderer(league, f.match.sim().global_camera(), 1);
  f.calibration = renderer.calibration();
  const double R = league.robot().radius();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> ux(-league.field().length() / 2 + R, league.field().length() / 2 - R),
      uy(-league.field().width() / 2 + R, league.field().width() / 2 - R), ut(-kPi, kPi);
  std::vector<std::pair<double, double>> placed;
  auto spot = [&](double clearance) {
    for (;;) {
      const double x = ux(rng), y = uy(rng);
      if (std::all_of(placed.begin(), placed.end(),
                      [&](const auto& p) { return std::hypot(x - p.first, y - p.second) >= clearance; }))
        return std::make_pair(x, y);
    }
  };
  robocaf::msg::WorldTruth truth;
  for (auto team : {robocaf::msg::BLUE, robocaf::msg::YELLOW})
    for (std::uint32_t id = 1; id <= league.team_size(); ++id) {
      const auto p = spot(2.2 * R);
      placed.push_back(p);
      auto* r = truth.add_robots();
      r->set_team(team);
      r->set_robot_id(id);
      r->mutable_pose()->set_x(p.first);
      r->mutable_pose()->set_y(p.second);
      r->mutable_pose()->set_theta(ut(rng));
    }
  const auto b = spot(2 * R);
  truth.mutable_ball_position()->set_x(b.first);
  truth.mutable_ball_position()->set_y(b.second);
  f.image = renderer.render(truth, 1);
  return f;
}

// MSL at kick-off, seen by blue 2's own camera from its kick-off place
// (the centre circle, the halfway line, robots of both teams in view). The
// calibration is the camera's pose relative to the robot, as
// OnboardImageDetector takes it.
Frame render_onboard() {
  Frame f;
  f.match = robocaf::runtime::preset_match_config("msl");
  const auto& league = f.match.league();
  const robocaf::sim::camera::OnboardImageRenderer renderer(league, f.match.sim().onboard_camera(), 1);
  f.calibration = renderer.calibration_for(robocaf::msg::Pose2());
  robocaf::msg::WorldTruth truth;
  for (auto team : {robocaf::msg::BLUE, robocaf::msg::YELLOW}) {
    const auto poses =
        robocaf::sim::Referee::kickoff_positions(league, league.team_size(), team == robocaf::msg::YELLOW,
                                                 team == robocaf::msg::BLUE);
    for (std::uint32_t id = 1; id <= league.team_size(); ++id) {
      auto* r = truth.add_robots();
      r->set_team(team);
      r->set_robot_id(id);
      *r->mutable_pose() = poses[id - 1];
    }
  }
  f.image = renderer.render(truth, robocaf::msg::BLUE, 2, 1);
  return f;
}

const Frame& frame(const std::string& preset) {
  static std::map<std::string, Frame> frames;
  auto it = frames.find(preset);
  if (it == frames.end()) it = frames.emplace(preset, preset == "msl-onboard" ? render_onboard() : render(preset)).first;
  return it->second;
}

std::map<std::string, double> g_median_ms;  // per benchmark, for the table

void detector(benchmark::State& state, const std::string& preset) {
  cv::setNumThreads(1);
  const Frame& f = frame(preset);
  robocaf::actors::ImageDetector det(f.match.league(), f.calibration, robocaf::msg::ColourThresholds{});
  std::vector<double> ms;
  std::size_t objects = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = det.detect(f.image, 1, 0.0);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    objects = static_cast<std::size_t>(out.balls_size() + out.robots_blue_size() + out.robots_yellow_size());
    benchmark::DoNotOptimize(out);
  }
  g_median_ms["detector_" + preset] = robocaf::runtime::median(ms);
  state.counters["objects"] = static_cast<double>(objects);
}

void opencv_ball_only(benchmark::State& state, const std::string& preset) {
  cv::setNumThreads(1);
  const Frame& f = frame(preset);
  const auto r = robocaf::actors::default_colour_range(robocaf::actors::ColourClass::kBall);
  const cv::Scalar lo(r.hue_min(), r.saturation_min(), r.value_min()), hi(r.hue_max(), r.saturation_max(), r.value_max());
  cv::Mat hsv, mask, labels, stats, centroids;
  std::vector<double> ms;
  int blobs = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    cv::cvtColor(f.image, hsv, cv::COLOR_BGR2HSV);
    cv::inRange(hsv, lo, hi, mask);
    blobs = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 4, CV_32S) - 1;
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    benchmark::DoNotOptimize(blobs);
  }
  g_median_ms["opencv_" + preset] = robocaf::runtime::median(ms);
  state.counters["ball_blobs"] = blobs;
}

void onboard_detector(benchmark::State& state) {
  cv::setNumThreads(1);
  const Frame& f = frame("msl-onboard");
  robocaf::actors::OnboardImageDetector det(f.match.league(), f.calibration, robocaf::msg::ColourThresholds{});
  std::vector<double> ms;
  robocaf::actors::OnboardDetections out;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    out = det.detect(f.image);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    benchmark::DoNotOptimize(out);
  }
  g_median_ms["detector_msl-onboard"] = robocaf::runtime::median(ms);
  state.counters["robots"] = static_cast<double>(out.robots.size());
  state.counters["line_points"] = static_cast<double>(out.line_points.size());
}

void field_lines(benchmark::State& state) {
  cv::setNumThreads(1);
  const Frame& f = frame("msl-onboard");
  robocaf::actors::FieldLineDetector det(f.match.league().field(), f.calibration);
  std::vector<Eigen::Vector2d> points;
  std::vector<double> ms;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    det.detect(f.image, points);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    benchmark::DoNotOptimize(points);
  }
  g_median_ms["lines_msl-onboard"] = robocaf::runtime::median(ms);
  state.counters["points"] = static_cast<double>(points.size());
}

void detector_mirosot(benchmark::State& s) { detector(s, "mirosot"); }
void detector_ssl(benchmark::State& s) { detector(s, "ssl"); }
void opencv_ball_only_mirosot(benchmark::State& s) { opencv_ball_only(s, "mirosot"); }
void opencv_ball_only_ssl(benchmark::State& s) { opencv_ball_only(s, "ssl"); }
void opencv_ball_only_onboard(benchmark::State& s) { opencv_ball_only(s, "msl-onboard"); }

BENCHMARK(opencv_ball_only_mirosot)->Unit(benchmark::kMillisecond);
BENCHMARK(detector_mirosot)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_ball_only_ssl)->Unit(benchmark::kMillisecond);
BENCHMARK(detector_ssl)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_ball_only_onboard)->Unit(benchmark::kMillisecond);
BENCHMARK(onboard_detector)->Unit(benchmark::kMillisecond);
BENCHMARK(field_lines)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  std::printf("\n%-10s %-11s %16s %20s %16s %10s\n", "preset", "image", "detect ms (med)", "OpenCV ball-only ms",
              "vs OpenCV", "target ms");
  for (const char* preset : {"mirosot", "ssl"}) {
    const double d = g_median_ms["detector_" + std::string(preset)];
    const double b = g_median_ms["opencv_" + std::string(preset)];
    const cv::Mat& img = frame(preset).image;
    const std::string size = std::to_string(img.cols) + "x" + std::to_string(img.rows);
    std::printf("%-10s %-11s %16.3f %20.3f %16.2f %10.1f\n", preset, size.c_str(), d, b, b > 0 ? d / b : 0.0,
                std::string(preset) == "mirosot" ? 1.0 : 4.0);
  }
  const double b = g_median_ms["opencv_msl-onboard"];
  std::printf("\n%-34s %10s %10s\n", "MSL onboard 640x480", "ms (med)", "vs OpenCV");
  std::printf("%-34s %10.3f %10.2f\n", "OpenCV ball only (baseline)", b, 1.0);
  for (const auto& [name, key] : {std::pair<const char*, const char*>{"OnboardImageDetector (all)", "detector_msl-onboard"},
                                  {"FieldLineDetector alone", "lines_msl-onboard"}}) {
    const double d = g_median_ms[key];
    std::printf("%-34s %10.3f %10.2f\n", name, d, b > 0 ? d / b : 0.0);
  }
  return 0;
}
