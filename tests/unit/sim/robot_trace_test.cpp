#include "sim/robot_trace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "runtime/game_log.hpp"

namespace robocaf::sim {
namespace {

void add_robot(msg::WorldTruth* truth, msg::Team team, uint32_t id, double x, double y) {
  auto* robot = truth->add_robots();
  robot->set_team(team);
  robot->set_robot_id(id);
  robot->mutable_pose()->set_x(x);
  robot->mutable_pose()->set_y(y);
  robot->mutable_velocity()->set_x(0.5);
}

// Blue 3 drives along x at 0.5 m/s from the origin; yellow 2 stands at
// (1, 1); blue 4 stands 5 m off. The ball lies at (3, 0).
msg::LogRecord truth(double t) {
  msg::LogRecord r;
  r.set_t(t);
  auto* w = r.mutable_truth();
  w->set_t(t);
  w->mutable_ball_position()->set_x(3.0);
  add_robot(w, msg::BLUE, 4, 0.0, 5.0);
  add_robot(w, msg::BLUE, 3, 0.5 * t, 0.0);
  add_robot(w, msg::YELLOW, 2, 1.0, 1.0);
  return r;
}

TraceRequest request_for(msg::Team team, uint32_t id, double from, double to, double every = 0.5) {
  TraceRequest request;
  request.team = team;
  request.robot_id = id;
  request.from = from;
  request.to = to;
  request.every = every;
  return request;
}

msg::LogRecord referee(double t, const std::string& reason) {
  msg::LogRecord r;
  r.set_t(t);
  r.mutable_referee()->set_reason(reason);
  return r;
}

TEST(RobotTracer, SamplesTheRobotInItsWindowWithTheRobotsNearItAndTheRefereesEvents) {
  TraceRequest request = request_for(msg::BLUE, 3, 1.0, 2.0);
  request.near = 1.5;
  RobotTracer tracer(request);
  for (int k = 0; k <= 150; ++k) {
    const double t = 0.02 * k;
    tracer.add(truth(t));
    if (k == 25) tracer.add(referee(t, "before the window"));
    if (k == 60) tracer.add(referee(t, "in the window"));
  }
  EXPECT_TRUE(tracer.done());
  const RobotTrace& trace = tracer.trace();
  EXPECT_EQ(trace.truths_with_robot, 51u);  // 1.00, 1.02, ..., 2.00
  ASSERT_EQ(trace.samples.size(), 3u);
  EXPECT_NEAR(trace.samples[0].t, 1.0, 1e-9);
  EXPECT_NEAR(trace.samples[1].t, 1.5, 1e-9);
  EXPECT_NEAR(trace.samples[2].t, 2.0, 1e-9);
  const TraceSample& at_1 = trace.samples[0];
  EXPECT_NEAR(at_1.x, 0.5, 1e-9);
  EXPECT_NEAR(at_1.vx, 0.5, 1e-9);
  EXPECT_NEAR(at_1.ball_x, 3.0, 1e-9);
  // Yellow 2 is near (1.12 m at t = 1); blue 4, 5 m off, is not.
  ASSERT_EQ(at_1.near.size(), 1u);
  EXPECT_EQ(at_1.near[0].team, msg::YELLOW);
  EXPECT_EQ(at_1.near[0].robot_id, 2u);
  EXPECT_NEAR(at_1.near[0].distance, std::hypot(0.5, 1.0), 1e-9);
  ASSERT_EQ(trace.events.size(), 1u);
  EXPECT_EQ(trace.events[0].event.reason(), "in the window");
  EXPECT_NEAR(trace.events[0].t, 1.2, 1e-9);
}

TEST(RobotTracer, ARobotNotInTheLogLeavesTheTraceEmpty) {
  RobotTracer tracer(request_for(msg::YELLOW, 3, 0.0, 1.0));
  for (int k = 0; k <= 60; ++k) tracer.add(truth(0.02 * k));
  EXPECT_EQ(tracer.trace().truths_with_robot, 0u);
  EXPECT_TRUE(tracer.trace().samples.empty());
}

msg::LogRecord intent(double t, msg::Team team, uint32_t id, double aim_x) {
  msg::LogRecord r;
  r.set_t(t);
  auto* i = r.mutable_intent();
  i->set_t(t);
  i->set_team(team);
  i->set_robot_id(id);
  i->set_directive(msg::COACH_PLACE);
  i->mutable_aim()->set_x(static_cast<float>(aim_x));
  return r;
}

TEST(RobotTracer, EachSampleCarriesTheRobotsNewestIntentFromBeforeTheWindowOn) {
  RobotTracer tracer(request_for(msg::BLUE, 3, 1.0, 2.0));
  for (int k = 0; k <= 150; ++k) {
    const double t = 0.02 * k;
    tracer.add(truth(t));
    // Blue 3's every 0.1 s, aiming at where it stood then; another robot's
    // at the same times, which must not show.
    if (k % 5 == 0) {
      tracer.add(intent(t, msg::BLUE, 3, 0.5 * t));
      tracer.add(intent(t, msg::YELLOW, 3, -9.0));
    }
  }
  const RobotTrace& trace = tracer.trace();
  ASSERT_EQ(trace.samples.size(), 3u);
  for (const TraceSample& sample : trace.samples) {
    ASSERT_TRUE(sample.intent.has_value()) << sample.t;
    EXPECT_EQ(sample.intent->team(), msg::BLUE);
    // Logged after the truth of its cycle, and still the sample's.
    EXPECT_NEAR(sample.intent_t, sample.t, 1e-9);
    EXPECT_NEAR(sample.intent->aim().x(), 0.5 * sample.intent_t, 1e-6);
  }
  // Samples between intents carry the one before.
  RobotTracer between(request_for(msg::BLUE, 3, 1.04, 2.0));
  for (int k = 0; k <= 150; ++k) {
    between.add(truth(0.02 * k));
    if (k % 5 == 0) between.add(intent(0.02 * k, msg::BLUE, 3, 0.01 * k));
  }
  ASSERT_FALSE(between.trace().samples.empty());
  EXPECT_NEAR(between.trace().samples[0].intent_t, 1.0, 1e-9);
  // A log without intents (older than them): samples without one.
  RobotTracer bare(request_for(msg::BLUE, 3, 0.0, 1.0));
  for (int k = 0; k <= 60; ++k) bare.add(truth(0.02 * k));
  ASSERT_FALSE(bare.trace().samples.empty());
  EXPECT_FALSE(bare.trace().samples[0].intent.has_value());
}

msg::LogRecord belief(double t, msg::Team team, uint32_t id, double x) {
  msg::LogRecord r;
  r.set_t(t);
  auto* b = r.mutable_belief();
  b->set_t(t);
  b->set_team(team);
  b->set_robot_id(id);
  b->mutable_pose()->set_x(static_cast<float>(x));
  return r;
}

TEST(RobotTracer, EachSampleCarriesWhereTheRobotLastBelievedItself) {
  // Blue 3 believes itself 0.1 m behind where it drives, logged every 0.1 s
  // before its cycle's intent; yellow 3's beliefs must not show.
  RobotTracer tracer(request_for(msg::BLUE, 3, 1.0, 2.0));
  for (int k = 0; k <= 150; ++k) {
    const double t = 0.02 * k;
    tracer.add(truth(t));
    if (k % 5 == 0) {
      tracer.add(belief(t, msg::BLUE, 3, 0.5 * t - 0.1));
      tracer.add(belief(t, msg::YELLOW, 3, 9.0));
      tracer.add(intent(t, msg::BLUE, 3, 0.0));
    }
  }
  const RobotTrace& trace = tracer.trace();
  ASSERT_EQ(trace.samples.size(), 3u);
  for (const TraceSample& sample : trace.samples) {
    ASSERT_TRUE(sample.belief.has_value()) << sample.t;
    EXPECT_EQ(sample.belief->team(), msg::BLUE);
    EXPECT_NEAR(sample.belief_t, sample.t, 1e-9);
    EXPECT_NEAR(sample.belief->pose().x(), sample.x - 0.1, 1e-6);
    EXPECT_TRUE(sample.intent.has_value());
  }
  // Between beliefs a sample carries the one before; a log without any, none.
  RobotTracer between(request_for(msg::BLUE, 3, 1.04, 2.0));
  for (int k = 0; k <= 150; ++k) {
    between.add(truth(0.02 * k));
    if (k % 5 == 0) between.add(belief(0.02 * k, msg::BLUE, 3, 0.0));
  }
  ASSERT_FALSE(between.trace().samples.empty());
  EXPECT_NEAR(between.trace().samples[0].belief_t, 1.0, 1e-9);
  RobotTracer bare(request_for(msg::BLUE, 3, 0.0, 1.0));
  for (int k = 0; k <= 60; ++k) bare.add(truth(0.02 * k));
  ASSERT_FALSE(bare.trace().samples.empty());
  EXPECT_FALSE(bare.trace().samples[0].belief.has_value());
}

TEST(TraceRows, PrintEachSampleWithItsBeliefIntentAndTheOpponentsItsPlanWentRound) {
  RobotTrace trace;
  TraceSample s;
  s.t = 5.0;
  s.x = 1.0;
  s.y = 2.0;
  s.near.push_back({msg::YELLOW, 2, 1.5, 2.0, 0.5});
  msg::SkillIntent intent;
  intent.set_team(msg::BLUE);
  intent.set_directive(msg::COACH_PLACE);
  intent.mutable_placement()->set_x(-1.94f);
  intent.mutable_placement()->set_y(3.6f);
  auto* standing = intent.add_planned_round();
  standing->set_robot_id(2);
  standing->mutable_position()->set_x(1.5f);
  standing->mutable_position()->set_y(2.0f);
  standing->set_unseen_for(1.4f);
  auto* crossing = intent.add_planned_round();
  crossing->set_robot_id(4);
  crossing->mutable_position()->set_x(0.0f);
  crossing->mutable_position()->set_y(1.0f);
  crossing->set_unseen_for(0.02f);  // seen just now: not said
  crossing->set_way_ahead(true);
  s.intent = intent;
  s.intent_t = 4.96;
  msg::SelfBelief belief;
  belief.mutable_pose()->set_x(1.3f);
  belief.mutable_pose()->set_y(2.4f);
  belief.set_position_sd(0.05f);
  s.belief = belief;
  s.belief_t = 5.0;
  trace.samples.push_back(s);
  msg::RefereeEvent event;
  event.set_reason("kick-off for yellow");
  trace.events.push_back({5.5, event});

  const std::string rows = trace_rows(trace, true);
  EXPECT_NE(rows.find("     5.00    1.000   2.000"), std::string::npos) << rows;
  EXPECT_NE(rows.find("  Y2 (1.50, 2.00) 0.50\n"), std::string::npos) << rows;
  EXPECT_NE(rows.find("believes (1.30, 2.40) heading 0.00, 0.50 m off, sd 0.05 m  (0.00 s before)\n"),
            std::string::npos)
      << rows;
  EXPECT_NE(rows.find("place  place (-1.94, 3.60)  (0.04 s before)\n"), std::string::npos) << rows;
  EXPECT_NE(rows.find("round  Y2 (1.50, 2.00) unseen 1.4 s  Y4 (0.00, 1.00) +way\n"), std::string::npos) << rows;
  EXPECT_NE(rows.find("     5.50  REF kick-off for yellow\n"), std::string::npos) << rows;
  // Without beliefs, no belief row.
  EXPECT_EQ(trace_rows(trace, false).find("believes"), std::string::npos);
}

TEST(TraceRobot, ReadsAGameLogFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("robot_trace_" + std::to_string(::getpid()) + ".rclog")).string();
  {
    msg::LogHeader header;
    runtime::GameLogWriter writer(path, header);
    for (int k = 0; k <= 100; ++k) writer.append(truth(0.02 * k));
    writer.append(referee(2.0, "after the last truth"));
  }
  const TraceRequest request = request_for(msg::BLUE, 3, 0.5, 2.0, 1.0);
  const RobotTrace trace = trace_robot(path, request);
  std::filesystem::remove(path);
  ASSERT_EQ(trace.samples.size(), 2u);
  EXPECT_NEAR(trace.samples[1].x, 0.75, 1e-9);
  ASSERT_EQ(trace.events.size(), 1u);
  EXPECT_THROW(trace_robot(path, request), runtime::GameLogError);
}

}  // namespace
}  // namespace robocaf::sim
