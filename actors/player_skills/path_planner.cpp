#include "actors/player_skills/path_planner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using V = Eigen::Vector2d;
using Box = Eigen::AlignedBox2d;

// The angle a polyline sweeps as seen from `centre`, radians: two ways
// with the same ends pass a point on the same side when their sweeps differ
// by less than pi (by 2 pi when on opposite sides).
double swept_angle(const std::vector<V>& points, const V& centre) {
  double sum = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const V a = points[i - 1] - centre, b = points[i] - centre;
    sum += std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
  }
  return sum;
}

double polyline_length(const std::vector<V>& points) {
  double sum = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) sum += (points[i] - points[i - 1]).norm();
  return sum;
}

// Pieces of a segment that lie in different rectangles meet at a shared
// edge, where rounding may leave a gap of this much of the segment's
// parameter between them.
constexpr double kCoverTolerance = 1e-12;
// Candidates for the nearest free point are computed on discs this much
// larger (relative), so rounding leaves them outside, not on the rim.
constexpr double kRimPush = 1e-9;
// Passes of bending a kept way round the discs that moved into it: each
// pass gives every blocked segment one corner.
constexpr int kBendPasses = 4;
// How far out from a disc's rim (relative to its radius) such a corner may
// go, nearest first, for its segments to clear that disc.
constexpr double kBendGrowth[] = {1e-9, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3};
// Halvings of a segment when a corner is pulled taut: the corner ends within
// 2^-16 of the segment's length of the furthest point seen.
constexpr int kTautHalvings = 16;

bool finite(const V& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); }

// From p to the point of the segment a + t d, t in [0, 1], nearest to it
// (len2 = |d|^2).
V offset_to_segment(const V& p, const V& a, const V& d, double len2) {
  const V ap = a - p;
  const double t = len2 > 0.0 ? std::clamp(-ap.dot(d) / len2, 0.0, 1.0) : 0.0;
  return ap + t * d;
}

// The part [t0, t1] of a + t (b - a), t in [0, 1], inside `box` (Liang-Barsky);
// false when there is none.
bool clip(const Box& box, const V& a, const V& d, double& t0, double& t1) {
  t0 = 0.0;
  t1 = 1.0;
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0.0) {
      if (a[k] < box.min()[k] || a[k] > box.max()[k]) return false;
      continue;
    }
    double ta = (box.min()[k] - a[k]) / d[k];
    double tb = (box.max()[k] - a[k]) / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

bool in_space(const FreeSpace& space, const V& p) {
  for (const Box& box : space)
    if (box.contains(p)) return true;
  return false;
}

// Whether the segment lies in the union of the rectangles. Convex pieces:
// one rectangle holding both ends holds the segment (the usual case, one
// field rectangle); otherwise the rectangles' parameter intervals must
// cover [0, 1]. A handful of rectangles, so repeated passes beat sorting.
bool segment_in_space(const FreeSpace& space, const V& a, const V& b) {
  for (const Box& box : space)
    if (box.contains(a) && box.contains(b)) return true;
  const V d = b - a;
  double reach = 0.0;
  bool progress = true;
  while (progress && reach < 1.0 - kCoverTolerance) {
    progress = false;
    for (const Box& box : space) {
      double t0, t1;
      if (!clip(box, a, d, t0, t1)) continue;
      if (t0 <= reach + kCoverTolerance && t1 > reach) {
        reach = t1;
        progress = true;
      }
    }
  }
  return reach >= 1.0 - kCoverTolerance;
}

V clamp_into(const Box& box, const V& p) { return p.cwiseMax(box.min()).cwiseMin(box.max()); }

// Index of the non-empty rectangle of `space` nearest to p (the first of
// equals), -1 when there is none.
int nearest_box(const FreeSpace& space, const V& p) {
  int nearest = -1;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < static_cast<int>(space.size()); ++i) {
    if (space[i].isEmpty()) continue;
    const double d2 = (clamp_into(space[i], p) - p).squaredNorm();
    if (d2 < best) {
      best = d2;
      nearest = i;
    }
  }
  return nearest;
}

}  // namespace

