#include "deploy/drill_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "runtime/statistics.hpp"

namespace robocaf::deploy {

namespace {

bool moved(const DrillOutcome& o) { return o.known && o.ready_after < 0.0; }
bool ready(const DrillOutcome& o) { return o.known && o.ready_after >= 0.0; }

bool differ(const DrillOutcome& a, const DrillOutcome& b) {
  if (a.known != b.known || moved(a) != moved(b)) return true;
  if (moved(a)) return a.moved != b.moved;
  return ready(a) && std::abs(a.ready_after - b.ready_after) > DrillComparison::kSameSeconds;
}

// How much a change weighs in the list of the biggest: a robot moved in one
// run and not the other above any change of time.
double weight(const DrillComparison::Change& c) {
  if (moved(c.before) != moved(c.now)) return std::numeric_limits<double>::infinity();
  if (ready(c.before) && ready(c.now)) return std::abs(c.now.ready_after - c.before.ready_after);
  return 0.0;
}

}  // namespace

std::string drill_key(const std::string& stem, const std::string& moment, unsigned number, unsigned repeat) {
  return stem + " " + moment + " " + std::to_string(number) + " repeat " + std::to_string(repeat);
}

nlohmann::json outcomes_json(const std::vector<KeyedOutcome>& outcomes) {
  nlohmann::json runs = nlohmann::json::array();
  for (const KeyedOutcome& k : outcomes) {
    nlohmann::json run{{"key", k.key}, {"known", k.outcome.known}, {"moved", k.outcome.moved}};
    run["ready_s"] = ready(k.outcome) ? nlohmann::json(k.outcome.ready_after) : nlohmann::json(nullptr);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<KeyedOutcome> outcomes_from_json(const nlohmann::json& summary, const std::string& path) {
  if (!summary.is_object() || !summary.contains("runs") || !summary["runs"].is_array())
    throw std::runtime_error(path + ": no \"runs\" in it (a drill summary written by this build lists every drill)");
  std::vector<KeyedOutcome> out;
  size_t index = 0;
  for (const nlohmann::json& run : summary["runs"]) {
    const bool well_formed = run.is_object() && run.contains("key") && run["key"].is_string() &&
                             run.contains("known") && run["known"].is_boolean() && run.contains("moved") &&
                             run["moved"].is_number_unsigned() && run.contains("ready_s") &&
                             (run["ready_s"].is_null() || run["ready_s"].is_number());
    if (!well_formed)
      throw std::runtime_error(path + ": runs[" + std::to_string(index) +
                               "] is not {\"key\", \"known\", \"moved\", \"ready_s\"}");
    KeyedOutcome k;
    k.key = run["key"].get<std::string>();
    k.outcome.known = run["known"].get<bool>();
    k.outcome.moved = run["moved"].get<unsigned>();
    k.outcome.ready_after = run["ready_s"].is_null() ? -1.0 : run["ready_s"].get<double>();
    out.push_back(std::move(k));
    ++index;
  }
  return out;
}

DrillComparison compare_drills(const std::vector<KeyedOutcome>& before, const std::vector<KeyedOutcome>& now,
                               std::size_t keep) {
  DrillComparison c;
  std::map<std::string, const DrillOutcome*> earlier;
  for (const KeyedOutcome& k : before) earlier[k.key] = &k.outcome;
  std::set<std::string> seen;  // keys of `before` that `now` has too
  std::vector<DrillComparison::Change> changes;
  for (const KeyedOutcome& k : now) {
    const auto it = earlier.find(k.key);
    if (it == earlier.end()) {
      ++c.only_now;
      continue;
    }
    seen.insert(k.key);
    const DrillOutcome& a = *it->second;
    const DrillOutcome& b = k.outcome;
    ++c.paired;
    c.moved_before += moved(a) ? 1 : 0;
    c.moved_now += moved(b) ? 1 : 0;
    c.moved_only_before += moved(a) && !moved(b) ? 1 : 0;
    c.moved_only_now += moved(b) && !moved(a) ? 1 : 0;
    if (ready(a) && ready(b)) {
      const double change = b.ready_after - a.ready_after;
      c.ready_change_s += change;
      if (change < -DrillComparison::kSameSeconds) ++c.sooner;
      if (change > DrillComparison::kSameSeconds) ++c.later;
    }
    if (differ(a, b)) {
      ++c.changed;
      changes.push_back({k.key, a, b});
    }
  }
  c.only_before = static_cast<unsigned>(earlier.size() - seen.size());
  std::stable_sort(changes.begin(), changes.end(),
                   [](const DrillComparison::Change& x, const DrillComparison::Change& y) { return weight(x) > weight(y); });
  if (changes.size() > keep) changes.resize(keep);
  c.biggest = std::move(changes);
  return c;
}

double DrillComparison::sooner_later_p() const { return runtime::sign_test_p(sooner, later); }
double DrillComparison::moved_p() const { return runtime::sign_test_p(moved_only_before, moved_only_now); }

namespace {
// "p = 0.38, within chance" or "p = 0.007".
std::string chance_text(double p) {
  char text[64];
  std::snprintf(text, sizeof text, "p = %.2g%s", p, p < DrillComparison::kChanceP ? "" : ", within chance");
  return text;
}
}  // namespace

std::string comparison_text(const DrillComparison& c, const std::string& against) {
  std::ostringstream out;
  char line[256];
  out << "against " << against << ": " << c.paired << " drills paired, " << c.changed << " changed";
  if (c.only_before + c.only_now > 0)
    out << " (" << c.only_before << " only there, " << c.only_now << " only here: not the same logs or options?)";
  out << '\n';
  std::snprintf(line, sizeof line, "  ready in both: %u sooner, %u later (%s), %+.2f s in all\n", c.sooner, c.later,
                chance_text(c.sooner_later_p()).c_str(), c.ready_change_s);
  out << line;
  std::snprintf(line, sizeof line, "  robots moved in %u -> %u drills (in one run only: %u -> %u, %s)\n", c.moved_before,
                c.moved_now, c.moved_only_before, c.moved_only_now, chance_text(c.moved_p()).c_str());
  out << line;
  for (const DrillComparison::Change& change : c.biggest)
    out << "  " << change.key << ": " << ready_text(change.before) << " -> " << ready_text(change.now) << '\n';
  return out.str();
}

nlohmann::json comparison_json(const DrillComparison& c, const std::string& against) {
  return nlohmann::json{{"summary", against},       {"paired", c.paired},
                        {"only_there", c.only_before}, {"only_here", c.only_now},
                        {"changed", c.changed},      {"sooner", c.sooner},
                        {"later", c.later},          {"ready_change_s", c.ready_change_s},
                        {"moved_there", c.moved_before}, {"moved_here", c.moved_now},
                        {"moved_only_there", c.moved_only_before}, {"moved_only_here", c.moved_only_now},
                        {"sooner_later_p", c.sooner_later_p()}, {"moved_p", c.moved_p()}};
}

std::vector<KeyedOutcome> read_drill_summary(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--against: cannot read " + path);
  nlohmann::json summary;
  try {
    in >> summary;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("--against: " + path + " is not JSON: " + e.what());
  }
  return outcomes_from_json(summary, "--against: " + path);
}

std::optional<AgainstRun> against_run(const Arguments& arguments) {
  const auto path = arguments.value("against");
  if (!path) return std::nullopt;
  return AgainstRun{*path, read_drill_summary(*path)};
}

std::optional<DrillComparison> report_against(const std::optional<AgainstRun>& against,
                                              const std::vector<KeyedOutcome>& now) {
  if (!against) return std::nullopt;
  DrillComparison comparison = compare_drills(against->outcomes, now);
  std::fputs(comparison_text(comparison, against->path).c_str(), stdout);
  return comparison;
}

}  // namespace robocaf::deploy
