#include "actors/world_knowledge/world_tracker.hpp"

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "actors/perception/detection_filter.hpp"
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

}  // namespace
}  // namespace robocaf::actors
