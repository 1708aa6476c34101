#include "sim/restart_readiness.hpp"

#include <map>

#include <Eigen/Dense>

#include "runtime/game_log.hpp"
#include "sim/referee.hpp"

namespace robocaf::sim {

RestartReadinessMeter::RestartReadinessMeter(const msg::LeaguePreset& league)
    : league_(league), running_home_speed_(0.5 * league.robot().max_speed()) {}

RestartReadiness::Team& RestartReadinessMeter::side(msg::Team team, RestartReadiness& phase) const {
  return team == msg::BLUE ? phase.blue : phase.yellow;
}

void RestartReadinessMeter::begin(const msg::GameState& state, double t) {
  counting_ = -1;
  open_ = Open{};
  RestartReadiness& p = open_.phase;
  p.t = t;
  const bool kickoff = state.command() == msg::REF_PREPARE_KICKOFF;
  p.restart = kickoff ? msg::RESTART_KICKOFF : state.restart();
  p.taker = kickoff ? state.kickoff_team() : state.restart_team();
  const bool neutral = p.taker != msg::BLUE && p.taker != msg::YELLOW;
  p.blue.judged = kickoff || neutral || p.taker != msg::BLUE;
  p.yellow.judged = kickoff || neutral || p.taker != msg::YELLOW;
  open_.blue_on_positive_side = state.blue_on_positive_side();
  open_.ball_x = state.ball_spot().x();
  open_.ball_y = state.ball_spot().y();
}

void RestartReadinessMeter::judge(const msg::WorldTruth& truth) {
  RestartReadiness& p = open_.phase;
  const Eigen::Vector2d spot(open_.ball_x, open_.ball_y);
  for (const auto& robot : truth.robots()) {
    if (robot.team() != msg::BLUE && robot.team() != msg::YELLOW) continue;
    if (!side(robot.team(), p).judged) continue;
    const Eigen::Vector2d at(robot.pose().x(), robot.pose().y());
    const bool positive = (robot.team() == msg::BLUE) == open_.blue_on_positive_side;
    const bool legal = p.restart == msg::RESTART_KICKOFF
                           ? Referee::legal_at_kickoff(league_, at, positive, robot.team() == p.taker)
                           : Referee::legal_at_restart(league_, spot, at);
    const double depth = positive ? -at.x() : at.x();
    const auto [it, first] =
        open_.robots.try_emplace({robot.team(), robot.robot_id()}, Open::Robot{p.t, legal, depth});
    const double homewards = positive ? robot.velocity().x() : -robot.velocity().x();
    if (p.restart == msg::RESTART_KICKOFF && it->second.ran_home < 0.0 && homewards > running_home_speed_)
      it->second.ran_home = truth.t();
    if (first) {
      ++side(robot.team(), p).robots;
      continue;
    }
    if (legal && !it->second.legal) it->second.since = truth.t();
    it->second.legal = legal;
  }
}

void RestartReadinessMeter::finish(double t) {
  RestartReadiness p = open_.phase;
  p.seconds = t - p.t;
  for (RestartReadiness::Team* team : {&p.blue, &p.yellow}) team->ready_after = team->judged ? 0.0 : -1.0;
  for (const auto& [key, robot] : open_.robots) {
    RestartReadiness::Team& team = side(static_cast<msg::Team>(key.first), p);
    // Illegal at the last sample, a cycle before the referee judged: it
    // stepped in within that cycle unless the referee moved it.
    const double since = robot.legal ? robot.since - p.t : p.seconds;
    if (since > team.ready_after) {
      team.ready_after = since;
      team.last_robot = key.second;
      team.last_robot_depth = p.restart == msg::RESTART_KICKOFF ? robot.depth : 0.0;
      team.last_robot_ran_home_after = robot.ran_home >= 0.0 ? robot.ran_home - p.t : -1.0;
    }
  }
  for (RestartReadiness::Team* team : {&p.blue, &p.yellow})
    if (team->repositioned > 0) team->ready_after = -1.0;
  // The newest belief of each last robot from within the phase; beliefs
  // are predicted a little ahead, so the truth has met them only up to a
  // moment before the start.
  for (msg::Team team_id : {msg::BLUE, msg::YELLOW}) {
    RestartReadiness::Team& team = side(team_id, p);
    const auto newest = newest_belief_.find({int(team_id), team.last_robot});
    if (team.last_robot == 0 || newest == newest_belief_.end() || newest->second.t <= p.t) continue;
    team.last_robot_belief_error = newest->second.error;
    team.last_robot_perceived_error = newest->second.perceived_error;
  }
  phases_.push_back(p);
  counting_ = static_cast<long>(phases_.size()) - 1;
}

void RestartReadinessMeter::add(const msg::LogRecord& record) {
  pose_.add(record);
  for (PoseErrorSample& sample : pose_.take_samples())
    newest_belief_[{int(sample.team), sample.robot_id}] = sample;
  switch (record.payload_case()) {
    case msg::LogRecord::kGameState: {
      const msg::GameState& state = record.game_state();
      const bool preparing =
          state.command() == msg::REF_PREPARE_KICKOFF || state.command() == msg::REF_PREPARE_RESTART;
      if (preparing && !preparing_) begin(state, state.t());
      // The start: NORMAL_START or FORCE_START. A human's HALT or STOP
      // in between leaves the phase open.
      if (preparing_ && (state.command() == msg::REF_NORMAL_START || state.command() == msg::REF_FORCE_START))
        finish(state.t());
      if (preparing || state.command() == msg::REF_NORMAL_START || state.command() == msg::REF_FORCE_START)
        preparing_ = preparing;
      break;
    }
    case msg::LogRecord::kTruth:
      if (preparing_) judge(record.truth());
      break;
    case msg::LogRecord::kReferee: {
      const msg::RefereeEvent& event = record.referee();
      if (event.team() != msg::BLUE && event.team() != msg::YELLOW) break;
      // A start's repositions are logged before the game state that starts
      // play; encroachments follow it while the other team waits.
      if (!preparing_ && counting_ < 0) break;
      RestartReadiness::Team& team =
          side(event.team(), preparing_ ? open_.phase : phases_[static_cast<size_t>(counting_)]);
      if (event.kind() == msg::REF_EVENT_REPOSITION) ++team.repositioned;
      if (event.kind() == msg::REF_EVENT_ENCROACHMENT) ++team.encroachments;
      break;
    }
    default: break;
  }
}

std::vector<RestartReadiness> measure_restart_readiness(const std::string& path) {
  runtime::GameLogReader reader(path);
  RestartReadinessMeter meter(reader.header().config().league());
  msg::LogRecord record;
  while (reader.next(record)) meter.add(record);
  return meter.phases();
}

}  // namespace robocaf::sim
