#pragma once
// Whether robots run back to a kick-off for seconds: more than one actor
// places for kick-offs differently where they do (the coach's slots, the
// team skills' hand-out, the skills' way past opponents).

#include "messages/config.pb.h"

namespace robocaf::runtime {

/// Half the field's length at top speed takes longer than this where the
/// run back to a kick-off is long (MSL: 4.5 s; MiroSot and SSL about 1 s).
inline constexpr double kLongKickoffRunSeconds = 2.0;

/// True where running half the field's length at top speed takes more than
/// kLongKickoffRunSeconds.
inline bool long_kickoff_run(const msg::LeaguePreset& league) {
  const double top_speed = league.robot().max_speed();
  return top_speed > 0.0 && 0.5 * league.field().length() / top_speed > kLongKickoffRunSeconds;
}

}  // namespace robocaf::runtime