FreeSpace field_free_space(double length, double width, double robot_radius, double goal_width, double goal_depth,
                           double run_off) {
  const double hx = 0.5 * length, hy = 0.5 * width, r = robot_radius;
  const double out = std::max(0.0, run_off);
  FreeSpace space;
  space.emplace_back(V(-hx + r, -hy - out + r), V(hx - r, hy + out - r));
  // Beyond the end lines, beside the goals; each box reaches r into the
  // field's, as the mouths do.
  const double beside = std::max(0.0, 0.5 * goal_width) + r;
  if (out > 0.0 && beside < hy + out - r) {
    for (double sx : {1.0, -1.0})
      for (double sy : {1.0, -1.0}) {
        const V a(sx * (hx - 2.0 * r), sy * beside), b(sx * (hx + out - r), sy * (hy + out - r));
        space.emplace_back(a.cwiseMin(b), a.cwiseMax(b));
      }
  }
  const double mouth = 0.5 * goal_width - r;
  if (mouth > 0.0 && goal_depth > 0.0) {
    // The mouth rectangle reaches r into the field's: a robot whose centre
    // is there, within the mouth's width, is inside field or mouth anyway.
    space.emplace_back(V(hx - 2.0 * r, -mouth), V(hx + goal_depth - r, mouth));
    space.emplace_back(V(-hx - goal_depth + r, -mouth), V(-hx + 2.0 * r, mouth));
  }
  return space;
}

FreeSpace subtract_box(const FreeSpace& space, const Box& hole) {
  FreeSpace out;
  for (const Box& box : space) {
    const Box cut = box.intersection(hole);
    // Empty, or only an edge shared: the box keeps all its area.
    if (box.isEmpty() || cut.isEmpty() || !(cut.min().array() < cut.max().array()).all()) {
      out.push_back(box);
      continue;
    }
    auto add = [&](const V& lo, const V& hi) {
      if ((lo.array() < hi.array()).all()) out.emplace_back(lo, hi);
    };
    add(box.min(), V(cut.min().x(), box.max().y()));                   // left of the hole
    add(V(cut.max().x(), box.min().y()), box.max());                   // right
    add(V(cut.min().x(), box.min().y()), V(cut.max().x(), cut.min().y()));  // below
    add(V(cut.min().x(), cut.max().y()), V(cut.max().x(), box.max().y()));  // above
  }
  return out;
}

V clamp_into_free_space(const FreeSpace& space, const V& p) {
  const int nearest = nearest_box(space, p);
  return nearest < 0 ? p : clamp_into(space[nearest], p);
}

double PlanResult::length() const { return polyline_length(waypoints); }

PathPlanner::PathPlanner(PlannerParams params) : params_(params), rng_(params.seed) {}

void PathPlanner::reset() {
  rng_.seed(params_.seed);
  cache_.clear();
  last_goal_.reset();
  last_way_.clear();
}

PathPlanner::Scene PathPlanner::make_scene(const std::vector<CircleObstacle>& obstacles,
                                           const FreeSpace& free_space) const {
  Scene scene;
  scene.space = &free_space;
  scene.discs.reserve(obstacles.size());
  for (const auto& o : obstacles)
    scene.discs.push_back({o.centre, o.radius + params_.robot_radius + params_.clearance,
                           o.body > 0.0 ? o.body + params_.robot_radius + params_.clearance : o.body});
  double total = 0.0;
  for (const Box& box : free_space) {
    total += box.isEmpty() ? 0.0 : box.volume();
    scene.cumulative_area.push_back(total);
  }
  return scene;
}

bool PathPlanner::passable(const Scene& scene, const V& a, const V& b) const {
  if (!segment_in_space(*scene.space, a, b)) return false;
  const V d = b - a;
  const double len2 = d.squaredNorm();
  for (const Disc& disc : scene.discs) {
    const V ac = a - disc.centre;
    const double r2 = disc.radius * disc.radius;
    const V nearest = offset_to_segment(disc.centre, a, d, len2);
    if (ac.squaredNorm() < r2) {
      // Starting inside: the distance to the centre is convex along the
      // segment, so not falling below the start's (less the slack) at its
      // nearest means the segment only leaves the disc.
      if (nearest.norm() < ac.norm() - scene.start_slack) return false;
      continue;
    }
    if (nearest.squaredNorm() < r2) return false;
  }
  return true;
}

