#pragma once
// Path planning around opponents and walls: ERRT (Bruce and Veloso's
// Extended RRT, the planner Botnia SSL names, BRIEF 4.5). Plain C++ with
// Eigen, no CAF; meant to be called by SkillController once per robot per
// control cycle, replanning from scratch each time while its waypoint cache
// carries what the last plans learnt.

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <Eigen/Geometry>

namespace robocaf::actors {

/// A disc the robot must keep out of (an opponent, a robot it gives way to),
/// field frame, metres. `radius` is the obstacle's own body radius; the
/// planner adds the planning robot's radius and the clearance itself
/// (PlannerParams::robot_radius, ::clearance).
struct CircleObstacle {
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();
  double radius = 0.0;
  /// Below 0: a body. Otherwise the disc is a zone kept off (round the
  /// ball, or the spot it goes back to) around a body of this radius, 0 for
  /// none: a start inside the zone that finds no way out of it only keeps
  /// off the body (see PathPlanner).
  double body = -1.0;
};

/// Where the robot's centre may be: the union of these axis-aligned
/// rectangles, field frame, metres. Unlike obstacles, they are already in
/// terms of the robot's centre (the caller shrinks the field by the robot's
/// radius; field_free_space() does it): the union of eroded rectangles is not
/// the eroded union, so a goal mouth would not join the field otherwise.
/// No clearance is kept from their edges (a robot must reach a ball on a wall).
using FreeSpace = std::vector<Eigen::AlignedBox2d>;

/// The free space for a robot of radius `robot_radius` on a field of
/// `length` x `width` centred on the origin (x along the length): the field
/// shrunk by the radius, plus, when goal_width > 2 robot_radius and
/// goal_depth > 0, the two goal mouths behind the end lines (|x| up to
/// length/2 + goal_depth - robot_radius, |y| <= goal_width/2 - robot_radius),
/// overlapping the field's rectangle so paths pass from one into the other.
/// On an open field (no walls) robots may also leave the field: `run_off`
/// (the boundary strip less whatever clearance the caller keeps from its
/// edge) widens the field by that much on the sides, and at the ends
/// beside the goals (|y| >= goal_width/2 + robot_radius), never through a
/// goal's net.
FreeSpace field_free_space(double length, double width, double robot_radius, double goal_width = 0.0,
                           double goal_depth = 0.0, double run_off = 0.0);

/// The point of `space` nearest to p (p itself when it is inside); p when
/// `space` is empty.
Eigen::Vector2d clamp_into_free_space(const FreeSpace& space, const Eigen::Vector2d& p);

/// `space` less the rectangle `hole` (a place kept off, such as our goal
/// area): each rectangle it cuts is replaced by the up to four pieces of it
/// round the hole, which keep the hole's edges (a centre on an edge is free).
FreeSpace subtract_box(const FreeSpace& space, const Eigen::AlignedBox2d& hole);

/// Defaults: the biases usually quoted for Bruce and Veloso's ERRT (the
/// Botnia thesis gives no numbers). On the replanning unit test a waypoint
/// bias of 0.3 needed 19 nodes per replan, 0.6 13, 0.8 11, no cache 37; 0.6
/// keeps room for exploration when the scene changes more.
struct PlannerParams {
  /// Probability that an extension heads for the goal (ERRT's goal bias);
  /// 0 with waypoint_bias 0 is plain RRT.
  double goal_bias = 0.1;
  /// Probability that an extension heads for a random waypoint of the cache
  /// (ERRT's waypoint bias). goal_bias + waypoint_bias <= 1; the rest are
  /// uniform samples of the free space.
  double waypoint_bias = 0.6;
  /// Waypoints kept from earlier plans; 0 turns the cache off.
  int cache_size = 64;
  /// Length of one tree extension, m. Of the order of the obstacles' inflated
  /// radius (about two robot radii: 0.08 m MiroSot, 0.5 m MSL): much shorter
  /// costs nodes, much longer misses gaps.
  double step = 0.1;
  /// A goal further than this (m) from the previous plan's clears the cache
  /// first: its waypoints lead to the old goal, and would draw most of the
  /// samples away from the new one. 0 or less: never cleared.
  double goal_jump = 0.5;
  /// Tree nodes per plan besides the root: the bound on a plan's work, and
  /// so on its time (nearest-neighbour search is linear, so the worst case
  /// grows as max_nodes^2 / 2 distance evaluations).
  int max_nodes = 300;
  /// Samples tried per plan, whether or not they add a node (extensions into
  /// an obstacle add none): the other half of the bound. 0 means 3 * max_nodes.
  int max_iterations = 0;
  /// The planning robot's radius, m, added to every obstacle's.
  double robot_radius = 0.0;
  /// Gap kept between the robot's body and every obstacle's, m.
  double clearance = 0.0;
  /// Seeds the planner's generator (std::mt19937): the only randomness.
  uint32_t seed = 1;
  /// A plan keeps the way the last one took (round the same side of each
  /// obstacle, the straight way included) while that way, or that way bent
  /// round what moved into it, is free and at most this fraction longer
  /// than the new tree's; below 0 never. Each replan's tree is a new
  /// random draw, and two ways round an obstacle of about equal length came
  /// up by turns: a differential robot turned to one, then to the other,
  /// and stood (MSL: 3 s in front of the other team's keeper at a kick-off).
  double keep_way_fraction = 0.1;
  /// When the last way is blocked and the new tree goes round an obstacle
  /// on the other side, up to this many more trees are grown for one round
  /// the same sides (taken when at most keep_way_fraction longer).
  int same_side_retries = 2;
  /// Distance (m) a way counts for each radian the robot turns onto its
  /// first leg, when plan() is given its heading (0: turning is free).
  /// Weighing the way kept against a new tree's, a differential robot that
  /// must turn about for the new way pays for it: between the long way
  /// round the ball and a short one past it through a gap that opened and
  /// closed by centimetres, a robot the thrower pressed against took each
  /// in turn, half a turn each time (MSL throw-in: moved by the referee).
  double turn_cost = 0.0;
  /// A start inside inflated obstacles whose tree adds no node grows once
  /// more with steps this fraction of `step` long (0: never): the way out
  /// may be a gap that no full step's segment clears.
  double escape_step_fraction = 0.25;
};

/// The robot's heading where a plan starts (see PlannerParams::turn_cost).
struct StartHeading {
  double theta = 0.0;     ///< rad, field frame
  bool reverses = false;  ///< it may back up: a leg behind it needs no turn about
};

/// One plan.
struct PlanResult {
  /// From the start to the end point: waypoints.front() is the start as
  /// given, waypoints.back() where the plan ends (the goal when reached_goal);
  /// always at least two entries, so waypoints[1] is where to head now.
  std::vector<Eigen::Vector2d> waypoints;
  /// The path ends at the goal as given.
  bool reached_goal = false;
  /// The goal lies inside an (inflated) obstacle or outside the free space:
  /// the plan aims at the free point nearest to it instead.
  bool goal_blocked = false;
  /// The plan ends at its aim (the goal, or the nearest free point when the
  /// goal is blocked). False: the aim was not reached within max_nodes /
  /// max_iterations (or it is walled off), and the path ends at the tree node
  /// nearest to the aim.
  bool reached_target = false;
  /// The start is inside an inflated obstacle (robots touching) or outside
  /// the free space; see PathPlanner for how the path leaves.
  bool start_blocked = false;
  /// Tree nodes added besides the root; 0 when the straight segment was free.
  int nodes = 0;
  /// Samples drawn (extensions tried).
  int iterations = 0;
  /// False for a non-finite number, a negative obstacle radius, no
  /// non-empty rectangle in the free space, or unusable params (step <= 0,
  /// a bias outside [0, 1] or biases summing above 1, max_nodes < 0): the
  /// result is {start, start}, stay where you are.
  bool inputs_valid = true;

