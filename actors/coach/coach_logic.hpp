#pragma once
// Coach core: referee state -> the team's directive, playing side and restart
// placements. No CAF here; the coach actor wraps this class.

#include <cstdint>
#include <map>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/geometry.pb.h"

namespace robocaf::actors {

/// Maps the referee's GameState to a CoachCommand for one team.
///
/// Directive: half time and post game, HALT and STOP -> COACH_HOLD;
/// PREPARE_KICKOFF and PREPARE_RESTART -> COACH_PLACE; NORMAL_START and
/// FORCE_START -> COACH_PLAY, except that a team waiting for the other team
/// to take its restart (GameState.waiting_for_taker) stays placed
/// (COACH_PLACE with the restart's placements) until the ball is in play.
/// A team defends the side it stands on, so it attacks +x exactly when it is
/// not on the positive side.
class CoachLogic {
 public:
  /// Where the team's own robots stand (field frame), by robot id: what the
  /// team knows from its robots' world estimates.
  using RobotPoses = std::map<uint32_t, msg::Pose2>;

  CoachLogic(msg::Team team, const msg::LeaguePreset& league);

  /// `robots_present`: the robots of this team that may play (the actor
  /// decides: on the field and operational). Placements are made only with
  /// COACH_PLACE and only for present robots. `own_poses` is used for
  /// restarts (see restart_placements()); kick-offs do not need it. So is
  /// `opponents`: where the team believes the other team's robots stand.
  /// Within one restart's placement (the same kind, team and ball spot) a
  /// robot sent to the distance keeps the spot it was sent to the cycle
  /// before while that stays valid (see restart_placements()' `held`).
  msg::CoachCommand on_game_state(const msg::GameState& game, const std::vector<uint32_t>& robots_present,
                                  const RobotPoses& own_poses = {}, const std::vector<msg::Pose2>& opponents = {});

  /// Kick-off formation: the lowest id keeps goal just in front of its goal
  /// line, with we_kick_off the next lowest stands just behind the ball at the
  /// centre spot, the others fill slots in the own half, outside the centre
  /// circle; at the other team's kick-off, where running half the field's
  /// length at top speed takes more than runtime::kLongKickoffRunSeconds (MSL), the slot
  /// behind the circle and the two wing slots beside the halfway line stand
  /// kDeeperSlots field lengths further back. Everyone faces the opponent
  /// goal. One placement per robot, in ascending id order.
  std::vector<msg::Placement> kickoff_placements(const std::vector<uint32_t>& robots, bool attack_positive_x,
                                                 bool we_kick_off) const;

  /// Placements for REF_PREPARE_RESTART with the ball at game.ball_spot(),
  /// one per robot in ascending id order, from where the robots say they
  /// stand (`own_poses`):
  /// - the keeper (lowest id) goes home: just off its goal line, on the line
  ///   from its goal centre to the ball, within the posts (unless it takes
  ///   the kick, or home is too close to the ball at the other team's);
  /// - the restart team (game.restart_team() is ours): the robot nearest to
  ///   the ball stands kKickerRadii robot radii behind it on the line from the
  ///   opponent goal centre through the ball, facing that goal; the others
  ///   keep their place and heading unless they stand on the ball or in the
  ///   taker's way (within restart_margin() of either);
  /// - otherwise (the other team, and everyone at a drop ball): robots closer
  ///   than rules.restart_distance plus restart_margin() to the ball go to
  ///   that distance, straight away from the ball if that point is inside the
  ///   field and free, else the nearest such point around the ball, facing
  ///   the ball; the others, and those short of that distance by no more
  ///   than kStayFraction of restart_margin() (they reached it, give or take
  ///   their arrival and pose estimate), keep their place and heading. The other team's
  ///   restart in our half also gets a wall: the two field players nearest
  ///   to it stand side by side across the line from the ball to our goal
  ///   centre, at that distance, where that is outside the goal area.
  /// Where the rules limit robots in the own goal area
  /// (max_defenders_in_goal_area > 0), field players leave it and its
  /// surroundings two robot radii wide (and no wall spot is put there);
  /// a robot sent out of the restart distance may be sent into those
  /// surroundings, never within a radius of the area. No robot is sent
  /// where it would touch one of the `opponents` (their robots stand their
  /// ground at our restart, and keep their distance as we do at theirs, so
  /// a spot on one is never reached).
  /// At the other team's restart and at drop balls, the robots inside the
  /// distance get their spots deepest first, and each one's way out (from
  /// where it stands towards its spot, less the teammate gap at the end) is
  /// kept clear: no later robot is sent into it, and one that may stay but
  /// stands in it steps aside to the nearest free spot, if there is one.
  /// A robot missing from `own_poses` starts from its kick-off formation
  /// slot; with no pose at all, the kicker is the second lowest id, as at
  /// kick-off.
  /// `held`: the spots robots were sent to at the distance in the last
  /// cycle of this placement. A robot still inside the distance keeps its
  /// spot while it is at the distance, free by the rules above, and no more
  /// than kHoldRadii robot radii further from it than the spot it would get
  /// afresh. Made afresh every cycle, the nearest free point moved as the
  /// robot and the robots about it moved, and a differential robot turned
  /// after each jump (MSL drop balls: spots 0.2-2.5 m apart within seconds,
  /// robots turning on the spot until the restart).
  std::vector<msg::Placement> restart_placements(const msg::GameState& game, const std::vector<uint32_t>& robots,
                                                 const RobotPoses& own_poses, bool attack_positive_x,
                                                 const std::vector<msg::Pose2>& opponents = {},
                                                 const RobotPoses& held = {}) const;

  /// Extra distance beyond rules.restart_distance for robots moving away from
  /// the ball: covers their arrival tolerance so the referee finds them clear.
  double restart_margin() const;

  /// How much of restart_margin() a robot that went to the restart distance
  /// plus that margin may fall short of it and still stay where it stands.
  static constexpr double kStayFraction = 0.4;
  /// Centre distance of the restart taker behind the ball, in robot radii.
  static constexpr double kKickerRadii = 2.0;
  /// How much deeper the slots nearest the centre stand at the other team's
  /// kick-off, in field lengths.
  static constexpr double kDeeperSlots = 0.08;
  /// How much further (robot radii) a held spot may lie than a fresh one.
  static constexpr double kHoldRadii = 4.0;

  msg::Team team() const { return team_; }

 private:
  msg::Team team_;
  msg::LeaguePreset league_;
  // The placement the held spots belong to, and the spots.
  struct RestartKey {
    msg::RestartKind restart = msg::RESTART_NONE;
    msg::Team team = msg::TEAM_UNSPECIFIED;
    double ball_x = 0.0, ball_y = 0.0;
    bool operator==(const RestartKey& o) const {
      return restart == o.restart && team == o.team && ball_x == o.ball_x && ball_y == o.ball_y;
    }
  };
  RestartKey held_for_;
  RobotPoses held_;
};

}  // namespace robocaf::actors