bool PathPlanner::segment_free(const V& a, const V& b, const std::vector<CircleObstacle>& obstacles,
                               const FreeSpace& free_space) const {
  return passable(make_scene(obstacles, free_space), a, b);
}

bool PathPlanner::same_sides(const Scene& scene, const std::vector<V>& a, const std::vector<V>& b) const {
  for (const Disc& disc : scene.discs)
    if (std::abs(swept_angle(a, disc.centre) - swept_angle(b, disc.centre)) > runtime::kPi) return false;
  return true;
}

bool PathPlanner::bend_round(const Scene& scene, std::vector<V>& path) const {
  for (int pass = 0; pass <= kBendPasses; ++pass) {
    bool free = true;
    for (std::size_t i = 1; i < path.size(); ++i) {
      const V a = path[i - 1], b = path[i];
      if (passable(scene, a, b)) continue;
      free = false;
      if (pass == kBendPasses) return false;
      const V d = b - a;
      const double len2 = d.squaredNorm();
      // Starting inside a body's disc (touching a robot), a way along it
      // comes a hair nearer its centre first: it leaves straight away from
      // the centre to the rim, and goes on from there (bent round the disc
      // on the side it passes, next pass). Not out of a zone kept off: out
      // of the ball's, by our corner flag at a drop ball, that way led into
      // the corner, and the robot turned a full circle there (restart
      // drill: stood inside the distance at the restart).
      const Disc* holding = nullptr;
      for (const Disc& disc : scene.discs) {
        const V ac = a - disc.centre;
        if (disc.body >= 0.0 || ac.squaredNorm() >= disc.radius * disc.radius || ac.norm() < 1e-9) continue;
        if (offset_to_segment(disc.centre, a, d, len2).norm() < ac.norm() - scene.start_slack) holding = &disc;
      }
      if (holding != nullptr) {
        const V exit =
            holding->centre + (a - holding->centre).normalized() * (holding->radius * (1.0 + kRimPush) + kRimPush);
        if (!passable(scene, a, exit)) return false;
        path.insert(path.begin() + static_cast<std::ptrdiff_t>(i), exit);
        ++i;
        continue;
      }
      // The disc the segment cuts deepest, and from its centre to where.
      const Disc* deepest = nullptr;
      V out = V::Zero();
      double depth = 0.0;
      for (const Disc& disc : scene.discs) {
        if ((a - disc.centre).squaredNorm() < disc.radius * disc.radius) continue;
        const V nearest = offset_to_segment(disc.centre, a, d, len2);
        const double in = disc.radius - nearest.norm();
        if (in > depth) {
          depth = in;
          deepest = &disc;
          out = nearest;
        }
      }
      if (deepest == nullptr) return false;  // out of the free space
      if (out.norm() < 1e-9) return false;   // through its centre: no side to keep
      // On its rim, the corner's segments would cut the disc again on
      // either side of it: it goes out along the same line until they
      // clear the disc.
      auto clears = [&](const V& from, const V& to) {
        const V e = to - from;
        return offset_to_segment(deepest->centre, from, e, e.squaredNorm()).norm() >= deepest->radius;
      };
      V corner = deepest->centre;
      bool clear = false;
      for (double grow : kBendGrowth) {
        corner = deepest->centre + out.normalized() * (deepest->radius * (1.0 + grow) + kRimPush);
        clear = clears(a, corner) && clears(corner, b);
        if (clear) break;
      }
      if (!clear || !point_free(scene, corner)) return false;
      path.insert(path.begin() + static_cast<std::ptrdiff_t>(i), corner);
      ++i;  // the new corner's second segment is checked in the next pass
    }
    if (free) return true;
  }
  return false;
}

bool PathPlanner::point_free(const Scene& scene, const V& p) const {
  if (!in_space(*scene.space, p)) return false;
  for (const Disc& disc : scene.discs)
    if ((p - disc.centre).squaredNorm() < disc.radius * disc.radius) return false;
  return true;
}

