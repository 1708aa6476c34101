#include "actors/world_knowledge/world_tracker.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "actors/perception/detection_filter.hpp"
#include "actors/perception/onboard_filter.hpp"
#include "messages/config.pb.h"

#include "runtime/config_loader.hpp"
#include "runtime/angle.hpp"

namespace robocaf::actors {
namespace {

using runtime::kPi;

msg::LeaguePreset mirosot() { return runtime::default_match_config().league(); }

// A global-camera frame: our robot (blue 1) and optionally the ball.
struct Scene {
  double t = 0.0;
  double self_x = 0.0, self_y = 0.0, self_theta = 0.0;
  bool self_visible = true;
  bool ball_visible = true;
  double ball_x = 0.0, ball_y = 0.0;
};

msg::DetectionFrame frame_of(const Scene& s) {
  msg::DetectionFrame f;
  f.set_t_capture(s.t);
  if (s.self_visible) {
    auto* r = f.add_robots_blue();
    r->set_robot_id(1);
    r->set_x(s.self_x);
    r->set_y(s.self_y);
    r->set_orientation(s.self_theta);
    r->set_confidence(1.0);
  }
  if (s.ball_visible) {
    auto* b = f.add_balls();
    b->set_x(s.ball_x);
    b->set_y(s.ball_y);
    b->set_confidence(1.0);
  }
  return f;
}

TEST(WorldTracker, EgocentricObjectsReturnToTheFieldFrame) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  msg::Percept p;
  p.set_team(msg::BLUE);
  p.set_robot_id(1);
  p.set_t_capture(0.5);
  p.set_self_seen(true);
  p.mutable_self_pose()->set_x(1.0);
  p.mutable_self_pose()->set_theta(kPi / 2);
  auto* ball = p.add_balls();
  ball->mutable_position()->set_x(1.0);  // 1 m ahead of a robot facing +y
  auto* mate = p.add_teammates();
  mate->set_robot_id(2);
  mate->mutable_position()->set_y(0.5);  // 0.5 m to its left
  mate->set_orientation(kPi / 2);
  tracker.observe(p);

  const msg::WorldEstimate w = tracker.estimate(3, 0.5);
  EXPECT_EQ(w.cycle(), 3u);
  EXPECT_EQ(w.team(), msg::BLUE);
  EXPECT_EQ(w.robot_id(), 1u);
  ASSERT_TRUE(w.ball().valid());
  EXPECT_NEAR(w.ball().position().x(), 1.0, 1e-9);
  EXPECT_NEAR(w.ball().position().y(), 1.0, 1e-9);
  EXPECT_EQ(w.ball().covariance_size(), 16);
  ASSERT_TRUE(w.has_self());
  EXPECT_NEAR(w.self().pose().x(), 1.0, 1e-9);
  EXPECT_EQ(w.self().covariance_size(), 9);
  ASSERT_EQ(w.teammates_size(), 1);
  EXPECT_EQ(w.teammates(0).robot_id(), 2u);
  EXPECT_NEAR(w.teammates(0).pose().x(), 0.5, 1e-9);
  EXPECT_NEAR(w.teammates(0).pose().y(), 0.0, 1e-9);
  EXPECT_NEAR(std::abs(w.teammates(0).pose().theta()), kPi, 1e-9);
}

TEST(WorldTracker, NothingKnownMeansNoBallAndNoSelf) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  const msg::WorldEstimate w = tracker.estimate(0, 1.0);
  EXPECT_FALSE(w.ball().valid());
  EXPECT_FALSE(w.has_self());
  EXPECT_EQ(w.teammates_size(), 0);
}

TEST(WorldTracker, BallVelocityConvergesOnConstantVelocityBall) {
  msg::LeaguePreset league = mirosot();
  league.mutable_ball()->set_rolling_deceleration(0.0);  // truly constant velocity
  WorldTracker tracker(msg::BLUE, 1, league);
  DetectionFilter filter(msg::BLUE, 1);
  std::mt19937 rng(42);
  std::normal_distribution<double> noise(0.0, 0.002);
  const double vx = 0.8, vy = -0.3;
  Scene s;
  s.self_x = 0.3;
  s.self_y = 0.2;
  s.self_theta = 2.0;  // objects pass through a rotated robot frame and back
  for (int k = 0; k <= 60; ++k) {
    s.t = k / 60.0;
    s.ball_x = -0.5 + vx * s.t + noise(rng);
    s.ball_y = 0.4 + vy * s.t + noise(rng);
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  const msg::WorldEstimate w = tracker.estimate(60, 1.0);
  ASSERT_TRUE(w.ball().valid());
  EXPECT_NEAR(w.ball().velocity().x(), vx, 0.05);
  EXPECT_NEAR(w.ball().velocity().y(), vy, 0.05);
  EXPECT_NEAR(w.ball().position().x(), -0.5 + vx, 0.01);
  EXPECT_NEAR(w.ball().position().y(), 0.4 + vy, 0.01);
  // Predicting ahead follows the velocity, and the uncertainty grows.
  const msg::WorldEstimate ahead = tracker.estimate(61, 1.5);
  EXPECT_NEAR(ahead.ball().position().x(), -0.5 + vx * 1.5, 0.03);
  EXPECT_GT(ahead.ball().covariance(0), w.ball().covariance(0));
  EXPECT_DOUBLE_EQ(ahead.ball().t_observed(), 1.0);
}

// Issue 4's tracker targets, on a rolling ball seen at 50 Hz with 2 mm noise.
struct RollingBall {
  double x0 = -0.8, y0 = -0.3, vx0 = 1.2, vy0 = 0.5, a = 0.12;
  double speed0() const { return std::hypot(vx0, vy0); }
  double speed(double t) const { return std::max(0.0, speed0() - a * t); }
  Eigen::Vector2d position(double t) const {
    const double s0 = speed0(), tt = std::min(t, s0 / a);
    const double d = s0 * tt - 0.5 * a * tt * tt;
    return {x0 + vx0 / s0 * d, y0 + vy0 / s0 * d};
  }
  Eigen::Vector2d velocity(double t) const { return Eigen::Vector2d(vx0, vy0) / speed0() * speed(t); }
};

TEST(WorldTracker, VelocityWithinFivePercentAfterHalfASecondOfRolling) {
  const RollingBall ball;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    WorldTracker tracker(msg::BLUE, 1, mirosot());
    DetectionFilter filter(msg::BLUE, 1);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.002);
    Scene s;
    for (int k = 0; k <= 25; ++k) {
      s.t = 0.02 * k;
      const Eigen::Vector2d p = ball.position(s.t);
      s.ball_x = p.x() + noise(rng);
      s.ball_y = p.y() + noise(rng);
      tracker.observe(filter.to_percept(frame_of(s)));
    }
    const msg::WorldEstimate w = tracker.estimate(0, 0.5);
    const Eigen::Vector2d v(w.ball().velocity().x(), w.ball().velocity().y());
    EXPECT_LT((v - ball.velocity(0.5)).norm(), 0.05 * ball.speed(0.5)) << "seed " << seed;
  }
}

