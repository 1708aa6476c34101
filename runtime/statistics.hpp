#pragma once
// Small summary statistics shared by commands, calibration and benchmarks.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace robocaf::runtime {

/// The q-quantile of `values` (q in [0, 1]) by nearest rank: the value at
/// index floor(q n) of the sorted n values, the last one for q = 1 (every
/// caller reports it as a measured value, not an interpolated one); 0 when
/// empty.
inline double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const std::size_t index =
      std::min(values.size() - 1, static_cast<std::size_t>(std::max(0.0, q) * static_cast<double>(values.size())));
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(index);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

/// The median of `values`: the middle one, for an even count the upper of
/// the two middle ones; 0 when empty.
inline double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

/// The exact two-sided sign test: how likely, were each of a + b paired
/// changes as likely one way as the other, a split at least as uneven as
/// a to b would be. 2 P(X <= min(a, b)) for X ~ Binomial(a + b, 1/2),
/// at most 1; 1 when there are no changes. Summed in logarithms (lgamma),
/// so thousands of pairs neither overflow nor underflow. Written here
/// rather than taken from Boost.Math: it is the one distribution the
/// project needs, and the stack has no Boost.
inline double sign_test_p(unsigned a, unsigned b) {
  const unsigned n = a + b, k = std::min(a, b);
  if (n == 0) return 1.0;
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  double tail = 0.0;
  for (unsigned i = 0; i <= k; ++i)
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + log_half_n);
  return std::min(1.0, 2.0 * tail);
}

}  // namespace robocaf::runtime