V PathPlanner::nearest_free_point(const Scene& scene, const V& p) const {
  // The nearest point of (union of rectangles) minus (union of discs) lies
  // on a rectangle (clamp, corner), on a disc's rim (radial projection), or
  // where two of these boundaries cross; the best free candidate wins.
  V best = p;
  double best_d2 = std::numeric_limits<double>::infinity();
  auto consider = [&](const V& q) {
    if (!finite(q)) return;
    const double d2 = (q - p).squaredNorm();
    if (d2 < best_d2 && point_free(scene, q)) {
      best = q;
      best_d2 = d2;
    }
  };
  consider(p);
  const FreeSpace& space = *scene.space;
  for (const Box& box : space) {
    if (box.isEmpty()) continue;
    consider(clamp_into(box, p));
    for (int c = 0; c < 4; ++c) consider(box.corner(static_cast<Box::CornerType>(c)));
  }
  for (std::size_t i = 0; i < scene.discs.size(); ++i) {
    const Disc& a = scene.discs[i];
    const double ra = a.radius * (1.0 + kRimPush) + kRimPush;
    const V away = p - a.centre;
    const double n = away.norm();
    consider(a.centre + ra * (n > 0.0 ? V(away / n) : V(1.0, 0.0)));
    for (std::size_t j = i + 1; j < scene.discs.size(); ++j) {
      const Disc& b = scene.discs[j];
      const double rb = b.radius * (1.0 + kRimPush) + kRimPush;
      const V ab = b.centre - a.centre;
      const double d = ab.norm();
      if (d == 0.0 || d > ra + rb || d < std::abs(ra - rb)) continue;
      const double along = (d * d + ra * ra - rb * rb) / (2.0 * d);
      const double h = std::sqrt(std::max(0.0, ra * ra - along * along));
      const V u = ab / d;
      const V mid = a.centre + along * u;
      consider(mid + h * V(-u.y(), u.x()));
      consider(mid - h * V(-u.y(), u.x()));
    }
    for (const Box& box : space) {
      if (box.isEmpty()) continue;
      for (int k = 0; k < 2; ++k) {      // the edges x = const (k = 0) and y = const (k = 1)
        for (double edge : {box.min()[k], box.max()[k]}) {
          const double off = edge - a.centre[k];
          const double h2 = ra * ra - off * off;
          if (h2 < 0.0) continue;
          const double h = std::sqrt(h2);
          for (double s : {-h, h}) {
            V q;
            q[k] = edge;
            q[1 - k] = std::clamp(a.centre[1 - k] + s, box.min()[1 - k], box.max()[1 - k]);
            consider(q);
          }
        }
      }
    }
  }
  if (std::isfinite(best_d2)) return best;
  // Nothing free anywhere: at least stay in the free space.
  return clamp_into_free_space(space, p);
}

V PathPlanner::sample(const Scene& scene) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double pick = unit(rng_) * scene.cumulative_area.back();
  std::size_t i = 0;
  while (i + 1 < scene.cumulative_area.size() && scene.cumulative_area[i] <= pick) ++i;
  const Box& box = (*scene.space)[i];
  return box.min() + (box.max() - box.min()).cwiseProduct(V(unit(rng_), unit(rng_)));
}

void PathPlanner::smooth(const Scene& scene, std::vector<V>& path) const {
  if (path.size() < 3) return;
  std::vector<V> out{path.front()};
  std::size_t i = 0;
  while (i + 1 < path.size()) {
    std::size_t j = path.size() - 1;
    while (j > i + 1 && !passable(scene, path[i], path[j])) --j;
    out.push_back(path[j]);
    i = j;
  }
  path.swap(out);
}