  /// Length of the polyline, m.
  double length() const;
};

/// ERRT path planner for one robot's centre among circular obstacles inside
/// a free space of rectangles (field frame, metres).
///
/// A plan: when the straight segment from start to goal is free, that is the
/// plan (no tree). Otherwise a tree grows from the start: each iteration
/// picks a target (the goal with goal_bias, a cached waypoint with
/// waypoint_bias, else a uniform point of the free space), extends the
/// nearest tree node one `step` towards it if that segment is free, and tests
/// whether the new node sees the goal; the first that does ends the search.
/// The node path is then smoothed by shortcuts (from each kept point, jump to
/// the furthest later point it sees), and its points enter the waypoint
/// cache (random replacement once full), so that the next plan in a similar
/// scene grows straight along the last one. A goal that jumps further than
/// goal_jump from the last call's empties the cache first. Last, each corner
/// of the returned path is pulled taut: it slides towards the next corner
/// as far as the corner before still sees it, so the way bends by the
/// obstacles (near their tangents) wherever the tree happened to turn.
///
/// Validity. A segment is free when it stays inside the free space and keeps
/// its distance to every obstacle centre at or above obstacle radius +
/// robot_radius + clearance. A segment that starts inside such an inflated
/// disc is free with respect to that disc if it does not move towards the
/// centre: robots that touch move out of each other instead of the planner
/// failing; once out, the disc counts as usual. Each of the trees below
/// that adds no node at all is grown again at once with steps
/// escape_step_fraction as long. Where that leaves no way at
/// all (a start inside several discs, every direction nearing one of them),
/// the tree is grown again with segments from inside a disc allowed to come
/// nearer its centre by `clearance`: the robot slides out along one of
/// them. A start inside a zone kept off (CircleObstacle::body) whose tree
/// still does not reach the aim grows a last one with such zones holding
/// the start shrunk to their body: boxed in against the zone by opponents,
/// the way out may lead nearer the ball. A start outside the free space
/// plans as if the rectangle nearest to it were stretched to hold it: the
/// path may run along the edge or back in (round obstacles as usual), never
/// further out; the goal, and whether it is free, are judged in the
/// stretched space too.
///
/// Hysteresis: when the tree's way is not the straight segment, the last
/// plan's corners (with the new start and aim as ends, shortcut and pulled
/// taut again; none when the last plan went straight) replace it while all
/// its segments are still free and it is at most keep_way_fraction longer
/// (each way's length with its turn_cost added, given the heading), or
/// whenever the tree did not reach the aim. When it is blocked, it is
/// bent round the discs that cut it, each on the side the way passed it (a
/// corner where the segment came nearest the disc's centre, pushed out
/// until its segments clear the disc; from a start inside a body's disc
/// that the way would come nearer the centre of, a corner straight out to
/// its rim first; a few passes), and replaces the tree's way on the same
/// terms. Where it cannot be bent so and the tree's way
/// passes an obstacle on the other side, up to same_side_retries more trees
/// are grown for one that keeps the sides. An aim further than goal_jump
/// from the last one drops the last way.
///
/// A blocked goal (inside an inflated disc or outside the free space) is
/// replaced by the nearest free point (exact: the nearest among projections
/// onto discs and rectangles and their pairwise intersections); if the tree
/// cannot reach it, the path ends at the tree node nearest to it (other
/// than the start, when the start is blocked and the tree grew any).
///
/// Nearest-neighbour search is a linear scan over the nodes stored as plain
/// coordinate arrays: a few hundred nodes are scanned in well under a
/// microsecond, and a plan that finds its way needs tens of nodes (see
/// docs/BENCHMARKS.md); a k-d tree, rebuilt or rebalanced as nodes arrive
/// one by one, would only pay off at thousands.
///
/// Determinism: the result depends only on the inputs, the params and the
/// planner's state (waypoint cache and generator), which depend only on the
/// earlier calls since construction or reset(). No clock, no global state.
class PathPlanner {
 public:
  explicit PathPlanner(PlannerParams params = {});