TEST(WorldTracker, FalseCandidateAMetreAwayIsRejected) {
  const RollingBall ball;
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  for (int k = 0; k <= 50; ++k) {
    s.t = 0.02 * k;
    const Eigen::Vector2d p = ball.position(s.t);
    msg::DetectionFrame f;
    if (k % 10 == 7) {
      // The real ball is missed and only a false candidate 1 m off is seen.
      s.ball_visible = false;
      f = frame_of(s);
    } else {
      s.ball_visible = true;
      s.ball_x = p.x();
      s.ball_y = p.y();
      f = frame_of(s);
    }
    // Once tracking, a false candidate 1 m away in every frame, listed
    // first and as confident (at the very start nothing tells them apart).
    if (k < 5) {
      tracker.observe(filter.to_percept(f));
      continue;
    }
    auto* fake = f.add_balls();
    fake->set_x(p.x() + 0.6);
    fake->set_y(p.y() - 0.8);
    fake->set_confidence(1.0);
    f.mutable_balls()->SwapElements(0, f.balls_size() - 1);
    tracker.observe(filter.to_percept(f));
    const msg::WorldEstimate w = tracker.estimate(0, s.t);
    ASSERT_LT(std::hypot(w.ball().position().x() - p.x(), w.ball().position().y() - p.y()), 0.02)
        << "frame " << k << " followed the false candidate";
  }
}

TEST(WorldTracker, BallHiddenForASecondIsPredictedWithinTenCentimetres) {
  const RollingBall ball;
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.002);
  Scene s;
  for (int k = 0; k <= 25; ++k) {  // seen for 0.5 s
    s.t = 0.02 * k;
    const Eigen::Vector2d p = ball.position(s.t);
    s.ball_x = p.x() + noise(rng);
    s.ball_y = p.y() + noise(rng);
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  s.ball_visible = false;  // behind a robot for 1 s: frames with ourselves only
  for (int k = 26; k <= 75; ++k) {
    s.t = 0.02 * k;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  const msg::WorldEstimate w = tracker.estimate(0, 1.5);
  ASSERT_TRUE(w.ball().valid()) << "a ball hidden for 1 s is still tracked";
  const Eigen::Vector2d truth = ball.position(1.5);
  EXPECT_LT(std::hypot(w.ball().position().x() - truth.x(), w.ball().position().y() - truth.y()), 0.10);
  // And the uncertainty has grown while coasting.
  const msg::WorldEstimate seen = tracker.estimate(0, 0.5);
  EXPECT_GT(w.ball().covariance(0), seen.ball().covariance(0));
}

TEST(WorldTracker, PredictionUsesTheRollingDeceleration) {
  const msg::LeaguePreset league = mirosot();
  const double a = league.ball().rolling_deceleration();
  TrackerParams params;
  params.ball_lost_after = 30.0;  // keep predicting until the ball has stopped
  WorldTracker tracker(msg::BLUE, 1, league, params);
  DetectionFilter filter(msg::BLUE, 1);
  const double v0 = 1.0;
  Scene s;
  for (int k = 0; k <= 30; ++k) {
    s.t = k / 30.0;
    s.ball_x = v0 * s.t - 0.5 * a * s.t * s.t;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  // The ball stops at v0^2 / 2a = 4.17 m: far beyond, the estimate is at rest there.
  const msg::WorldEstimate w = tracker.estimate(0, 20.0);
  EXPECT_NEAR(w.ball().position().x(), v0 * v0 / (2 * a), 0.25);
  EXPECT_DOUBLE_EQ(w.ball().velocity().x(), 0.0);
  const msg::WorldEstimate soon = tracker.estimate(0, 2.0);
  EXPECT_NEAR(soon.ball().position().x(), v0 * 2.0 - 0.5 * a * 4.0, 0.05);
  EXPECT_NEAR(soon.ball().velocity().x(), v0 - a * 2.0, 0.05);
}

TEST(WorldTracker, RejectsASingleOutlierButFollowsAPersistentJump) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_x = 0.3;
  for (int k = 0; k < 30; ++k) {
    s.t = k * 0.02;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  Scene outlier = s;
  outlier.t += 0.02;
  outlier.ball_x = -0.8;  // a false detection, once
  tracker.observe(filter.to_percept(frame_of(outlier)));
  EXPECT_NEAR(tracker.estimate(0, outlier.t).ball().position().x(), 0.3, 0.01);

  // A ball moved by the referee: after a few frames, the tracker believes it.
  Scene moved = outlier;
  for (int k = 0; k < 5; ++k) {
    moved.t += 0.02;
    tracker.observe(filter.to_percept(frame_of(moved)));
  }
  EXPECT_NEAR(tracker.estimate(0, moved.t).ball().position().x(), -0.8, 0.01);
}

TEST(WorldTracker, PicksTheCandidateNearestThePrediction) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  for (int k = 0; k < 10; ++k) {
    s.t = k * 0.02;
    s.ball_x = 0.5;
    msg::DetectionFrame f = frame_of(s);
    auto* ghost = f.add_balls();  // a second orange blob far away
    ghost->set_x(-0.5 + 0.01 * k);
    ghost->set_y(0.3);
    ghost->set_confidence(1.0);
    tracker.observe(filter.to_percept(f));
  }
  EXPECT_NEAR(tracker.estimate(0, s.t).ball().position().x(), 0.5, 1e-3);
}

msg::WorldEstimate teammate_estimate(double t, double bx, double by, double t_observed, double sd) {
  msg::WorldEstimate w;
  w.set_team(msg::BLUE);
  w.set_robot_id(2);
  w.set_t(t);
  auto* b = w.mutable_ball();
  b->set_valid(true);
  b->mutable_position()->set_x(bx);
  b->mutable_position()->set_y(by);
  b->set_t_observed(t_observed);
  for (int i = 0; i < 16; ++i) b->add_covariance(i % 5 == 0 ? sd * sd : 0.0);
  auto* self = w.mutable_self();
  self->set_team(msg::BLUE);
  self->set_robot_id(2);
  self->mutable_pose()->set_x(-0.6);
  self->mutable_pose()->set_y(0.1);
  self->set_t_observed(t_observed);
  auto* opp = w.add_opponents();
  opp->set_team(msg::YELLOW);
  opp->set_robot_id(4);
  opp->mutable_pose()->set_x(0.9);
  opp->set_t_observed(t_observed);
  return w;
}

TEST(WorldTracker, TeammateEstimateFillsInABallWeDoNotSee) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  for (int k = 0; k < 10; ++k) {
    s.t = k * 0.02;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  ASSERT_FALSE(tracker.estimate(0, s.t).ball().valid());

  tracker.fuse(teammate_estimate(s.t, 0.4, -0.2, s.t, 0.01));
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  ASSERT_TRUE(w.ball().valid());
  EXPECT_NEAR(w.ball().position().x(), 0.4, 1e-9);
  EXPECT_NEAR(w.ball().position().y(), -0.2, 1e-9);
  // Its robots come along: the teammate itself and the opponent it saw.
  ASSERT_EQ(w.teammates_size(), 1);
  EXPECT_EQ(w.teammates(0).robot_id(), 2u);
  EXPECT_NEAR(w.teammates(0).pose().x(), -0.6, 1e-9);
  ASSERT_EQ(w.opponents_size(), 1);
  EXPECT_EQ(w.opponents(0).team(), msg::YELLOW);
  EXPECT_NEAR(w.opponents(0).pose().x(), 0.9, 1e-9);
}

TEST(WorldTracker, FreshOwnBallWinsOverTeammateAndStaleOneIsReplaced) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_x = 0.2;
  for (int k = 0; k < 20; ++k) {
    s.t = k * 0.02;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  // Our camera view is fresh and precise: a vaguer teammate view is ignored.
  tracker.fuse(teammate_estimate(s.t, 0.6, 0.0, s.t, 0.05));
  EXPECT_NEAR(tracker.estimate(0, s.t).ball().position().x(), 0.2, 1e-3);
  // From another team or from ourselves: ignored whatever it says.
  msg::WorldEstimate foreign = teammate_estimate(s.t, 0.6, 0.0, s.t, 1e-4);
  foreign.set_team(msg::YELLOW);
  tracker.fuse(foreign);
  EXPECT_NEAR(tracker.estimate(0, s.t).ball().position().x(), 0.2, 1e-3);

  // We lose the ball for half a second; the teammate still sees it elsewhere.
  s.ball_visible = false;
  for (int k = 0; k < 25; ++k) {
    s.t += 0.02;
    tracker.observe(filter.to_percept(frame_of(s)));
  }
  tracker.fuse(teammate_estimate(s.t, 0.6, 0.0, s.t, 0.01));
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  EXPECT_NEAR(w.ball().position().x(), 0.6, 1e-6);
  EXPECT_DOUBLE_EQ(w.ball().t_observed(), s.t);
}

TEST(WorldTracker, MuchMoreCertainTeammateBallIsWeightedIn) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_x = 0.2;
  s.t = 0.0;
  tracker.observe(filter.to_percept(frame_of(s)));  // one measurement, then silence
  s.ball_visible = false;
  s.t = 0.2;
  tracker.observe(filter.to_percept(frame_of(s)));
  const msg::WorldEstimate before = tracker.estimate(0, s.t);
  tracker.fuse(teammate_estimate(s.t, 0.24, 0.0, s.t, 0.001));
  const msg::WorldEstimate after = tracker.estimate(0, s.t);
  // Pulled towards the precise estimate, and more certain than before.
  EXPECT_GT(after.ball().position().x(), 0.23);
  EXPECT_LE(after.ball().position().x(), 0.24 + 1e-9);
  EXPECT_LT(after.ball().covariance(0), before.ball().covariance(0));
}

