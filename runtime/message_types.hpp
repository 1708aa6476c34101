#pragma once

namespace caf {
class actor_system_config;
}

namespace robocaf::runtime {

/// Registers every protobuf message of messages/*.proto with CAF so actors can
/// exchange them in one process or across nodes. Call once per actor_system_config.
void add_message_types(caf::actor_system_config& cfg);

}  // namespace robocaf::runtime
