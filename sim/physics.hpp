// Deterministic 2D physics of one simulated field: robots (differential or
// omnidirectional drive) modelled as circles, one rolling ball, walls, goals.
//
// Plain C++ on purpose: the world actor wraps it, tests and benchmarks drive it
// directly, and nothing here knows about actors, clocks or threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "messages/commands.pb.h"
#include "messages/config.pb.h"
#include "messages/geometry.pb.h"
#include "messages/world.pb.h"
#include "sim/random.hpp"

namespace robocaf::sim {

/// Identifies a robot on the field.
struct RobotKey {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  std::uint32_t id = 0;
};

/// The most recent contact between a robot and the ball (collision, push,
/// kick or dribble); what a referee needs for the stalemate rule.
struct Touch {
  bool valid = false;  ///< false until the first touch of the match
  msg::Team team = msg::TEAM_UNSPECIFIED;
  std::uint32_t robot_id = 0;
  double t = 0.0;  ///< simulated time of the contact
};

/// A robot contact (push or kick) that made the ball clearly faster and sent
/// it on a path into a goal mouth, fast enough to reach it on its own.
struct Shot {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  std::uint32_t robot_id = 0;
  double t = 0.0;
  int goal_side = 0;  ///< +1: towards the goal at +x, -1: towards -x
  double speed = 0.0;
};

/// Kinematic 2D world for one league preset.
///
/// Robots follow their wheels through the preset's motor model (RobotSpec.
/// motor_model: ideal ramps, curvature-keeping ramps, or MI20's DC motor with
/// a PID and a traction limit). The true pose moves (1 - slip) times the
/// wheels' travel with a sideways side_bias and seeded heading noise
/// (Clockwork Orange); odometry integrates the wheels without them. The ball
/// is a point mass with constant rolling deceleration (or mu_rr g) plus air
/// drag above 0.1 m/s (MI20). Ball collisions are
/// found by continuous time of impact, so the ball never tunnels and never
/// rests inside a robot or a wall. Robots that collide (with a wall, each
/// other, or a ball that cannot give way) stop along the contact normal: each
/// is pushed back by its own approach, the approaching velocity component is
/// removed, and the wheels slip (they keep their speed, so odometry does not
/// see the collision). Contacts are left with a 1 um gap; what overlap the
/// solver leaves is rounding, a few nanometres at most. A ball squeezed between closing surfaces (robot and wall, or
/// two robots) is jammed: it stops instead of gaining energy from repeated
/// bounces. Teleports (add/place) are settled before the next step moves
/// anything, so they never turn into a shove.
/// Everything is deterministic; step() does not allocate.
class Physics {
 public:
  /// Throws std::invalid_argument naming the offending config field when the
  /// preset cannot describe a playable world (non-positive sizes, step, ...).
  /// `seed` drives the robots' heading noise (RobotSpec.heading_noise), the
  /// only random part of the physics.
  Physics(const msg::LeaguePreset& league, const msg::SimConfig& sim, std::uint64_t seed = 0);

  /// Adds a robot at rest. Throws std::invalid_argument if the key exists or
  /// the team is TEAM_UNSPECIFIED. The pose is clamped into the arena.
  void add_robot(msg::Team team, std::uint32_t id, const msg::Pose2& pose);
  bool has_robot(msg::Team team, std::uint32_t id) const;

  /// Teleports a robot (a referee's or a human's hand): zero velocity, pose
  /// clamped into the arena. Odometry keeps integrating from where it was, as
  /// a real robot's encoders would not notice being carried.
  /// Throws std::out_of_range for an unknown robot.
  void place_robot(msg::Team team, std::uint32_t id, const msg::Pose2& pose);

  /// Sets the robot `logged` names moving as it was when its truth was
  /// reported (RobotTruth from truth(): the wheels' speeds, and for an omni
  /// robot the sideways part of its velocity), so a world started from a game
  /// log's truth rolls on as the robots were rolling, and their motors brake
  /// or steer from there: started at rest, a scorer that had run into the
  /// goal at 1.5 m/s was spared its braking. Pose and commands stay as they
  /// are. Returns false (and changes nothing) for non-finite numbers.
  /// Throws std::out_of_range for an unknown robot.
  bool set_robot_motion(const msg::RobotTruth& logged);

  /// Teleports the ball (clamped into the arena) and ends any dribble.
  void place_ball(const Eigen::Vector2d& position,
                  const Eigen::Vector2d& velocity = Eigen::Vector2d::Zero());

  /// Latest command for one robot, received at simulated time `t_now`.
  /// Differential robots follow `wheels` (a `body` command is converted, vy
  /// ignored), omni robots follow `body` (`wheels` is converted). A positive
  /// kick_speed arms the kicker until it fires once or the next command.
  /// Returns false (and changes nothing) for an unknown robot or a command
  /// with non-finite numbers, so a bad message cannot corrupt the world.
  bool set_command(msg::Team team, std::uint32_t id, const msg::RobotCommand& command,
                   double t_now);

