#pragma once
// Player-skills core: what one robot does this cycle, from its world estimate
// and its instruction from team skills. No CAF here; the player-skills actor
// wraps this class.

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "messages/commands.pb.h"
#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"
#include "actors/player_skills/pass_selection.hpp"
#include "actors/player_skills/path_planner.hpp"
#include "actors/player_skills/safety_search.hpp"
#include "actors/team_skills/formation.hpp"

namespace robocaf::actors {

/// Gains and margins of SkillController; the defaults suit MiroSot and scale
/// with the league's robot and ball sizes where it matters.
struct SkillParams {
  double heading_gain = 8.0;         // rad/s per rad of heading error
  // A differential robot turns no faster than it can still stop within the
  // heading error left, braking with turn_braking_fraction of the turn
  // deceleration its wheels allow (2 min(max_acceleration,
  // max_deceleration) / wheel_base), after turning on at its last rate for
  // turn_latency (s) until a command takes effect. With the gain alone an
  // MSL robot (10 rad/s^2) swung 0.3-0.45 rad past a course 1-1.7 rad off,
  // and weaved +-60 degrees running back to a kick-off. 0: the gain alone.
  double turn_braking_fraction = 0.5;
  double turn_latency = 0.04;
  double position_gain = 4.0;        // 1/s: speed per metre left near a stop point
  // Placing for a kick-off, a differential robot rolling away from its
  // target against the direction it is to drive in faster than this (m/s)
  // brakes without turning until it is slower.
  double reversal_brake_speed = 0.3;
  double braking_fraction = 0.4;     // of max_deceleration, to plan stops despite latency
  // An omnidirectional robot's last leg to where it stops (its place,
  // placing; a pose in play) is a time-optimal move (BangBang2D: speeding
  // up at the wheels' limit, slowing down at trajectory_braking_fraction of
  // theirs, the limits split between x and y), replanned each cycle from
  // the velocity last asked for while the estimate is within
  // trajectory_command_trust (m/s) of it, else from the estimate. It asks
  // for the move's velocity trajectory_lookahead s on, or
  // trajectory_speed_up_lookahead s on where that is faster: speeding up, a
  // command just ahead of the lagging estimate left the motor short of its
  // limit. Off: its velocity is steered straight at the stop, as it is
  // through waypoints.
  bool time_optimal_placing = true;
  // In play: SSL vs chaser, seeds 1-40, 1776-113 and 0.10 own collisions a
  // match with it, against 1804-105 and 0.23 (docs/BENCHMARKS.md).
  bool time_optimal_in_play = true;
  double trajectory_braking_fraction = 0.4;  // of max_deceleration
  double trajectory_command_trust = 0.5;     // m/s
  double trajectory_lookahead = 0.05;        // s
  double trajectory_speed_up_lookahead = 0.25;  // s
  double cruise_fraction = 0.8;      // of max_speed, moving about the field
  // Of max_speed, placing for a restart: late is illegal.
  double placement_fraction = 0.95;
  // Placing for a kick-off, where robots run back from the far half: at
  // 0.95 the kick-off drills of 490 MSL goals (robocaf kickoff-drill) took
  // 0.11 s longer on average, and 71 over 6 s against 61; the wheels still
  // steer at full speed (the motor slows the inner one). Not at the other
  // restarts, whose places lie close among opponents: at full speed there,
  // 40 MSL matches had 9 robots moved at them against 3.
  double kickoff_placement_fraction = 1.0;
  // Of the wheels' acceleration limit, for a differential robot placing for
  // a kick-off where the run back is long (runtime::long_kickoff_run), turning
  // or not (elsewhere half while turning, 90 % straight).
  double kickoff_acceleration_fraction = 1.0;
  double push_fraction = 0.75;       // of max_speed, driving the ball at the goal
  double arrive_tolerance = 0.015;   // m: a stop point counts as reached
  double ball_clearance = 0.025;     // m kept between robot and ball when going round it
  double push_heading_tolerance = 0.1;  // rad: alignment needed to start a push on the move
  double approach_distance = 0.06;   // m between robot front and ball where a push starts
  double push_lookahead = 0.05;      // m: closer than this to the contact point, drive straight through
  double align_tolerance = 0.03;     // rad: heading error left after turning behind the ball
  double run_up = 0.1;               // m of line behind the push start from which a push begins
  double carry_omega = 2.0;          // rad/s: fastest turn while carrying the ball in a capturing mouth
  double carry_kick_tolerance = 0.1;  // rad off the aim within which a robot carrying the ball kicks
  // A robot carrying the ball also kicks, whatever its aim, when the way it
  // faces goes into an open gap about this far (rad, seen from the ball: on
  // the goal line, this times the shot's length) inside the gap's edges,
  // along a lane no opponent reaches in time (open_shot_ahead). MSL:
  // steering at a point ahead of the ball, scorers closed on their aim
  // slower than the aim turned as they neared the goal, and carried the ball
  // to the other goal area before they shot (seed 88 goal 4:
  // facing the open mouth from 2.6 m, kicked from 0.7 m). Then they were
  // the robots late at the kick-off that followed: in all 29 of 1089
  // kick-off drills (seeds 81-100, three draws each) over 7 s or moved, one
  // of ours stood within 1.5 m of the other goal line at the goal.
  double open_shot_margin = 0.05;
  // Aim into the widest open gap between the robots before the goal
  // (shot_aim_y) rather than straight at the goal. Off for the baseline
  // opponents, whose robots kick goalwards.
  bool aim_at_open_gaps = true;
  // With a kicker, pass to a teammate that sees more of the goal than the
  // ball does, through a lane no opponent reaches in time (choose_pass);
  // supporters receive a ball rolling their way. Off by default
  // (TeamConfig.passing turns it on): SSL vs chaser, seeds 1-6, 119-7 with
  // passes against 233-11 without; a pass moves the ball, but nobody plays
  // the receiver in yet.
  bool pass = false;
  double min_shot_angle = 0.1;       // rad of open goal mouth (goal_open_angle) below which the attacker does not shoot
  double ball_lookahead_max = 0.5;   // s of ball motion anticipated when chasing it (without intercept)
  bool intercept = true;             // the attacker heads for the earliest point where it can meet the ball
  double intercept_horizon = 0.5;    // s: how far ahead intercept looks (walls and robots soon turn a ball the model lets roll on)
  double search_omega = 2.0;         // rad/s turning on the spot while searching for the ball
  // With its own self-localisation (WorldEstimate.self_localisation_sd, onboard
  // cameras), a robot whose position sd exceeds lost_position_sd (m) turns on
  // the spot at search_omega, whatever its directive but hold, to bring lines
  // and landmarks into view; until the sd falls below found_position_sd, for
  // at most relocalise_seconds, after which it plays on for as long before it
  // turns again. MSL: above 0.25 m the estimate was always more than 0.3 m
  // off, below 0.1 m never. 0: never.
  double lost_position_sd = 0.25;
  double found_position_sd = 0.1;
  double relocalise_seconds = 3.0;
  bool give_way = true;              // robots without the ball go round teammates (give_way_to_teammates)
  // The safety search among teammates. It keeps dss_margin (m) on top of
  // both radii, below the gap robots in a defensive wall keep (teammate_keep),
  // plus dss_speed_margin (s) per m/s of the pair's speeds, since predicted
  // paths are only as good as the velocity estimates they start from; and it
  // counts on braking with dss_braking_fraction of the robot's limit.
  // MiroSot vs chaser, 4 matches: own collisions 54 per match with
  // 0.005 / 0 / 1, 20 with these; more cautious settings (0.02 / 0.1 / 0.6:
  // 15) made robots late for kick-offs.
  double dss_margin = 0.015;
  double dss_speed_margin = 0.05;
  double dss_braking_fraction = 0.8;
  // With onboard cameras (MSL) every robot's position is doubted by at
  // least this (m): the self filter claims millimetres while robots
  // localised from their own camera are 1-3 cm off on good stretches.
  double dss_onboard_doubt = 0.03;
  // Placing for a restart, a pair of teammates closer than their doubts
  // allow may come this much (m) closer within the safety search's horizon,
  // the bodies never within its margin (DssParams::overlap_slack).
  double dss_placing_overlap_slack = 0.015;
  bool plan_around_opponents = true;  // drive_to follows an ERRT path round opponents (PathPlanner)
  // Placing for a restart, robots plan round the opponents within four radii
  // of them, not round those further off (opponents are placing too, and
  // detours made them late). At kick-offs only round those moving at under
  // placement_still_opponent_fraction of top speed; one that has asked for
  // speed and moved at under a quarter of it for placement_stuck_seconds
  // (an opponent in its way) plans round all those at hand for
  // placement_detour_seconds.
  double placement_still_opponent_fraction = 0.25;
  // Where the run back to a kick-off takes seconds (MSL), those standing
  // still are planned round from further off: as far as the robot runs in
  // this long (s) at its speed, beyond the four radii.
  double placement_still_opponent_lookahead = 0.8;
  // There, too, round those moving that come within two radii and this
  // margin (m) of it, both going on as they go, within this horizon (s).
  double placement_collision_horizon = 1.0;
  double placement_collision_margin = 0.1;
  // At kick-offs where the run back is long (MSL), besides where an
  // opponent planned round stands, where it goes within this long (s),
  // going on as it goes (way_ahead()); 0: off.
  double placement_sweep_seconds = 1.0;
  double placement_stuck_seconds = 0.5;
  double placement_detour_seconds = 2.0;
  // A differential robot with an onboard camera placing for a restart other
  // than a kick-off drives forwards, camera first, to a place further than
  // this (m); nearer, it may back up.
  double placement_reverse_reach = 1.0;
  // How fast (rad/s, on average from standing) a differential robot turns
  // while placing: a way it must turn onto counts as longer by the metres
  // it could have driven meanwhile (PlannerParams::turn_cost); 0: turning
  // counts for nothing. Off: at 2 rad/s MSL vs chaser seeds 1-2 scored 28
  // goals, 42 without (docs/ARCHITECTURE.md, on the way the planner keeps).
  double placing_turn_rate = 0.0;
  // At the other team's restarts (not drop balls), the lane from the
  // opponent nearest the ball's spot to the spot is kept off while placing.
  bool keep_out_of_takers_lane = true;
  // At the other team's kick-off, while placing on an open field where the
  // run back is short (SSL), the centre circle is a zone the planner goes
  // round from outside it (the coach keeps no distance until the referee
  // starts the kick-off).
  bool kickoff_circle_zone = true;
  // A robot inside the distance the rules keep it from the ball's spot
  // keeps heading for the point on the circle it chose (exit_from_circle)
  // while that stays free and lies at most this many robot radii further
  // from it than the best one; below 0: never.
  double exit_keep_radii = 2.0;
  // One short of the distance by no more than this many robot radii, whose
  // straight way to that point runs into a robot, steps out past the
  // distance between the robots on the edge instead, where it can
  // (step_out_of_circle); below 0: never.
  double step_out_band_radii = 0.5;
  // One deeper in, whose planner found no way to its exit (walled in
  // by opponents), steps out the same way, and may step beyond the lines
  // into the boundary strip, where standing is legal too.
  bool step_out_when_walled_in = true;
  // One standing outside that distance, on its way round the circle,
  // drives no faster towards the spot than it can brake before the
  // distance, at circle_braking_fraction of the smaller of its
  // acceleration and deceleration, after circle_braking_lag s
  // (brake_short_of_circle): its way passes the circle, but its speed does
  // not turn with the way at once. Off: false.
  bool brake_short_of_circle = true;
  double circle_braking_fraction = 0.5;
  double circle_braking_lag = 0.1;  // s its speed carries it on before braking bites
  // Placing for a kick-off, a robot in its own half drives no faster
  // towards the halfway line than it can brake before it is no longer
  // wholly in its half, with the circle's braking numbers
  // (brake_short_of_halfway_line); off: false.
  bool brake_short_of_halfway_line = true;
  // Both brakes once more on the final command, after the safety search
  // among teammates and the pushing limit, taking speed off only; off:
  // false (the brakes then hold only for the command before those).
  bool brake_again_after_safety_search = true;
  // Omni, placing: the final command's body velocity is turned back by
  // half the turn it makes over a control period, so that a robot turning
  // as it drives moves, on average over the period, the way its skills
  // asked; on: true. Off by default: in SSL vs chaser tournaments (40
  // matches each) the three builds with it scored 1686-1737 goals, the
  // three without 1799-1843, while in a unit scene it kept a turning robot
  // only 1.4 cm nearer its way than the turn share alone does.
  bool turn_compensation = false;
  // Omni, placing: the share of the acceleration limit its turn may take
  // at speed (omega at most share * max_acceleration / speed); the rest
  // keeps it on its way. In play all of it (1).
  double placing_turn_share = 0.5;
  // Placing, walled in with no way at all (keeping its distance: even past
  // the ball): plans once more with no gap kept to the opponents' bodies, in
  // steps of a radius, and takes that way if there is one; off: false.
  bool squeeze_when_walled_in = true;
  // Placing, a field player inside our goal area whose straight way to its
  // place outside runs into a robot steps straight out of the area first,
  // to the nearest point beside it with room and a clear way
  // (step_out_of_own_goal_area); off: false.
  bool step_out_of_own_goal_area = true;
  // Placing, a field player outside our goal area (where the rules let
  // only the keeper stand) drives no faster towards the area than it can
  // brake before it, with the circle's braking numbers
  // (brake_short_of_own_goal_area); off: false.
  bool brake_short_of_own_goal_area = true;
  // One standing outside that distance stands back, straight out from the
  // spot, while a teammate inside it is beside it and nearer the spot
  // (make_way_for_teammate_inside).
  bool make_way_for_teammates_inside = true;
  double opponent_clearance = 0.01;   // m kept between our body and an opponent's on a planned path
  // Pushing (league rules.pushing_seconds > 0): against an opponent whose
  // estimated gap is under pushing_reach, at most this fraction of
  // rules.pushing_speed is driven towards it. The reach covers the gap the
  // referee counts as touching plus the error of two pose estimates. Not 0:
  // robots that never press at all lost the loose balls (MSL vs chaser,
  // seeds 1-6: goal difference +9.7 against +14.5, 115 illegal restart
  // positions against 79, drop balls after stalemates).
  double pushing_reach = 0.08;         // m between the bodies
  double pushing_speed_fraction = 0.5;
  // In play, what the bumper touches (WorldEstimate.self_contacts, robots the
  // camera may not see) is pressed into at full power for this fraction of
  // rules.pushing_seconds from when the contact began, then held to the
  // limit above; a contact lost for under contact_gap_seconds goes on.
  double contact_push_fraction = 0.5;
  double contact_gap_seconds = 0.3;
  // Where the rules limit robots in the goal area, the keeper clears a ball
  // slower than this (m/s) lying where only it may play it (see
  // keeper_clears); once at it, it goes on up to twice this speed. 0: never.
  // Off by default: against chaser (seeds 1-2) it cut SSL's goal-area fouls
  // (47 -> 38 in the two matches) but let in more goals off the empty line: SSL 69-7 without,
  // 76-16 with; MSL 34-8 without, 32-14 with.
  double keeper_clear_speed = 0.0;
  // s: a ball lying still (estimated below kStillBallSpeed) this long within
  // a robot radius and a ball of the goal area (where only the keeper may get
  // behind it) is the keeper's to clear, whatever keeper_clear_speed says; it
  // keeps at it while the ball moves below 1 m/s. 0: never. Nobody played
  // such a ball until the stalemate rule, again and again, with field players
  // crowding the area's edge (SSL vs wall: one ball at the defense area's
  // front dropped ten times in a match).
  double keeper_clear_still_seconds = 1.0;
};

/// Turns (WorldEstimate, PlayerInstruction) into a MotionCommand: body velocity
/// in the robot frame (vx forward, vy left, omega ccw; vy = 0 for differential
/// drive) and a kick speed when the robot has a kicker.
///
/// COACH_HOLD stops. COACH_PLACE drives to the placement, then turns to its
/// heading. COACH_PLAY acts by role:
/// - keeper: on a line just in front of its goal, between ball and goal (a
///   virtual point behind the goal centre sets the angle; a ball rolling at the
///   goal is intercepted where it will cross), never beyond the posts; with
///   keeper_clear_speed > 0 and where the rules keep field players out of the
///   goal area, it clears a slow ball lying in or at its goal area as the
///   attacker would play it, kicking it up-field, while an attacker waits
///   beside the ball's way out;
/// - attacker: gets behind the ball on the line from its aim point on the
///   opponent goal line through the ball (straight ahead, or into the widest
///   gap the robots before the goal leave open: shot_aim_y), going round the ball when it is on
///   the wrong side (so it does not push the ball towards its own goal), lines
///   up on that line with a short run-up, then drives for the point where its
///   centre touches the ball on the line and through it (a round robot sends
///   the ball along the line between the centres); with a kicker it kicks when
///   aligned with the goal;
/// - defender: between ball and own goal, outside the goal area; several
///   defenders (role_count > 1) stand side by side in a wall on the edge of
///   the goal area, across the line from the goal centre to the ball;
///   A ball against a wall is pushed along it, tilted into the wall so the
///   robot fits (beside the opponent goal: into the goal mouth); a ball at the
///   own end wall that could only be moved from inside the own goal mouth or
///   towards it is left to the keeper, the attacker waiting in front of it.
///   Beside its line, the attacker backs off along it to take out the offset;
/// - supporter: the first of several supporters (role_index 0) up-field of
///   the ball on the other side of the field, the second following up behind
///   the ball on the inner side, any more wide on the far side; a lone
///   supporter takes the first spot with an odd id, the second with an even
///   one, unless a lower-id teammate already stands there. A lone defender's
///   and a supporter's spot keeps kBerthRadii radii from every teammate.
/// Non-attackers go round the ball rather than touch it. A differential robot
/// without a kicker is symmetric (MiroSot cube): it may drive and push backwards.
/// A robot whose own self-localisation says it is lost (lost_position_sd)
/// turns on the spot, the way its skills would have turned it, until it has
/// found itself again.
/// Without a self estimate it stops; without a ball field players search for
/// it, turning on the spot towards where it was last seen (or the middle of
/// the field) and on round until a camera finds it, and the keeper holds the
/// centre of its goal; with a non-finite number in its inputs it stops.
/// Differential forward speed is ramped below the wheel acceleration limit
/// (half while turning, 90 % driving straight, all of it for the keeper, and
/// SkillParams::kickoff_acceleration_fraction for a robot placing for a
/// kick-off where the run back is long): the motor scales both wheels'
/// change alike, so a request at the limit would leave nothing for steering.
/// Placing, a robot that its skills stop or turn about brakes from the speed
/// its last command went, not from the higher one the pushing limit held it
/// below.
/// Inside the goal mouth targets may lie in the goal (to get behind a ball on
/// the goal line); elsewhere they are kept on the field.
/// Paths go round opponents (PathPlanner, ERRT): every robot but the keeper
/// heads for the first waypoint of a plan from where it is to its target,
/// except the attacker near the ball (within 4 radii + 0.1 m), where going
/// round the opponent fighting for it would give the ball away; the attacker
/// contests it instead.
/// Last, whatever the directive, a dynamics safety search (SafetySearch)
/// changes the command only when it could run the robot into a teammate.
class SkillController {
 public:
  SkillController(msg::Team team, uint32_t robot_id, const msg::LeaguePreset& league, SkillParams params = {});

