#include "sim/lead_in.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/restart_drill.hpp"

namespace robocaf::sim {

void LeadInRecorder::add(const msg::LogRecord& record) {
  if (capacity_ == 0) return;
  if (record.has_truth()) {
    cycles_.push_back({record.truth(), {}});
    while (cycles_.size() > capacity_ + 1) cycles_.pop_front();
  } else if (record.has_command() && !cycles_.empty() && record.command().cycle() == cycles_.back().truth.cycle()) {
    cycles_.back().commands.push_back(record.command());
  }
}

std::vector<LeadInCycle> LeadInRecorder::before_newest() const {
  if (cycles_.size() < 2) return {};
  return std::vector<LeadInCycle>(cycles_.begin(), cycles_.end() - 1);
}

std::size_t lead_in_cycles(double seconds, double control_period) {
  if (!std::isfinite(seconds) || seconds < 0.0)
    throw std::invalid_argument("a lead-in must be 0 or more seconds (got " + std::to_string(seconds) + ")");
  if (!(control_period > 0.0)) return 0;
  return static_cast<std::size_t>(std::llround(seconds / control_period));
}

bool positions_finite(const std::vector<LeadInCycle>& lead_in) {
  for (const LeadInCycle& cycle : lead_in)
    if (!positions_finite(cycle.truth)) return false;
  return true;
}

void turn_and_swap(std::vector<LeadInCycle>& lead_in, bool turn, bool swap_colours) {
  auto swapped = [](msg::Team team) {
    return team == msg::BLUE ? msg::YELLOW : team == msg::YELLOW ? msg::BLUE : team;
  };
  for (LeadInCycle& cycle : lead_in) {
    if (turn) turn_half_round(cycle.truth);
    if (!swap_colours) continue;
    for (auto& robot : *cycle.truth.mutable_robots()) robot.set_team(swapped(robot.team()));
    // Commands are in the robot's own frame: the turn leaves them alone.
    for (auto& command : cycle.commands) command.set_team(swapped(command.team()));
  }
}

}  // namespace robocaf::sim
