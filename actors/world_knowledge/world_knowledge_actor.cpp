#include "actors/world_knowledge/world_knowledge_actor.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <caf/all.hpp>

#include "actors/world_knowledge/world_tracker.hpp"
#include "messages/log.pb.h"
#include "runtime/config_loader.hpp"
#include "runtime/cycle_buffer.hpp"

namespace robocaf::actors {

namespace {

// Input: Percept (own perception), WorldEstimate (teammates' shares).
// Output: WorldEstimate to teammates and the coach (every share period), team
// skills and its own player skills, in that order, and just before the player
// skills' a SelfBelief to the simulated world for the game log (every
// kBeliefLogPeriod): the order is what makes the shares, the coach's and the
// team skills' input and the belief settled before the world opens the next
// cycle. Shares, coach and team skills get the picture at capture time;
// player skills get it predicted `horizon` ahead, to when their command will
// act (latency compensation), and so does the belief.
struct WorldKnowledgeState {
  runtime::ShellContext ctx;
  std::optional<WorldTracker> tracker;
  runtime::CycleBuffer<uint32_t, msg::WorldEstimate> shares;
  std::map<uint32_t, uint64_t> fused_cycle;  // newest share already fused, per teammate
  uint64_t share_every = 1;                   // cycles between broadcasts
  uint64_t belief_every = 1;                  // cycles between beliefs for the game log
  double horizon = 0.0;                       // s player skills' estimates are predicted ahead
  uint32_t team_skills_robot = 0;             // its team's (0, central) or its own robot's (distributed)
  static inline const char* name = "world_knowledge";
};

// s between the beliefs a robot sends the game log: a tenth of a second
// tells where it thought it stood at any moment that matters (a restart, a
// contact) and makes MSL's logs a sixth larger; one every 10 ms cycle, in
// doubles, made them 70 % larger.
constexpr double kBeliefLogPeriod = 0.1;

// The part of `estimate` the game log keeps: the robot's own pose and the
// ball, and the pose `percept` gave.
msg::SelfBelief self_belief(const msg::WorldEstimate& estimate, const msg::Percept& percept) {
  msg::SelfBelief belief;
  belief.set_cycle(estimate.cycle());
  belief.set_t(estimate.t());
  belief.set_team(estimate.team());
  belief.set_robot_id(estimate.robot_id());
  const msg::Pose2& pose = estimate.self().pose();
  belief.mutable_pose()->set_x(static_cast<float>(pose.x()));
  belief.mutable_pose()->set_y(static_cast<float>(pose.y()));
  belief.mutable_pose()->set_theta(static_cast<float>(pose.theta()));
  const auto& cov = estimate.self().covariance();
  if (cov.size() == 9) belief.set_position_sd(static_cast<float>(std::sqrt(std::max({0.0, cov[0], cov[4]}))));
  belief.set_localisation_sd(static_cast<float>(estimate.self_localisation_sd()));
  if (estimate.ball().valid()) {
    belief.mutable_ball()->set_x(static_cast<float>(estimate.ball().position().x()));
    belief.mutable_ball()->set_y(static_cast<float>(estimate.ball().position().y()));
  }
  if (percept.self_seen() || percept.self_dead_reckoned()) {
    belief.mutable_perceived_position()->set_x(static_cast<float>(percept.self_pose().x()));
    belief.mutable_perceived_position()->set_y(static_cast<float>(percept.self_pose().y()));
    belief.set_t_perceived(percept.t_capture());
  }
  return belief;
}

caf::behavior world_knowledge(runtime::ShellActor<WorldKnowledgeState>* self, ActorSetup setup) {
  auto& st = self->state;
  runtime::init_shell(self, st.ctx, setup.shell);
  TrackerParams tracking;
  if (setup.match.league().vision() == msg::VISION_ONBOARD) {
    // The robot's own camera: what it cannot see, it remembers (WorldTracker, "Out of view").
    tracking.view_fov = setup.match.sim().onboard_camera().horizontal_fov();
    tracking.view_range = setup.match.sim().onboard_camera().range();
  }
  st.tracker.emplace(st.ctx.address.team(), st.ctx.address.robot_id(), setup.match.league(), tracking);
  const double period = setup.match.sim().control_period();
  if (period > 0 && setup.match.share_period() > 0)
    st.share_every = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(setup.match.share_period() / period)));
  if (period > 0)
    st.belief_every = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(kBeliefLogPeriod / period)));
  st.horizon = runtime::prediction_horizon(setup.match, own_team_config(setup));
  if (own_team_config(setup).coordination() == msg::COORDINATION_DISTRIBUTED)
    st.team_skills_robot = st.ctx.address.robot_id();
  runtime::join_directory(self, st.ctx);
  return caf::message_handler{
      [self](const msg::Percept& percept) {
        auto& s = self->state;
        const auto team = s.ctx.address.team();
        const auto me = s.ctx.address.robot_id();
        const uint64_t cycle = percept.cycle();
        s.tracker->observe(percept);
        s.shares.for_each_before(cycle, [&](uint32_t mate, uint64_t sent, const msg::WorldEstimate& share) {
          if (s.fused_cycle.count(mate) && s.fused_cycle[mate] >= sent) return;
          s.tracker->fuse(share);
          s.fused_cycle[mate] = sent;
        });
        msg::WorldEstimate estimate = s.tracker->estimate(cycle, percept.t_capture());
        if (cycle % s.share_every == 0) {
          for (auto& [mate, handle] : s.ctx.peers.of_kind(team, msg::ACTOR_WORLD_KNOWLEDGE))
            if (mate != me) self->send(handle, estimate);
          if (auto coach = s.ctx.peers.find(team, 0, msg::ACTOR_COACH)) self->send(coach, estimate);
        }
        if (auto team_skills = s.ctx.peers.find(team, s.team_skills_robot, msg::ACTOR_TEAM_SKILLS))
          self->send(team_skills, estimate);
        if (auto skills = s.ctx.peers.find(team, me, msg::ACTOR_PLAYER_SKILLS)) {
          if (s.horizon > 0.0) estimate = s.tracker->estimate(cycle, percept.t_capture() + s.horizon);
          if (cycle % s.belief_every == 0)
            if (auto world = s.ctx.peers.find(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD))
              self->send(world, self_belief(estimate, percept));
          self->send(skills, std::move(estimate));
        }
      },
      [self](const msg::WorldEstimate& share) {
        auto& s = self->state;
        if (share.team() != s.ctx.address.team() || share.robot_id() == s.ctx.address.robot_id()) return;
        s.shares.put(share.robot_id(), share.cycle(), share);
      },
  }
      .or_else(runtime::shell_handlers(self, st.ctx));
}

}  // namespace

caf::actor spawn_world_knowledge(caf::actor_system& system, const ActorSetup& setup) {
  return system.spawn(world_knowledge, setup);
}

}  // namespace robocaf::actors