  msg::MotionCommand step(const msg::WorldEstimate& world, const msg::PlayerInstruction& instruction, uint64_t cycle,
                          double t);

  /// The attacker's phase, for telemetry and tests.
  enum class AttackPhase { kApproach, kAlign, kPush };
  AttackPhase attack_phase() const { return phase_; }

  /// What the last step() steered for, for the game log (msg::SkillIntent)
  /// and tests: the point it drove towards after its own rules (`aim`), the
  /// planner's first waypoint towards it, and placing from inside the
  /// circle round the ball's spot, the point on its edge it headed for and
  /// whether it stepped out between the robots there. Unset: not this step.
  struct Intent {
    std::optional<Eigen::Vector2d> aim, waypoint, exit;
    bool stepping_out = false;
    bool making_way = false;  // stood aside for a teammate inside (make_way_for_teammate_inside)
    /// Placing: an opponent its plan went round, where it was believed.
    struct PlannedOpponent {
      uint32_t robot_id = 0;
      Eigen::Vector2d position = Eigen::Vector2d::Zero();
      double unseen_for = 0.0;  ///< s since world knowledge last had a sighting of it
      bool way_ahead = false;   ///< its way ahead was planned round too
    };
    std::vector<PlannedOpponent> planned_round;
  };
  const Intent& intent() const { return intent_; }

