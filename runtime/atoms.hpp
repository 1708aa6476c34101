#pragma once
// CAF atoms for robocaf's control-plane messages. Domain data always travels as
// protobuf messages (messages/*.proto); atoms only tag requests that carry them.

#include <caf/atom.hpp>

namespace robocaf::runtime {

using join_atom = caf::atom_constant<caf::atom("join")>;          // + NodeIdentity
using register_atom = caf::atom_constant<caf::atom("register")>;  // + ActorAddress, actor
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using heartbeat_atom = caf::atom_constant<caf::atom("heartbeat")>;
using report_atom = caf::atom_constant<caf::atom("report")>;
using await_atom = caf::atom_constant<caf::atom("await")>;        // wait for the match to end
using stats_atom = caf::atom_constant<caf::atom("stats")>;
using start_atom = caf::atom_constant<caf::atom("start")>;

}  // namespace robocaf::runtime
