#include "deploy/match_report.hpp"

#include "deploy/cli.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::deploy {

MatchReport make_report(const std::string& log_path, double wall_seconds) {
  MatchReport report;
  report.summary = runtime::summarize_log(log_path);
  auto& extras = report.extras;
  extras.numbers["wall_seconds"] = wall_seconds;
  extras.numbers["real_time_factor"] = wall_seconds > 0 ? report.summary.sim_seconds / wall_seconds : 0;
  extras.strings["log"] = log_path;
  extras.strings["log_sha256"] = runtime::sha256_file(log_path);
  return report;
}

void write_summary_json(const std::string& path, const MatchReport& report) {
  write_text_file(path, runtime::summary_json(report.summary, report.extras));
}

}  // namespace robocaf::deploy
