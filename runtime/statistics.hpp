#pragma once
// Small summary statistics shared by commands, calibration and benchmarks.

#include <algorithm>
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

}  // namespace robocaf::runtime
