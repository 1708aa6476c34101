#pragma once
// The assignment problem: robots to places at the least total cost. Plain
// C++, no CAF. Written here because none of the project's libraries (Eigen,
// OpenCV, Protobuf) solves it; it is the Hungarian method, O(n^2 m).

#include <vector>

namespace robocaf::runtime {

/// For a cost matrix with rows (robots) no more than columns (places), the
/// column given to each row so that every row gets a different column and
/// the sum of the chosen costs is the least possible. Returns one column
/// index per row; empty when there are no rows, the rows are ragged, there
/// are more rows than columns, or a cost is not finite. Ties are broken the
/// same way every time for the same matrix.
std::vector<int> min_cost_assignment(const std::vector<std::vector<double>>& cost);

}  // namespace robocaf::runtime