  msg::Team team() const { return team_; }
  uint32_t robot_id() const { return robot_id_; }

  /// Centre distance, in robot radii, a lone defender's or a supporter's
  /// spot keeps from every teammate.
  static constexpr double kBerthRadii = 4.0;
  /// m/s: a ball estimated slower than this lies still (keeper_clear_still_seconds).
  static constexpr double kStillBallSpeed = 0.15;

 private:
  struct Pose {
    double x, y, theta;
  };
  struct Vel {
    double vx = 0.0, vy = 0.0, omega = 0.0;
  };

  // Differential: steer towards the target (backwards if allowed and shorter);
  // omni: move straight to it, turning to face_theta when `face`.
  Vel drive_to(const Pose& self, double tx, double ty, double speed_cap, bool stop_at_target, double face_theta,
               bool face, bool allow_reverse);
  Vel turn_to(const Pose& self, double theta, bool either_end) const;
  /// Turn rate towards a heading `err` rad away (turn_braking_fraction).
  double heading_rate(double err) const;
  // speed_fraction: of max_speed; cruise_fraction when absent.
  Vel go_to_pose(const Pose& self, double tx, double ty, double theta, bool exact_heading,
                 std::optional<double> speed_fraction = std::nullopt);
  // Replaces the target by a waypoint beside the ball when the straight path
  // to it would touch the ball (targets at the ball itself are left alone).
  void detour_around_ball(const Pose& self, double bx, double by, double& tx, double& ty, double extra = 0.0) const;
  // Placing: detour_around_ball round the spot the ball goes back to and
  // the ball (one zone when they lie close together), on the side no
  // teammate stands in where the other is free.
  void placing_detour_around_ball(const Pose& self, const std::optional<Eigen::Vector2d>& spot,
                                  const std::optional<Eigen::Vector2d>& ball, double& tx, double& ty) const;
  // The waypoint beside a zone of radius `berth` round `centre` when the
  // straight way from p to (tx, ty) crosses it, on the side the way is on
  // (the other one against a wall, or, with mind_teammates, where a
  // teammate stands in this one and not in that).
  void detour_round_zone(const Eigen::Vector2d& p, const Eigen::Vector2d& centre, double berth, bool mind_teammates,
                         double& tx, double& ty) const;
  // How near the ball's centre a way may pass before detour_around_ball goes
  // round it, and how far from it the waypoint beside it lies.
  double ball_pass_radius(double extra = 0.0) const;
  static constexpr double kBallWaypointFactor = 1.3;  // waypoint at this many pass radii
  // When the straight way from the robot to (tx, ty) passes through the
  // circle of radius R round `centre` and the target lies outside it, moves
  // the target onto the tangent from the robot to the circle, a little past
  // the tangent point: the robot runs round the circle's edge.
  void detour_around_circle(const Pose& self, const Eigen::Vector2d& centre, double R, double& tx, double& ty) const;
  // Within R of `spot`: takes out of `v` whatever would carry the robot
  // nearer the spot (a differential robot's forward or backward speed
  // then, an omni robot's inward part); beyond R, leaves it alone.
  void never_nearer(const Pose& self, const Eigen::Vector2d& spot, double R, Vel& v) const;
  // Whether a robot at `from` stepping out to `q` stands there clear of the
  // opponents' bodies and of teammates (by teammate_keep(), or no nearer
  // than it stands), on a straight way clear of all `robots`.
  bool may_step_to(const Eigen::Vector2d& from, const Eigen::Vector2d& q, const std::vector<Eigen::Vector2d>& teammates,
                   const std::vector<Eigen::Vector2d>& opponents, const std::vector<Eigen::Vector2d>& robots) const;
  // For a robot inside our goal area: the nearest point just outside it
  // (beyond the strip placing keeps off it, own_goal_area_keep()), where it
  // may stand, clear of the robots' bodies, reached on a straight way clear
  // of them; none if there is no such point.
  std::optional<Eigen::Vector2d> step_out_of_own_goal_area(const Pose& self, const std::vector<Eigen::Vector2d>& teammates,
                                                           const std::vector<Eigen::Vector2d>& opponents) const;
  // At least `keep_out` from `spot`: caps the part of `v` towards the spot
  // at the speed from which the robot stops, braking at
  // SkillParams::circle_braking_fraction of the smaller of its acceleration
  // and deceleration, a little outside keep_out (a differential robot's
  // whole speed is scaled).
  // `velocity` is the robot's own estimated (world frame), which carries it
  // on for SkillParams::circle_braking_lag before braking bites.
  // With `hold_sideways` false it only takes speed off (see brake_within).
  void brake_short_of_circle(const Pose& self, const Eigen::Vector2d& velocity, const Eigen::Vector2d& spot,
                             double keep_out, Vel& v, bool hold_sideways = true) const;
  // Wholly in our half: caps the part of `v` towards the halfway line the
  // same way, so that the robot stops a little inside our half.
  void brake_short_of_halfway_line(const Pose& self, const Eigen::Vector2d& velocity, Vel& v,
                                   bool hold_sideways = true) const;
  // Caps the part of `v` along `towards` (unit, world frame) at the speed
  // from which the robot stops within `room` m (both braking functions).
  // An omni robot already coming in faster than that also keeps its
  // sideways speed, unless `hold_sideways` is false.
  void brake_within(const Pose& self, const Eigen::Vector2d& velocity, const Eigen::Vector2d& towards, double room,
                    Vel& v, bool hold_sideways = true) const;
  // Outside our goal area as the referee judges it (the robot's centre in
  // it, beyond the end line too): caps the part of `v` towards the area the
  // same way.
  void brake_short_of_own_goal_area(const Pose& self, const Eigen::Vector2d& velocity, Vel& v,
                                    bool hold_sideways = true) const;
  // The restart brakes once more on the final command, after the safety
  // search and the pushing limit, which change it (restart_brakes_).
  void brake_for_restart_again(const Pose& self, Vel& v) const;
  // For a robot inside that circle whose place lies outside it: the point
  // just outside the edge, inside the field's lines and not within an
  // `occupied` circle (robots standing there) while another will do, from
  // which the way out and on round the edge to the place is shortest; or
  // `kept` (the point chosen the cycle before) while it qualifies as well
  // and lies at most SkillParams::exit_keep_radii robot radii further off.
  Eigen::Vector2d exit_from_circle(const Pose& self, const Eigen::Vector2d& centre, double R,
                                   const Eigen::Vector2d& place,
                                   const std::vector<CircleObstacle>& occupied = {},
                                   const std::optional<Eigen::Vector2d>& kept = std::nullopt) const;
  // For a robot just inside the distance `keep_out` round `centre` (R: the
  // circle placing robots keep out of): the nearest point on R, else halfway
  // between the distance and R, else just past the distance, within 60
  // degrees of straight out, inside the lines (or, `beyond_lines`, anywhere
  // in the boundary strip outside the goals too), that it reaches on a
  // straight way (way_clear_of()) and stands on clear of the opponents'
  // bodies and no nearer the teammates than teammate_keep() (or than it
  // stands); none when there is none.
  std::optional<Eigen::Vector2d> step_out_of_circle(const Pose& self, const Eigen::Vector2d& centre,
                                                    double keep_out, double R,
                                                    const std::vector<Eigen::Vector2d>& teammates,
                                                    const std::vector<Eigen::Vector2d>& opponents,
                                                    bool beyond_lines = false) const;
  // For a robot standing outside the distance `keep_out` round `centre`,
  // with a teammate inside it beside it (within teammate_keep() and two
  // radii) and nearer the centre: the point straight out from the centre
  // a teammate_keep() further out than it stands, so that the one inside
  // gets out past it. None when no teammate is so, or that point lies off
  // the field or in our goal area.
  std::optional<Eigen::Vector2d> make_way_for_teammate_inside(const Pose& self, const Eigen::Vector2d& centre,
                                                              double keep_out) const;
  // Whether the straight way from `from` to `to` passes every robot in
  // `robots` without touching it, or, one it touches already, without
  // coming nearer.
  bool way_clear_of(const Eigen::Vector2d& from, const Eigen::Vector2d& to,
                    const std::vector<Eigen::Vector2d>& robots) const;
  // Like detour_around_ball, with a wider berth, and targets at the ball
  // moved off it and out of the lane a rolling ball is about to roll along.
  void avoid_ball(const Pose& self, double bx, double by, double& tx, double& ty) const;
  // The attacker's push direction for a ball against a wall, where there is
  // no room behind it on the line to the goal (u0): along the wall. None
  // when no way along it is reachable and safe.
  std::optional<Eigen::Vector2d> along_wall(const Eigen::Vector2d& b, const Eigen::Vector2d& u0, double a) const;
  // Where on the opponent goal line (y) the attacker aims from ball b: the
  // straight aim while it lies well inside an open gap between the robots in
  // front of the goal (open_goal_gaps), else the aim it kept, else the middle
  // of the widest gap; the straight aim when no gap is open.
  double shot_aim_y(const Eigen::Vector2d& b, const msg::WorldEstimate& world, double a, double straight_y);
  // The opponents as discs of the robots' radius.
  std::vector<ShotObstacle> opponent_bodies(const msg::WorldEstimate& world) const;
  // The robots a shot must miss: the opponents and our others.
  std::vector<ShotObstacle> shot_obstacles(const msg::WorldEstimate& world) const;
  // How a pass or shot lane is judged: opponents run as fast as ours.
  PassParams lane_params() const;
  // Whether a ball at `ball` kicked the way the robot faces goes into the
  // goal the robot attacks (a: +1 at +x) through an open gap
  // (well_inside_open_gap, params_.open_shot_margin) along a lane no
  // opponent reaches in time (pass_lane_safe).
  bool open_shot_ahead(const Pose& self, const Eigen::Vector2d& ball, const msg::WorldEstimate& world,
                       double a) const;
  // The pass the attacker lines up instead of a shot from ball b, if any
  // (choose_pass among teammates no deeper than half a metre behind the
  // ball); the receiver already chosen is kept while it still qualifies.
  std::optional<Pass> pass_from(const Eigen::Vector2d& b, const msg::WorldEstimate& world, double a);
  // A supporter on the way of a ball rolling towards it, which it reaches
  // before the ball: the point on the ball's path to stand on.
  std::optional<Eigen::Vector2d> receiving_point(const Pose& self, const msg::WorldEstimate& world) const;
  Vel attacker(const Pose& self, const msg::WorldEstimate& world, bool attack_positive_x, double& kick);
  // Seconds until a ball rolling from `from`, short of the goal the robot
  // attacks (a: +1 at +x), at `velocity` (straight on, slowing at the
  // ball's rolling deceleration) crosses that goal line between the posts
  // (a ball's radius inside them); nullopt when it is past the line, rolls
  // away from it, stops short or crosses beside the goal.
  std::optional<double> seconds_into_goal(const Eigen::Vector2d& from, const Eigen::Vector2d& velocity,
                                          double a) const;
  // Whether the ball sits in a capturing mouth (LeaguePreset robot
  // mouth_captures): touching the robot's front within the mouth's width.
  bool holds_ball(const Pose& self, const Eigen::Vector2d& ball) const;
  Vel keeper(const Pose& self, const msg::WorldEstimate& world, bool attack_positive_x, double& kick);
  // Whether the ball is the keeper's to clear: the rules limit the robots in
  // the goal area, and the ball lies in our goal area or so near it that a
  // field player could play it only from inside, slow enough to be stopped.
  // `clearing`: the keeper is already at it (a wider zone, a faster ball).
  // A ball lying still for keeper_clear_still_seconds is the keeper's too.
  bool keeper_clears(const Eigen::Vector2d& b, const Eigen::Vector2d& bv, bool clearing) const;
  // Whether a teammate (our keeper, as a rule) stands in our goal area: a
  // field player stepping in too would be one robot too many.
  bool teammate_in_own_goal_area(const msg::WorldEstimate& world) const;
  Vel defender(const Pose& self, const msg::WorldEstimate& world, bool attack_positive_x);
  // One of `count` defenders in a wall on the edge of the own goal area,
  // across the line from the goal centre to the ball; slot `index` counts
  // right to left seen from the goal.
  Vel wall_defender(const Pose& self, const msg::WorldEstimate& world, bool attack_positive_x, uint32_t index,
                    uint32_t count);
  // Supporter `index` of `count` (PlayerInstruction.role_index, role_count).
  Vel supporter(const Pose& self, const msg::WorldEstimate& world, bool attack_positive_x, uint32_t index,
                uint32_t count);
  // The end of each role standing somewhere in play: to `spot`, kept in
  // the field and off the ball at `ball`, facing the ball.
  Vel stand_facing_ball(const Pose& self, const Eigen::Vector2d& spot, const Eigen::Vector2d& ball);
  Vel search_ball(const Pose& self, const msg::WorldEstimate& world);
  // Whether the robot turns on the spot to find itself this cycle, from its
  // self-localisation's sd (see SkillParams::lost_position_sd).
  bool relocalising(double localisation_sd, double t);
  // To the nearest point our centre may reach (free_space_).
  void clamp_to_field(double& x, double& y) const;
  // Moves a target off teammates' spots and the path round the first
  // teammate in the way (robots without the ball give way).
  void give_way_to_teammates(const Pose& self, double& tx, double& ty) const;
  // How far outside our goal area field players keep their centres.
  double goal_area_keep() const;
  // How far outside it robots placing for a restart plan their ways.
  double placing_goal_area_margin() const;
  // How far outside it the targets of keep_out_of_own_goal_area() lie:
  // goal_area_keep() in play; placing, a little more than
  // placing_goal_area_margin(), where the coach may send a robot (see
  // CoachLogic::restart_placements()).
  double own_goal_area_keep() const;
  // Whether p lies in our goal area grown by `grow` on its front and sides
  // (the goal line closes it only where the field ends).
  bool in_own_goal_area(const Eigen::Vector2d& p, double grow) const;
  // Whether a placing robot may head for a point round a restart circle:
  // its centre inside the lines (or, `beyond_lines`, in the boundary strip
  // outside the goals too: standing_space_), and outside our goal area
  // (own_goal_area_keep) where it keeps out of it, where drive_to() would
  // not take it.
  bool may_stand_at(const Eigen::Vector2d& q, bool beyond_lines = false) const;
  // Centre distance robots without the ball keep from teammates.
  double teammate_keep() const;
  // A spot of a lone defender or a supporter moved kBerthRadii robot radii
  // clear of every teammate: two spots worked out each on its own (the
  // defender's on the ball-goal line, the supporter's behind the ball) met
  // near our goal, and robots standing at teammate_keep() with a few
  // centimetres of pose error touched (MSL).
  Eigen::Vector2d clear_of_teammates(const Eigen::Vector2d& target, const Pose& self) const;
  // `target` moved out of every other attacker's lane to the ball (a
  // teammate keep either side of the straight way from it to the ball): a
  // defender heading for its spot on the ball-goal line ran ahead of the
  // attacker going for a ball in our corner, and the attacker ran into it.
  Eigen::Vector2d clear_of_attackers_lane(const Eigen::Vector2d& target, const Pose& self,
                                          const Eigen::Vector2d& ball) const;
  // Moves a target inside our own goal area (grown by own_goal_area_keep) to its
  // nearest edge: the rules allow only the keeper in there.
  void keep_out_of_own_goal_area(double& x, double& y) const;
  // A straight way to the target through that grown area goes round it
  // instead, by its nearer front corner: crossing it for half a second is a
  // foul (SSL: most goal-area fouls were defenders cutting through it).
  void go_round_own_goal_area(const Pose& self, double& tx, double& ty) const;
  double ramp_forward_speed(double vx, double t, double fraction);
  // Dynamics safety search (BRIEF 4.5), the last thing step() does: when the
  // commanded velocity could run the robot into a teammate (assumed to
  // brake), replaces it by the nearest safe one. `period`: time since the
  // previous step() call.
  void apply_safety_search(const msg::WorldEstimate& world, double period, Vel& v);
  // Where the rules call pushing, takes the part of `v` that drives into a
  // touching opponent down to below the rules' pushing speed. Wheels that
  // spin against a robot are a foul, and they carry the odometry away.
  // Placing (no pushing judged), the closing speed on it instead. In play,
  // the same for whatever the bumper touches (WorldEstimate.self_contacts)
  // once the contact, whose start it keeps, has lasted long enough.
  void limit_pushing(const Pose& self, const msg::WorldEstimate& world, double t, Vel& v);
  // The last command's velocity in the field frame, the robot facing theta.
  Eigen::Vector2d last_command_in_field(double theta) const;
  // Whether the last command drove the robot towards an opponent within
  // pushing_reach of it.
  bool presses_into_opponent(const Pose& self, const msg::WorldEstimate& world) const;