void PathPlanner::pull_taut(const Scene& scene, std::vector<V>& path) const {
  // Each corner is pulled taut: it slides along the way on to the next
  // as far as the corner before still sees it. The tree node that happened
  // to see the goal first can lie anywhere, even behind the start (MSL: a
  // robot running at an opponent 2.5 m ahead was sent back and sideways
  // before it went round, and came close to a stop); pulled taut, the corner
  // lies by the tangent to the obstacle. The way stays free: the new corner
  // lies on a free segment, and the one before sees it.
  for (std::size_t k = 1; k + 1 < path.size(); ++k) {
    const V from = path[k - 1], corner = path[k], next = path[k + 1];
    double seen = 0.0, hidden = 1.0;
    for (int halving = 0; halving < kTautHalvings; ++halving) {
      const double mid = 0.5 * (seen + hidden);
      (passable(scene, from, corner + mid * (next - corner)) ? seen : hidden) = mid;
    }
    path[k] = corner + seen * (next - corner);
  }
}

void PathPlanner::remember(const std::vector<V>& points) {
  if (params_.cache_size <= 0) return;
  for (const V& p : points) {
    if (static_cast<int>(cache_.size()) < params_.cache_size) {
      cache_.push_back(p);
    } else {
      std::uniform_int_distribution<std::size_t> slot(0, cache_.size() - 1);
      cache_[slot(rng_)] = p;
    }
  }
}

int PathPlanner::grow_tree(const Scene& scene, const V& root, const V& target, PlanResult& result, double step) {
  xs_.assign(1, root.x());
  ys_.assign(1, root.y());
  parents_.assign(1, -1);
  const int max_iterations = params_.max_iterations > 0 ? params_.max_iterations : 3 * params_.max_nodes;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int found = -1;
  // Each growth has the whole budget (its nodes are those besides the
  // root): a retry follows one that added no node.
  int iterations = 0;
  while (iterations < max_iterations && static_cast<int>(xs_.size()) - 1 < params_.max_nodes) {
    ++iterations;
    ++result.iterations;
    const double r = unit(rng_);
    V aim;
    if (r < params_.goal_bias) {
      aim = target;
    } else if (r < params_.goal_bias + params_.waypoint_bias && !cache_.empty()) {
      std::uniform_int_distribution<std::size_t> pick(0, cache_.size() - 1);
      aim = cache_[pick(rng_)];
    } else {
      aim = sample(scene);
    }
    int nearest = 0;
    double nearest_d2 = std::numeric_limits<double>::infinity();
    for (int i = 0; i < static_cast<int>(xs_.size()); ++i) {
      const double dx = xs_[i] - aim.x(), dy = ys_[i] - aim.y();
      const double d2 = dx * dx + dy * dy;
      if (d2 < nearest_d2) {
        nearest_d2 = d2;
        nearest = i;
      }
    }
    const V from(xs_[nearest], ys_[nearest]);
    const double dist = std::sqrt(nearest_d2);
    if (dist <= 0.0) continue;  // the aim is a node already
    const V to = dist <= step ? aim : V(from + (aim - from) * (step / dist));
    if (!passable(scene, from, to)) continue;
    xs_.push_back(to.x());
    ys_.push_back(to.y());
    parents_.push_back(nearest);
    ++result.nodes;
    if (passable(scene, to, target)) {
      found = static_cast<int>(xs_.size()) - 1;
      break;
    }
  }
  return found;
}

