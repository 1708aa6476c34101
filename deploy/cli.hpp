#pragma once
// Command-line parsing and output files for the robocaf subcommands. A bad
// argument is a UsageError; main() prints it and exits with status 2.

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace robocaf::deploy {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "--name value" options, "--flag" switches and positional arguments.
class Arguments {
 public:
  /// `with_value` and `switches` list the accepted option names (without "--").
  Arguments(const std::vector<std::string>& args, const std::set<std::string>& with_value,
            const std::set<std::string>& switches, size_t max_positional);

  std::optional<std::string> value(const std::string& name) const;
  bool has(const std::string& name) const { return switches_.count(name) > 0; }
  const std::vector<std::string>& positional() const { return positional_; }

  std::optional<double> number(const std::string& name, double min, double max) const;
  std::optional<uint64_t> unsigned_number(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> switches_;
  std::vector<std::string> positional_;
};

/// The value of --team: "blue" (the default) or "yellow". Throws UsageError
/// naming anything else.
std::string team_option(const Arguments& arguments);

/// Writes `text` to the file at `path`, replacing it. Throws
/// std::runtime_error("cannot write <path>") when any part of it fails.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace robocaf::deploy
