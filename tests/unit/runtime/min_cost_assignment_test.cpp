#include "runtime/min_cost_assignment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

namespace robocaf::runtime {
namespace {

using Matrix = std::vector<std::vector<double>>;

double total(const Matrix& cost, const std::vector<int>& column) {
  double sum = 0.0;
  for (size_t r = 0; r < column.size(); ++r) sum += cost[r][column[r]];
  return sum;
}

// Every way of giving the rows different columns, the cheapest total.
double brute_force(const Matrix& cost) {
  const size_t m = cost[0].size();
  std::vector<int> columns(m);
  std::iota(columns.begin(), columns.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do {
    best = std::min(best, total(cost, std::vector<int>(columns.begin(), columns.begin() + cost.size())));
  } while (std::next_permutation(columns.begin(), columns.end()));
  return best;
}

TEST(MinCostAssignment, MatchesEveryPermutationOnRandomMatrices) {
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> value(-3.0, 10.0);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 1 + trial % 6, m = n + (trial / 6) % 3;
    Matrix cost(n, std::vector<double>(m));
    for (auto& row : cost)
      for (double& c : row) c = trial % 5 == 0 ? std::round(value(rng)) : value(rng);  // ties too
    const std::vector<int> column = min_cost_assignment(cost);
    ASSERT_EQ(column.size(), n);
    std::vector<int> sorted = column;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) << "a column given twice";
    for (int c : column) ASSERT_TRUE(c >= 0 && c < static_cast<int>(m));
    EXPECT_NEAR(total(cost, column), brute_force(cost), 1e-9) << "trial " << trial;
  }
}

TEST(MinCostAssignment, TwoRobotsDoNotSwapAcrossEachOther) {
  // Robots at x = 0 and x = 1 on a line, places at x = 3 and x = -2: by
  // distance the robot at 1 takes 3 and the one at 0 takes -2 (5 m in all),
  // never the crossing 3 + 3 = 6 m.
  const Matrix cost{{3.0, 2.0}, {2.0, 3.0}};
  EXPECT_EQ(min_cost_assignment(cost), (std::vector<int>{1, 0}));
}

TEST(MinCostAssignment, RejectsWhatItCannotSolve) {
  EXPECT_TRUE(min_cost_assignment({}).empty());
  EXPECT_TRUE(min_cost_assignment({{1.0}, {2.0}}).empty());             // more rows than columns
  EXPECT_TRUE(min_cost_assignment({{1.0, 2.0}, {3.0}}).empty());        // ragged
  EXPECT_TRUE(min_cost_assignment({{1.0, std::nan("")}, {3.0, 4.0}}).empty());
  EXPECT_TRUE(min_cost_assignment({{1.0, std::numeric_limits<double>::infinity()}}).empty());
}

}  // namespace
}  // namespace robocaf::runtime
