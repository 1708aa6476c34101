#include "runtime/message_types.hpp"

#include <caf/actor_system_config.hpp>

#include "messages/commands.pb.h"
#include "messages/game.pb.h"
#include "messages/health.pb.h"
#include "messages/log.pb.h"
#include "messages/runtime.pb.h"
#include "messages/telemetry.pb.h"
#include "messages/vision.pb.h"
#include "messages/world.pb.h"
#include "runtime/proto_inspect.hpp"

namespace robocaf::runtime {

namespace {

template <class... Ts>
void add_protos(caf::actor_system_config& cfg) {
  // The full protobuf name is the portable CAF type name: nodes agree on it
  // without any table of our own.
  (cfg.add_message_type<Ts>(Ts::descriptor()->full_name()), ...);
}

}  // namespace

void add_message_types(caf::actor_system_config& cfg) {
  add_protos<msg::DetectionFrame, msg::Percept, msg::WorldEstimate, msg::WorldTruth,
             msg::MotionCommand, msg::RobotCommand, msg::Odometry, msg::SkillCommand,
             msg::GameState, msg::RefereeEvent, msg::RoleAssignment, msg::CoachCommand,
             msg::PlayerInstruction, msg::ManualRefereeCommand, msg::ActorAddress, msg::Ready,
             msg::Heartbeat, msg::HeartbeatAck, msg::HealthReport, msg::FaultInjection,
             msg::NodeIdentity, msg::Registration, msg::Roster, msg::CycleDone,
             msg::Telemetry, msg::OnboardFrame, msg::ScenarioResult, msg::CameraImage, msg::SelfBelief,
             msg::SkillIntent>(cfg);
}

}  // namespace robocaf::runtime
