#include "deploy/cli.hpp"

#include <gtest/gtest.h>

namespace robocaf::deploy {
namespace {

TEST(Arguments, ParsesValuesSwitchesAndPositionals) {
  Arguments args{{"file.pbtxt", "--seed", "7", "--half-duration=15", "--realtime"}, {"seed", "half-duration"},
                 {"realtime"}, 1};
  EXPECT_EQ(args.positional().at(0), "file.pbtxt");
  EXPECT_EQ(args.unsigned_number("seed").value(), 7u);
  EXPECT_DOUBLE_EQ(args.number("half-duration", 1, 100).value(), 15.0);
  EXPECT_TRUE(args.has("realtime"));
  EXPECT_FALSE(args.value("log").has_value());
}

TEST(Arguments, RejectsWhatItDoesNotKnowWithTheOffendingText) {
  EXPECT_THROW((Arguments{{"--sead", "7"}, {"seed"}, {}, 0}), UsageError);
  EXPECT_THROW((Arguments{{"--seed"}, {"seed"}, {}, 0}), UsageError);
  EXPECT_THROW((Arguments{{"extra"}, {}, {}, 0}), UsageError);
  Arguments bad{{"--seed", "seven", "--half-duration", "-3"}, {"seed", "half-duration"}, {}, 0};
  try {
    bad.unsigned_number("seed");
    FAIL() << "accepted a non-number";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("seven"), std::string::npos);
  }
  EXPECT_THROW(bad.number("half-duration", 1, 100), UsageError);
}

}  // namespace
}  // namespace robocaf::deploy