TEST(WorldTracker, StaleRobotTrackTakesOnlyFresherTeammateNews) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.t = 1.0;
  msg::DetectionFrame f = frame_of(s);
  auto* opp = f.add_robots_yellow();
  opp->set_robot_id(4);
  opp->set_x(0.5);
  opp->set_confidence(1.0);
  tracker.observe(filter.to_percept(f));
  // Half a second later our track of yellow 4 is stale. An older view (our
  // own, echoed back by the teammate) does not replace it; a fresher one does.
  tracker.fuse(teammate_estimate(1.5, 0.0, 0.0, 0.9, 0.01));
  EXPECT_NEAR(tracker.estimate(0, 1.5).opponents(0).pose().x(), 0.5, 1e-6);
  tracker.fuse(teammate_estimate(1.5, 0.0, 0.0, 1.45, 0.01));  // it saw yellow 4 at x = 0.9
  const msg::WorldEstimate w = tracker.estimate(0, 1.5);
  ASSERT_EQ(w.opponents_size(), 1);
  EXPECT_NEAR(w.opponents(0).pose().x(), 0.9, 1e-6);
  EXPECT_DOUBLE_EQ(w.opponents(0).t_observed(), 1.45);
}

TEST(WorldTracker, TeammateKnownOnlyFromItsSharesFollowsEachFresherShare) {
  // Shares come every 0.1 s. A track only they keep up (our camera never
  // saw blue 2) takes each one, though the last is younger than
  // robot_stale_after: coasting on between them, it stood 0.16 m off a
  // teammate that turned (MSL), and the safety search let two robots meet.
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  ASSERT_GT(tracker.params().robot_stale_after, 0.1);
  msg::WorldEstimate first = teammate_estimate(1.0, 0.0, 0.0, 1.0, 0.01);
  first.mutable_self()->mutable_velocity()->set_x(1.0);  // driving along +x at 1 m/s
  tracker.fuse(first);
  // It turned: a tenth of a second later it is at (-0.55, 0.2), not (-0.5, 0.1).
  msg::WorldEstimate second = teammate_estimate(1.1, 0.0, 0.0, 1.1, 0.01);
  second.mutable_self()->mutable_pose()->set_x(-0.55);
  second.mutable_self()->mutable_pose()->set_y(0.2);
  tracker.fuse(second);
  const msg::WorldEstimate w = tracker.estimate(0, 1.1);
  ASSERT_EQ(w.teammates_size(), 1);
  EXPECT_NEAR(w.teammates(0).pose().x(), -0.55, 1e-6);
  EXPECT_NEAR(w.teammates(0).pose().y(), 0.2, 1e-6);
  EXPECT_DOUBLE_EQ(w.teammates(0).t_observed(), 1.1);
  // An older report (echoed back through another teammate) changes nothing.
  tracker.fuse(teammate_estimate(1.1, 0.0, 0.0, 1.05, 0.01));
  EXPECT_NEAR(tracker.estimate(0, 1.1).teammates(0).pose().y(), 0.2, 1e-6);
}

TEST(WorldTracker, RobotsTrackedById) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  for (int k = 0; k <= 50; ++k) {
    Scene s;
    s.t = k * 0.02;
    s.self_x = -0.5 + 0.5 * s.t;  // driving at 0.5 m/s along +x
    msg::DetectionFrame f = frame_of(s);
    auto* opp = f.add_robots_yellow();
    opp->set_robot_id(3);
    opp->set_x(0.8);
    opp->set_y(-0.2 + 0.3 * s.t);
    opp->set_orientation(kPi / 2);
    tracker.observe(filter.to_percept(f));
  }
  const msg::WorldEstimate w = tracker.estimate(0, 1.0);
  ASSERT_TRUE(w.has_self());
  EXPECT_NEAR(w.self().pose().x(), 0.0, 0.005);
  EXPECT_NEAR(w.self().velocity().x(), 0.5, 0.05);
  ASSERT_EQ(w.opponents_size(), 1);
  EXPECT_EQ(w.opponents(0).robot_id(), 3u);
  EXPECT_NEAR(w.opponents(0).pose().y(), 0.1, 0.005);
  EXPECT_NEAR(w.opponents(0).velocity().y(), 0.3, 0.05);
  EXPECT_NEAR(w.opponents(0).pose().theta(), kPi / 2, 1e-3);
  // Unseen for longer than robot_lost_after: dropped.
  EXPECT_EQ(tracker.estimate(0, 1.0 + tracker.params().robot_lost_after + 0.1).opponents_size(), 0);
}

TEST(WorldTracker, MessagesWithNonFiniteNumbersAreIgnored) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_x = 0.3;
  tracker.observe(filter.to_percept(frame_of(s)));
  msg::Percept bad = filter.to_percept(frame_of(s));
  bad.set_t_capture(0.02);
  bad.mutable_balls(0)->mutable_position()->set_x(std::nan(""));
  tracker.observe(bad);
  msg::WorldEstimate poisoned = teammate_estimate(0.02, std::numeric_limits<double>::infinity(), 0.0, 0.02, 0.01);
  tracker.fuse(poisoned);
  const msg::WorldEstimate w = tracker.estimate(0, 0.04);
  ASSERT_TRUE(w.ball().valid());
  EXPECT_NEAR(w.ball().position().x(), 0.3, 1e-6);
  EXPECT_EQ(w.teammates_size(), 0);  // the poisoned estimate's robots did not come in either
}

TEST(WorldTracker, Deterministic) {
  auto run = [] {
    WorldTracker tracker(msg::BLUE, 1, mirosot());
    DetectionFilter filter(msg::BLUE, 1);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.003);
    Scene s;
    for (int k = 0; k < 100; ++k) {
      s.t = k * 0.02;
      s.ball_x = 0.01 * k + noise(rng);
      s.ball_y = noise(rng);
      s.self_theta = 0.03 * k;
      tracker.observe(filter.to_percept(frame_of(s)));
      if (k % 5 == 0) tracker.fuse(teammate_estimate(s.t, 0.5, 0.5, s.t - 0.1, 0.05));
    }
    std::string bytes;
    tracker.estimate(100, 2.1).SerializeToString(&bytes);
    return bytes;
  };
  EXPECT_EQ(run(), run());
}

