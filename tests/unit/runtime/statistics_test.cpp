// Nearest-rank quantiles and the median the commands report.
#include <gtest/gtest.h>

#include "runtime/statistics.hpp"

namespace robocaf::runtime {
namespace {

TEST(Statistics, QuantileIsTheValueAtTheNearestRank) {
  const std::vector<double> values{5.0, 1.0, 4.0, 2.0, 3.0};
  EXPECT_EQ(quantile(values, 0.0), 1.0);
  EXPECT_EQ(quantile(values, 0.5), 3.0);
  EXPECT_EQ(quantile(values, 0.95), 5.0) << "index floor(0.95 * 5) = 4";
  EXPECT_EQ(quantile(values, 0.7), 4.0) << "index floor(0.7 * 5) = 3";
  EXPECT_EQ(quantile(values, 1.0), 5.0) << "the largest, not one past it";
  EXPECT_EQ(quantile({}, 0.5), 0.0);
}

TEST(Statistics, MedianOfAnEvenCountIsTheUpperMiddleValue) {
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 3.0);
  EXPECT_EQ(median({2.0}), 2.0);
  EXPECT_EQ(median({}), 0.0);
}

TEST(Statistics, SignTestGivesTheExactTwoSidedBinomialTail) {
  EXPECT_EQ(sign_test_p(0, 0), 1.0) << "no changes, no evidence";
  EXPECT_EQ(sign_test_p(3, 3), 1.0) << "an even split, capped at 1";
  EXPECT_NEAR(sign_test_p(0, 5), 2.0 / 32.0, 1e-12) << "2 * 0.5^5";
  EXPECT_NEAR(sign_test_p(5, 0), 2.0 / 32.0, 1e-12) << "either way round";
  EXPECT_NEAR(sign_test_p(1, 9), 2.0 * 11.0 / 1024.0, 1e-12) << "2 * (1 + 10) / 2^10";
  // Drill runs: two builds that differ only in the planner's random seed
  // split 72 sooner to 84 later; a rule that made robots late split 72 to 109.
  EXPECT_GT(sign_test_p(72, 84), 0.3);
  EXPECT_LT(sign_test_p(72, 109), 0.01);
  const double large = sign_test_p(1000, 1200);  // no overflow or underflow on thousands
  EXPECT_GT(large, 0.0);
  EXPECT_LT(large, 1e-4);
}

}  // namespace
}  // namespace robocaf::runtime
