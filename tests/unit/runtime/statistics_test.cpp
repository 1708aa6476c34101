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

}  // namespace
}  // namespace robocaf::runtime
