#include "sim/kickoff_drill.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "messages/log.pb.h"
#include "runtime/game_log.hpp"
#include "sim/restart_drill.hpp"

namespace robocaf::sim {

std::vector<GoalMoment> goal_moments(const std::string& path, msg::Team scorer, double lead_in_seconds) {
  runtime::GameLogReader reader(path);
  LeadInRecorder lead_in(lead_in_cycles(lead_in_seconds, reader.header().config().sim().control_period()));
  std::vector<GoalMoment> goals;
  msg::LogRecord record;
  msg::WorldTruth last_truth;
  bool blue_on_positive_side = false;
  while (reader.next(record)) {
    lead_in.add(record);
    if (record.has_truth()) last_truth = record.truth();
    if (record.has_game_state()) blue_on_positive_side = record.game_state().blue_on_positive_side();
    if (!record.has_referee()) continue;
    const msg::RefereeEvent& event = record.referee();
    if (event.kind() != msg::REF_EVENT_GOAL || event.team() != scorer || last_truth.robots_size() == 0) continue;
    GoalMoment goal;
    goal.log = path;
    goal.t = record.t();
    goal.number = static_cast<unsigned>(goals.size()) + 1;
    goal.scorer = scorer;
    goal.scorer_robot = event.robot_id();
    goal.scorer_on_positive_side = (scorer == msg::BLUE) == blue_on_positive_side;
    goal.truth = last_truth;
    goal.config = reader.header().config();
    goal.lead_in = lead_in.before_newest();
    goals.push_back(std::move(goal));
  }
  return goals;
}

KickoffDrill kickoff_drill(const GoalMoment& goal) {
  if (!positions_finite(goal.truth) || !positions_finite(goal.lead_in))
    throw std::invalid_argument(goal.log + ": the world before goal " + std::to_string(goal.number) + " at " +
                                std::to_string(goal.t) + " s (or in its lead-in) has a position that is not a number");
  KickoffDrill drill;
  drill.config = goal.config;
  *drill.config.mutable_blue() = goal.config.yellow();
  *drill.config.mutable_yellow() = goal.config.blue();
  // Distinct for every goal of every log, the same for every build.
  drill.config.set_seed(goal.config.seed() * 1000 + goal.number);
  drill.config.mutable_sim()->set_start_position_sd(kDrillStartPositionSd);
  drill.start = goal.truth;
  for (auto& robot : *drill.start.mutable_robots()) robot.set_team(robot.team() == msg::BLUE ? msg::YELLOW : msg::BLUE);
  // The scorers play yellow, which defends +x in the first half.
  if (!goal.scorer_on_positive_side) turn_half_round(drill.start);
  drill.lead_in = goal.lead_in;
  turn_and_swap(drill.lead_in, !goal.scorer_on_positive_side, true);
  return drill;
}

}  // namespace robocaf::sim