// --- robots: EKF, gating, association, per-detection noise ----------------------

msg::DetectionRobot* add_robot(msg::DetectionFrame& f, msg::Team team, uint32_t id, double x, double y,
                               double theta) {
  auto* r = team == msg::BLUE ? f.add_robots_blue() : f.add_robots_yellow();
  r->set_robot_id(id);
  r->set_x(x);
  r->set_y(y);
  r->set_orientation(theta);
  r->set_confidence(1.0);
  return r;
}

const msg::RobotEstimate* find_robot(const google::protobuf::RepeatedPtrField<msg::RobotEstimate>& list, uint32_t id) {
  for (const auto& e : list)
    if (e.robot_id() == id) return &e;
  return nullptr;
}

TEST(WorldTracker, OwnSpeedAndTurnRateOnACircleFromTheCamera) {
  // Blue 1 (differential, MiroSot) drives a circle of radius 0.4 m at
  // 0.8 m/s, seen at 50 Hz with the preset's 2 mm / 0.02 rad noise.
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  std::mt19937 rng(4);
  std::normal_distribution<double> pos(0.0, 0.002), ang(0.0, 0.02);
  const double v = 0.8, omega = 2.0, r = v / omega;
  double speed_sq = 0, omega_sum = 0;
  int n = 0;
  for (int k = 0; k <= 150; ++k) {
    Scene s;
    s.t = 0.02 * k;
    s.ball_visible = false;
    s.self_x = r * std::sin(omega * s.t) + pos(rng);
    s.self_y = -r * std::cos(omega * s.t) + pos(rng);
    s.self_theta = runtime::wrap_angle(omega * s.t + ang(rng));
    tracker.observe(filter.to_percept(frame_of(s)));
    if (s.t < 1.0) continue;
    const msg::WorldEstimate w = tracker.estimate(k, s.t);
    const Eigen::Vector2d vel(w.self().velocity().x(), w.self().velocity().y());
    const Eigen::Vector2d truth = v * Eigen::Vector2d(std::cos(omega * s.t), std::sin(omega * s.t));
    speed_sq += (vel - truth).squaredNorm();
    omega_sum += w.self().omega();
    ++n;
  }
  // Unbiased turn rate, velocity within ~6 % rms (RobotEkf's tests for why).
  EXPECT_NEAR(omega_sum / n, omega, 0.1);
  EXPECT_LT(std::sqrt(speed_sq / n), 0.05);
  const msg::WorldEstimate w = tracker.estimate(0, 3.0);
  // The full pose covariance: x, y correlated on a curve, all of it finite.
  ASSERT_EQ(w.self().covariance_size(), 9);
  EXPECT_GT(w.self().covariance(0), 0.0);
  EXPECT_DOUBLE_EQ(w.self().covariance(1), w.self().covariance(3));
}

TEST(WorldTracker, OmniLeagueFollowsAStrafingRobot) {
  // In SSL robots are omnidirectional: an opponent sliding sideways, facing
  // +x while moving along +y, has that velocity; a differential league's
  // tracker cannot represent it (velocity along the heading only).
  auto run = [](const msg::LeaguePreset& league) {
    WorldTracker tracker(msg::BLUE, 1, league);
    DetectionFilter filter(msg::BLUE, 1);
    std::mt19937 rng(9);
    std::normal_distribution<double> pos(0.0, 0.003);
    for (int k = 0; k <= 75; ++k) {
      Scene s;
      s.t = 0.02 * k;
      s.ball_visible = false;
      msg::DetectionFrame f = frame_of(s);
      add_robot(f, msg::YELLOW, 2, 1.0 + pos(rng), -0.5 + 0.9 * s.t + pos(rng), 0.0);
      tracker.observe(filter.to_percept(f));
    }
    return tracker.estimate(0, 1.5);
  };
  const msg::WorldEstimate ssl = run(runtime::preset_match_config("ssl").league());
  ASSERT_EQ(ssl.opponents_size(), 1);
  EXPECT_NEAR(ssl.opponents(0).velocity().x(), 0.0, 0.05);
  EXPECT_NEAR(ssl.opponents(0).velocity().y(), 0.9, 0.05);
  EXPECT_NEAR(ssl.opponents(0).pose().y(), -0.5 + 0.9 * 1.5, 0.01);
  const msg::WorldEstimate differential = run(mirosot());
  ASSERT_EQ(differential.opponents_size(), 1);
  EXPECT_LT(std::abs(differential.opponents(0).velocity().y()), 0.3);
}

TEST(WorldTracker, CoastingRobotGrowsUncertainAndIsDroppedByCovariance) {
  TrackerParams params;
  params.robot_lost_after = 30.0;  // time alone would keep it: only its covariance drops it
  WorldTracker tracker(msg::BLUE, 1, mirosot(), params);
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  for (int k = 0; k <= 50; ++k) {  // yellow 5 seen for a second, driving at 0.5 m/s
    s.t = 0.02 * k;
    msg::DetectionFrame f = frame_of(s);
    add_robot(f, msg::YELLOW, 5, -0.5 + 0.5 * s.t, 0.3, 0.0);
    tracker.observe(filter.to_percept(f));
  }
  double previous = 0.0;
  double dropped_at = -1.0;
  for (int k = 51; k <= 500 && dropped_at < 0; ++k) {  // then hidden: frames with ourselves only
    s.t = 0.02 * k;
    tracker.observe(filter.to_percept(frame_of(s)));
    const msg::WorldEstimate w = tracker.estimate(k, s.t);
    if (w.opponents_size() == 0) {
      dropped_at = s.t - 1.0;
      break;
    }
    const double var = w.opponents(0).covariance(0) + w.opponents(0).covariance(4);
    EXPECT_GT(var, previous) << "at " << s.t;
    previous = var;
    // Coasting on its velocity for opponent_coast_seconds, then standing.
    if (k == 75) {
      EXPECT_NEAR(w.opponents(0).pose().x(), -0.5 + 0.5 * (1.0 + params.opponent_coast_seconds), 0.05);
    }
  }
  // Position sd past robot_lost_position_sd (0.5 m): from white acceleration
  // of 0.2 m^2/s^3 alone, sqrt(3 * 0.25 / 0.2) = 1.55 s; sooner with the
  // speed's and heading's own uncertainty.
  EXPECT_GT(dropped_at, 0.5);
  EXPECT_LT(dropped_at, 1.6);
  // And it stays dropped: nothing re-creates it.
  EXPECT_EQ(tracker.estimate(0, s.t + 0.5).opponents_size(), 0);
}

TEST(WorldTracker, AnUnseenOpponentCoastsBrieflyThenStands) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  // An opponent running at 1 m/s along +x, seen for a second, then gone.
  for (int k = 0; k <= 50; ++k) {
    Scene s;
    s.t = k * 0.02;
    msg::DetectionFrame f = frame_of(s);
    add_robot(f, msg::YELLOW, 3, -1.0 + 1.0 * s.t, 0.5, 0.0);
    tracker.observe(filter.to_percept(f));
  }
  const double coast = tracker.params().opponent_coast_seconds;
  ASSERT_LT(coast + 0.2, tracker.params().robot_lost_after);
  // Within the coast: extrapolated at its speed.
  const msg::WorldEstimate soon = tracker.estimate(0, 1.0 + 0.5 * coast);
  ASSERT_EQ(soon.opponents_size(), 1);
  EXPECT_NEAR(soon.opponents(0).pose().x(), 0.5 * coast, 0.02);
  EXPECT_NEAR(soon.opponents(0).velocity().x(), 1.0, 0.05);
  // Beyond it: standing where the coast ended, not running on.
  const msg::WorldEstimate later = tracker.estimate(0, 1.0 + coast + 0.2);
  ASSERT_EQ(later.opponents_size(), 1);
  EXPECT_NEAR(later.opponents(0).pose().x(), coast, 0.02);
  EXPECT_EQ(later.opponents(0).velocity().x(), 0.0);
  EXPECT_EQ(later.opponents(0).velocity().y(), 0.0);
  EXPECT_EQ(later.opponents(0).omega(), 0.0);
  EXPECT_EQ(later.opponents(0).t_observed(), soon.opponents(0).t_observed());
  // Where it is grows less certain all the same.
  EXPECT_GT(later.opponents(0).covariance(0), soon.opponents(0).covariance(0));
}