  /// Advances the world by dt (normally SimConfig.physics_step). A longer dt
  /// is split into equal steps no longer than physics_step.
  void step(double dt);
  /// One step of SimConfig.physics_step.
  void step();
  /// Runs whole physics steps until `duration` has passed (rounded to steps).
  void run_for(double duration);

  double time() const { return time_; }

  /// Ground truth: robots sorted by team then id, and the ball.
  msg::WorldTruth truth(std::uint64_t cycle) const;
  /// Same as truth(), reusing the message's storage.
  void fill_truth(std::uint64_t cycle, msg::WorldTruth* out) const;

  /// Dead-reckoned pose from the robot's own wheel motion (no collisions, no
  /// teleports) and its current wheel speeds. Throws std::out_of_range.
  msg::Odometry odometry(msg::Team team, std::uint32_t id) const;

  /// Robots sorted by team then id.
  std::vector<RobotKey> robot_keys() const;
  std::size_t robot_count() const { return robots_.size(); }
  /// Throws std::out_of_range for an unknown robot.
  msg::Pose2 robot_pose(msg::Team team, std::uint32_t id) const;
  Eigen::Vector2d robot_velocity(msg::Team team, std::uint32_t id) const;
  /// The field-frame velocity the robot's wheels drive it at, whether or not
  /// an obstacle stops it: what a referee reads as driving into someone.
  Eigen::Vector2d drive_velocity(msg::Team team, std::uint32_t id) const;

  const Eigen::Vector2d& ball_position() const { return ball_pos_; }
  const Eigen::Vector2d& ball_velocity() const { return ball_vel_; }
  /// True while a dribbling robot holds the ball in its mouth.
  bool ball_held() const { return holder_ >= 0; }

  const Touch& last_touch() const { return last_touch_; }
  /// True if any robot touched the ball at or after time t.
  bool touched_since(double t) const { return last_touch_.valid && last_touch_.t >= t; }

  /// Number of shots (see Shot) since construction, and the latest one.
  std::uint64_t shot_count() const { return shot_count_; }
  const Shot& last_shot() const { return last_shot_; }

  /// +1 / -1 if the ball is now entirely behind the goal line at +x / -x and
  /// between the posts, else 0.
  int ball_in_goal() const;
  /// Like ball_in_goal(), but latched inside step(): the side of the latest
  /// goal line the ball was entirely behind since the previous call, so a
  /// referee polling once per control cycle cannot miss a ball that enters a
  /// goal and bounces out between two polls. Clears the latch.
  int take_goal_crossing();

  const msg::LeaguePreset& league() const { return league_; }
  const msg::SimConfig& sim_config() const { return sim_; }

  /// Static boundary piece. Public so tests and renderers can draw the arena.
  struct Segment {
    Eigen::Vector2d a, b;  ///< end points
    Eigen::Vector2d d;     ///< unit direction a -> b
    Eigen::Vector2d n;     ///< unit normal; the inside for one-sided pieces
    double length = 0.0;
    bool one_sided = true;   ///< arena perimeter (objects stay on the n side)
    bool stops_ball = false; ///< the boundary of an open field: the ball stops there
  };
  const std::vector<Segment>& segments() const { return segments_; }
  /// Exposed corners (goal posts): points the ball can bounce off.
  const std::vector<Eigen::Vector2d>& posts() const { return posts_; }

 private:
  static constexpr int kMaxRobotConstraints = 4;
  struct Robot {
    msg::Team team = msg::TEAM_UNSPECIFIED;
    std::uint32_t id = 0;
    // True state.
    Eigen::Vector2d pos{0, 0};
    double theta = 0.0;
    double cos_t = 1.0, sin_t = 0.0;  // of theta, kept incrementally
    // Actual drive state: wheel surface speeds (differential) or body twist
    // (omni). Both are kept so truth and odometry can report either.
    double wheel_l = 0.0, wheel_r = 0.0;
    double vx = 0.0, vy = 0.0, omega = 0.0;  // body frame
    // Command.
    bool has_command = false;
    double cmd_time = 0.0;
    double cmd_l = 0.0, cmd_r = 0.0;
    double cmd_vx = 0.0, cmd_vy = 0.0, cmd_omega = 0.0;
    double kick_speed = 0.0;  // armed kick, 0 = none
    bool dribble = false;
    // MOTOR_DC_PID state per wheel (left, right): controller output and the
    // two previous errors of its velocity-form PID.
    double pid_out[2] = {0.0, 0.0};
    double pid_e1[2] = {0.0, 0.0};
    double pid_e2[2] = {0.0, 0.0};
    // Odometry (dead reckoning).
    Eigen::Vector2d odo_pos{0, 0};
    double odo_theta = 0.0;
    double odo_cos = 1.0, odo_sin = 0.0;
    // Field-frame velocity as reported: the wheels' motion without the parts
    // obstacles stopped. The wheels themselves keep turning (they slip).
    Eigen::Vector2d vel{0, 0};
    // Per-step scratch.
    Eigen::Vector2d start{0, 0};      // position at the start of the step
    Eigen::Vector2d drive_disp{0, 0}; // what the wheels alone moved it this step
    Eigen::Vector2d step_vel{0, 0};   // effective velocity over the step
    bool moved = false;    // moved by the current solver pass
    bool active = false;   // moved by the previous pass: its pairs need a check
    // Normals (into the free side) of walls or a pinned ball it presses on.
    Eigen::Vector2d wall_n[kMaxRobotConstraints] = {
        Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero(),
        Eigen::Vector2d::Zero()};
    int n_wall = 0;
  };

