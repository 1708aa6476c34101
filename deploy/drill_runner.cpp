#include "deploy/drill_runner.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "deploy/local_match.hpp"
#include "runtime/statistics.hpp"
#include "sim/random.hpp"

namespace robocaf::deploy {

DrillOptions drill_options(const Arguments& arguments, const std::string& command) {
  DrillOptions options;
  options.team_name = team_option(arguments);
  options.team = options.team_name == "blue" ? msg::BLUE : msg::YELLOW;
  options.jobs = arguments.unsigned_number("jobs").value_or(std::max(1u, std::thread::hardware_concurrency()));
  if (options.jobs == 0) throw UsageError("--jobs must be at least 1");
  const std::string log_dir = arguments.value("log-dir").value_or("");
  options.keep_logs = !log_dir.empty();
  options.lead_in_seconds = arguments.number("lead-in", 0.0, 60.0).value_or(kDefaultLeadInSeconds);
  const std::uint64_t repeats = arguments.unsigned_number("repeats").value_or(1);
  if (repeats < 1 || repeats > 1000) throw UsageError("--repeats must be between 1 and 1000");
  options.repeats = static_cast<unsigned>(repeats);
  const std::optional<double> from = arguments.number("from", 0.0, 1e7), to = arguments.number("to", 0.0, 1e7);
  options.windowed = from || to;
  if (from) options.from_seconds = *from;
  if (to) options.to_seconds = *to;
  if (options.from_seconds > options.to_seconds)
    throw UsageError("--from (" + arguments.value("from").value_or("") + " s) is after --to (" +
                     arguments.value("to").value_or("") + " s)");
  options.dir = options.keep_logs ? std::filesystem::path(log_dir)
                                  : std::filesystem::temp_directory_path() /
                                        ("robocaf-" + command + "-" + std::to_string(::getpid()));
  return options;
}

std::string window_text(const DrillOptions& options) {
  char text[96];
  if (!std::isfinite(options.to_seconds))
    std::snprintf(text, sizeof text, "from %g s on", options.from_seconds);
  else if (options.from_seconds <= 0.0)
    std::snprintf(text, sizeof text, "up to %g s", options.to_seconds);
  else
    std::snprintf(text, sizeof text, "between %g and %g s", options.from_seconds, options.to_seconds);
  return text;
}

std::vector<std::string> drill_log_stems(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  auto count = [](const std::vector<std::string>& names, const std::string& name) {
    return std::count(names.begin(), names.end(), name);
  };
  std::vector<std::string> stems;
  for (const std::string& path : paths) stems.push_back(fs::path(path).stem().string());
  std::vector<std::string> named = stems;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (count(stems, stems[i]) < 2) continue;
    const std::string folder = fs::absolute(fs::path(paths[i])).lexically_normal().parent_path().filename().string();
    if (!folder.empty()) named[i] = folder + "-" + stems[i];
  }
  std::vector<std::string> out = named;
  for (size_t i = 0; i < paths.size(); ++i)
    if (count(named, named[i]) > 1) out[i] = named[i] + "-" + std::to_string(i + 1);
  return out;
}

DrillOutcome outcome_of(const sim::RestartReadiness& phase, msg::Team team) {
  const sim::RestartReadiness::Team& mine = team == msg::BLUE ? phase.blue : phase.yellow;
  return {mine.judged, mine.ready_after, mine.repositioned, mine.last_robot};
}

std::string ready_text(const DrillOutcome& outcome) {
  if (!outcome.known) return "-";
  if (outcome.ready_after < 0.0) return "moved " + std::to_string(outcome.moved);
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", outcome.ready_after);
  return text;
}

void DrillColumn::add(const DrillOutcome& outcome) {
  if (!outcome.known) return;
  ++restarts;
  moved += outcome.moved;
  if (outcome.ready_after < 0.0)
    ++not_ready;
  else
    ready.push_back(outcome.ready_after);
}

double DrillColumn::quantile(double q) const { return runtime::quantile(ready, q); }

std::string DrillColumn::quantile_text(double q) const {
  if (ready.empty()) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", quantile(q));
  return text;
}

unsigned DrillColumn::over(double seconds) const {
  return static_cast<unsigned>(std::count_if(ready.begin(), ready.end(), [seconds](double r) { return r > seconds; }));
}

std::vector<DrillRun> repeated(const DrillRun& run, unsigned repeats) {
  std::vector<DrillRun> runs(std::max(1u, repeats), run);
  for (unsigned k = 1; k < runs.size(); ++k) {
    DrillRun& copy = runs[k];
    copy.repeat = k;
    copy.config.set_seed(sim::derive_seed(run.config.seed(), k));
    const std::filesystem::path log(run.log);
    copy.log = (log.parent_path() / (log.stem().string() + "-r" + std::to_string(k) + log.extension().string())).string();
  }
  return runs;
}

std::string repeat_text(const DrillRun& run, const DrillOptions& options) {
  return options.repeats > 1 ? "  repeat " + std::to_string(run.repeat) : std::string();
}

std::vector<size_t> DoneInOrder::mark(size_t i) {
  std::vector<size_t> ready;
  if (i >= done_.size() || done_[i]) return ready;
  done_[i] = 1;
  for (; told_ < done_.size() && done_[told_]; ++told_) ready.push_back(told_);
  return ready;
}

void run_drills(std::vector<DrillRun>& runs, std::uint64_t jobs, bool keep_logs, const DrillDone& in_order) {
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex print;
  DoneInOrder finished(runs.size());  // guarded by `print`
  auto tell = [&](const std::vector<size_t>& ready) {
    if (in_order)
      for (size_t i : ready) in_order(i);
  };
  auto worker = [&] {
    for (size_t i = next++; i < runs.size(); i = next++) {
      DrillRun& run = runs[i];
      if (!run.error.empty()) continue;
      try {
        LocalMatchOptions options;
        options.match = run.config;
        options.start_from = run.start;
        options.opening_restart = run.opening_restart;
        options.lead_in = std::move(run.lead_in);  // not needed after the drill
        options.stop_at_first_start = true;
        options.worker_threads = 1;
        options.log_path = run.log;
        std::string failure;
        {
          LocalMatch local{options};
          failure = local.wait();
        }
        if (!failure.empty()) throw std::runtime_error(failure);
        const auto phases = sim::measure_restart_readiness(run.log);
        if (phases.empty()) throw std::runtime_error("the drill's log " + run.log + " has no placement");
        run.phase = phases.front();
      } catch (const std::exception& e) {
        run.error = e.what();
      }
      if (!keep_logs) std::filesystem::remove(run.log);
      std::lock_guard<std::mutex> lock(print);
      std::cerr << "[" << ++done << "/" << runs.size() << "]" << (run.error.empty() ? "" : " FAILED: " + run.error)
                << std::endl;
      tell(finished.mark(i));
    }
  };
  // The logs' folders, before the workers start.
  for (DrillRun& run : runs) {
    if (!run.error.empty()) continue;
    try {
      std::filesystem::create_directories(std::filesystem::path(run.log).parent_path());
    } catch (const std::exception& e) {
      run.error = e.what();
    }
  }
  // Those failed already are done before any plays.
  for (size_t i = 0; i < runs.size(); ++i)
    if (!runs[i].error.empty()) tell(finished.mark(i));
  std::vector<std::thread> threads;
  for (std::uint64_t j = 0; j < std::min<std::uint64_t>(jobs, runs.size()); ++j) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
}

}  // namespace robocaf::deploy