TEST(WorldTracker, RobotDetectionAMetreOffIsGatedOutButATeleportIsFollowed) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  auto see = [&](double x, double y) {
    msg::DetectionFrame f = frame_of(s);
    add_robot(f, msg::YELLOW, 4, x, y, 1.0);
    tracker.observe(filter.to_percept(f));
  };
  for (int k = 0; k < 50; ++k) {
    s.t = 0.02 * k;
    see(0.2, -0.1);
  }
  s.t += 0.02;
  see(1.2, -0.1);  // a misread id: another robot 1 m away
  const msg::WorldEstimate after_outlier = tracker.estimate(0, s.t);
  ASSERT_EQ(after_outlier.opponents_size(), 1);
  EXPECT_NEAR(after_outlier.opponents(0).pose().x(), 0.2, 0.005);
  EXPECT_NEAR(after_outlier.opponents(0).velocity().x(), 0.0, 0.05);
  s.t += 0.02;
  see(0.2, -0.1);  // seen where it is again: the rejections were not in a row

  // The referee puts the robot 1 m away: after robot_reset_after_rejections
  // frames the track starts again there.
  const int reset = tracker.params().robot_reset_after_rejections;
  for (int k = 1; k < reset; ++k) {
    s.t += 0.02;
    see(-0.8, 0.4);
    EXPECT_NEAR(tracker.estimate(0, s.t).opponents(0).pose().x(), 0.2, 0.005) << "frame " << k;
  }
  s.t += 0.02;
  see(-0.8, 0.4);
  const msg::WorldEstimate moved = tracker.estimate(0, s.t);
  EXPECT_NEAR(moved.opponents(0).pose().x(), -0.8, 0.005);
  EXPECT_NEAR(moved.opponents(0).pose().y(), 0.4, 0.005);
  EXPECT_NEAR(moved.opponents(0).velocity().x(), 0.0, 1e-9);  // a fresh track, not a 50 m/s jump
}

TEST(WorldTracker, IdlessDetectionsFollowTheRightRobotsAsTheyPassClose) {
  // Yellow 2 and 3 drive towards each other along y = +-0.04 at 0.8 m/s and
  // pass 8 cm apart (centre to centre). After half a second with ids, the
  // camera reads no ids any more, and lists them in a shuffled order.
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  std::mt19937 rng(5);
  std::normal_distribution<double> pos(0.0, 0.002);
  auto x2 = [](double t) { return -0.6 + 0.8 * t; };
  auto x3 = [](double t) { return 0.6 - 0.8 * t; };
  Scene s;
  s.self_y = -0.6;
  s.ball_visible = false;
  for (int k = 0; k <= 75; ++k) {
    s.t = 0.02 * k;
    const bool ids = s.t < 0.5;
    msg::DetectionFrame f = frame_of(s);
    const bool swap = rng() % 2;
    for (int j = 0; j < 2; ++j) {
      const bool two = (j == 0) != swap;
      add_robot(f, msg::YELLOW, ids ? (two ? 2 : 3) : 0, (two ? x2(s.t) : x3(s.t)) + pos(rng),
                (two ? 0.04 : -0.04) + pos(rng), two ? 0.0 : kPi);
    }
    tracker.observe(filter.to_percept(f));
    const msg::WorldEstimate w = tracker.estimate(k, s.t);
    ASSERT_EQ(w.opponents_size(), 2) << "at " << s.t;
    EXPECT_EQ(find_robot(w.opponents(), 0), nullptr);
    const msg::RobotEstimate* two = find_robot(w.opponents(), 2);
    const msg::RobotEstimate* three = find_robot(w.opponents(), 3);
    ASSERT_TRUE(two && three);
    ASSERT_NEAR(two->pose().x(), x2(s.t), 0.01) << "yellow 2 at " << s.t;
    ASSERT_NEAR(three->pose().x(), x3(s.t), 0.01) << "yellow 3 at " << s.t;
    ASSERT_NEAR(two->pose().y(), 0.04, 0.01) << "yellow 2 at " << s.t;
    ASSERT_NEAR(three->pose().y(), -0.04, 0.01) << "yellow 3 at " << s.t;
    ASSERT_DOUBLE_EQ(two->t_observed(), s.t);  // updated, not coasting
    ASSERT_DOUBLE_EQ(three->t_observed(), s.t);
  }
  // Both kept their velocities through the crossing, ids or not.
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  EXPECT_NEAR(find_robot(w.opponents(), 2)->velocity().x(), 0.8, 0.1);
  EXPECT_NEAR(find_robot(w.opponents(), 3)->velocity().x(), -0.8, 0.1);
}

TEST(WorldTracker, IdlessDetectionsAfterAnOcclusionGoToTheNearestTracks) {
  // Yellow 2 and 3 stand 15 cm apart, then are hidden for 0.6 s: both gates
  // grow until each detection could be either robot. Nearest first, each
  // still goes to its own.
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  for (int k = 0; k < 25; ++k) {
    s.t = 0.02 * k;
    msg::DetectionFrame f = frame_of(s);
    add_robot(f, msg::YELLOW, 2, 0.5, 0.3, 0.0);
    add_robot(f, msg::YELLOW, 3, 0.65, 0.3, 0.0);
    tracker.observe(filter.to_percept(f));
  }
  s.t += 0.6;
  msg::DetectionFrame f = frame_of(s);
  add_robot(f, msg::YELLOW, 0, 0.63, 0.31, 0.0);  // 3, moved a little
  add_robot(f, msg::YELLOW, 0, 0.53, 0.3, 0.0);   // 2, moved a little
  tracker.observe(filter.to_percept(f));
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  ASSERT_EQ(w.opponents_size(), 2);
  EXPECT_NEAR(find_robot(w.opponents(), 2)->pose().x(), 0.53, 0.01);
  EXPECT_NEAR(find_robot(w.opponents(), 3)->pose().x(), 0.63, 0.01);
}

TEST(WorldTracker, IdlessDetectionWithoutATrackMakesNoRobotAndOursIsNotPinnedOnATeammate) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  for (int k = 0; k < 20; ++k) {
    s.t = 0.02 * k;
    msg::DetectionFrame f = frame_of(s);  // blue 1 (us) at the origin
    add_robot(f, msg::BLUE, 2, 0.09, 0.0, 0.0);  // a teammate 9 cm away
    if (k >= 10) {
      add_robot(f, msg::BLUE, 0, 0.002, 0.0, 2.0);  // ourselves again, id not decoded
      add_robot(f, msg::YELLOW, 0, -0.7, 0.5, 0.0);  // an opponent nobody tracks
      f.mutable_robots_blue()->SwapElements(1, 2);   // listed before the teammate
    }
    tracker.observe(filter.to_percept(f));
  }
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  EXPECT_EQ(w.opponents_size(), 0);  // not "yellow 0"
  ASSERT_EQ(w.teammates_size(), 1);
  EXPECT_EQ(w.teammates(0).robot_id(), 2u);
  EXPECT_NEAR(w.teammates(0).pose().x(), 0.09, 1e-3);
}

