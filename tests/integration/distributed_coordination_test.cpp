// Distributed team skills (COORDINATION_DISTRIBUTED) end to end: a local match
// in virtual time and a match of one process per robot computer.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <thread>

#include <google/protobuf/text_format.h>

#include "messages/log.pb.h"
#include "process.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::testing {
namespace {

// A league preset with blue's team skills distributed over its robots.
std::string write_match_config(const std::string& path, const std::string& preset) {
  msg::MatchConfig match = runtime::preset_match_config(preset);
  match.mutable_blue()->set_coordination(msg::COORDINATION_DISTRIBUTED);
  std::string text;
  google::protobuf::TextFormat::PrintToString(match, &text);
  std::ofstream{path} << text;
  return path;
}

// Per cycle, the roles the game log holds for a team (logged on change, so a
// cycle has the newest logged before it).
struct RoleStats {
  int cycles = 0;               // cycles with roles
  int one_keeper = 0;           // ... with exactly one keeper
  int several_attackers = 0;    // ... with more than one attacker
  int no_attacker = 0;
  int entries_min = 1000;       // fewest robots with a role in a cycle
  int attacker_changes = 0;     // the attacker changed hands
};

RoleStats role_stats(const std::string& log, msg::Team team) {
  runtime::GameLogReader reader{log};
  msg::LogRecord record;
  std::optional<msg::RoleAssignment> current;
  RoleStats stats;
  uint32_t last_attacker = 0;
  while (reader.next(record)) {
    if (record.has_roles() && record.roles().team() == team) {
      current = record.roles();
      for (const auto& entry : current->roles()) {
        if (entry.role() != msg::ROLE_ATTACKER || entry.robot_id() == last_attacker) continue;
        stats.attacker_changes += last_attacker != 0;
        last_attacker = entry.robot_id();
      }
    }
    if (!record.has_truth() || !current) continue;
    int keepers = 0, attackers = 0;
    for (const auto& entry : current->roles()) {
      keepers += entry.role() == msg::ROLE_KEEPER;
      attackers += entry.role() == msg::ROLE_ATTACKER;
    }
    ++stats.cycles;
    stats.one_keeper += keepers == 1;
    stats.several_attackers += attackers > 1;
    stats.no_attacker += attackers == 0;
    stats.entries_min = std::min(stats.entries_min, current->roles_size());
  }
  return stats;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Blue distributed, yellow central, 2 x 60 s of MSL play: it finishes, replays
// byte for byte whatever the threads, and the robots agree on their roles.
// MSL because its robots see the field through their own onboard cameras, so
// their estimates differ: robots deciding each from its own estimate (claims
// ignored) gave 179 of 11650 cycles with two attackers, 225 with none and 6
// without exactly one keeper on this seed. Under a global camera (MiroSot)
// every robot sees the same frames and even that would agree.
TEST(DistributedCoordination, LocalMatchFinishesReproduciblyAndTheRobotsAgreeOnRoles) {
  const std::string config = write_match_config(temp_path("distributed-match.pbtxt"), "msl");
  const std::string log1 = temp_path("dc1.rclog"), log2 = temp_path("dc2.rclog");
  const std::string json1 = temp_path("dc1.json");
  auto first = run("match --config " + config + " --seed 7 --half-duration 60 --threads 1 --quiet --log " + log1 +
                   " --summary-json " + json1);
  ASSERT_EQ(first.status, 0) << first.output;
  auto second = run("match --config " + config + " --seed 7 --half-duration 60 --threads 4 --quiet --log " + log2);
  ASSERT_EQ(second.status, 0) << second.output;

  auto summary = read_json(json1);
  EXPECT_TRUE(summary["finished"].get<bool>());
  EXPECT_GE(summary["sim_seconds"].get<double>(), 120.0);
  const std::string bytes = file_bytes(log1);
  EXPECT_GT(bytes.size(), 100000u);
  EXPECT_TRUE(bytes == file_bytes(log2)) << "same seed, different thread count, different log";

  const RoleStats blue = role_stats(log1, msg::BLUE);
  ASSERT_GT(blue.cycles, 6000) << "blue's roles are missing from the log";
  EXPECT_EQ(blue.one_keeper, blue.cycles) << "a cycle without exactly one keeper";
  EXPECT_EQ(blue.entries_min, 5) << "a robot without a role in the merged assignment";
  const double several = double(blue.several_attackers) / blue.cycles;
  std::cout << "distributed blue: " << blue.cycles << " cycles, " << blue.several_attackers
            << " with more than one attacker (" << 100.0 * several << " %), " << blue.no_attacker
            << " without, attacker changed hands " << blue.attacker_changes << " times\n";
  EXPECT_LT(several, 0.002) << "more than one attacker in over 0.2 % of the cycles";
  EXPECT_LT(double(blue.no_attacker) / blue.cycles, 0.002);
  EXPECT_GT(blue.attacker_changes, 0) << "the attacker never changed hands in a minute of play";

  // The central team beside it logs one assignment per change, as before.
  const RoleStats yellow = role_stats(log1, msg::YELLOW);
  EXPECT_EQ(yellow.one_keeper, yellow.cycles);
  EXPECT_EQ(yellow.several_attackers, 0);
}

// One process per robot computer, blue distributed: blue's team node runs only
// the coach, each blue robot node its own team skills. A blue robot node is
// killed and restarted by the launcher: the others take its role over and it
// rejoins.
TEST(DistributedCoordination, OneProcessPerRobotWithAKilledRobot) {
  namespace fs = std::filesystem;
  const fs::path dir = temp_path("distributed-deploy");
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_match_config((dir / "match.pbtxt").string(), "mirosot");
  // Not the port of configs/deploy/local-5v5, so both tests can run side by side.
  const std::string common = "directory_host: \"127.0.0.1\"\ndirectory_port: 47031\nmatch_config: \"match.pbtxt\"\n";
  std::ofstream deploy{dir / "deploy.pbtxt"};
  deploy << "startup_timeout: 30\n";
  auto node = [&](const std::string& name, const std::string& body, bool respawn) {
    std::ofstream{dir / (name + ".pbtxt")} << "name: \"" << name << "\"\n" << common << body;
    deploy << "processes { name: \"" << name << "\" node_config: \"" << name << ".pbtxt\" respawn: "
           << (respawn ? "true" : "false") << " }\n";
  };
  node("world", "host_world: true\n", false);
  for (std::string team : {"blue", "yellow"}) {
    const std::string upper = team == "blue" ? "BLUE" : "YELLOW";
    node(team + "-team", "team: " + upper + "\nhost_team_actors: true\nworker_threads: 1\n", true);
    for (int id = 1; id <= 5; ++id)
      node(team + "-" + std::to_string(id),
           "team: " + upper + "\nrobot_ids: " + std::to_string(id) + "\nworker_threads: 1\n", true);
  }
  deploy.close();

  const std::string json = temp_path("dc-launch.json"), log = temp_path("dc-launch.rclog");
  auto match = std::async(std::launch::async, [&] {
    return run("launch " + (dir / "deploy.pbtxt").string() + " --half-duration 15 --summary-json " + json +
               " --log " + log + " --log-dir " + (dir / "logs").string());
  });
  // Once play has begun, kill blue robot 2's computer.
  std::this_thread::sleep_for(std::chrono::seconds(15));
  const std::string pgrep = "pgrep -f -- ' node --config .*distributed-deplo[y]/blue-2.pbtxt'";
  FILE* pipe = popen(pgrep.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[64] = {};
  const pid_t victim = fgets(line, sizeof line, pipe) ? static_cast<pid_t>(std::atol(line)) : 0;
  pclose(pipe);
  ASSERT_NE(victim, 0) << "the blue-2 node is not running";
  ASSERT_EQ(kill(victim, SIGKILL), 0);

  auto result = match.get();
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("restarted blue-2"), std::string::npos) << result.output;
  auto summary = read_json(json);
  EXPECT_TRUE(summary["finished"].get<bool>());
  EXPECT_GE(summary["sim_seconds"].get<double>(), 30.0);

  // Real time: nothing waits for anyone, so a claim can reach one teammate in
  // time and another a cycle late, and robots briefly disagree at a handover.
  // On an idle machine 0 of 1950 cycles had not exactly one keeper, 4 several
  // attackers and 1 none; with 13 processes on 2 cores under a load average
  // of 11, 0, 44 and 103 of 1949. The bounds below hold for both.
  const RoleStats blue = role_stats(log, msg::BLUE);
  ASSERT_GT(blue.cycles, 1000) << "blue's roles are missing from the log";
  std::cout << "distributed blue over processes: " << blue.cycles << " cycles, "
            << blue.cycles - blue.one_keeper << " without exactly one keeper, " << blue.several_attackers
            << " with several attackers, " << blue.no_attacker << " without, fewest robots with a role "
            << blue.entries_min << "\n";
  EXPECT_GT(double(blue.one_keeper) / blue.cycles, 0.95);
  EXPECT_LT(double(blue.several_attackers) / blue.cycles, 0.10);
  EXPECT_LT(double(blue.no_attacker) / blue.cycles, 0.10);
  EXPECT_LE(blue.entries_min, 4) << "robot 2 was never missing from the roles";

  // Robot 2 had a role, lost it with its computer, and took one again when
  // its node was back.
  runtime::GameLogReader reader{log};
  msg::LogRecord record;
  int phase = 0;  // 0: before it had a role, 1: had one, 2: missing, 3: back
  while (reader.next(record)) {
    if (!record.has_roles() || record.roles().team() != msg::BLUE) continue;
    bool has_role = false;
    for (const auto& entry : record.roles().roles()) has_role = has_role || entry.robot_id() == 2;
    if (has_role != (phase % 2 == 1) && phase < 3) ++phase;
  }
  EXPECT_EQ(phase, 3) << "robot 2 did not have a role, lose it and take one again";
}

}  // namespace
}  // namespace robocaf::testing
