#include "deploy/drill_runner.hpp"

#include <set>

#include <gtest/gtest.h>

namespace robocaf::deploy {
namespace {

// Two tournaments' logs of the same seeds drilled together: each drill keeps
// its own log (named after the game log's stem alone, the second folder's
// drills wrote over the first's).
TEST(DrillLogStems, LogsOfTheSameNameInOtherFoldersGetTheFolderBeforeIt) {
  EXPECT_EQ(drill_log_stems({"/logs/A81/seed81.rclog", "/logs/A81/seed82.rclog", "/logs/B81/seed81.rclog"}),
            (std::vector<std::string>{"A81-seed81", "seed82", "B81-seed81"}));
  EXPECT_EQ(drill_log_stems({"a/seed1.rclog", "b/seed2.rclog"}), (std::vector<std::string>{"seed1", "seed2"}));
  // The same folder name twice, or the same log twice: their places tell them apart.
  const auto same = drill_log_stems({"x/T/seed5.rclog", "y/T/seed5.rclog", "x/T/seed5.rclog", "seed6.rclog"});
  ASSERT_EQ(same.size(), 4u);
  EXPECT_EQ(std::set<std::string>(same.begin(), same.end()).size(), 4u);
  EXPECT_EQ(same[0], "T-seed5-1");
  EXPECT_EQ(same[3], "seed6");
}

// A column where nothing was ready (every robot moved) has no times to
// take quantiles of: the table says so rather than 0.00 s.
TEST(DrillColumn, TimesInTheTableAreADashWhenNoneWasReady) {
  DrillColumn none;
  none.add({true, -1.0, 1, 4});
  EXPECT_EQ(none.not_ready, 1u);
  EXPECT_EQ(none.quantile_text(0.5), "-");
  EXPECT_EQ(none.quantile_text(1.0), "-");
  DrillColumn some;
  some.add({true, 2.5, 0, 3});
  some.add({true, 3.25, 0, 2});
  EXPECT_EQ(some.quantile_text(1.0), "3.25");
  EXPECT_EQ(some.quantile_text(0.0), "2.50");
}

// Each repeat of a moment plays the same lead-in: they share it rather than
// each holding a copy (six MSL logs' corner kicks drilled four times: 244 MB
// at the peak against 155 MB).
TEST(RepeatedDrills, ShareOneLeadInAndDrawTheirOwnNoise) {
  std::vector<sim::LeadInCycle> cycles(3);
  for (size_t k = 0; k < cycles.size(); ++k) cycles[k].truth.set_cycle(100 + k);
  DrillRun run;
  run.config.set_seed(7);
  run.log = "/logs/seed7-restart4.rclog";
  run.lead_in = sim::LeadIn(std::move(cycles));
  const std::vector<DrillRun> runs = repeated(run, 3);
  ASSERT_EQ(runs.size(), 3u);
  for (const DrillRun& copy : runs) {
    ASSERT_EQ(copy.lead_in.size(), 3u);
    EXPECT_EQ(&copy.lead_in[0], &runs[0].lead_in[0]) << "repeat " << copy.repeat << " holds a copy";
    EXPECT_EQ(copy.lead_in[2].truth.cycle(), 102u);
  }
  EXPECT_NE(runs[1].config.seed(), runs[0].config.seed());
  EXPECT_NE(runs[2].config.seed(), runs[1].config.seed());
  EXPECT_EQ(runs[2].log, "/logs/seed7-restart4-r2.rclog");
  EXPECT_TRUE(sim::LeadIn().empty());
}

// A long drill's list lines appear as its drills end, yet in the runs'
// order whatever `jobs` is: each run is handed out once it and every one
// before it are done.
TEST(DoneInOrder, HandsOutEachRunOnceItAndAllBeforeItAreDone) {
  DoneInOrder done(5);
  EXPECT_TRUE(done.mark(2).empty()) << "0 and 1 still play";
  EXPECT_TRUE(done.mark(1).empty());
  EXPECT_EQ(done.mark(0), (std::vector<size_t>{0, 1, 2}));
  EXPECT_TRUE(done.mark(2).empty()) << "handed out twice";
  EXPECT_TRUE(done.mark(9).empty()) << "no such run";
  EXPECT_EQ(done.mark(3), (std::vector<size_t>{3}));
  EXPECT_EQ(done.mark(4), (std::vector<size_t>{4}));
}

// Runs that failed before playing are told of too, in order among the
// others, and every run exactly once.
TEST(RunDrills, TellsOfEveryRunOnceInOrder) {
  std::vector<DrillRun> runs(4);
  for (DrillRun& run : runs) run.error = "no log";
  std::vector<size_t> told;
  run_drills(runs, 2, false, [&](size_t i) { told.push_back(i); });
  EXPECT_EQ(told, (std::vector<size_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace robocaf::deploy
