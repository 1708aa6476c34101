#pragma once
// Coach core: referee state -> the team's directive, playing side and restart
// placements. No CAF here; the coach actor wraps this class.

#include <cstdint>
#include <vector>

#include "messages/config.pb.h"
#include "messages/game.pb.h"

namespace robocaf::actors {

/// Maps the referee's GameState to a CoachCommand for one team.
///
/// Directive: half time and post game, HALT and STOP -> COACH_HOLD;
/// PREPARE_KICKOFF -> COACH_PLACE; NORMAL_START and FORCE_START -> COACH_PLAY.
/// A team defends the side it stands on, so it attacks +x exactly when it is
/// not on the positive side.
class CoachLogic {
 public:
  CoachLogic(msg::Team team, const msg::LeaguePreset& league);

  /// `robots_present`: the robots of this team that may play (the actor
  /// decides: on the field and operational). Placements are made only with
  /// COACH_PLACE and only for present robots.
  msg::CoachCommand on_game_state(const msg::GameState& game, const std::vector<uint32_t>& robots_present) const;

  /// Kick-off formation: the lowest id keeps goal just in front of its goal
  /// line, with we_kick_off the next lowest stands just behind the ball at the
  /// centre spot, the others fill slots in the own half, outside the centre
  /// circle. Everyone faces the opponent goal. One placement per robot, in
  /// ascending id order.
  std::vector<msg::Placement> kickoff_placements(const std::vector<uint32_t>& robots, bool attack_positive_x,
                                                 bool we_kick_off) const;

  msg::Team team() const { return team_; }

 private:
  msg::Team team_;
  msg::LeaguePreset league_;
};

}  // namespace robocaf::actors
