#include "sim/robot_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "runtime/actor_address.hpp"
#include "runtime/game_log.hpp"

namespace robocaf::sim {

namespace {
// Truth records lie a control period apart; a sample due within this of one
// is taken there, so --every 0.1 over 0.02 s records does not drift.
constexpr double kTimeEps = 1e-6;

// s: a belief in an opponent this long without a sighting says so.
constexpr double kUnseenShown = 0.1;

// printf into a string.
template <class... Args>
void append(std::string& out, const char* format, Args... args) {
  char line[512];
  std::snprintf(line, sizeof line, format, args...);
  out += line;
}

char team_letter(msg::Team team) { return team == msg::BLUE ? 'B' : team == msg::YELLOW ? 'Y' : '?'; }

void sample_row(std::string& out, const TraceSample& s) {
  append(out, "%9.2f  %7.3f %7.3f %6.2f  %5.2f %5.2f %6.2f  %6.2f", s.t, s.x, s.y, s.theta, s.vx, s.vy, s.omega,
         std::hypot(s.ball_x - s.x, s.ball_y - s.y));
  for (const TraceNeighbour& n : s.near)
    append(out, "  %c%u (%.2f, %.2f) %.2f", team_letter(n.team), n.robot_id, n.x, n.y, n.distance);
  out += '\n';
}

void point(std::string& out, const char* label, const msg::Vec2F& p) {
  append(out, "  %s (%.2f, %.2f)", label, p.x(), p.y());
}

// What its skills steered for, under the sample it belongs to.
void intent_rows(std::string& out, const TraceSample& s) {
  if (!s.intent) return;
  const msg::SkillIntent& i = *s.intent;
  append(out, "%9s  %s", "", runtime::short_enum_name(msg::CoachDirective_Name(i.directive())).c_str());
  if (i.directive() == msg::COACH_PLAY) append(out, " %s", runtime::short_enum_name(msg::Role_Name(i.role())).c_str());
  if (i.has_placement()) point(out, "place", i.placement());
  if (i.has_exit()) point(out, i.stepping_out() ? "steps out to" : "exit", i.exit());
  if (i.making_way()) out += "  makes way";
  if (i.has_aim()) point(out, "aim", i.aim());
  if (i.has_waypoint()) point(out, "waypoint", i.waypoint());
  append(out, "  (%.2f s before)\n", s.t - s.intent_t);
  if (i.planned_round_size() == 0) return;
  // The opponents its plan went round, as it believed them.
  const char other = team_letter(i.team() == msg::BLUE ? msg::YELLOW : msg::BLUE);
  append(out, "%9s  round", "");
  for (const msg::PlannedOpponent& o : i.planned_round()) {
    append(out, "  %c%u (%.2f, %.2f)", other, o.robot_id(), o.position().x(), o.position().y());
    if (o.unseen_for() >= kUnseenShown) append(out, " unseen %.1f s", o.unseen_for());
    if (o.way_ahead()) out += " +way";
  }
  out += '\n';
}

// Where it believed itself, and how far that lay from where it stood.
void belief_row(std::string& out, const TraceSample& s) {
  if (!s.belief || !s.belief->has_pose()) return;
  const msg::PoseF& p = s.belief->pose();
  append(out, "%9s  believes (%.2f, %.2f) heading %.2f, %.2f m off, sd %.2f m  (%.2f s before)\n", "", p.x(), p.y(),
         p.theta(), std::hypot(p.x() - s.x, p.y() - s.y), s.belief->position_sd(), s.t - s.belief_t);
}

void event_row(std::string& out, const TraceEvent& e) { append(out, "%9.2f  REF %s\n", e.t, e.event.reason().c_str()); }

}  // namespace

std::string trace_rows(const RobotTrace& trace, bool beliefs) {
  std::string out;
  size_t e = 0;
  for (const TraceSample& s : trace.samples) {
    for (; e < trace.events.size() && trace.events[e].t <= s.t; ++e) event_row(out, trace.events[e]);
    sample_row(out, s);
    if (beliefs) belief_row(out, s);
    intent_rows(out, s);
  }
  for (; e < trace.events.size(); ++e) event_row(out, trace.events[e]);
  return out;
}

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
