#include "sim/robot_trace.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "runtime/game_log.hpp"

namespace robocaf::sim {

namespace {
// Truth records lie a control period apart; a sample due within this of one
// is taken there, so --every 0.1 over 0.02 s records does not drift.
constexpr double kTimeEps = 1e-6;
}  // namespace

RobotTracer::RobotTracer(TraceRequest request) : request_(std::move(request)), next_sample_t_(request_.from) {}

void RobotTracer::add(const msg::LogRecord& record) {
  if (done_) return;
  if (record.t() > request_.to + kTimeEps) {
    done_ = true;
    return;
  }
  // Its intent from before the window too: the first sample shows what it
  // was steering for then.
  if (record.has_intent() && record.intent().team() == request_.team &&
      record.intent().robot_id() == request_.robot_id) {
    intent_ = record.intent();
    intent_t_ = record.t();
    // The world logs a cycle's intents after its truth: one of the last
    // sample's cycle belongs to it.
    if (!trace_.samples.empty() && std::abs(trace_.samples.back().t - record.t()) < kTimeEps) {
      trace_.samples.back().intent = intent_;
      trace_.samples.back().intent_t = intent_t_;
    }
    return;
  }
  // Its belief likewise (logged before the intent of the same cycle).
  if (record.has_belief() && record.belief().team() == request_.team &&
      record.belief().robot_id() == request_.robot_id) {
    belief_ = record.belief();
    belief_t_ = record.t();
    if (!trace_.samples.empty() && std::abs(trace_.samples.back().t - record.t()) < kTimeEps) {
      trace_.samples.back().belief = belief_;
      trace_.samples.back().belief_t = belief_t_;
    }
    return;
  }
  if (record.t() < request_.from - kTimeEps) return;
  if (record.has_referee()) {
    trace_.events.push_back({record.t(), record.referee()});
    return;
  }
  if (!record.has_truth()) return;
  const msg::WorldTruth& truth = record.truth();
  const auto self = std::find_if(truth.robots().begin(), truth.robots().end(), [&](const msg::RobotTruth& r) {
    return r.team() == request_.team && r.robot_id() == request_.robot_id;
  });
  if (self == truth.robots().end()) return;
  ++trace_.truths_with_robot;
  if (record.t() < next_sample_t_ - kTimeEps) return;
  next_sample_t_ = record.t() + request_.every;
  TraceSample sample;
  sample.t = record.t();
  sample.x = self->pose().x();
  sample.y = self->pose().y();
  sample.theta = self->pose().theta();
  sample.vx = self->velocity().x();
  sample.vy = self->velocity().y();
  sample.omega = self->omega();
  sample.ball_x = truth.ball_position().x();
  sample.ball_y = truth.ball_position().y();
  for (const msg::RobotTruth& other : truth.robots()) {
    if (&other == &*self) continue;
    const double d = std::hypot(other.pose().x() - sample.x, other.pose().y() - sample.y);
    if (d <= request_.near) sample.near.push_back({other.team(), other.robot_id(), other.pose().x(), other.pose().y(), d});
  }
  sample.intent = intent_;
  sample.intent_t = intent_t_;
  sample.belief = belief_;
  sample.belief_t = belief_t_;
  std::sort(sample.near.begin(), sample.near.end(),
            [](const TraceNeighbour& a, const TraceNeighbour& b) { return a.distance < b.distance; });
  trace_.samples.push_back(std::move(sample));
}

RobotTrace trace_robot(const std::string& path, const TraceRequest& request) {
  runtime::GameLogReader reader(path);
  RobotTracer tracer(request);
  msg::LogRecord record;
  while (!tracer.done() && reader.next(record)) tracer.add(record);
  return tracer.trace();
}

}  // namespace robocaf::sim
