#include "sim/restart_drill.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "messages/log.pb.h"
#include "runtime/angle.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::sim {

std::vector<RestartMoment> restart_moments(const std::string& path, double lead_in_seconds) {
  runtime::GameLogReader reader(path);
  LeadInRecorder lead_in(lead_in_cycles(lead_in_seconds, reader.header().config().sim().control_period()));
  std::vector<RestartMoment> moments;
  msg::LogRecord record;
  msg::WorldTruth last_truth;
  // The restart being prepared: (kind, team, spot) of the last game state
  // that had one, so a restart called while another was prepared counts too.
  bool preparing = false;
  std::tuple<int, int, double, double> prepared;
  while (reader.next(record)) {
    lead_in.add(record);
    if (record.has_truth()) last_truth = record.truth();
    if (!record.has_game_state()) continue;
    const msg::GameState& state = record.game_state();
    if (state.command() != msg::REF_PREPARE_RESTART) {
      preparing = false;
      continue;
    }
    const auto key = std::make_tuple(int(state.restart()), int(state.restart_team()), state.ball_spot().x(),
                                     state.ball_spot().y());
    if (preparing && key == prepared) continue;
    preparing = true;
    prepared = key;
    if (last_truth.robots_size() == 0) continue;
    RestartMoment moment;
    moment.log = path;
    moment.t = record.t();
    moment.number = static_cast<unsigned>(moments.size()) + 1;
    moment.kind = state.restart();
    moment.team = state.restart_team();
    moment.spot = state.ball_spot();
    moment.blue_on_positive_side = state.blue_on_positive_side();
    moment.truth = last_truth;
    moment.config = reader.header().config();
    moment.lead_in = lead_in.before_newest();
    moments.push_back(std::move(moment));
  }
  return moments;
}

bool positions_finite(const msg::WorldTruth& truth) {
  auto finite = [](double a, double b) { return std::isfinite(a) && std::isfinite(b); };
  bool ok = finite(truth.ball_position().x(), truth.ball_position().y());
  for (const auto& robot : truth.robots())
    ok = ok && finite(robot.pose().x(), robot.pose().y()) && std::isfinite(robot.pose().theta());
  return ok;
}

void turn_half_round(msg::WorldTruth& truth) {
  auto turned = [](msg::Vec2* v) {
    v->set_x(-v->x());
    v->set_y(-v->y());
  };
  turned(truth.mutable_ball_position());
  turned(truth.mutable_ball_velocity());
  for (auto& robot : *truth.mutable_robots()) {
    auto* pose = robot.mutable_pose();
    pose->set_x(-pose->x());
    pose->set_y(-pose->y());
    pose->set_theta(runtime::wrap_angle(pose->theta() + M_PI));
    turned(robot.mutable_velocity());
  }
}

RestartDrill restart_drill(const RestartMoment& moment) {
  if (!positions_finite(moment.truth) || !positions_finite(moment.lead_in) || !std::isfinite(moment.spot.x()) ||
      !std::isfinite(moment.spot.y()))
    throw std::invalid_argument(moment.log + ": the world at restart " + std::to_string(moment.number) + " at " +
                                std::to_string(moment.t) + " s (or in its lead-in) has a position that is not a number");
  RestartDrill drill;
  drill.config = moment.config;
  // Distinct for every restart of every log, the same for every build.
  drill.config.set_seed(moment.config.seed() * 1000 + moment.number);
  drill.config.mutable_sim()->set_start_position_sd(kDrillStartPositionSd);
  drill.start = moment.truth;
  drill.opening.set_restart(moment.kind);
  drill.opening.set_restart_team(moment.team);
  *drill.opening.mutable_ball_spot() = moment.spot;
  // The first half, where the drill's referee begins, has blue at -x.
  if (moment.blue_on_positive_side) {
    turn_half_round(drill.start);
    drill.opening.mutable_ball_spot()->set_x(-moment.spot.x());
    drill.opening.mutable_ball_spot()->set_y(-moment.spot.y());
  }
  drill.lead_in = moment.lead_in;
  turn_and_swap(drill.lead_in, moment.blue_on_positive_side, false);
  return drill;
}

}  // namespace robocaf::sim
