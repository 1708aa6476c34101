// The perception actor on a real CAF actor system: with images arriving faster
// than it detects, the newest image wins and the stale ones are dropped
// instead of queueing up behind it.
#include "actors/perception/perception_actor.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/actor_setup.hpp"
#include "messages/commands.pb.h"
#include "messages/health.pb.h"
#include "messages/runtime.pb.h"
#include "messages/vision.pb.h"
#include "runtime/actor_address.hpp"
#include "runtime/atoms.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/directory.hpp"
#include "runtime/message_types.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"

namespace robocaf::actors {
namespace {

struct Config : caf::actor_system_config {
  Config() { runtime::add_message_types(*this); }
};

using runtime::make_address;

// Stands in for blue 1's world knowledge: registers at its address and hands
// every percept to the test.
caf::behavior percept_sink(caf::event_based_actor* self, caf::actor directory, caf::actor test) {
  self->request(directory, std::chrono::seconds(5), runtime::register_atom::value,
                make_address(msg::BLUE, 1, msg::ACTOR_WORLD_KNOWLEDGE), caf::actor_cast<caf::actor>(self))
      .then([](const msg::Roster&, const std::vector<caf::actor>&) {});
  return {
      [=](const msg::Percept& percept) { self->send(test, percept); },
      [](const msg::Roster&, const std::vector<caf::actor>&) {},
  };
}

// Every percept that arrives until none has come for `quiet`.
std::vector<msg::Percept> drain_percepts(caf::scoped_actor& self, std::chrono::milliseconds quiet) {
  std::vector<msg::Percept> percepts;
  bool more = true;
  while (more) {
    self->receive([&](const msg::Percept& p) { percepts.push_back(p); },
                  caf::after(quiet) >> [&] { more = false; });
  }
  return percepts;
}

// Blue 1's perception actor of a preset's match on a real actor system,
// with a directory and the percept sink; every actor is stopped on
// destruction (the actor system waits for its actors, also after a failed
// assertion).
struct PerceptionUnderTest {
  explicit PerceptionUnderTest(const std::string& preset) : match(runtime::preset_match_config(preset)) {
    directory = runtime::spawn_directory(system, 5);
    msg::NodeIdentity node;
    node.set_name("test");
    node.set_team(msg::BLUE);
    node.add_robot_ids(1);
    self->request(directory, std::chrono::seconds(5), runtime::join_atom::value, node)
        .receive([](caf::atom_value) {}, [](caf::error&) { ADD_FAILURE() << "directory refused the test node"; });
    sink = system.spawn(percept_sink, directory, caf::actor_cast<caf::actor>(self));
    ActorSetup setup;
    setup.shell.address = make_address(msg::BLUE, 1, msg::ACTOR_PERCEPTION);
    setup.shell.directory = directory;
    setup.match = match;
    perception = spawn_perception(system, setup);
  }
  ~PerceptionUnderTest() {
    for (auto& actor : {perception, sink, directory}) caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
  }

