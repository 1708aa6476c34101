#pragma once
// Runs robocaf as a child process, as a user or a script would.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace robocaf::testing {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr
};

inline Run run(const std::string& arguments) {
  Run result;
  const std::string command = std::string(ROBOCAF_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in{path};
  return nlohmann::json::parse(in);
}

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "robocaf_" + name;
}

}  // namespace robocaf::testing
