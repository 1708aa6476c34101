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

template <class Part>
bool RobotTracer::keep_newest(const Part& part, double t, std::optional<Part>& newest, double& newest_t,
                              std::optional<Part> TraceSample::*slot, double TraceSample::*slot_t) {
  if (part.team() != request_.team || part.robot_id() != request_.robot_id) return false;
  newest = part;
  newest_t = t;
  // The world logs a cycle's beliefs and intents after its truth: one of
  // the last sample's cycle belongs to it.
  if (!trace_.samples.empty() && std::abs(trace_.samples.back().t - t) < kTimeEps) {
    trace_.samples.back().*slot = newest;
    trace_.samples.back().*slot_t = newest_t;
  }
  return true;
}

void RobotTracer::add(const msg::LogRecord& record) {
  if (done_) return;
  if (record.t() > request_.to + kTimeEps) {
    done_ = true;
    return;
  }
  // Its intent and belief from before the window too: the first sample
  // shows what it was steering for then, and where it believed itself.
  if (record.has_intent()) {
    if (keep_newest(record.intent(), record.t(), intent_, intent_t_, &TraceSample::intent, &TraceSample::intent_t))
      return;
  }
  if (record.has_belief()) {
    if (keep_newest(record.belief(), record.t(), belief_, belief_t_, &TraceSample::belief, &TraceSample::belief_t))
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
