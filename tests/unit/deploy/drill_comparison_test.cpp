#include "deploy/drill_comparison.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace robocaf::deploy {
namespace {

DrillOutcome ready_after(double s) { return {true, s, 0, 2}; }
DrillOutcome moved_one() { return {true, -1.0, 1, 4}; }

TEST(DrillComparison, CountsTheDrillsThatChangedEachWayAndListsTheBiggestFirst) {
  const std::vector<KeyedOutcome> before{{"a goal 1 repeat 0", ready_after(4.0)},
                                         {"a goal 1 repeat 1", ready_after(5.0)},
                                         {"a goal 2 repeat 0", moved_one()},
                                         {"a goal 3 repeat 0", ready_after(6.0)},
                                         {"b goal 1 repeat 0", ready_after(3.0)},
                                         {"gone goal 1 repeat 0", ready_after(3.0)}};
  const std::vector<KeyedOutcome> now{{"a goal 1 repeat 0", ready_after(3.5)},
                                      {"a goal 1 repeat 1", ready_after(5.002)},  // within kSameSeconds
                                      {"a goal 2 repeat 0", ready_after(7.9)},
                                      {"a goal 3 repeat 0", ready_after(7.0)},
                                      {"b goal 1 repeat 0", moved_one()},
                                      {"new goal 1 repeat 0", ready_after(1.0)}};
  const DrillComparison c = compare_drills(before, now, 3);
  EXPECT_EQ(c.paired, 5u);
  EXPECT_EQ(c.only_before, 1u);
  EXPECT_EQ(c.only_now, 1u);
  EXPECT_EQ(c.changed, 4u) << "5.000 -> 5.002 s is no change";
  EXPECT_EQ(c.sooner, 1u);
  EXPECT_EQ(c.later, 1u);
  EXPECT_NEAR(c.ready_change_s, -0.5 + 0.002 + 1.0, 1e-9) << "over the drills ready in both";
  EXPECT_EQ(c.moved_before, 1u);
  EXPECT_EQ(c.moved_now, 1u);
  // Moved in one run and not the other first (in the order they came),
  // then the biggest change of time; at most three.
  ASSERT_EQ(c.biggest.size(), 3u);
  EXPECT_EQ(c.biggest[0].key, "a goal 2 repeat 0");
  EXPECT_EQ(c.biggest[1].key, "b goal 1 repeat 0");
  EXPECT_EQ(c.biggest[2].key, "a goal 3 repeat 0");
  const std::string text = comparison_text(c, "base.json");
  EXPECT_NE(text.find("against base.json: 5 drills paired, 4 changed (1 only there, 1 only here"), std::string::npos)
      << text;
  EXPECT_EQ(c.moved_only_before, 1u);
  EXPECT_EQ(c.moved_only_now, 1u);
  EXPECT_NE(text.find("1 sooner, 1 later (p = 1, within chance), +0.50 s in all"), std::string::npos) << text;
  EXPECT_NE(text.find("robots moved in 1 -> 1 drills (in one run only: 1 -> 1, p = 1, within chance)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  a goal 2 repeat 0: moved 1 -> 7.90 s\n"), std::string::npos) << text;
  EXPECT_EQ(comparison_json(c, "base.json")["changed"], 4);
}

TEST(DrillComparison, ASplitChanceSeldomMakesIsToldFromOneItOftenMakes) {
  // Twelve drills later and one sooner is a change; the moved drills, one
  // each way with one moved in both, are not.
  std::vector<KeyedOutcome> before, now;
  for (int i = 0; i < 13; ++i) {
    const std::string key = "s goal " + std::to_string(i) + " repeat 0";
    before.push_back({key, ready_after(5.0)});
    now.push_back({key, ready_after(i == 0 ? 4.0 : 6.0)});
  }
  before.push_back({"m goal 1 repeat 0", moved_one()});
  now.push_back({"m goal 1 repeat 0", ready_after(7.0)});
  before.push_back({"m goal 2 repeat 0", ready_after(7.0)});
  now.push_back({"m goal 2 repeat 0", moved_one()});
  before.push_back({"m goal 3 repeat 0", moved_one()});
  now.push_back({"m goal 3 repeat 0", moved_one()});
  const DrillComparison c = compare_drills(before, now);
  EXPECT_EQ(c.sooner, 1u);
  EXPECT_EQ(c.later, 12u);
  EXPECT_NEAR(c.sooner_later_p(), 2.0 * 14.0 / 8192.0, 1e-12) << "2 * (1 + 13) / 2^13";
  EXPECT_EQ(c.moved_before, 2u);
  EXPECT_EQ(c.moved_now, 2u);
  EXPECT_EQ(c.moved_only_before, 1u) << "moved in both runs is no change";
  EXPECT_EQ(c.moved_only_now, 1u);
  EXPECT_EQ(c.moved_p(), 1.0);
  const std::string text = comparison_text(c, "base.json");
  EXPECT_NE(text.find("1 sooner, 12 later (p = 0.0034), "), std::string::npos) << text;
  EXPECT_NE(text.find("(in one run only: 1 -> 1, p = 1, within chance)"), std::string::npos) << text;
  const nlohmann::json json = comparison_json(c, "base.json");
  EXPECT_NEAR(json["sooner_later_p"].get<double>(), c.sooner_later_p(), 1e-15);
  EXPECT_EQ(json["moved_only_here"], 1);
}

TEST(DrillComparison, OutcomesGoThroughTheSummaryJsonUnchanged) {
  const std::vector<KeyedOutcome> outcomes{{"seed7 goal 1 repeat 0", ready_after(7.4)},
                                           {"seed7 goal 1 repeat 1", moved_one()},
                                           {"seed7 goal 2 repeat 0", DrillOutcome{}}};  // failed: unknown
  const nlohmann::json summary{{"drills", 3}, {"runs", outcomes_json(outcomes)}};
  EXPECT_TRUE(summary["runs"][1]["ready_s"].is_null());
  const std::vector<KeyedOutcome> back = outcomes_from_json(nlohmann::json::parse(summary.dump()), "s.json");
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].key, "seed7 goal 1 repeat 0");
  EXPECT_DOUBLE_EQ(back[0].outcome.ready_after, 7.4);
  EXPECT_TRUE(back[1].outcome.known);
  EXPECT_LT(back[1].outcome.ready_after, 0.0);
  EXPECT_EQ(back[1].outcome.moved, 1u);
  EXPECT_FALSE(back[2].outcome.known);
  // The same drills against themselves: nothing changed.
  const DrillComparison same = compare_drills(outcomes, back);
  EXPECT_EQ(same.paired, 3u);
  EXPECT_EQ(same.changed, 0u);
  EXPECT_TRUE(same.biggest.empty());
}

TEST(DrillComparison, AnEarlierSummaryThatCannotServeIsAnErrorNamingTheFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("drill_comparison_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  auto message = [](const std::string& path) {
    try {
      read_drill_summary(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = (dir / "missing.json").string();
  EXPECT_NE(message(missing).find("cannot read " + missing), std::string::npos) << message(missing);
  const std::string broken = write("broken.json", "{\"runs\": [");
  EXPECT_NE(message(broken).find(broken + " is not JSON"), std::string::npos) << message(broken);
  // A summary from a build before the runs were written.
  const std::string old = write("old.json", "{\"drills\": 4, \"drill\": {\"moved\": 0}}");
  EXPECT_NE(message(old).find("no \"runs\""), std::string::npos) << message(old);
  const std::string odd = write("odd.json", "{\"runs\": [{\"key\": \"k\", \"known\": true, \"moved\": -1, \"ready_s\": 1}]}");
  EXPECT_NE(message(odd).find("runs[0]"), std::string::npos) << message(odd);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace robocaf::deploy