// Blue 3 has lost itself and reports itself at (0, -0.5) every cycle; our
// camera sees an id-less blue robot at (0, 0.3), where blue 3 really is, and
// blue 2 by its id at (0.4, 0.3). Our track of blue 3, held by its reports,
// gates the sighting out; seen in three frames in a row, the sighting takes
// that track over, and blue 3's reports no longer move it while we see it.
// Blue 2, nearer but confirmed by our camera, stays. Two frames are not
// enough.
TEST(WorldTracker, AnUnclaimedSightingOfOurTeamTakesOverTheTrackOnlyReportsHold) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  auto report = [](double t) {
    msg::WorldEstimate w;
    w.set_team(msg::BLUE);
    w.set_robot_id(3);
    w.set_t(t);
    auto* self = w.mutable_self();
    self->set_team(msg::BLUE);
    self->set_robot_id(3);
    self->mutable_pose()->set_x(0.0);
    self->mutable_pose()->set_y(-0.5);
    self->mutable_pose()->set_theta(1.0);
    self->set_t_observed(t);
    return w;
  };
  Scene s;
  s.ball_visible = false;
  s.self_x = -0.6;
  for (int k = 0; k < 20; ++k) {
    s.t = 0.02 * k;
    tracker.fuse(report(s.t));
    msg::DetectionFrame f = frame_of(s);
    add_robot(f, msg::BLUE, 2, 0.4, 0.3, 0.0);
    if (k >= 10) add_robot(f, msg::BLUE, 0, 0.0, 0.3, 0.0);
    tracker.observe(filter.to_percept(f));
    const msg::WorldEstimate w = tracker.estimate(0, s.t);
    const msg::RobotEstimate* three = find_robot(w.teammates(), 3);
    const msg::RobotEstimate* two = find_robot(w.teammates(), 2);
    ASSERT_NE(three, nullptr);
    ASSERT_NE(two, nullptr);
    EXPECT_NEAR(two->pose().x(), 0.4, 1e-3) << "frame " << k;
    if (k < 12) {
      EXPECT_NEAR(three->pose().y(), -0.5, 0.01) << "frame " << k;
    } else {
      EXPECT_NEAR(three->pose().x(), 0.0, 0.01) << "frame " << k;
      EXPECT_NEAR(three->pose().y(), 0.3, 0.01) << "frame " << k;
      EXPECT_NEAR(three->pose().theta(), 1.0, 0.05) << "the sighting's heading is not trusted";
    }
  }
}

TEST(WorldTracker, IdlessDetectionUpdatesItsTrackWithoutUsingItsHeading) {
  WorldTracker tracker(msg::BLUE, 1, mirosot());
  DetectionFilter filter(msg::BLUE, 1);
  Scene s;
  s.ball_visible = false;
  for (int k = 0; k < 60; ++k) {
    s.t = 0.02 * k;
    msg::DetectionFrame f = frame_of(s);
    // Yellow 3 creeps forward at 5 cm/s, heading 0.5; after 10 frames its
    // id is lost and the detector's heading is a guess (pi off).
    add_robot(f, msg::YELLOW, k < 10 ? 3 : 0, 0.5 + 0.001 * k * std::cos(0.5), 0.2 + 0.001 * k * std::sin(0.5),
              k < 10 ? 0.5 : 0.5 + kPi);
    tracker.observe(filter.to_percept(f));
  }
  const msg::WorldEstimate w = tracker.estimate(0, s.t);
  ASSERT_EQ(w.opponents_size(), 1);
  EXPECT_NEAR(w.opponents(0).pose().x(), 0.5 + 0.059 * std::cos(0.5), 0.003);  // followed
  EXPECT_NEAR(w.opponents(0).pose().theta(), 0.5, 0.1);               // heading kept
  EXPECT_NEAR(w.opponents(0).t_observed(), s.t, 1e-9);
}

TEST(WorldTracker, OnboardBallNoiseGrowsWithDistance) {
  // An MSL robot's camera: error |p| eps, eps ~ N(0, 0.01^2) per axis
  // (sim.onboard_camera.noise_per_metre). OnboardFilter states that noise on
  // each detection; the tracker weighs the ball by it.
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  const double per_metre = msl.sim().onboard_camera().noise_per_metre();
  ASSERT_GT(per_metre, 0.0);
  struct Result {
    double tracked_rms = 0, raw_rms = 0, reported_sd = 0, first_sd = 0;
    int resets = 0;
  };
  // A still ball `distance` ahead of a robot at the origin, 100 frames.
  // The camera's noise alone here: our own pose (odometry at the origin) is
  // taken as exact.
  TrackerParams exact_self;
  exact_self.dead_reckoned_position_sd = exact_self.dead_reckoned_heading_sd = 0.0;
  auto run = [&](double distance, bool state_noise) {
    WorldTracker tracker(msg::BLUE, 1, msl.league(), exact_self);
    OnboardFilter filter(msg::BLUE, 1, msl.league(), state_noise ? per_metre : 0.0);
    msg::Odometry odometry;
    filter.on_odometry(odometry);  // at the origin, facing +x
    std::mt19937 rng(21);
    std::normal_distribution<double> eps(0.0, per_metre);
    Result r;
    double tracked_sq = 0, raw_sq = 0;
    Eigen::Vector2d last(0, 0);
    for (int k = 0; k < 100; ++k) {
      msg::OnboardFrame f;
      f.set_t_capture(0.02 * k);
      f.set_team(msg::BLUE);
      f.set_robot_id(1);
      auto* b = f.add_balls();
      const double ex = distance * eps(rng), ey = distance * eps(rng);
      b->mutable_position()->set_x(distance + ex);
      b->mutable_position()->set_y(ey);
      const msg::Percept p = filter.to_percept(f);
      if (state_noise) {
        EXPECT_NEAR(p.balls(0).position_sd(), per_metre * std::hypot(distance + ex, ey), 1e-12);
      }
      tracker.observe(p);
      const msg::WorldEstimate w = tracker.estimate(k, f.t_capture());
      const Eigen::Vector2d est(w.ball().position().x(), w.ball().position().y());
      if (k == 0) r.first_sd = std::sqrt(w.ball().covariance(0));
      if (k > 0 && (est - last).norm() > 0.5 * distance * per_metre * 3) ++r.resets;
      last = est;
      if (k >= 20) {
        tracked_sq += (est - Eigen::Vector2d(distance, 0)).squaredNorm();
        raw_sq += ex * ex + ey * ey;
        r.reported_sd = std::sqrt(w.ball().covariance(0));
      }
    }
    r.tracked_rms = std::sqrt(tracked_sq / 80);
    r.raw_rms = std::sqrt(raw_sq / 80);
    return r;
  };
  const Result far = run(7.0, true), near = run(1.0, true), far_fixed = run(7.0, false);
  // Seven times as far: a first sighting seven times as uncertain (up to the
  // noise in the distance itself); after averaging a still ball for 2 s still
  // several times (a random-walk model's steady state goes with sqrt(R)).
  EXPECT_NEAR(far.first_sd / near.first_sd, 7.0, 0.3);
  EXPECT_GT(far.reported_sd / near.reported_sd, 2.5);
  // Told its noise, the tracker averages a still ball: well under a raw
  // detection's error, and about as far off as it says it is.
  EXPECT_LT(far.tracked_rms, 0.5 * far.raw_rms);
  EXPECT_LT(far.tracked_rms, 3.0 * far.reported_sd);
  EXPECT_GT(far.tracked_rms, far.reported_sd / 3.0);
  // With the fixed 5 mm the 7 cm scatter looks like kicks: it jumps after
  // the detections (gated out, then re-initialised) instead of averaging.
  EXPECT_GT(far_fixed.tracked_rms, 2.0 * far.tracked_rms);
}