  void build_arena();
  void validate() const;
  std::size_t index_of(msg::Team team, std::uint32_t id) const;  // throws
  long find(msg::Team team, std::uint32_t id) const;             // -1 if absent
  Eigen::Vector2d clamp_into_arena(const Eigen::Vector2d& p, double radius) const;

  void single_step(double dt);
  void drive_robot(Robot& r, double dt);
  // The field-frame velocity truth() reports for r's drive state: its wheels'
  // motion as the ground takes it (slip and sideways bias).
  Eigen::Vector2d ground_velocity(const Robot& r) const;
  // New wheel speeds (left, right) of a differential robot under the motor model.
  void drive_wheels(Robot& r, bool live, double dt, double& left, double& right);
  double dc_motor_wheel(Robot& r, int wheel, double v, double target, double dt) const;
  // Ball deceleration at speed s: rolling plus air drag.
  double ball_deceleration(double s) const;
  void side_hit(const Robot& r, const Eigen::Vector2d& local);
  Eigen::Vector2d world_velocity(const Robot& r) const;
  void push_robot_out_of_walls(Robot& r);
  enum class BallRule { ignore, pinned, always };  // the ball as an obstacle for robots
  void separate_robots(BallRule ball_rule);
  void collect_ball_contacts();
  static void add_constraint(Robot& r, const Eigen::Vector2d& m);
  Eigen::Vector2d feasible(const Robot& r, Eigen::Vector2d dir) const;
  bool ball_pinned_against(const Eigen::Vector2d& push, int robot) const;
  bool ball_in_mouth(const Eigen::Vector2d& pos, double cos_t, double sin_t) const;
  void ball_phase(double dt);
  void move_ball_ccd(double dt);
  bool push_ball_out_of_walls();
  void resolve_ball_overlaps(bool record_touches);
  void settle();
  // True if the ball, grown by margin, is inside the wall-free interior box.
  bool ball_clear_of_walls(double margin) const;
  void record_touch(const Robot& r, double t);
  void check_shot(const Robot& r, double t, double speed_before);

  msg::LeaguePreset league_;
  msg::SimConfig sim_;
  // Cached config numbers used in the hot loop.
  double robot_r_ = 0.0, ball_r_ = 0.0, wheel_base_ = 0.0, inv_wheel_base_ = 1.0;
  double max_speed_ = 0.0, max_acc_ = 0.0, max_dec_ = 0.0, max_omega_ = 0.0;
  double kick_max_ = 0.0, mouth_half_ = 0.0;
  double ball_dec_ = 0.0, wall_e_ = 0.0, robot_e_ = 0.0;
  double step_ = 0.001, motor_timeout_ = 0.0;
  double max_ball_speed_ = 0.0;
  bool omni_ = false;
  msg::MotorModel motor_model_ = msg::MOTOR_IDEAL;
  msg::DcMotorSpec dc_;               // with MI20 defaults filled in
  double robot_mass_ = 0.0, robot_drag_ = 0.0;  // drag: 0.5 rho c_d A, N per (m/s)^2
  double true_travel_ = 1.0, side_bias_ = 0.0, heading_noise_ = 0.0;
  double ball_drag_ = 0.0;            // 0.5 rho c_d A / m, 1/m
  bool mouth_captures_ = false;
  double side_turn_ = 0.0;
  SeededRandom noise_;

  std::vector<Segment> segments_;
  std::vector<Eigen::Vector2d> posts_;
  // Half extents of the centred box no wall or post reaches into: objects
  // well inside it skip the wall tests (most of the time, most objects).
  double clear_x_ = 0.0, clear_y_ = 0.0;

  std::vector<Robot> robots_;  // sorted by (team, id)
  Eigen::Vector2d ball_pos_{0, 0};
  Eigen::Vector2d ball_vel_{0, 0};
  int holder_ = -1;                    // index of the dribbling robot
  Eigen::Vector2d hold_offset_{0, 0};  // ball centre in the holder's frame
  double time_ = 0.0;

  Touch last_touch_;
  Shot last_shot_;
  std::uint64_t shot_count_ = 0;
  int goal_latch_ = 0;
  // What the ball rests on at the start of a step (normals point at the
  // ball; owner is a robot index or -1 for walls): a robot pushing it into
  // one of these is blocked.
  static constexpr int kMaxContacts = 16;
  Eigen::Vector2d contacts_[kMaxContacts];
  int contact_owner_[kMaxContacts] = {};
  int n_contacts_ = 0;
  bool dirty_ = true;  // a teleport may have left overlaps: settle before moving
};

}  // namespace robocaf::sim
