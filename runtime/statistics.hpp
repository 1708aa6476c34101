#pragma once
// Small summary statistics shared by commands, calibration and benchmarks.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace robocaf::runtime {

/// The median of `values`: the middle one, for an even count the upper of
/// the two middle ones (every caller reports it as a measured value, not an
/// interpolated one); 0 when empty.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// The q-quantile of `values` (q in [0, 1]): the value at index
/// floor(q (n - 1)) of the sorted values, a measured one; 0 when empty.
inline double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[static_cast<std::size_t>(k)];
}

}  // namespace robocaf::runtime
