#pragma once
// Actor-system set-up shared by the commands: message types, scheduler, network.

#include <map>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

#include "messages/config.pb.h"
#include "messages/runtime.pb.h"

namespace robocaf::deploy {

class SystemConfig : public caf::actor_system_config {
 public:
  /// `worker_threads` 0 keeps CAF's default (one per core).
  SystemConfig(bool network, unsigned worker_threads);
};

/// Introduces this node to the directory; throws std::runtime_error when refused.
void join(caf::actor_system& system, const caf::actor& directory, const msg::NodeIdentity& identity);

/// Spawns the mission managers (which start their actors) for the team actors
/// (robot id 0) and robots listed.
std::vector<caf::actor> spawn_team(caf::actor_system& system, const caf::actor& directory,
                                   const msg::MatchConfig& match, msg::Team team, bool team_actors,
                                   const std::vector<uint32_t>& robot_ids);

/// Every actor the directory knows, with its registration (address, incarnation).
std::pair<msg::Roster, std::vector<caf::actor>> registered_actors(caf::actor_system& system,
                                                                  const caf::actor& directory);

/// Handler statistics of every registered actor, merged per actor kind.
struct KindStats {
  uint64_t messages = 0;
  double total_us = 0;
  double max_us = 0;
  std::string slowest_message;  // the message type of max_us
};
std::map<std::string, KindStats> stats_per_kind(caf::actor_system& system, const caf::actor& directory);

/// Stops every actor the directory knows, then the directory itself.
void stop_all(caf::actor_system& system, const caf::actor& directory);

}  // namespace robocaf::deploy
