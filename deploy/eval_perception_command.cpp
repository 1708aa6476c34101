// `robocaf eval-perception`: perception on rendered camera images, measured
// against the world's ground truth.

#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/local_match.hpp"
#include "deploy/perception_evaluation.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::deploy {

namespace {

const char* kEvalUsage =
    "usage: robocaf eval-perception [--preset mirosot|ssl] [--camera overhead] [--seconds S] [--seed N]\n"
    "                               [--every N] [--log FILE] [--summary-json FILE]\n"
    "  plays a match, renders the overhead camera image of every (N-th) cycle, runs image\n"
    "  perception and world knowledge on it and compares both with the ground truth";

}  // namespace

int eval_perception_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"preset", "camera", "seconds", "seed", "every", "log", "summary-json"}, {"help"}, 0};
  if (arguments.has("help")) {
    std::cout << kEvalUsage << '\n';
    return 0;
  }
  const std::string camera = arguments.value("camera").value_or("overhead");
  if (camera != "overhead")
    throw UsageError("--camera " + camera +
                     ": only overhead image perception exists so far (onboard images render, but no detector reads them yet)");
  msg::MatchConfig match = runtime::preset_match_config(arguments.value("preset").value_or("mirosot"));
  if (match.league().vision() != msg::VISION_GLOBAL)
    throw UsageError("preset '" + match.league().name() + "' has no overhead camera");
  if (auto seed = arguments.unsigned_number("seed")) match.set_seed(*seed);
  const double seconds = arguments.number("seconds", 1.0, 24 * 3600.0).value_or(600.0);
  match.set_half_duration(seconds / 2.0);
  const uint64_t every = arguments.unsigned_number("every").value_or(1);
  if (every == 0) throw UsageError("--every must be at least 1");
  const std::string log = arguments.value("log").value_or("eval-perception-seed" + std::to_string(match.seed()) + ".rclog");

  std::cout << "robocaf eval-perception: " << match.league().name() << ", overhead camera, " << seconds
            << " s of play, seed " << match.seed() << std::endl;
  {
    LocalMatchOptions options;
    options.match = match;
    options.log_path = log;
    LocalMatch local{options};
    const std::string failure = local.wait();
    if (!failure.empty()) {
      std::cerr << "robocaf eval-perception: the match did not finish: " << failure << '\n';
      return 1;
    }
  }
  const PerceptionScores s = evaluate_overhead_perception(log, every);
  std::printf("frames              %10llu\n", static_cast<unsigned long long>(s.frames));
  std::printf("ball rmse           %10.2f mm   (found in %.2f %% of frames, %llu false candidates)\n", s.ball_rmse_mm,
              100.0 * s.ball_found, static_cast<unsigned long long>(s.false_balls));
  std::printf("robot rmse          %10.2f mm\n", s.robot_rmse_mm);
  std::printf("heading rmse        %10.2f deg\n", s.heading_rmse_deg);
  std::printf("id accuracy         %10.4f %%   (%llu false robots)\n", 100.0 * s.id_accuracy,
              static_cast<unsigned long long>(s.false_robots));
  std::printf("frame time median   %10.3f ms\n", s.frame_ms_median);
  std::printf("tracked ball rmse   %10.2f mm   (world knowledge of blue 1; median %.2f mm)\n", s.tracked_ball_rmse_mm,
              s.tracked_ball_median_mm);
  if (auto path = arguments.value("summary-json")) {
    nlohmann::json json{{"preset", match.league().name()},
                        {"camera", camera},
                        {"seed", match.seed()},
                        {"frames", s.frames},
                        {"ball_rmse_mm", s.ball_rmse_mm},
                        {"ball_found", s.ball_found},
                        {"false_balls", s.false_balls},
                        {"robot_rmse_mm", s.robot_rmse_mm},
                        {"heading_rmse_deg", s.heading_rmse_deg},
                        {"id_accuracy", s.id_accuracy},
                        {"false_robots", s.false_robots},
                        {"frame_ms_median", s.frame_ms_median},
                        {"tracked_ball_rmse_mm", s.tracked_ball_rmse_mm},
                        {"tracked_ball_median_mm", s.tracked_ball_median_mm},
                        {"log", log}};
    std::ofstream out{*path, std::ios::trunc};
    out << json.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + *path);
  }
  return 0;
}

}  // namespace robocaf::deploy
