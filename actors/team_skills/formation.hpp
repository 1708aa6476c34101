#pragma once
// Where each field role stands for a given ball: the team's formation. The
// player skills drive to these spots (and then adjust for teammates, the
// ball and opponents); the role assigner uses them to give each robot the
// spot it reaches with the least total travel. Plain C++, no CAF.

#include <cstdint>

#include <Eigen/Dense>

#include "messages/config.pb.h"

namespace robocaf::actors {

/// The spots of defenders and supporters, in field coordinates (m), for one
/// league. Every function is pure; the one piece of state, the side the
/// supporters keep to, is passed in and updated by support_side().
class Formation {
 public:
  explicit Formation(const msg::LeaguePreset& league);

  /// How far outside our own goal area (m) field players keep their
  /// centres: a radius and 2 cm, and where the rules limit robots in the area
  /// another radius (an opponent shoving a robot standing on the edge had it
  /// inside within the referee's grace time: SSL vs chaser, most goal-area
  /// fouls).
  double goal_area_keep() const;

  /// A lone defender: on the line from the ball to the middle of our goal,
  /// 40 % of the way (at least a robot and a ball from the ball, at most 30 %
  /// of the field's length), and no deeper than goal_area_keep() outside the
  /// goal area.
  Eigen::Vector2d defender(const Eigen::Vector2d& ball, bool attack_positive_x) const;

  /// Slot `index` of `count` defenders standing as a wall on the edge of our
  /// goal area grown by goal_area_keep(), where the ray from the goal centre
  /// to the ball leaves it; slots run right to left seen from the goal, a
  /// teammate keep (runtime::teammate_keep) apart.
  Eigen::Vector2d wall_slot(const Eigen::Vector2d& ball, bool attack_positive_x, uint32_t index,
                            uint32_t count) const;

  /// The side of the ball (+1: +y, -1: -y) the supporters keep to: the open
  /// side, away from the ball's side of the field, with a dead band (the
  /// middle tenth of the width) so they do not cross the field each time the
  /// ball crosses the middle. `previous` is the side so far (0: none yet).
  int support_side(int previous, double ball_y) const;

  /// Supporter `index` of `count`. Two kinds of spot: wide, 30 % of the
  /// field up-field of the ball on the open side (rebounds off the keeper,
  /// balls crossing the goal mouth), and follow, just behind the ball on the
  /// inner side (to take over when the attacker is blocked). Index 0 goes
  /// wide, 1 follows, more go wide on the far side, each a little further
  /// back. A lone supporter (count 1) goes wide with an odd `robot_id`,
  /// follows with an even one. Where the run back to a kick-off is long
  /// (runtime::long_kickoff_run), no spot lies more than a quarter of the
  /// field's length beyond the halfway line.
  Eigen::Vector2d supporter(const Eigen::Vector2d& ball, bool attack_positive_x, int side, uint32_t index,
                            uint32_t count, uint32_t robot_id) const;

  /// The other kind of spot for a lone supporter (follow for an odd id, wide
  /// for an even one): where it goes when a teammate already stands at its own.
  Eigen::Vector2d lone_supporter_alternative(const Eigen::Vector2d& ball, bool attack_positive_x, int side,
                                             uint32_t robot_id) const;

 private:
  /// Where the run back to a kick-off is long (runtime::long_kickoff_run),
  /// supporters stand at most this fraction of the field's length beyond
  /// the halfway line.
  static constexpr double kLongRunSupportDepth = 0.25;

  /// Clamped onto the field for a team attacking towards sign `a` (+-1).
  Eigen::Vector2d on_field(double x, double y, double a) const;
  Eigen::Vector2d wide(const Eigen::Vector2d& ball, double a, int side) const;
  Eigen::Vector2d follow(const Eigen::Vector2d& ball, double a) const;

  msg::LeaguePreset league_;
};

}  // namespace robocaf::actors
