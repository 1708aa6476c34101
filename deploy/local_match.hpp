#pragma once
// A whole match in one process: directory, world and both teams' mission
// managers on one actor system. `robocaf match` and the in-process tests use it.

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "deploy/system.hpp"
#include "messages/game.pb.h"
#include "sim/world_actor.hpp"

namespace robocaf::deploy {

struct LocalMatchOptions {
  msg::MatchConfig match;
  bool realtime = false;
  std::string log_path;
  unsigned worker_threads = 0;                        // 0: one per core
  std::function<void(const std::string&)> progress;  // optional progress lines
  /// A scripted scenario instead of a match: only its robots are spawned,
  /// without coaches and team skills.
  std::shared_ptr<const sim::ScenarioScript> scenario;
  /// See sim::WorldOptions.
  std::optional<msg::WorldTruth> start_from;
  std::optional<msg::GameState> opening_restart;  // WorldOptions::opening_restart
  sim::LeadIn lead_in;                            // WorldOptions::lead_in
  bool stop_at_first_start = false;
};

class LocalMatch {
 public:
  /// Starts every actor; the match kicks off once every robot has joined.
  explicit LocalMatch(const LocalMatchOptions& options);
  /// Stops every actor.
  ~LocalMatch();
  LocalMatch(const LocalMatch&) = delete;
  LocalMatch& operator=(const LocalMatch&) = delete;

  /// Blocks until the match ends. Returns an empty string, or why it could not finish.
  std::string wait();

  /// Blocks until the scenario is decided. Throws std::runtime_error when the
  /// world could not run it.
  msg::ScenarioResult wait_scenario();

  caf::actor_system& system() { return system_; }
  const caf::actor& directory() const { return directory_; }

  /// Handler statistics of every actor, per kind.
  std::map<std::string, KindStats> stats() { return stats_per_kind(system_, directory_); }

 private:
  SystemConfig config_;
  caf::actor_system system_;
  caf::actor directory_;
  caf::actor world_;
};

}  // namespace robocaf::deploy
