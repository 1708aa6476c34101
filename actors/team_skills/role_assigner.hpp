#pragma once
// Team-skills core: a role for every robot present. No CAF here; the team
// skills actor wraps this class.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <Eigen/Dense>

#include "actors/team_skills/formation.hpp"
#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"

namespace robocaf::actors {

/// Assigns roles by the team's strategy (msg::TeamStrategy).
///
/// STRATEGY_DEFAULT: one keeper, one attacker, and the rest split into
/// defenders and supporters: at least one defender, half the rest rounded
/// down when more are left (3 left -> 1 defender, 2 supporters; 4 left -> 2
/// and 2).
///
/// Keeper: sticky; a new one is the robot nearest its own goal. Attacker: the
/// lowest cost to reach the point behind the ball on the line from the
/// opponent goal (a detour counts when it has to go around the ball); the
/// current attacker stays unless another's cost is lower by more than 20 % and
/// by more than 0.1 m, and has stayed so for kConfirmSeconds. Defenders and
/// supporters: each of their places (Formation's spots for the ball: the
/// defender or the wall's slots, the supporters' wide and follow spots) goes
/// to a robot so that the total distance from the robots to their places is
/// the least (min_cost_assignment). Such an assignment never sends two robots
/// across each other's paths to swap places; assigning by distance to the goal
/// did, and the two met head-on (MSL vs chaser: most own contacts of robots
/// that had stood together for seconds). A robot's current place counts 0.1 m
/// or a robot diameter (whichever is more) nearer, and a different assignment
/// is taken only once it has been the best for kConfirmSeconds. With fewer
/// robots the order of priority is keeper, attacker, defender, supporter. A
/// role whose holder left, or became the attacker, is filled at once.
///
/// The baseline opponents (configs/teams/) use the same player skills with
/// simpler rules: STRATEGY_CHASER makes every robot an attacker (all chase the
/// ball and push it goalwards); STRATEGY_WALL keeps the keeper and makes every
/// other robot a defender (a wall before the goal).
///
/// Every entry carries its place among the robots with the same role
/// (role_index of role_count): for defenders and supporters of
/// STRATEGY_DEFAULT, the place they were assigned; the wall's defenders are
/// numbered right to left as seen from their own goal, by where they stand,
/// so its slots do not make its robots cross; other roles by id.
class RoleAssigner {
 public:
  explicit RoleAssigner(const msg::LeaguePreset& league, msg::TeamStrategy strategy = msg::STRATEGY_DEFAULT);

  /// How long (s) a change of attacker or of defenders must stay warranted
  /// before it is made. Costs jump with noise (estimates, which robot's ball
  /// is freshest) and with the ball; without this wait MSL matches changed
  /// roles over a thousand times each, half of them back within a second.
  static constexpr double kConfirmSeconds = 0.3;

  /// `robot_estimates`: each robot's latest WorldEstimate (any order, may be
  /// stale or missing for some robots). A robot's position is its own `self`
  /// or, failing that, the freshest view of it in a teammate's estimate; the
  /// ball is the freshest valid one. `t`: the time of this decision (s), for
  /// kConfirmSeconds. Returns one entry per distinct present robot, ascending
  /// by id.
  std::vector<msg::RoleEntry> assign(const std::vector<msg::WorldEstimate>& robot_estimates,
                                     const std::vector<uint32_t>& robots_present, bool attack_positive_x, double t);

  /// How far (m) a robot's current place counts nearer than it is: keeps
  /// defenders and supporters from swapping on noise.
  double place_bonus() const;

  /// Forgets the current roles (no stickiness for the next assignment) and
  /// any change waiting for kConfirmSeconds.
  void reset();

  /// Replaces the current roles (what the next assignment sticks to) with
  /// `previous`, e.g. the roles robots announced in the last cycle. Several
  /// keepers or attackers may be given (robots that disagreed): the one with
  /// the lower cost keeps the role (nearer its own goal; cheaper path behind
  /// the ball), ties to the lower id, and the others yield it. Changes
  /// waiting for kConfirmSeconds go on waiting.
  void remember(const std::vector<msg::RoleEntry>& previous);

  /// Estimated path length for a robot at (x, y) to get behind the ball at
  /// (bx, by), facing the opponent goal.
  double attack_cost(double x, double y, double bx, double by, bool attack_positive_x) const;

 private:
  // A defender's or supporter's place: role, index among the robots of that
  // role and their count (what Formation's spots are indexed by).
  struct Slot {
    msg::Role role = msg::ROLE_NONE;
    uint32_t index = 0;
    uint32_t count = 0;
    bool operator==(const Slot& o) const { return role == o.role && index == o.index && count == o.count; }
  };
  // STRATEGY_DEFAULT: gives each robot of `pool` a defender's or supporter's
  // place (`defenders` of them defenders) into field_slots_.
  void assign_field_slots(const std::vector<uint32_t>& pool, size_t defenders,
                          const std::function<std::optional<Eigen::Vector2d>(uint32_t)>& position,
                          const Eigen::Vector2d& ball, bool attack_positive_x, double t);

  msg::LeaguePreset league_;
  msg::TeamStrategy strategy_;
  Formation formation_;
  int support_side_ = 0;  // Formation::support_side, kept as the supporters keep it
  std::map<uint32_t, Slot> field_slots_;  // current places of defenders and supporters (STRATEGY_DEFAULT)
  // Current holders of each role; one keeper and one attacker after an
  // assignment, possibly several after remember().
  std::set<uint32_t> keepers_;
  std::set<uint32_t> attackers_;
  std::set<uint32_t> defenders_;
  // A change waiting for kConfirmSeconds: who would take over, since when.
  struct Challenge {
    std::set<uint32_t> robots;
    double since = 0.0;
  };
  std::optional<Challenge> attack_challenge_;
  std::optional<Challenge> defence_challenge_;
  std::optional<Challenge> slots_challenge_;  // a different assignment of places
  // Whether `wanted` has challenged for kConfirmSeconds by t; starts the
  // wait when it is a new challenger.
  static bool confirmed(std::optional<Challenge>& challenge, const std::set<uint32_t>& wanted, double t);
};

}  // namespace robocaf::actors
