// `robocaf eval-perception`: perception on rendered camera images, measured
// against the world's ground truth.

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/local_match.hpp"
#include "deploy/perception_evaluation.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::deploy {

namespace {

const char* kEvalUsage =
    "usage: robocaf eval-perception [--preset mirosot|ssl|msl] [--camera overhead|onboard] [--seconds S] [--seed N]\n"
    "                               [--every N] [--log FILE] [--summary-json FILE]\n"
    "  plays a match, renders the camera images of every (N-th) cycle, runs image perception\n"
    "  and world knowledge on them and compares both with the ground truth.\n"
    "  --camera overhead (default for mirosot and ssl): the global camera's image\n"
    "  --camera onboard (default for msl): every robot's own camera, and the value of\n"
    "    sharing world knowledge between teammates";

int report_onboard(const msg::MatchConfig& match, const std::string& log, std::uint64_t every,
                   const std::optional<std::string>& summary_json) {
  const OnboardPerceptionScores s = evaluate_onboard_perception(log, every);
  std::printf("frames              %10llu   (%llu robot images)\n", static_cast<unsigned long long>(s.frames),
              static_cast<unsigned long long>(s.robot_frames));
  std::printf("ball error          %10.2f %%    of its distance, RMS (median %.2f %%), ball in clear view\n",
              s.ball_error_pct_of_distance, s.ball_error_pct_median);
  std::printf("ball found in view  %10.2f %%    of %llu images with the ball in clear view (partly in view: %.2f %%)\n",
              100.0 * s.ball_found_in_view, static_cast<unsigned long long>(s.ball_clear_view),
              100.0 * s.ball_found_partly_in_view);
  std::printf("false balls         %10llu\n", static_cast<unsigned long long>(s.false_balls));
  std::printf("robots found        %10.2f %%    in clear view (median error %.2f %% of distance)\n",
              100.0 * s.robot_found_in_view, s.robot_error_pct_median);
  std::printf("goals found         %10.2f %%    of %llu images with a goal in clear view within range\n",
              100.0 * s.goal_found_in_view, static_cast<unsigned long long>(s.goal_clear_view));
  std::printf("goal post error     %10.2f %%    of its distance, RMS (median %.2f %%); %llu false goals\n",
              s.landmark_error_pct, s.landmark_error_pct_median, static_cast<unsigned long long>(s.false_goals));
  std::printf("line points         %10.2f      per image; %.2f %% of their distance from a line, RMS (median %.2f %%); %llu more than %.2f m off\n",
              s.line_points_per_image, s.line_point_error_pct, s.line_point_error_pct_median,
              static_cast<unsigned long long>(s.line_points_off), OnboardPerceptionScores::kLinePointOff);
  std::printf("frame time median   %10.3f ms   (detection per image)\n", s.frame_ms_median);
  std::printf("ball known, own     %10.2f %%    of robot-frames: valid estimate within %.2f m of the ball\n",
              100.0 * s.ball_known_own, s.usable_ball_error_m);
  std::printf("ball known, shared  %10.2f %%    (teammates' estimates fused every %.2f s)\n",
              100.0 * s.ball_known_shared, match.share_period());
  if (summary_json) {
    nlohmann::json json{{"preset", match.league().name()},
                        {"camera", "onboard"},
                        {"seed", match.seed()},
                        {"frames", s.frames},
                        {"robot_frames", s.robot_frames},
                        {"ball_clear_view", s.ball_clear_view},
                        {"ball_error_pct_of_distance", s.ball_error_pct_of_distance},
                        {"ball_error_pct_median", s.ball_error_pct_median},
                        {"ball_found_in_view", s.ball_found_in_view},
                        {"ball_found_partly_in_view", s.ball_found_partly_in_view},
                        {"false_balls", s.false_balls},
                        {"robot_found_in_view", s.robot_found_in_view},
                        {"robot_error_pct_median", s.robot_error_pct_median},
                        {"frame_ms_median", s.frame_ms_median},
                        {"usable_ball_error_m", s.usable_ball_error_m},
                        {"ball_known_own", s.ball_known_own},
                        {"ball_known_shared", s.ball_known_shared},
                        {"goal_clear_view", s.goal_clear_view},
                        {"goal_found_in_view", s.goal_found_in_view},
                        {"landmark_error_pct", s.landmark_error_pct},
                        {"landmark_error_pct_median", s.landmark_error_pct_median},
                        {"false_goals", s.false_goals},
                        {"line_points_per_image", s.line_points_per_image},
                        {"line_point_error_pct", s.line_point_error_pct},
                        {"line_point_error_pct_median", s.line_point_error_pct_median},
                        {"line_points_off", s.line_points_off},
                        {"log", log}};
    write_text_file(*summary_json, json.dump(2) + '\n');
  }
  return 0;
}

}  // namespace

int eval_perception_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"preset", "camera", "seconds", "seed", "every", "log", "summary-json"}, {"help"}, 0};
  if (arguments.has("help")) {
    std::cout << kEvalUsage << '\n';
    return 0;
  }
  msg::MatchConfig match = runtime::preset_match_config(arguments.value("preset").value_or("mirosot"));
  const bool onboard_league = match.league().vision() == msg::VISION_ONBOARD;
  const std::string camera = arguments.value("camera").value_or(onboard_league ? "onboard" : "overhead");
  if (camera != "overhead" && camera != "onboard")
    throw UsageError("--camera must be 'overhead' or 'onboard', got '" + camera + "'");
  if (camera == "overhead" && match.league().vision() != msg::VISION_GLOBAL)
    throw UsageError("preset '" + match.league().name() + "' has no overhead camera");
  if (camera == "onboard" && !onboard_league)
    throw UsageError("preset '" + match.league().name() + "' has no onboard cameras");
  if (auto seed = arguments.unsigned_number("seed")) match.set_seed(*seed);
  const double seconds = arguments.number("seconds", 1.0, 24 * 3600.0).value_or(600.0);
  match.set_half_duration(seconds / 2.0);
  const uint64_t every = arguments.unsigned_number("every").value_or(1);
  if (every == 0) throw UsageError("--every must be at least 1");
  const std::string log = arguments.value("log").value_or("eval-perception-seed" + std::to_string(match.seed()) + ".rclog");

  std::cout << "robocaf eval-perception: " << match.league().name() << ", "
            << (camera == "onboard" ? "onboard cameras" : "overhead camera") << ", " << seconds << " s of play, seed "
            << match.seed() << std::endl;
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
  if (camera == "onboard") return report_onboard(match, log, every, arguments.value("summary-json"));
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
    write_text_file(*path, json.dump(2) + '\n');
  }
  return 0;
}

}  // namespace robocaf::deploy