  msg::Team team_;
  uint32_t robot_id_;
  msg::LeaguePreset league_;
  Formation formation_;  // where defenders and supporters stand
  SkillParams params_;
  bool omni_;
  bool symmetric_;  // differential without a kicker: both ends push

  AttackPhase phase_ = AttackPhase::kApproach;
  Intent intent_;
  bool stepping_out_ = false;  // this step heads for a point step_out_of_circle() found
  bool stepping_beyond_lines_ = false;  // ... that may lie in the boundary strip (standing_space_)
  // drive_to()'s plan last found no way to its target (walled in: it ends
  // at the tree's node nearest to it), and the one before this step's.
  bool walled_in_ = false;
  bool was_walled_in_ = false;
  // The restart spot round which the robot, walled in inside its circle,
  // steps out (step_out_of_circle beyond the lines) until it is out.
  std::optional<Eigen::Vector2d> walled_in_at_spot_;
  int side_ = 0;  // which side of the ball the attacker goes round (+1 left of the ball-goal line, -1 right)
  double last_vx_ = 0.0;             // forward speed asked for last cycle (differential)
  double rolling_forward_ = 0.0;     // this cycle: the estimated speed along the heading
  // Body-frame velocity (vx, vy) asked for last cycle: what the motor is at
  // or ramping to, known exactly, unlike the velocity estimate (see
  // apply_safety_search). Body frame because the motor holds it there while
  // the robot turns.
  Eigen::Vector2d last_command_body_ = Eigen::Vector2d::Zero();
  double last_omega_ = 0.0;  // turn rate of the last command
  std::optional<double> last_t_;
  std::optional<double> previous_step_t_;  // t of the previous step() call (safety search)
  int drive_direction_ = 1;  // +1 forwards, -1 backwards (differential)
  bool align_back_ = false;          // aligning: backing off along the line (else coming forward)
  bool wall_push_ = false;           // the attacker is pushing the ball along a wall
  std::optional<double> aim_y_;      // shot_aim_y's kept aim
  std::optional<uint32_t> pass_to_;  // the receiver of the pass being lined up (kept while it stays good)
  bool to_shot_spot_ = false;        // the goal is seen too narrow from the ball: taking it in front of the goal first
  // Until when our own shot is on its way into their goal by its kick (the
  // ball estimate takes a few frames to show it): see attacker().
  std::optional<double> own_shot_in_until_;
  Eigen::Vector2d wall_u_{1.0, 0.0};  // ... in this direction
  int support_side_ = 0;  // which side of the ball the supporter keeps to
  // Set per cycle: the robot defends or supports and the league limits the
  // defenders in the goal area, so its targets stay outside it.
  bool avoid_goal_area_ = false;
  bool clearing_ = false;  // the keeper is clearing the ball (keeper_clears)
  double own_goal_x_ = 0.0;  // x of our goal line this cycle
  msg::Role last_role_ = msg::ROLE_NONE;
  std::vector<Eigen::Vector2d> teammates_;  // this cycle's teammate positions
  std::vector<Eigen::Vector2d> attackers_;  // this cycle's positions of the other attackers (PlayerInstruction.team_roles)
  bool keeper_on_team_ = false;             // another robot of the team keeps goal (team_roles)
  Eigen::Vector2d ball_velocity_ = Eigen::Vector2d::Zero();  // this cycle's ball velocity estimate
  // This cycle's restart brakes (placing): the circle's spot and distance,
  // and whether the halfway line's brake applies; applied again on the
  // final command (brake_for_restart_again).
  struct RestartBrakes {
    std::optional<Eigen::Vector2d> circle_spot;
    double keep_out = 0.0;
    bool halfway_line = false;
    bool own_goal_area = false;
  };
  RestartBrakes restart_brakes_;
  Eigen::Vector2d own_velocity_ = Eigen::Vector2d::Zero();   // this cycle's estimate of the robot's (field frame)
  std::optional<double> ball_still_since_;  // when the ball estimate last came to rest
  double ball_still_for_ = 0.0;             // s it has lain still since
  // Placing: since when the robot has asked to move and not moved, and
  // until when it plans round opponents because of that.
  std::optional<double> placement_blocked_since_;
  std::optional<double> contact_since_;  // when the bumper's current contact began
  double last_contact_t_ = 0.0;
  double placement_detour_until_ = -1e300;
  double forwards_until_ = -1e300;  // stuck reversing: forwards, camera first, until then
  bool forwards_only_ = false;      // this cycle: placing before forwards_until_
  double last_wanted_speed_ = 0.0;  // m/s the skills asked for last cycle, before safety and pushing limits
  bool give_way_ = false;                   // this cycle: go round teammates (see give_way_to_teammates)
  bool placing_ = false;                    // this cycle: placing for a restart
  bool placing_for_kickoff_ = false;        // this cycle: placing for a kick-off
  bool keeping_distance_ = false;           // this cycle: placing for a restart with a keep-out radius
  PathPlanner planner_;
  PathPlanner escape_planner_;  // boxed in placing: a way past the ball (its own cache)
  PathPlanner squeeze_planner_;  // and still walled in: between bodies, no gap kept
  FreeSpace free_space_;                    // where our centre may be: field, goal mouths, run-off
  // Placing, robots that keep off our goal area plan without it, grown by
  // placing_goal_area_margin() and on beyond the end line through the goal
  // ([0]: our goal at -x, [1]: at +x).
  FreeSpace placing_space_[2];
  // Where a robot may stand: the field and the boundary strip round it (to
  // a little short of its edge), not in the goals; and that less our goal
  // area as placing_space_ leaves it out, where a walled-in robot steps out.
  FreeSpace standing_space_;
  FreeSpace stepping_space_[2];
  std::vector<CircleObstacle> opponents_;   // this cycle's opponents
  // The point a robot inside the restart distance last headed out by
  // (exit_from_circle's `kept`), and the spot whose circle it was for.
  std::optional<Eigen::Vector2d> last_exit_;
  Eigen::Vector2d last_exit_spot_ = Eigen::Vector2d::Zero();
  std::vector<CircleObstacle> plan_round_;  // those drive_to plans round this cycle (placing: the ones at hand)
  bool avoid_opponents_ = false;            // this cycle: drive_to plans round opponents
  // Turning on the spot to find itself again until then, when lost; not
  // again before relocalise_again_after_.
  std::optional<double> relocalise_until_;
  double relocalise_again_after_ = -1e300;
  int relocalise_direction_ = 0;  // turning to find itself: +1 ccw, -1 cw, 0 not lost
  int search_direction_ = 0;  // turning while searching for the ball: +1 ccw, -1 cw, 0 not searching
};

}  // namespace robocaf::actors