  /// Plans from `start` to `goal`. Never throws; see PlanResult.
  PlanResult plan(const Eigen::Vector2d& start, const Eigen::Vector2d& goal,
                  const std::vector<CircleObstacle>& obstacles, const FreeSpace& free_space,
                  const std::optional<StartHeading>& heading = std::nullopt);

  /// Whether the straight segment a -> b is free (see the class comment),
  /// with the same obstacles and free space as plan() takes.
  bool segment_free(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const std::vector<CircleObstacle>& obstacles,
                    const FreeSpace& free_space) const;

  /// Forgets the cached waypoints and the last way (e.g. when the robot's
  /// goal jumps elsewhere).
  void clear_cache() {
    cache_.clear();
    last_way_.clear();
  }
  /// Back to the state right after construction: empty cache, generator reseeded.
  void reset();

  const std::vector<Eigen::Vector2d>& waypoint_cache() const { return cache_; }
  const PlannerParams& params() const { return params_; }

 private:
  struct Disc {
    Eigen::Vector2d centre;
    double radius;  // inflated: obstacle + robot + clearance
    double body;    // inflated the same, or below 0 (CircleObstacle::body)
  };
  // The scene of one plan, in the planner's own terms.
  struct Scene {
    std::vector<Disc> discs;
    const FreeSpace* space = nullptr;
    std::vector<double> cumulative_area;  // for sampling regions by area
    // How much nearer a disc's centre a segment starting inside the disc
    // may come: 0, or the clearance once the start is boxed in.
    double start_slack = 0.0;
  };

  Scene make_scene(const std::vector<CircleObstacle>& obstacles, const FreeSpace& free_space) const;
  bool passable(const Scene& scene, const Eigen::Vector2d& a, const Eigen::Vector2d& b) const;
  bool point_free(const Scene& scene, const Eigen::Vector2d& p) const;
  // Whether polylines a and b, with the same ends, pass every disc on the
  // same side.
  bool same_sides(const Scene& scene, const std::vector<Eigen::Vector2d>& a,
                  const std::vector<Eigen::Vector2d>& b) const;
  Eigen::Vector2d nearest_free_point(const Scene& scene, const Eigen::Vector2d& p) const;
  Eigen::Vector2d sample(const Scene& scene);
  void smooth(const Scene& scene, std::vector<Eigen::Vector2d>& path) const;
  void pull_taut(const Scene& scene, std::vector<Eigen::Vector2d>& path) const;
  // Bends a way that discs have moved into back round them on the side it
  // passed them; false where that leaves no free way.
  bool bend_round(const Scene& scene, std::vector<Eigen::Vector2d>& path) const;
  void remember(const std::vector<Eigen::Vector2d>& points);
  // Grows the tree from `root` until a node sees `target`; returns that
  // node's index, or -1. Counts nodes and iterations into `result`.
  int grow_tree(const Scene& scene, const Eigen::Vector2d& root, const Eigen::Vector2d& target, PlanResult& result,
                double step);

  PlannerParams params_;
  std::mt19937 rng_;
  std::vector<Eigen::Vector2d> cache_;
  std::optional<Eigen::Vector2d> last_goal_;
  // The last plan's way after its start, ending at its aim (the aim alone
  // when it went straight); empty when it did not reach its aim.
  std::vector<Eigen::Vector2d> last_way_;
  // Tree storage reused between plans (no allocation per plan once warm).
  std::vector<double> xs_, ys_;
  std::vector<int> parents_;
};

}  // namespace robocaf::actors
