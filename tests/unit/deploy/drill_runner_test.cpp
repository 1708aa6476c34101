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

}  // namespace
}  // namespace robocaf::deploy
