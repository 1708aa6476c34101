// The generic protobuf inspect: what crosses a node boundary is the message's
// wire bytes, and bytes that do not parse become an error, not a crash.
#include "runtime/proto_inspect.hpp"

#include <gtest/gtest.h>

#include <caf/all.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "messages/vision.pb.h"
#include "runtime/message_types.hpp"

namespace robocaf::runtime {
namespace {

struct Config : caf::actor_system_config {
  Config() { runtime::add_message_types(*this); }
};

msg::DetectionFrame sample_frame() {
  msg::DetectionFrame frame;
  frame.set_frame_number(42);
  frame.set_t_capture(1.25);
  auto* ball = frame.add_balls();
  ball->set_x(0.3);
  ball->set_y(-0.2);
  auto* robot = frame.add_robots_blue();
  robot->set_robot_id(3);
  robot->set_orientation(1.0);
  return frame;
}

TEST(ProtoInspect, RoundTripsThroughCafSerialization) {
  Config config;
  caf::actor_system system{config};
  std::vector<char> buffer;
  caf::binary_serializer sink{system, buffer};
  msg::DetectionFrame sent = sample_frame();
  ASSERT_FALSE(sink(sent));
  msg::DetectionFrame received;
  caf::binary_deserializer source{system, buffer};
  ASSERT_FALSE(source(received));
  EXPECT_EQ(received.SerializeAsString(), sent.SerializeAsString());
}

TEST(ProtoInspect, MalformedBytesAreAnErrorNamingTheMessageType) {
  Config config;
  caf::actor_system system{config};
  std::vector<char> buffer;
  caf::binary_serializer sink{system, buffer};
  // What a broken or hostile peer might send: field 5 (balls) announcing 80
  // bytes that never come.
  ASSERT_FALSE(sink(std::string("\x2a\x50\x01", 3)));
  msg::DetectionFrame received;
  caf::binary_deserializer source{system, buffer};
  caf::error err = source(received);
  ASSERT_TRUE(err);
  EXPECT_NE(system.render(err).find("DetectionFrame"), std::string::npos) << system.render(err);
}

TEST(ProtoInspect, AMessageTravelsInsideACafMessage) {
  Config config;
  caf::actor_system system{config};
  caf::message boxed = caf::make_message(sample_frame());
  std::vector<char> buffer;
  caf::binary_serializer sink{system, buffer};
  ASSERT_FALSE(sink(boxed));
  caf::message unboxed;
  caf::binary_deserializer source{system, buffer};
  ASSERT_FALSE(source(unboxed));
  ASSERT_TRUE(unboxed.match_elements<msg::DetectionFrame>());
  EXPECT_EQ(unboxed.get_as<msg::DetectionFrame>(0).frame_number(), 42u);
}

}  // namespace
}  // namespace robocaf::runtime
