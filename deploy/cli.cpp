#include "deploy/cli.hpp"

#include <cmath>
#include <fstream>
#include <cstdlib>

namespace robocaf::deploy {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                     const std::set<std::string>& switches, size_t max_positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) == 0) {
      std::string name = arg.substr(2);
      std::optional<std::string> inline_value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (with_value.count(name)) {
        if (!inline_value) {
          if (i + 1 >= args.size()) throw UsageError("option --" + name + " needs a value");
          inline_value = args[++i];
        }
        values_[name] = *inline_value;
      } else if (switches.count(name) && !inline_value) {
        switches_.insert(name);
      } else {
        throw UsageError("unknown option --" + name);
      }
    } else {
      if (positional_.size() >= max_positional) throw UsageError("unexpected argument '" + arg + "'");
      positional_.push_back(arg);
    }
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> Arguments::number(const std::string& name, double min, double max) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  double x = std::strtod(text->c_str(), &end);
  if (text->empty() || *end != '\0' || !std::isfinite(x))
    throw UsageError("--" + name + " expects a number, got '" + *text + "'");
  if (x < min || x > max)
    throw UsageError("--" + name + " must be between " + std::to_string(min) + " and " + std::to_string(max));
  return x;
}

std::optional<uint64_t> Arguments::unsigned_number(const std::string& name) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  if (text->empty() || (*text)[0] == '-') throw UsageError("--" + name + " expects a non-negative integer");
  unsigned long long x = std::strtoull(text->c_str(), &end, 10);
  if (*end != '\0') throw UsageError("--" + name + " expects a non-negative integer, got '" + *text + "'");
  return static_cast<uint64_t>(x);
}

std::string team_option(const Arguments& arguments) {
  const std::string team = arguments.value("team").value_or("blue");
  if (team != "blue" && team != "yellow") throw UsageError("--team must be blue or yellow, not '" + team + "'");
  return team;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace robocaf::deploy