PlanResult PathPlanner::plan(const V& start, const V& goal, const std::vector<CircleObstacle>& obstacles,
                             const FreeSpace& free_space, const std::optional<StartHeading>& heading) {
  PlanResult result;
  bool valid = finite(start) && finite(goal) && params_.step > 0.0 && params_.max_nodes >= 0 &&
               params_.goal_bias >= 0.0 && params_.waypoint_bias >= 0.0 &&
               params_.goal_bias + params_.waypoint_bias <= 1.0 && std::isfinite(params_.robot_radius) &&
               std::isfinite(params_.clearance);
  for (const auto& o : obstacles) valid = valid && finite(o.centre) && std::isfinite(o.radius) && o.radius >= 0.0;
  bool any_region = false;
  for (const Box& box : free_space) {
    valid = valid && finite(box.min()) && finite(box.max());
    any_region = any_region || !box.isEmpty();
  }
  if (!valid || !any_region) {
    result.inputs_valid = false;
    result.waypoints = {start, start};
    return result;
  }

  // A start outside the free space (pushed over its edge, or an estimate a
  // little off) plans in it with the nearest rectangle stretched to hold the
  // start: along the edge or back in, never further out. Stepping first
  // straight onto the nearest free point, unchecked, a robot pushed beyond
  // our end line drove into the opponent touching it on the field side for
  // 7 s, until the referee moved it (MSL corner kick).
  FreeSpace stretched;
  const bool outside = !in_space(free_space, start);
  if (outside) {
    stretched = free_space;
    stretched[nearest_box(free_space, start)].extend(start);  // one exists: any_region
  }
  Scene scene = make_scene(obstacles, outside ? stretched : free_space);
  result.waypoints.push_back(start);
  if (last_goal_ && params_.goal_jump > 0.0 && (goal - *last_goal_).norm() > params_.goal_jump) clear_cache();
  last_goal_ = goal;
  std::vector<V> last_way;
  last_way.swap(last_way_);

  const V root = start;
  result.start_blocked = outside;
  for (const Disc& disc : scene.discs)
    if ((root - disc.centre).squaredNorm() < disc.radius * disc.radius) result.start_blocked = true;

  V target = goal;
  if (!point_free(scene, goal)) {
    result.goal_blocked = true;
    target = nearest_free_point(scene, goal);
  }

  // Boxed in against a zone kept off by opponents, the only way out may
  // lead into the zone (MSL free kick: a robot 1.2 m from the ball stood
  // 5 s with opponents on three sides and the ball's zone on the fourth).
  auto shrink_zones_holding_root = [&] {
    bool any = false;
    for (Disc& disc : scene.discs) {
      if (disc.body < 0.0 || disc.body >= disc.radius) continue;  // a body, or no bigger than it
      if ((root - disc.centre).squaredNorm() >= disc.radius * disc.radius) continue;
      disc.radius = disc.body;
      any = true;
    }
    return any;
  };
  // Boxed in: a robot touching three others at once found every direction
  // nearing one of them, and stood still for seconds (MSL drop ball: 4 s,
  // inside the distance at the restart); so a tree that added no node is
  // grown again sliding (pass 1), and one still boxed in crosses the zones
  // (pass 2).
  int found = -1;
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1 && result.nodes > 0) continue;  // it could move: no sliding into a disc
    if (pass == 2 && !shrink_zones_holding_root()) break;
    scene.start_slack = pass == 1 ? params_.clearance : 0.0;
    if (passable(scene, root, target)) {
      result.waypoints.push_back(target);
      result.reached_target = true;
      result.reached_goal = !result.goal_blocked;
      // The straight way is a way too: forgotten, the next plan, blocked
      // by a hair, took whichever side its tree found first.
      last_way_.assign(1, target);
      return result;
    }
    const int nodes_before = result.nodes;
    found = grow_tree(scene, root, target, result, params_.step);
    // Held inside discs, the only way out may be a gap narrower than a full
    // step sweeps past the disc's rim (MSL free kick: a robot touching one
    // opponent, a tenth of a metre between it and the ball's zone, stood
    // 2.4 s with no node grown).
    if (found < 0 && result.nodes == nodes_before && result.start_blocked && params_.escape_step_fraction > 0.0)
      found = grow_tree(scene, root, target, result, params_.escape_step_fraction * params_.step);
    if (found >= 0 || !result.start_blocked) break;
  }

  // A tree's way: its corners after shortcuts (what the cache and the next
  // plan keep: taut corners lie on obstacles' rims, and the least move of
  // one blocks them) and the same pulled taut (what the robot follows).
  struct Way {
    std::vector<V> corners, taut;
    bool reached = false;
  };
  auto trace = [&](int found_node) {
    int end = found_node;
    if (end < 0) {
      double best = std::numeric_limits<double>::infinity();
      // Held inside discs, the start itself was often the node nearest the
      // aim (the way out leads away from it), and the robot stood: the path
      // ends at the nearest node grown from it instead.
      const int first = result.start_blocked && xs_.size() > 1 ? 1 : 0;
      for (int i = first; i < static_cast<int>(xs_.size()); ++i) {
        const double d2 = (V(xs_[i], ys_[i]) - target).squaredNorm();
        if (d2 < best) {
          best = d2;
          end = i;
        }
      }
    }
    Way way;
    for (int i = end; i >= 0; i = parents_[i]) way.corners.emplace_back(xs_[i], ys_[i]);
    std::reverse(way.corners.begin(), way.corners.end());
    way.reached = found_node >= 0;
    if (way.reached) way.corners.push_back(target);
    smooth(scene, way.corners);
    // The corners, not the ends: the next plan starts elsewhere, and aiming
    // at the target is the goal bias' job.
    if (way.reached) remember(std::vector<V>(way.corners.begin() + 1, way.corners.end() - 1));
    way.taut = way.corners;
    pull_taut(scene, way.taut);
    return way;
  };
  // A way through free corners to the target: shortcut, and pulled taut.
  auto free_way = [&](std::vector<V> corners) {
    Way way;
    smooth(scene, corners);
    way.corners = corners;
    way.taut = std::move(corners);
    pull_taut(scene, way.taut);
    way.reached = true;
    return way;
  };
  // The last way bent round what moved into it (not reached: no such way).
  auto bent_way = [&](std::vector<V> corners) { return bend_round(scene, corners) ? free_way(corners) : Way{}; };
  // A way's length, and the turn onto its first leg at turn_cost.
  auto cost = [&](const Way& way) {
    double turn = 0.0;
    if (heading && params_.turn_cost > 0.0 && way.taut.size() >= 2) {
      const V leg = way.taut[1] - way.taut[0];
      if (leg.squaredNorm() > 1e-12) {
        turn = std::abs(runtime::wrap_angle(std::atan2(leg.y(), leg.x()) - heading->theta));
        if (heading->reverses) turn = std::min(turn, runtime::kPi - turn);
      }
    }
    return polyline_length(way.taut) + params_.turn_cost * turn;
  };
  Way chosen = trace(found);
  if (params_.keep_way_fraction >= 0.0 && !last_way.empty()) {
    const double longest = cost(chosen) + params_.keep_way_fraction * polyline_length(chosen.taut);
    std::vector<V> kept{root};
    kept.insert(kept.end(), last_way.begin(), last_way.end() - 1);
    kept.push_back(target);
    bool free = true;
    for (std::size_t i = 1; free && i < kept.size(); ++i)
      free = passable(scene, kept[i - 1], kept[i]);
    if (free) {
      Way as_it_was = free_way(kept);
      if (!chosen.reached || cost(as_it_was) <= longest) chosen = std::move(as_it_was);
    } else if (Way bent = bent_way(kept);
               bent.reached && (!chosen.reached || cost(bent) <= longest)) {
      // The last way is blocked, most often only just (an obstacle moved a
      // little into it): bent round it on the same side, unless that makes
      // it longer than the tree's by more than the fraction. A new tree
      // rarely found the same side through a narrow gap (a robot between
      // the ball and the field's edge: 183 of 200 seeds went round the
      // other side), and the robot turned to and fro.
      chosen = std::move(bent);
    } else if (chosen.reached && !same_sides(scene, chosen.taut, kept)) {
      // Or a new tree or two may find one round the same sides.
      for (int retry = 0; retry < params_.same_side_retries; ++retry) {
        const int again = grow_tree(scene, root, target, result, params_.step);
        if (again < 0) break;
        Way other = trace(again);
        if (same_sides(scene, other.taut, kept) && cost(other) <= longest) {
          chosen = std::move(other);
          break;
        }
      }
    }
  }
  if (chosen.reached) {
    result.reached_target = true;
    result.reached_goal = !result.goal_blocked;
    last_way_.assign(chosen.corners.begin() + 1, chosen.corners.end());
  }
  const std::vector<V>& path = chosen.taut;
  result.waypoints.insert(result.waypoints.end(), path.begin() + 1, path.end());
  if (result.waypoints.size() < 2) result.waypoints.push_back(root);
  return result;
}

}  // namespace robocaf::actors
