#pragma once
// The play that led up to a moment of a logged match, for drills that play
// that moment again. A drill's world started cold at the moment gave every
// robot a fresh world model: it knew nothing of opponents it had seen a
// second before and no longer saw, which the robots of the match planned
// round (MSL: a scorer boxed in at the other team's goal went round two
// opponents it remembered and met their keeper; its drill, without them,
// was legal at the kick-off 2 s early). Played through a lead-in, the
// robots' actors see and remember what they saw in the match. Plain C++
// over game log records.

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "messages/commands.pb.h"
#include "messages/log.pb.h"
#include "messages/world.pb.h"

namespace robocaf::sim {

/// One logged control cycle: the world's truth as the cycle began and the
/// commands the robots sent in it.
struct LeadInCycle {
  msg::WorldTruth truth;
  std::vector<msg::RobotCommand> commands;
};

/// A drill's lead-in, read-only and shared by every copy: the repeats of a
/// moment (`robocaf restart-drill --repeats K`) and the options each drill
/// passes on to its world hold one vector between them. Each repeat held a
/// copy before, about 0.5 MB per MSL moment: 40 logs' restarts drilled twice
/// held 2.5 GB, and six logs' corner kicks peaked at 244 MB drilled four
/// times against 155 MB once (155 MB both ways shared; docs/BENCHMARKS.md).
class LeadIn {
 public:
  LeadIn() = default;
  explicit LeadIn(std::vector<LeadInCycle> cycles)
      : cycles_(std::make_shared<const std::vector<LeadInCycle>>(std::move(cycles))) {}
  std::size_t size() const { return cycles_ ? cycles_->size() : 0; }
  bool empty() const { return size() == 0; }
  /// Cycle k, oldest first; k < size().
  const LeadInCycle& operator[](std::size_t k) const { return (*cycles_)[k]; }
  const LeadInCycle& front() const { return cycles_->front(); }

 private:
  std::shared_ptr<const std::vector<LeadInCycle>> cycles_;
};

/// Keeps the newest `cycles` complete control cycles of a game log read in
/// order (LogRecord truth, then that cycle's commands).
class LeadInRecorder {
 public:
  explicit LeadInRecorder(std::size_t cycles) : capacity_(cycles) {}
  void add(const msg::LogRecord& record);
  /// The kept cycles before the newest truth, oldest first: a drill starting
  /// from that truth plays these first. Empty when no lead-in is kept.
  std::vector<LeadInCycle> before_newest() const;

 private:
  std::size_t capacity_;
  // capacity_ + 1 cycles: the lead-in and the cycle of the newest truth.
  std::deque<LeadInCycle> cycles_;
};

/// Cycles of `control_period` in `seconds` (rounded; 0 for none). Throws
/// std::invalid_argument for a negative or non-finite `seconds`.
std::size_t lead_in_cycles(double seconds, double control_period);

/// Whether every robot's pose and the ball's position in every cycle of
/// `lead_in` are finite numbers (positions_finite() of each truth).
bool positions_finite(const std::vector<LeadInCycle>& lead_in);

/// The lead-in of a drill whose world is turned half round
/// (turn_half_round()) and, when `swap_colours`, plays with the colours
/// swapped: the same turn and swap applied to every cycle.
void turn_and_swap(std::vector<LeadInCycle>& lead_in, bool turn, bool swap_colours);

}  // namespace robocaf::sim
