#pragma once
// The result of a finished match as every command reports it: the summary
// computed from its game log plus how the run went (wall time, log checksum).

#include <string>

#include "runtime/match_summary.hpp"

namespace robocaf::deploy {

struct MatchReport {
  runtime::MatchSummary summary;
  runtime::SummaryExtras extras;  // wall_seconds, real_time_factor, log, log_sha256
};

/// Summarizes the game log at `log_path` of a match that took `wall_seconds`.
MatchReport make_report(const std::string& log_path, double wall_seconds);

/// Writes the summary JSON; throws std::runtime_error naming `path` if it cannot.
void write_summary_json(const std::string& path, const MatchReport& report);

}  // namespace robocaf::deploy
