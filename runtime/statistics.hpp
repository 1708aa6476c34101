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

}  // namespace robocaf::runtime