TEST(WorldTracker, ObjectsSeenFromADeadReckonedPoseInheritItsUncertainty) {
  // A dead-reckoned self pose is known to dead_reckoned_position_sd and
  // _heading_sd; a ball 6 m straight ahead is then uncertain by that
  // position along and across the line of sight, and by 6 m x the heading's
  // sd across it, on top of the camera's own noise.
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  WorldTracker tracker(msg::BLUE, 1, msl.league());
  OnboardFilter filter(msg::BLUE, 1, msl.league(), 0.01);
  msg::Odometry odometry;
  odometry.mutable_pose()->set_theta(kPi / 2);  // facing +y: the line of sight is the field's y
  filter.on_odometry(odometry);
  msg::OnboardFrame f;
  f.set_team(msg::BLUE);
  f.set_robot_id(1);
  f.mutable_balls()->Add()->mutable_position()->set_x(6.0);
  tracker.observe(filter.to_percept(f));
  const msg::WorldEstimate w = tracker.estimate(0, 0.0);
  ASSERT_TRUE(w.ball().valid());
  EXPECT_NEAR(w.ball().position().y(), 6.0, 1e-9);
  const TrackerParams& p = tracker.params();
  const double camera = 0.01 * 6.0, position = p.dead_reckoned_position_sd, heading = 6.0 * p.dead_reckoned_heading_sd;
  EXPECT_NEAR(w.ball().covariance(5), camera * camera + position * position, 1e-9);                     // along: y
  EXPECT_NEAR(w.ball().covariance(0), camera * camera + position * position + heading * heading, 1e-9);  // across: x
}

}  // namespace
}  // namespace robocaf::actors

namespace robocaf::actors {
namespace {

msg::Percept onboard_self(double t, double x, double y, double theta) {
  msg::Percept p;
  p.set_t_capture(t);
  p.set_team(msg::BLUE);
  p.set_robot_id(5);
  p.set_self_dead_reckoned(true);
  p.mutable_self_pose()->set_x(x);
  p.mutable_self_pose()->set_y(y);
  p.mutable_self_pose()->set_theta(theta);
  return p;
}

// A robot backing away at 1 m/s is moved 8 m by the referee; perception's
// localiser finds it there a second later (MSL seed 11). The self track
// then follows perception's pose, speed and heading; explaining the jump
// with speed had driven the turn rate past pi per cycle, and the heading
// flipped by about pi every cycle for the rest of the match.
TEST(WorldTracker, SelfTrackFollowsTheLocaliserAfterItFindsItselfElsewhere) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  for (const bool restart : {true, false}) {
    SCOPED_TRACE(restart ? "restarting" : "limits only");
    TrackerParams params;
    if (!restart) params.self_restart_distance = params.self_restart_heading = 1e9;
    WorldTracker tracker(msg::BLUE, 5, msl.league(), params);
    const double heading = -0.55, speed = -1.0;  // backing away
    double t = 0.0, x = 7.5, y = 0.0;
    for (int i = 0; i < 100; ++i, t += 0.02) {
      tracker.observe(onboard_self(t, x, y, heading + 0.2 * std::sin(3.0 * t)));
      x += speed * std::cos(heading) * 0.02;
      y += speed * std::sin(heading) * 0.02;
    }
    x = -1.5;
    y = -1.9;
    double worst_heading = 0.0, worst_position = 0.0, worst_speed = 0.0;
    for (int i = 0; i < 150; ++i, t += 0.02) {
      tracker.observe(onboard_self(t, x, y, heading));
      const msg::WorldEstimate w = tracker.estimate(0, t);
      if (i >= 50) {
        worst_heading = std::max(worst_heading, std::abs(runtime::wrap_angle(w.self().pose().theta() - heading)));
        worst_position = std::max(worst_position, std::hypot(w.self().pose().x() - x, w.self().pose().y() - y));
        worst_speed = std::max(worst_speed, std::abs(std::hypot(w.self().velocity().x(), w.self().velocity().y()) -
                                                     std::abs(speed)));
      }
      EXPECT_LE(std::abs(w.self().omega()), 1.5 * msl.league().robot().max_omega() + 1e-9);
      x += speed * std::cos(heading) * 0.02;
      y += speed * std::sin(heading) * 0.02;
    }
    EXPECT_LT(worst_heading, 0.02);
    EXPECT_LT(worst_position, 0.02);
    EXPECT_LT(worst_speed, 0.1);
  }
}

// Perception's localiser, coasting on odometry with no line in view, grows
// its covariance. The estimate passes its sd on (the worse axis of the
// newest percept), which is what the skills judge being lost by.
TEST(WorldTracker, PassesTheSelfLocalisersUncertaintyOn) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  WorldTracker tracker(msg::BLUE, 5, msl.league());
  double t = 0.0;
  for (int i = 0; i < 100; ++i, t += 0.02) {
    msg::Percept p = onboard_self(t, 1.0 + 0.01 * i, 2.0, 0.0);
    const double sd = 0.01 + 0.005 * i;  // 1 cm growing to 50 cm
    for (double c : {sd * sd, 0.0, 0.0, 0.0, 0.5 * sd * sd, 0.0, 0.0, 0.0, 0.01}) p.add_self_covariance(c);
    tracker.observe(p);
  }
  const msg::WorldEstimate w = tracker.estimate(0, t);
  EXPECT_NEAR(w.self_localisation_sd(), 0.01 + 0.005 * 99, 1e-9) << "the worse axis of the newest percept";
  // A global camera's sighting comes without one.
  WorldTracker overhead(msg::BLUE, 5, msl.league());
  msg::Percept seen = onboard_self(0.0, 1.0, 2.0, 0.0);
  seen.set_self_dead_reckoned(false);
  seen.set_self_seen(true);
  overhead.observe(seen);
  EXPECT_EQ(overhead.estimate(0, 0.0).self_localisation_sd(), 0.0);
}

// What the bumper touches reaches the skills: the odometry's bumper
// directions go into every percept perception makes after it, and the
// estimate carries the newest percept's for contacts_keep, no longer.
TEST(WorldTracker, PassesWhatTheBumperTouchesOnWhileItIsRecent) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  OnboardFilter filter(msg::BLUE, 5, msl.league(), 0.01);
  WorldTracker tracker(msg::BLUE, 5, msl.league());
  msg::Odometry odometry;
  odometry.set_t(0.0);
  odometry.mutable_pose()->set_x(1.0);
  msg::Vec2* side = odometry.add_bumper();  // an opponent on the left, 60 degrees off the heading
  side->set_x(0.5);
  side->set_y(std::sqrt(0.75));
  msg::Vec2* unnormalised = odometry.add_bumper();  // a wall behind, as a longer vector
  unnormalised->set_x(-2.0);
  filter.on_odometry(odometry);
  msg::OnboardFrame frame;
  frame.set_team(msg::BLUE);
  frame.set_robot_id(5);
  frame.set_t_capture(0.0);
  const msg::Percept percept = filter.to_percept(frame);
  ASSERT_EQ(percept.contacts_size(), 2);
  tracker.observe(percept);
  // A non-finite contact spoils the whole percept, like any other number.
  msg::Percept bad = percept;
  bad.set_t_capture(0.02);
  bad.mutable_contacts(0)->set_x(std::nan(""));
  tracker.observe(bad);

  const msg::WorldEstimate now = tracker.estimate(0, 0.05);
  ASSERT_EQ(now.self_contacts_size(), 2);
  EXPECT_NEAR(now.self_contacts(0).x(), 0.5, 1e-9);
  EXPECT_NEAR(now.self_contacts(0).y(), std::sqrt(0.75), 1e-9);
  EXPECT_NEAR(now.self_contacts(1).x(), -1.0, 1e-9) << "unit vectors";
  EXPECT_EQ(tracker.estimate(0, tracker.params().contacts_keep + 0.01).self_contacts_size(), 0) << "old news";

  // Free again: the next odometry touches nothing, and nor do the percepts after it.
  odometry.clear_bumper();
  filter.on_odometry(odometry);
  frame.set_t_capture(0.06);
  tracker.observe(filter.to_percept(frame));
  EXPECT_EQ(tracker.estimate(0, 0.07).self_contacts_size(), 0);
}

