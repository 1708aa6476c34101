#include "actors/player_skills/circle_escape.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <utility>

namespace robocaf::actors {

namespace {

using V = Eigen::Vector2d;

// The square round the circle in cells; a cell is free when its centre is.
// Discs are rasterised once, each over its own bounding box, so the search
// tests a cell by a lookup rather than against every disc.
class Grid {
 public:
  Grid(const EscapeScene& scene, double cell)
      : scene_(scene), cell_(cell), half_(scene.exit_radius + 2.0 * cell),
        n_(static_cast<int>(std::ceil(2.0 * half_ / cell)) + 1),
        free_(static_cast<size_t>(n_) * static_cast<size_t>(n_), 1),
        radius_(static_cast<size_t>(n_) * static_cast<size_t>(n_)) {
    for (int k = 0; k < size(); ++k) radius_[static_cast<size_t>(k)] = (at(k) - scene.centre).norm();
    if (!scene.space.empty()) {
      for (int k = 0; k < size(); ++k) {
        const V q = at(k);
        free_[static_cast<size_t>(k)] = std::any_of(scene.space.begin(), scene.space.end(),
                                                    [&](const Eigen::AlignedBox2d& box) { return box.contains(q); });
      }
    }
    for (const CircleObstacle& o : scene.keep_off) {
      // A disc the start lies in keeps it from coming nearer, no more.
      const double radius = std::min(o.radius, (scene.start - o.centre).norm());
      discs_.push_back({o.centre, radius});
      const V lo = (o.centre - V::Constant(radius) - scene.centre + V(half_, half_)) / cell_;
      const V hi = (o.centre + V::Constant(radius) - scene.centre + V(half_, half_)) / cell_;
      const int i0 = std::max(0, static_cast<int>(std::floor(lo.x())));
      const int j0 = std::max(0, static_cast<int>(std::floor(lo.y())));
      const int i1 = std::min(n_ - 1, static_cast<int>(std::ceil(hi.x())));
      const int j1 = std::min(n_ - 1, static_cast<int>(std::ceil(hi.y())));
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i)
          if ((at(j * n_ + i) - o.centre).squaredNorm() < radius * radius)
            free_[static_cast<size_t>(j * n_ + i)] = 0;
    }
  }

  int size() const { return n_ * n_; }
  V at(int index) const {
    return scene_.centre + V(-half_ + (index % n_) * cell_, -half_ + (index / n_) * cell_);
  }
  int index_of(const V& p) const {
    const V g = (p - scene_.centre + V(half_, half_)) / cell_;
    const int i = std::clamp(static_cast<int>(std::lround(g.x())), 0, n_ - 1);
    const int j = std::clamp(static_cast<int>(std::lround(g.y())), 0, n_ - 1);
    return j * n_ + i;
  }
  std::optional<int> neighbour(int index, int di, int dj) const {
    const int i = index % n_ + di, j = index / n_ + dj;
    if (i < 0 || j < 0 || i >= n_ || j >= n_) return std::nullopt;
    return j * n_ + i;
  }

  bool free(int index) const { return free_[static_cast<size_t>(index)] != 0; }
  void set_free(int index) { free_[static_cast<size_t>(index)] = 1; }
  /// The cell's distance from the centre.
  double radius(int index) const { return radius_[static_cast<size_t>(index)]; }
  bool out(int index) const {
    if (radius(index) < scene_.exit_radius) return false;
    const V q = at(index);
    if (scene_.exits.empty()) return true;
    return std::any_of(scene_.exits.begin(), scene_.exits.end(),
                       [&](const Eigen::AlignedBox2d& box) { return box.contains(q); });
  }

  /// The straight way from the start to q stays free (tested along it, not
  /// by cells: the way's first leg is what the robot drives).
  bool visible(const V& q) const {
    const V d = q - scene_.start;
    const int steps = static_cast<int>(std::ceil(d.norm() / (0.5 * cell_)));
    for (int k = 1; k <= steps; ++k)
      if (!free(scene_.start + d * (static_cast<double>(k) / steps))) return false;
    return true;
  }