  Config config;
  caf::actor_system system{config};
  caf::scoped_actor self{system};
  msg::MatchConfig match;
  caf::actor directory, sink, perception;
};

TEST(PerceptionActor, DetectsOnlyTheNewestOfTheImagesThatQueuedWhileItWasBusy) {
  PerceptionUnderTest under_test("mirosot");
  auto& self = under_test.self;
  const msg::MatchConfig& match = under_test.match;
  caf::actor perception = under_test.perception;

  // Blue 1 (its perception places what it sees relative to itself) and the
  // ball; frame n has the ball at x = 0.1 n.
  const sim::camera::OverheadImageRenderer renderer(match.league(), match.sim().global_camera(), 7);
  auto image_with_ball_at = [&](uint64_t n) {
    msg::WorldTruth truth;
    truth.mutable_ball_position()->set_x(0.1 * static_cast<double>(n));
    auto* robot = truth.add_robots();
    robot->set_team(msg::BLUE);
    robot->set_robot_id(1);
    robot->mutable_pose()->set_x(-0.5);
    const cv::Mat pixels = renderer.render(truth, n);
    msg::CameraImage image;
    image.set_frame_number(n);
    image.set_cycle(n);
    image.set_t_capture(0.02 * static_cast<double>(n));
    image.set_width(static_cast<uint32_t>(pixels.cols));
    image.set_height(static_cast<uint32_t>(pixels.rows));
    image.set_bgr(std::string(reinterpret_cast<const char*>(pixels.data), pixels.total() * pixels.elemSize()));
    *image.mutable_calibration() = renderer.calibration();
    return image;
  };
  std::vector<msg::CameraImage> images;
  for (uint64_t n = 1; n <= 3; ++n) images.push_back(image_with_ball_at(n));

  // Wait until perception knows where its world knowledge is: an image
  // answered with a percept proves it.
  bool connected = false;
  for (int attempt = 0; attempt < 50 && !connected; ++attempt) {
    self->send(perception, images[0]);
    self->receive_while([&] { return !connected; })(
        [&](const msg::Percept&) { connected = true; },
        caf::after(std::chrono::milliseconds(100)) >> [] {});
  }
  ASSERT_TRUE(connected);
  drain_percepts(self, std::chrono::milliseconds(200));  // leftovers of the warm-up

  // Perception busy for 0.3 s while three images arrive behind the hang.
  msg::FaultInjection hang;
  hang.set_fault(msg::FaultInjection::FAULT_HANG);
  hang.set_hang_seconds(0.3);
  self->send(perception, hang);
  for (const auto& image : images) self->send(perception, image);

  const std::vector<msg::Percept> percepts = drain_percepts(self, std::chrono::milliseconds(1500));
  ASSERT_EQ(percepts.size(), 1u) << "every image was detected: they queued instead of the newest winning";
  EXPECT_EQ(percepts[0].cycle(), 3u);
  ASSERT_TRUE(percepts[0].self_seen());
  ASSERT_EQ(percepts[0].balls_size(), 1);
  // In blue 1's frame (at x = -0.5, facing +x) the newest ball is 0.8 m ahead.
  EXPECT_NEAR(percepts[0].balls(0).position().x(), 0.8, 0.01);
}

// MSL: the robot's own camera image (robot-frame calibration) with
// odometry. An image whose pixels do not fit its calibration is dropped with
// an error and the actor carries on: the next good image gives a percept
// with the ball ahead and the robot's pose from odometry, corrected by the
// goal it sees.
TEST(PerceptionActor, OnboardImagesGiveEgocentricPerceptsAndABadOneIsSkipped) {
  PerceptionUnderTest under_test("msl");
  auto& self = under_test.self;
  const msg::MatchConfig& match = under_test.match;
  caf::actor perception = under_test.perception;

  // Blue 1 at (4, 0.5) facing the +x goal 5 m off, the ball 2 m ahead.
  const sim::camera::OnboardImageRenderer renderer(match.league(), match.sim().onboard_camera(), 7);
  msg::WorldTruth truth;
  truth.mutable_ball_position()->set_x(6.0);
  truth.mutable_ball_position()->set_y(0.5);
  auto* robot = truth.add_robots();
  robot->set_team(msg::BLUE);
  robot->set_robot_id(1);
  robot->mutable_pose()->set_x(4.0);
  robot->mutable_pose()->set_y(0.5);
  const cv::Mat pixels = renderer.render(truth, msg::BLUE, 1, 1);
  msg::CameraImage image;
  image.set_frame_number(1);
  image.set_cycle(1);
  image.set_width(static_cast<uint32_t>(pixels.cols));
  image.set_height(static_cast<uint32_t>(pixels.rows));
  image.set_bgr(std::string(reinterpret_cast<const char*>(pixels.data), pixels.total() * pixels.elemSize()));
  *image.mutable_calibration() = renderer.calibration_for(msg::Pose2());
  image.set_robot_frame(true);
  // Odometry 0.3 m off in y: the goal's posts pull the pose back.
  msg::Odometry odometry;
  odometry.mutable_pose()->set_x(4.0);
  odometry.mutable_pose()->set_y(0.8);

  // Half the size its calibration says: the detector refuses it.
  msg::CameraImage bad = image;
  bad.set_width(image.width() / 2);
  bad.set_height(image.height() / 2);
  bad.set_bgr(image.bgr().substr(0, image.bgr().size() / 4));

  bool connected = false;
  for (int attempt = 0; attempt < 50 && !connected; ++attempt) {
    self->send(perception, odometry);
    self->send(perception, bad);
    self->send(perception, image);
    self->receive_while([&] { return !connected; })(
        [&](const msg::Percept&) { connected = true; },
        caf::after(std::chrono::milliseconds(100)) >> [] {});
  }
  ASSERT_TRUE(connected) << "no percept: the bad image took the actor down, or the good one was not detected";
  drain_percepts(self, std::chrono::milliseconds(200));
  for (int k = 0; k < 5; ++k) {
    self->send(perception, bad);
    self->send(perception, image);
  }
  const std::vector<msg::Percept> percepts = drain_percepts(self, std::chrono::milliseconds(1500));
  ASSERT_FALSE(percepts.empty());
  const msg::Percept& last = percepts.back();
  ASSERT_EQ(last.balls_size(), 1);
  EXPECT_NEAR(last.balls(0).position().x(), 2.0, 0.05);
  EXPECT_NEAR(last.balls(0).position().y(), 0.0, 0.05);
  ASSERT_TRUE(last.has_self_pose());
  EXPECT_TRUE(last.self_dead_reckoned());
  EXPECT_NEAR(last.self_pose().y(), 0.5, 0.1) << "the goal posts corrected odometry to the truth";
}

}  // namespace
}  // namespace robocaf::actors