// An onboard camera's view: MSL's 1.2 rad, 8 m.
TrackerParams onboard_view() {
  TrackerParams p;
  p.view_fov = 1.2;
  p.view_range = 8.0;
  return p;
}

// Our robot 5 at the origin facing `heading`, seeing the `opponents` and
// `teammates` listed at their field positions (robot frame = field frame
// turned by heading).
msg::Percept looking(double t, double heading, const std::vector<std::pair<uint32_t, Eigen::Vector2d>>& opponents,
                     const std::vector<std::pair<uint32_t, Eigen::Vector2d>>& teammates = {}) {
  msg::Percept p = onboard_self(t, 0.0, 0.0, heading);
  const double c = std::cos(heading), s = std::sin(heading);
  auto add = [&](msg::PerceivedObject* o, uint32_t id, const Eigen::Vector2d& at) {
    o->set_robot_id(id);
    o->mutable_position()->set_x(c * at.x() + s * at.y());
    o->mutable_position()->set_y(-s * at.x() + c * at.y());
    o->set_orientation(-heading);
  };
  for (const auto& [id, at] : opponents) add(p.add_opponents(), id, at);
  for (const auto& [id, at] : teammates) add(p.add_teammates(), id, at);
  return p;
}

// A scorer backing home from the goal it scored in does not see the
// opponents behind it (MSL: dropped after a second, they were not in the
// estimate when it ran into them).
TEST(WorldTracker, AnOpponentOutOfViewIsRememberedStandingUntilItsPlaceIsSeenEmpty) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  for (const bool remembering : {true, false}) {
    SCOPED_TRACE(remembering ? "onboard view" : "no view given");
    WorldTracker tracker(msg::BLUE, 5, msl.league(), remembering ? onboard_view() : TrackerParams{});
    const Eigen::Vector2d standing(2.0, 0.5);
    double t = 0.0;
    for (int i = 0; i < 50; ++i, t += 0.02) tracker.observe(looking(t, 0.0, {{3, standing}}));
    // Turned about: it lies behind us.
    for (int i = 0; i < 125; ++i, t += 0.02) tracker.observe(looking(t, 3.0, {}));
    const msg::WorldEstimate behind = tracker.estimate(0, t);
    if (!remembering) {
      EXPECT_EQ(behind.opponents_size(), 0) << "dropped after robot_lost_after, as before";
      continue;
    }
    ASSERT_GT(t - 0.98, tracker.params().robot_lost_after);
    ASSERT_EQ(behind.opponents_size(), 1);
    EXPECT_NEAR(behind.opponents(0).pose().x(), standing.x(), 0.02);
    EXPECT_NEAR(behind.opponents(0).pose().y(), standing.y(), 0.02);
    EXPECT_EQ(behind.opponents(0).velocity().x(), 0.0);
    // Facing it again, and it is not there: gone within view_absent_seconds
    // and a cycle, not before.
    const double t_look = t;
    double forgotten = -1.0;
    for (int i = 0; i < 50 && forgotten < 0.0; ++i, t += 0.02) {
      tracker.observe(looking(t, 0.0, {}));
      if (tracker.estimate(0, t).opponents_size() == 0) forgotten = t - t_look;
    }
    EXPECT_GE(forgotten, tracker.params().view_absent_seconds - 1e-9);
    EXPECT_LE(forgotten, tracker.params().view_absent_seconds + 0.03);
    // A teammate's older news of it does not bring it back; newer news does.
    msg::WorldEstimate share;
    share.set_team(msg::BLUE);
    share.set_robot_id(2);
    share.set_t(t);
    auto* old = share.add_opponents();
    old->set_team(msg::YELLOW);
    old->set_robot_id(3);
    old->mutable_pose()->set_x(standing.x());
    old->mutable_pose()->set_y(standing.y());
    old->set_t_observed(0.98);
    tracker.fuse(share);
    EXPECT_EQ(tracker.estimate(0, t).opponents_size(), 0);
    old->set_t_observed(t);
    old->mutable_pose()->set_x(-3.0);
    tracker.fuse(share);
    EXPECT_EQ(tracker.estimate(0, t).opponents_size(), 1);
  }
}

TEST(WorldTracker, AnOpponentOutOfViewIsForgottenAfterTheKeepTime) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  WorldTracker tracker(msg::BLUE, 5, msl.league(), onboard_view());
  double t = 0.0;
  for (int i = 0; i < 50; ++i, t += 0.02) tracker.observe(looking(t, 0.0, {{3, Eigen::Vector2d(2.0, 0.0)}}));
  const double last_seen = t - 0.02, keep = tracker.params().opponent_out_of_view_keep;
  for (; t < last_seen + keep - 0.05; t += 0.02) tracker.observe(looking(t, 3.0, {}));
  EXPECT_EQ(tracker.estimate(0, t).opponents_size(), 1);
  for (; t < last_seen + keep + 0.05; t += 0.02) tracker.observe(looking(t, 3.0, {}));
  EXPECT_EQ(tracker.estimate(0, t).opponents_size(), 0);
}

TEST(WorldTracker, AnOpponentHiddenBehindAnotherRobotOrAtTheViewsEdgeIsNotForgotten) {
  const msg::MatchConfig msl = runtime::preset_match_config("msl");
  WorldTracker tracker(msg::BLUE, 5, msl.league(), onboard_view());
  const Eigen::Vector2d far(4.0, 0.0), edge(3.0 * std::cos(0.58), 3.0 * std::sin(0.58));
  double t = 0.0;
  for (int i = 0; i < 50; ++i, t += 0.02)
    tracker.observe(looking(t, 0.0, {{3, far}, {4, edge}}, {{2, Eigen::Vector2d(2.0, 0.1)}}));
  // Our teammate 2 stands in the line of sight to 3; 4 is 0.02 rad inside
  // the view's edge, where our own heading's error may put it outside.
  for (int i = 0; i < 50; ++i, t += 0.02) tracker.observe(looking(t, 0.0, {}, {{2, Eigen::Vector2d(2.0, 0.1)}}));
  const msg::WorldEstimate w = tracker.estimate(0, t);
  EXPECT_NE(find_robot(w.opponents(), 3), nullptr) << "hidden behind our teammate";
  EXPECT_NE(find_robot(w.opponents(), 4), nullptr) << "at the view's edge";
  // In the middle of the view, in the open: forgotten.
  WorldTracker open(msg::BLUE, 5, msl.league(), onboard_view());
  t = 0.0;
  for (int i = 0; i < 50; ++i, t += 0.02) open.observe(looking(t, 0.0, {{3, far}}));
  for (int i = 0; i < 50; ++i, t += 0.02) open.observe(looking(t, 0.0, {}));
  EXPECT_EQ(open.estimate(0, t).opponents_size(), 0);
}

}  // namespace
}  // namespace robocaf::actors