 private:
  bool free(const V& q) const {
    if (!scene_.space.empty() &&
        std::none_of(scene_.space.begin(), scene_.space.end(),
                     [&](const Eigen::AlignedBox2d& box) { return box.contains(q); }))
      return false;
    for (const auto& [c, radius] : discs_)
      if ((q - c).squaredNorm() < radius * radius) return false;
    return true;
  }

  const EscapeScene& scene_;
  double cell_, half_;
  int n_;
  std::vector<char> free_;
  std::vector<double> radius_;
  std::vector<std::pair<V, double>> discs_;  // as the start sees them
};

}  // namespace

std::optional<Escape> escape_circle(const EscapeScene& scene) {
  if (!(scene.exit_radius > 0.0)) throw std::invalid_argument("escape_circle: exit_radius must be positive");
  if (scene.cell < 0.0) throw std::invalid_argument("escape_circle: cell must not be negative");
  if ((scene.start - scene.centre).norm() >= scene.exit_radius) {
    Escape here;
    here.way = {scene.start};
    here.head_for = scene.start;
    return here;
  }
  const double cell = scene.cell > 0.0 ? scene.cell : scene.exit_radius / 40.0;
  Grid grid(scene, cell);

  // Dijkstra from the start's cell over the free cells, 8-connected, no
  // corner cut past a blocked cell; exits end a way (not expanded).
  const int n = grid.size();
  const int source = grid.index_of(scene.start);
  grid.set_free(source);
  auto free = [&](int k) { return grid.free(k); };
  std::vector<double> dist(static_cast<size_t>(n), std::numeric_limits<double>::infinity());
  std::vector<int> parent(static_cast<size_t>(n), -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  dist[static_cast<size_t>(source)] = (grid.at(source) - scene.start).norm();
  open.push({dist[static_cast<size_t>(source)], source});
  std::optional<int> best;
  double best_cost = std::numeric_limits<double>::infinity();
  while (!open.empty()) {
    const auto [d, k] = open.top();
    open.pop();
    if (d > dist[static_cast<size_t>(k)]) continue;
    // Every exit still to come costs at least its way's length.
    if (d >= best_cost) break;
    if (grid.out(k)) {
      const V q = grid.at(k);
      const double bearing = std::atan2(q.y() - scene.centre.y(), q.x() - scene.centre.x());
      const double cost =
          d + scene.bearing_weight * std::abs(std::remainder(bearing - scene.preferred_bearing, 2.0 * M_PI));
      if (cost < best_cost) {
        best_cost = cost;
        best = k;
      }
      continue;
    }
    for (int di = -1; di <= 1; ++di) {
      for (int dj = -1; dj <= 1; ++dj) {
        if (di == 0 && dj == 0) continue;
        const auto m = grid.neighbour(k, di, dj);
        if (!m || !free(*m)) continue;
        if (di != 0 && dj != 0) {
          const auto a = grid.neighbour(k, di, 0), b = grid.neighbour(k, 0, dj);
          if (!free(*a) || !free(*b)) continue;
        }
        const double inward = std::max(0.0, grid.radius(k) - grid.radius(*m));
        const double step = ((di != 0 && dj != 0) ? M_SQRT2 * cell : cell) + scene.inward_weight * inward;
        if (d + step < dist[static_cast<size_t>(*m)]) {
          dist[static_cast<size_t>(*m)] = d + step;
          parent[static_cast<size_t>(*m)] = k;
          open.push({d + step, *m});
        }
      }
    }
  }
  if (!best) return std::nullopt;

  Escape escape;
  for (int k = *best; k != -1; k = parent[static_cast<size_t>(k)]) escape.way.push_back(grid.at(k));
  escape.way.back() = scene.start;  // the source cell stands for the start
  std::reverse(escape.way.begin(), escape.way.end());
  if (escape.way.size() == 1) escape.way.push_back(grid.at(*best));
  for (size_t k = 1; k < escape.way.size(); ++k) escape.length += (escape.way[k] - escape.way[k - 1]).norm();
  escape.head_for = escape.way[1];
  for (size_t k = 2; k < escape.way.size() && grid.visible(escape.way[k]); ++k) escape.head_for = escape.way[k];
  return escape;
}

}  // namespace robocaf::actors
