#include "actors/coach/coach_logic.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/angle.hpp"

namespace robocaf::actors {

namespace {

using runtime::kPi;

}  // namespace

CoachLogic::CoachLogic(msg::Team team, const msg::LeaguePreset& league) : team_(team), league_(league) {}

msg::CoachCommand CoachLogic::on_game_state(const msg::GameState& game,
                                            const std::vector<uint32_t>& robots_present) const {
  msg::CoachCommand cmd;
  cmd.set_cycle(game.cycle());
  cmd.set_t(game.t());
  cmd.set_team(team_);
  const bool we_are_on_positive_side = (team_ == msg::BLUE) == game.blue_on_positive_side();
  cmd.set_attack_positive_x(!we_are_on_positive_side);
  cmd.set_we_kick_off(game.kickoff_team() == team_);

  std::vector<uint32_t> present = robots_present;
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  for (uint32_t id : present) cmd.add_robots_present(id);

  msg::CoachDirective directive = msg::COACH_HOLD;
  switch (game.command()) {
    case msg::REF_PREPARE_KICKOFF: directive = msg::COACH_PLACE; break;
    case msg::REF_NORMAL_START:
    case msg::REF_FORCE_START: directive = msg::COACH_PLAY; break;
    default: directive = msg::COACH_HOLD; break;
  }
  // Between halves and after the match nobody plays, whatever the last command was.
  if (game.stage() == msg::STAGE_HALF_TIME || game.stage() == msg::STAGE_POST_GAME) directive = msg::COACH_HOLD;
  cmd.set_directive(directive);

  if (directive == msg::COACH_PLACE)
    for (auto& p : kickoff_placements(present, cmd.attack_positive_x(), cmd.we_kick_off())) *cmd.add_placements() = p;
  return cmd;
}

std::vector<msg::Placement> CoachLogic::kickoff_placements(const std::vector<uint32_t>& robots, bool attack_positive_x,
                                                           bool we_kick_off) const {
  std::vector<uint32_t> ids = robots;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

  const auto& f = league_.field();
  const double L = f.length(), W = f.width();
  const double r = league_.robot().radius();
  const double margin = std::max(0.02, r);
  const double clear = f.center_circle_radius() + r + margin;  // robot fully outside the circle
  const double ball_r = league_.ball().radius();

  // Formation in the "we attack +x" frame; mirrored below.
  struct Spot { double x, y; };
  const double back_x = std::min(0.4 * L, 0.5 * L - f.goal_area_depth() - 2.0 * r - margin);
  std::vector<Spot> slots = {
      {-clear, 0.0},          {-(r + margin), 0.3 * W}, {-(r + margin), -0.3 * W},
      {-0.3 * L, 0.2 * W},    {-0.3 * L, -0.2 * W},     {-back_x, 0.0},
  };
  const Spot keeper{-0.5 * L + r + 0.01, 0.0};
  // Clear of the ball by more than a robot's arrival tolerance: touching it
  // before the kick-off is a foul.
  const Spot kicker{-(ball_r + r + 0.03), 0.0};

  std::vector<msg::Placement> out;
  const double side = attack_positive_x ? 1.0 : -1.0;
  auto place = [&](uint32_t id, Spot s, bool free_of_circle) {
    if (free_of_circle) {
      // Safety net for leagues whose proportions put a slot in the circle,
      // the other half or outside the field.
      s.y = std::clamp(s.y, -0.5 * W + r + margin, 0.5 * W - r - margin);
      const double d = std::hypot(s.x, s.y);
      if (d < clear) {
        const double k = d > 1e-9 ? clear / d : 0.0;
        s = d > 1e-9 ? Spot{s.x * k, s.y * k} : Spot{-clear, 0.0};
      }
      s.x = std::clamp(s.x, -0.5 * L + r + margin, -(r + margin));
    }
    msg::Placement p;
    p.set_robot_id(id);
    p.mutable_pose()->set_x(side * s.x);
    p.mutable_pose()->set_y(s.y);
    p.mutable_pose()->set_theta(attack_positive_x ? 0.0 : kPi);
    out.push_back(p);
  };

  size_t next_slot = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i == 0) {
      place(ids[i], keeper, false);
    } else if (i == 1 && we_kick_off) {
      place(ids[i], kicker, false);
    } else if (next_slot < slots.size()) {
      place(ids[i], slots[next_slot++], true);
    } else {
      // More robots than slots: a line across the field behind the others.
      const double k = static_cast<double>(next_slot++ - slots.size() + 1);
      const double y = (static_cast<int>(k) % 2 ? 1.0 : -1.0) * std::ceil(k / 2.0) * 3.0 * r;
      place(ids[i], Spot{-0.2 * L, y}, true);
    }
  }
  return out;
}

}  // namespace robocaf::actors
