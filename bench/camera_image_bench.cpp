// Simulated camera images: what one frame costs per preset and size.
// Baseline in the same run: the same scene without lighting and noise, so
// the table shows what the sensor effects cost on top of the geometry.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include <opencv2/core.hpp>

#include "runtime/config_loader.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/physics.hpp"

namespace {

using robocaf::msg::MatchConfig;

std::map<std::string, double> g_ms_per_frame;

// A world at kick-off with the ball rolling, as the world actor would see it.
robocaf::msg::WorldTruth kickoff_truth(const MatchConfig& match) {
  robocaf::sim::Physics world(match.league(), match.sim());
  const auto& f = match.league().field();
  for (int t = 0; t < 2; ++t)
    for (uint32_t i = 1; i <= match.league().team_size(); ++i) {
      robocaf::msg::Pose2 pose;
      pose.set_x((t == 0 ? -1.0 : 1.0) * 0.08 * f.length() * i / 2.0);
      pose.set_y(0.12 * f.width() * (static_cast<double>(i) - 3.0));
      pose.set_theta(t == 0 ? 0.3 * i : M_PI - 0.3 * i);
      world.add_robot(t == 0 ? robocaf::msg::BLUE : robocaf::msg::YELLOW, i, pose);
    }
  world.place_ball({0.05 * f.length(), 0.0}, {0.5, 0.2});
  world.step(0.01);
  return world.truth(0);
}

void record(benchmark::State& state, const std::string& name, std::chrono::steady_clock::time_point start) {
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  g_ms_per_frame[name] = ms / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
}

void overhead(benchmark::State& state, const char* preset, bool effects, const std::string& name) {
  MatchConfig match = robocaf::runtime::preset_match_config(preset);
  auto spec = match.sim().global_camera();
  if (!effects) {
    spec.mutable_image()->set_noise_sd(0);
    spec.mutable_image()->set_lighting_gradient(0);
  }
  robocaf::sim::camera::OverheadImageRenderer renderer(match.league(), spec, 1);
  const auto truth = kickoff_truth(match);
  uint64_t frame = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(renderer.render(truth, ++frame).data);
  record(state, name, start);
}

void onboard(benchmark::State& state, bool effects, const std::string& name) {
  MatchConfig match = robocaf::runtime::preset_match_config("msl");
  auto spec = match.sim().onboard_camera();
  if (!effects) {
    spec.mutable_image()->set_noise_sd(0);
    spec.mutable_image()->set_lighting_gradient(0);
  }
  robocaf::sim::camera::OnboardImageRenderer renderer(match.league(), spec, 1);
  const auto truth = kickoff_truth(match);
  uint64_t frame = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(renderer.render(truth, robocaf::msg::BLUE, 1, ++frame).data);
  record(state, name, start);
}

void mirosot_640x480_plain(benchmark::State& s) { overhead(s, "mirosot", false, "mirosot_640x480_plain"); }
void mirosot_640x480(benchmark::State& s) { overhead(s, "mirosot", true, "mirosot_640x480"); }
void ssl_1280x1024_plain(benchmark::State& s) { overhead(s, "ssl", false, "ssl_1280x1024_plain"); }
void ssl_1280x1024(benchmark::State& s) { overhead(s, "ssl", true, "ssl_1280x1024"); }
void msl_onboard_plain(benchmark::State& s) { onboard(s, false, "msl_onboard_plain"); }
void msl_onboard(benchmark::State& s) { onboard(s, true, "msl_onboard"); }

BENCHMARK(mirosot_640x480_plain)->Unit(benchmark::kMillisecond);
BENCHMARK(mirosot_640x480)->Unit(benchmark::kMillisecond);
BENCHMARK(ssl_1280x1024_plain)->Unit(benchmark::kMillisecond);
BENCHMARK(ssl_1280x1024)->Unit(benchmark::kMillisecond);
BENCHMARK(msl_onboard_plain)->Unit(benchmark::kMillisecond);
BENCHMARK(msl_onboard)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  cv::setNumThreads(1);  // one core, as a robot's perception would get
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  std::printf("\n%-24s %12s %16s\n", "image", "ms per frame", "vs plain scene");
  for (const char* base : {"mirosot_640x480", "ssl_1280x1024", "msl_onboard"}) {
    const std::string plain = std::string(base) + "_plain";
    for (const std::string& name : {plain, std::string(base)}) {
      const double ms = g_ms_per_frame[name];
      const double ref = g_ms_per_frame[plain];
      std::printf("%-24s %12.2f %16.2f\n", name.c_str(), ms, ref > 0 ? ms / ref : 0.0);
    }
  }
  return 0;
}
