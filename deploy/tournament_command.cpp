// `robocaf tournament`: N matches of our team against a baseline opponent,
// each in its own `robocaf match` process (J at a time), then a table and JSON.
//
// Processes rather than threads: a match owns a whole CAF actor system, and a
// crash or hang in one match must not take the others with it; each child runs
// one worker thread, so J jobs use J cores and every log stays reproducible.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include <google/protobuf/text_format.h>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "deploy/tournament.hpp"
#include "runtime/config_loader.hpp"

extern char** environ;

namespace robocaf::deploy {

namespace {

const char* kTournamentUsage =
    "usage: robocaf tournament --preset mirosot|ssl|msl --opponent chaser|wall|default|FILE --matches N\n"
    "                          [--jobs J] [--first-seed S] [--team NAME|FILE] [--half-duration S]\n"
    "                          [--log-dir DIR] [--summary-json FILE]\n"
    "  plays N full matches of our team (blue; --team, default 'default') against the opponent\n"
    "  (yellow) with seeds S, S+1, ..., J at a time, each in its own process; prints a table\n"
    "  and writes every match's game log to DIR (default tournament-<preset>-<opponent>)";

struct Running {
  uint64_t seed;
  std::string log;
  std::chrono::steady_clock::time_point started;
};

pid_t spawn_match(const std::string& self, const std::vector<std::string>& args, const std::string& output) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(self.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + self + ": " + std::strerror(error));
  return pid;
}

std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

}  // namespace

int tournament_command(const std::vector<std::string>& args, const std::string& self_executable) {
  Arguments arguments{args,
                      {"preset", "opponent", "matches", "jobs", "first-seed", "team", "half-duration", "log-dir",
                       "summary-json"},
                      {"help"},
                      0};
  if (arguments.has("help")) {
    std::cout << kTournamentUsage << '\n';
    return 0;
  }
  const std::string preset_name = arguments.value("preset").value_or("mirosot");
  const msg::MatchConfig preset = runtime::preset_match_config(preset_name);
  if (!arguments.value("opponent")) throw UsageError("--opponent is required (chaser, wall, default or a TeamConfig file)");
  const std::string opponent_arg = *arguments.value("opponent");
  const msg::TeamConfig opponent = runtime::team_config(opponent_arg);
  const msg::TeamConfig ours = runtime::team_config(arguments.value("team").value_or("default"));
  const uint64_t matches = arguments.unsigned_number("matches").value_or(20);
  if (matches == 0) throw UsageError("--matches must be at least 1");
  const uint64_t jobs = arguments.unsigned_number("jobs").value_or(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs == 0) throw UsageError("--jobs must be at least 1");
  const uint64_t first_seed = arguments.unsigned_number("first-seed").value_or(1);
  const double half_duration = arguments.number("half-duration", 1.0, 24 * 3600.0).value_or(0.0);
  const std::string opponent_label = opponent.name().empty() ? opponent_arg : opponent.name();
  const std::string our_label = ours.name().empty() ? "ours" : ours.name();
  const std::string dir = arguments.value("log-dir").value_or("tournament-" + preset_name + "-" + opponent_label);

  std::filesystem::create_directories(dir);
  // One config for every match; each child gets its seed on the command line.
  const msg::MatchConfig config = tournament_match_config(preset, ours, opponent, first_seed, half_duration);
  const std::string config_path = dir + "/match.pbtxt";
  {
    std::string text;
    google::protobuf::TextFormat::PrintToString(config, &text);
    write_text_file(config_path, "# written by robocaf tournament: " + preset_name + ", " + our_label + " (blue) vs " +
                                     opponent_label + " (yellow)\n" + text);
  }

  std::cout << "robocaf tournament: " << preset_name << ", " << our_label << " vs " << opponent_label << ", "
            << matches << " matches of 2 x " << config.half_duration() << " s, " << jobs << " at a time, logs in "
            << dir << std::endl;

  std::vector<TournamentMatch> results(matches);
  std::map<pid_t, size_t> running;  // pid -> index into results
  std::map<size_t, std::chrono::steady_clock::time_point> started;
  size_t next = 0, done = 0;
  while (done < matches) {
    while (next < matches && running.size() < jobs) {
      TournamentMatch& m = results[next];
      m.seed = first_seed + next;
      const std::string stem = dir + "/seed" + std::to_string(m.seed);
      m.log = stem + ".rclog";
      const pid_t pid = spawn_match(self_executable,
                                    {"match", "--config", config_path, "--seed", std::to_string(m.seed), "--log", m.log,
                                     "--threads", "1", "--quiet"},
                                    stem + ".out");
      running[pid] = next;
      started[next] = std::chrono::steady_clock::now();
      ++next;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const size_t index = it->second;
    running.erase(it);
    TournamentMatch& m = results[index];
    m.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started[index]).count();
    const std::string output = dir + "/seed" + std::to_string(m.seed) + ".out";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      try {
        m.summary = runtime::summarize_log(m.log);
        m.ok = m.summary.finished;
        if (!m.ok) m.error = "the log " + m.log + " has no match end";
      } catch (const std::exception& e) {
        m.error = e.what();
      }
    } else {
      m.error = (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                   : "killed by signal " + std::to_string(WTERMSIG(status))) +
                ": " + last_line(output) + " (see " + output + ")";
    }
    ++done;
    if (m.ok)
      std::cout << "[" << done << "/" << matches << "] seed " << m.seed << ": " << our_label << " "
                << m.summary.score_blue << " - " << m.summary.score_yellow << " " << opponent_label << "  ("
                << static_cast<int>(m.wall_seconds + 0.5) << " s)" << std::endl;
    else
      std::cout << "[" << done << "/" << matches << "] seed " << m.seed << ": FAILED, " << m.error << std::endl;
  }

  const TournamentTally totals = tally(results);
  std::cout << format_tournament_table(results, totals, our_label, opponent_label);
  if (auto json = arguments.value("summary-json"))
    write_text_file(*json, tournament_json(results, totals, preset_name, our_label, opponent_label) + '\n');
  return totals.failed > 0 ? 1 : 0;
}

}  // namespace robocaf::deploy
