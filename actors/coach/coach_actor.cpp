#include "actors/coach/coach_actor.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include <caf/all.hpp>

#include "actors/coach/coach_logic.hpp"
#include "messages/world.pb.h"
#include "runtime/cycle_buffer.hpp"

namespace robocaf::actors {

namespace {

// Input: GameState (the referee, through the world; the cycle trigger),
// HealthReport (its robots' mission managers), WorldEstimate (its robots' world
// knowledge, every share period: where each robot believes it stands and the
// opponents it knows of, for the restart placements), ManualRefereeCommand (a
// human referee's input, passed on to the world's referee). Output: CoachCommand to its team skills: the
// team's one (central) or every robot's (distributed).
struct CoachState {
  runtime::ShellContext ctx;
  std::optional<CoachLogic> logic;
  bool distributed = false;  // the team's coordination (TeamConfig.coordination)
  std::map<uint32_t, bool> operational;  // by robot id, from health reports
  // Own poses by robot id; cycle k's placements use estimates of cycles < k,
  // whatever order the messages of cycle k arrive in (determinism).
  runtime::CycleBuffer<uint32_t, msg::Pose2> own_poses;
  // Opponents each robot's estimate holds, by that robot's id, same cycle
  // rule: restart placements keep clear of them.
  runtime::CycleBuffer<uint32_t, std::vector<msg::Pose2>> opponents_seen;
  // Manual referee commands that came before the world was in our roster
  // (a human is quick after start-up): sent once it is, in order.
  std::vector<msg::ManualRefereeCommand> manual_pending;
  static inline const char* name = "coach";
};

void forward_manual(runtime::ShellActor<CoachState>* self) {
  auto& s = self->state;
  if (s.manual_pending.empty()) return;
  auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD);
  if (!world) return;
  for (auto& command : s.manual_pending) self->send(world, std::move(command));
  s.manual_pending.clear();
}

caf::behavior coach(runtime::ShellActor<CoachState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  st.logic.emplace(st.ctx.address.team(), setup.match.league());
  st.distributed = own_team_config(setup).coordination() == msg::COORDINATION_DISTRIBUTED;
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::GameState& game) {
        auto& s = self->state;
        const auto team = s.ctx.address.team();
        forward_manual(self);
        // The referee's list of robots on the field is what every coach of a
        // match agrees on; a robot it lists but whose mission manager says it is
        // down gets no placement and no role.
        const auto& listed = team == msg::BLUE ? game.robots_blue() : game.robots_yellow();
        std::vector<uint32_t> present;
        for (uint32_t id : listed) {
          auto health = s.operational.find(id);
          if (health == s.operational.end() || health->second) present.push_back(id);
        }
        CoachLogic::RobotPoses poses;
        std::vector<msg::Pose2> opponents;
        for (uint32_t id : present) {
          if (auto pose = s.own_poses.latest_before(id, game.cycle())) poses.emplace(id, *pose);
          // Shared world knowledge gives each robot much the same list; the
          // repeats only mark the same places as taken twice.
          if (auto seen = s.opponents_seen.latest_before(id, game.cycle()))
            opponents.insert(opponents.end(), seen->begin(), seen->end());
        }
        msg::CoachCommand command = s.logic->on_game_state(game, present, poses, opponents);
        if (s.distributed) {
          for (auto& [robot, team_skills] : s.ctx.peers.of_kind(team, msg::ACTOR_TEAM_SKILLS))
            self->send(team_skills, command);
        } else if (auto team_skills = s.ctx.peers.find(team, 0, msg::ACTOR_TEAM_SKILLS)) {
          self->send(team_skills, std::move(command));
        }
      },
      [self](const msg::ManualRefereeCommand& command) {
        self->state.manual_pending.push_back(command);
        forward_manual(self);
      },
      [self](const msg::WorldEstimate& estimate) {
        auto& s = self->state;
        if (estimate.team() != s.ctx.address.team() || estimate.robot_id() == 0 || !estimate.has_self()) return;
        const msg::Pose2& p = estimate.self().pose();
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || !std::isfinite(p.theta())) return;
        s.own_poses.put(estimate.robot_id(), estimate.cycle(), p);
        std::vector<msg::Pose2> opponents;
        for (const auto& o : estimate.opponents())
          if (std::isfinite(o.pose().x()) && std::isfinite(o.pose().y())) opponents.push_back(o.pose());
        s.opponents_seen.put(estimate.robot_id(), estimate.cycle(), std::move(opponents));
      },
      [self](const msg::HealthReport& report) {
        if (report.team() == self->state.ctx.address.team())
          self->state.operational[report.robot_id()] = report.operational();
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_coach(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(coach, setup);
}

}  // namespace robocaf::actors
