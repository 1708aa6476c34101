#include "runtime/min_cost_assignment.hpp"

#include <cmath>
#include <limits>

namespace robocaf::runtime {

std::vector<int> min_cost_assignment(const std::vector<std::vector<double>>& cost) {
  const int n = static_cast<int>(cost.size());
  if (n == 0) return {};
  const int m = static_cast<int>(cost[0].size());
  if (n > m) return {};
  for (const auto& row : cost) {
    if (static_cast<int>(row.size()) != m) return {};
    for (double c : row)
      if (!std::isfinite(c)) return {};
  }
  // Potentials u (rows) and v (columns) keep every reduced cost
  // cost - u - v >= 0; each row in turn is added along the shortest
  // augmenting path in reduced costs (1-based, column 0 is the root).
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0.0), v(m + 1, 0.0);
  std::vector<int> owner(m + 1, 0), way(m + 1, 0);
  for (int i = 1; i <= n; ++i) {
    owner[0] = i;
    int j0 = 0;
    std::vector<double> min_reduced(m + 1, kInf);
    std::vector<bool> used(m + 1, false);
    do {
      used[j0] = true;
      const int i0 = owner[j0];
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j) {
        if (used[j]) continue;
        const double reduced = cost[i0 - 1][j - 1] - u[i0] - v[j];
        if (reduced < min_reduced[j]) {
          min_reduced[j] = reduced;
          way[j] = j0;
        }
        if (min_reduced[j] < delta) {
          delta = min_reduced[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= m; ++j) {
        if (used[j]) {
          u[owner[j]] += delta;
          v[j] -= delta;
        } else {
          min_reduced[j] -= delta;
        }
      }
      j0 = j1;
    } while (owner[j0] != 0);
    do {
      const int j1 = way[j0];
      owner[j0] = owner[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<int> column(n, -1);
  for (int j = 1; j <= m; ++j)
    if (owner[j] != 0) column[owner[j] - 1] = j - 1;
  return column;
}

}  // namespace robocaf::runtime
