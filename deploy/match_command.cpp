#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/local_match.hpp"
#include "deploy/match_report.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/match_summary.hpp"

namespace robocaf::deploy {

namespace {

const char* kMatchUsage =
    "usage: robocaf match [--preset mirosot|ssl|msl | --config FILE] [--seed N] [--half-duration SECONDS]\n"
    "                     [--log FILE] [--summary-json FILE] [--realtime] [--time-ratio R] [--threads N] [--quiet]\n"
    "                     [--perception-images]\n"
    "  --perception-images  perception detects on rendered camera images instead of getting\n"
    "                       simulated detections: the overhead image, or (msl) each robot's own\n"
    "                       onboard image, goal posts included for self-localisation\n"
    "  --realtime      pace the world on the wall clock (live runs; not reproducible)\n"
    "  --time-ratio R  with --realtime: simulated seconds per wall second (0.5, 1, 2, ...)";

std::string print_kind_stats(const std::map<std::string, KindStats>& stats) {
  std::ostringstream out;
  out << "actor kind        messages   avg us   max us  (slowest message)\n";
  for (auto& [kind, s] : stats) {
    const double avg = s.messages ? s.total_us / static_cast<double>(s.messages) : 0.0;
    out << std::left << std::setw(16) << kind << std::right << std::setw(10) << s.messages << std::fixed
        << std::setprecision(1) << std::setw(9) << avg << std::setw(9) << s.max_us << "  (" << s.slowest_message
        << ")\n";
  }
  return out.str();
}

}  // namespace

int match_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"config", "preset", "seed", "half-duration", "log", "summary-json", "threads", "time-ratio"},
                      {"realtime", "quiet", "help", "perception-images"}, 0};
  if (arguments.has("help")) {
    std::cout << kMatchUsage << '\n';
    return 0;
  }
  if (arguments.value("config") && arguments.value("preset"))
    throw UsageError("--config and --preset are alternatives; give one");
  msg::MatchConfig match = arguments.value("config")   ? runtime::load_match_config(*arguments.value("config"))
                           : arguments.value("preset") ? runtime::preset_match_config(*arguments.value("preset"))
                                                       : runtime::default_match_config();
  if (auto seed = arguments.unsigned_number("seed")) match.set_seed(*seed);
  if (auto half = arguments.number("half-duration", 1.0, 24 * 3600.0)) match.set_half_duration(*half);
  const std::string log_path = arguments.value("log").value_or("match-seed" + std::to_string(match.seed()) + ".rclog");
  const bool realtime = arguments.has("realtime");
  // Overhead images under a global camera, each robot's own under onboard vision.
  if (arguments.has("perception-images")) match.mutable_sim()->set_perception_on_images(true);
  if (auto ratio = arguments.number("time-ratio", 0.01, 100.0)) {
    if (!realtime) throw UsageError("--time-ratio paces a live run: it needs --realtime");
    match.mutable_sim()->set_time_ratio(*ratio);
  }
  const bool quiet = arguments.has("quiet");
  const unsigned threads = static_cast<unsigned>(arguments.unsigned_number("threads").value_or(0));

  LocalMatchOptions options;
  options.match = match;
  options.realtime = realtime;
  options.log_path = log_path;
  options.worker_threads = threads;
  if (!quiet) options.progress = [](const std::string& line) { std::cout << line << std::endl; };
  if (!quiet)
    std::cout << "robocaf match: " << match.league().name() << " " << match.league().team_size() << " v "
              << match.league().team_size() << ", seed " << match.seed() << ", two halves of "
              << match.half_duration() << " s, "
              << (realtime ? "real time x" + std::to_string(match.sim().time_ratio() > 0 ? match.sim().time_ratio() : 1.0)
                           : std::string("virtual time"))
              << std::endl;
  const auto wall_start = std::chrono::steady_clock::now();
  std::map<std::string, KindStats> stats;
  {
    LocalMatch local{options};
    std::string failure = local.wait();
    if (!failure.empty()) {
      std::cerr << "robocaf match: the match did not finish: " << failure << '\n';
      return 1;
    }
    stats = local.stats();
  }
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  MatchReport report = make_report(log_path, wall_seconds);
  report.extras.numbers["seed"] = static_cast<double>(match.seed());
  for (auto& [kind, kind_stats] : stats) report.extras.messages_per_kind[kind] = kind_stats.messages;
  std::cout << runtime::format_result_table(report.summary);
  std::cout << print_kind_stats(stats);
  std::cout << "wall time " << wall_seconds << " s, real-time factor "
            << report.extras.numbers["real_time_factor"] << "x\n";
  std::cout << "game log " << log_path << " (sha256 " << report.extras.strings["log_sha256"] << ")\n";
  if (auto json = arguments.value("summary-json")) write_summary_json(*json, report);
  return 0;
}

}  // namespace robocaf::deploy
