#pragma once
// One robot's course through a stretch of a game log: where it stood and how
// it moved (the WorldTruth records), where it believed itself (SelfBelief),
// what its player skills steered for (the SkillIntent records), the robots
// near it, and the referee's calls
// meanwhile. Plain C++ over game-log records; `robocaf trace` prints
// it. Reading why the referee moved a robot starts here, without a debug
// build or a replay.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "messages/log.pb.h"

namespace robocaf::sim {

/// What to trace: a robot, a time window, how often, and how near counts.
struct TraceRequest {
  msg::Team team = msg::BLUE;
  uint32_t robot_id = 0;
  double from = 0.0, to = 0.0;  // s, inclusive
  double every = 0.5;           // s between samples; the first truth at or after `from` is one
  double near = 1.5;            // m: robots whose centres lie this close are listed
};

/// A robot within TraceRequest::near of the traced one.
struct TraceNeighbour {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  uint32_t robot_id = 0;
  double x = 0.0, y = 0.0;
  double distance = 0.0;  // m, centre to centre
};

/// The traced robot at one truth record.
struct TraceSample {
  double t = 0.0;
  double x = 0.0, y = 0.0, theta = 0.0;
  double vx = 0.0, vy = 0.0, omega = 0.0;
  double ball_x = 0.0, ball_y = 0.0;
  std::vector<TraceNeighbour> near;  // nearest first
  /// Its player skills' newest intent logged at or before t (none in logs
  /// from before intents were logged), and when it was logged.
  std::optional<msg::SkillIntent> intent;
  double intent_t = 0.0;
  /// Where it believed itself then: its world knowledge's newest SelfBelief
  /// logged at or before t, and when it was logged.
  std::optional<msg::SelfBelief> belief;
  double belief_t = 0.0;
};

/// A referee event in the window.
struct TraceEvent {
  double t = 0.0;
  msg::RefereeEvent event;
};

struct RobotTrace {
  std::vector<TraceSample> samples;
  std::vector<TraceEvent> events;
  /// Truth records in the window that hold the robot; 0: it is not in the
  /// log there (wrong id, team or window).
  uint64_t truths_with_robot = 0;
};

/// Feed it a match's log records in order.
class RobotTracer {
 public:
  explicit RobotTracer(TraceRequest request);
  void add(const msg::LogRecord& record);
  /// True once the records have passed the window's end.
  bool done() const { return done_; }
  const RobotTrace& trace() const { return trace_; }

 private:
  TraceRequest request_;
  RobotTrace trace_;
  double next_sample_t_;
  bool done_ = false;
  std::optional<msg::SkillIntent> intent_;  // the robot's newest
  double intent_t_ = 0.0;
  std::optional<msg::SelfBelief> belief_;  // the robot's newest
  double belief_t_ = 0.0;
  // A belief or intent (`Part`) logged at t: when it is the robot's, it
  // becomes the newest, and the last sample's if logged in its cycle.
  template <class Part>
  bool keep_newest(const Part& part, double t, std::optional<Part>& newest, double& newest_t,
                   std::optional<Part> TraceSample::*slot, double TraceSample::*slot_t);
};

/// The trace as `robocaf trace` prints it below its heading: the referee's
/// events in place, a row per sample (t, true pose, velocity, turn rate,
/// distance to the ball, the robots near it), and under it, where logged,
/// its belief (with `beliefs`: where it believed itself, how far off, its
/// sd), what its skills steered for, and placing, the opponents its plan
/// went round ("round  Y2 (x, y) unseen 1.4 s +way").
std::string trace_rows(const RobotTrace& trace, bool beliefs);

/// Traces the game log at `path`, reading no further than the window.
/// Throws runtime::GameLogError when the log cannot be read.
RobotTrace trace_robot(const std::string& path, const TraceRequest& request);

}  // namespace robocaf::sim
