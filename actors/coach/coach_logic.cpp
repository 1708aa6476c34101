#include "actors/coach/coach_logic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "runtime/angle.hpp"
#include "runtime/kickoff_run.hpp"
#include "runtime/robot_spacing.hpp"
#include "runtime/run_off.hpp"

namespace robocaf::actors {

namespace {

using runtime::kPi;

struct Point {
  double x, y;
};

double dist(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Distance from q to the segment from a to b.
double dist_to_segment(Point q, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double n2 = dx * dx + dy * dy;
  const double s = n2 > 1e-12 ? std::clamp(((q.x - a.x) * dx + (q.y - a.y) * dy) / n2, 0.0, 1.0) : 0.0;
  return dist(q, {a.x + s * dx, a.y + s * dy});
}

}  // namespace

CoachLogic::CoachLogic(msg::Team team, const msg::LeaguePreset& league) : team_(team), league_(league) {}

msg::CoachCommand CoachLogic::on_game_state(const msg::GameState& game, const std::vector<uint32_t>& robots_present,
                                            const RobotPoses& own_poses,
                                            const std::vector<msg::Pose2>& opponents) {
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
    case msg::REF_PREPARE_KICKOFF:
    case msg::REF_PREPARE_RESTART: directive = msg::COACH_PLACE; break;
    case msg::REF_NORMAL_START:
    case msg::REF_FORCE_START: directive = msg::COACH_PLAY; break;
    default: directive = msg::COACH_HOLD; break;
  }
  // Their restart, not yet taken: keep the places that kept the distance.
  const bool waiting_for_them = game.command() == msg::REF_NORMAL_START && game.waiting_for_taker() &&
                                game.restart_team() != team_;
  if (waiting_for_them) directive = msg::COACH_PLACE;
  // Between halves and after the match nobody plays, whatever the last command was.
  if (game.stage() == msg::STAGE_HALF_TIME || game.stage() == msg::STAGE_POST_GAME) directive = msg::COACH_HOLD;
  cmd.set_directive(directive);
  cmd.set_waiting_for_taker(directive == msg::COACH_PLACE && waiting_for_them);

  if (directive == msg::COACH_PLACE) {
    const bool kickoff = game.command() == msg::REF_PREPARE_KICKOFF || game.restart() == msg::RESTART_KICKOFF;
    // Held spots belong to one restart's placement.
    const RestartKey key{game.restart(), game.restart_team(), game.ball_spot().x(), game.ball_spot().y()};
    const RobotPoses held = key == held_for_ ? held_ : RobotPoses{};
    held_for_ = key;
    held_.clear();
    const auto placements =
        kickoff ? kickoff_placements(present, cmd.attack_positive_x(), cmd.we_kick_off())
                : restart_placements(game, present, own_poses, cmd.attack_positive_x(), opponents, held);
    for (const auto& p : placements) {
      *cmd.add_placements() = p;
      if (!kickoff) held_[p.robot_id()] = p.pose();
    }
    cmd.set_restart(kickoff ? msg::RESTART_KICKOFF : game.restart());
    if (!kickoff) {
      *cmd.mutable_ball_spot() = game.ball_spot();
    } else {
      cmd.mutable_ball_spot();  // the centre spot
    }
    // At kick-offs only once the referee has started theirs: placing before,
    // the other half is out of bounds too, and a way round the centre circle
    // led through it (MSL: 272 robots not back in their half in 12 matches,
    // against 10). Once started, every robot stands legally in its own half
    // (the referee moved those that did not), and one still on its way to
    // its place cut across the circle and was moved out again and again
    // (MSL seed 20: 14 times in 2 s).
    if (!kickoff && game.restart_team() != team_) cmd.set_keep_out_radius(league_.rules().restart_distance());
    if (kickoff && waiting_for_them)
      cmd.set_keep_out_radius(league_.field().center_circle_radius() + league_.robot().radius());
  }
  return cmd;
}

double CoachLogic::restart_margin() const { return std::max(0.05, league_.robot().radius()); }

std::vector<msg::Placement> CoachLogic::restart_placements(const msg::GameState& game,
                                                           const std::vector<uint32_t>& robots,
                                                           const RobotPoses& own_poses,
                                                           bool attack_positive_x,
                                                           const std::vector<msg::Pose2>& opponents,
                                                           const RobotPoses& held) const {
  std::vector<uint32_t> ids = robots;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return {};

  const auto& f = league_.field();
  const double L = f.length(), W = f.width();
  const double r = league_.robot().radius(), ball_r = league_.ball().radius();
  const Point ball{game.ball_spot().x(), game.ball_spot().y()};
  const double distance = league_.rules().restart_distance();
  const double keep = distance + restart_margin();
  const bool we_take = game.restart_team() == team_;
  const double own_goal_x = attack_positive_x ? -0.5 * L : 0.5 * L;
  const double opp_goal_x = -own_goal_x;

  auto pose_of = [&](uint32_t id) -> const msg::Pose2* {
    auto it = own_poses.find(id);
    return it == own_poses.end() ? nullptr : &it->second;
  };
  auto face = [](Point from, Point to) { return std::atan2(to.y - from.y, to.x - from.x); };

  // The taker: the robot nearest the ball, or without poses the one that
  // would take a kick-off.
  bool has_kicker = false;
  uint32_t kicker = 0;
  if (we_take) {
    double best = std::numeric_limits<double>::infinity();
    for (uint32_t id : ids) {
      if (const msg::Pose2* p = pose_of(id); p != nullptr && dist({p->x(), p->y()}, ball) < best) {
        best = dist({p->x(), p->y()}, ball);
        kicker = id;
        has_kicker = true;
      }
    }
    if (!has_kicker) {
      kicker = ids.size() > 1 ? ids[1] : ids[0];
      has_kicker = true;
    }
  }

  // The taker's spot: behind the ball on the line from the opponent goal
  // centre through it, clear of the ball; inside the arena (a corner kick's
  // taker stands outside the field).
  msg::Pose2 kicker_spot;
  if (has_kicker) {
    double ux = ball.x - opp_goal_x, uy = ball.y;
    const double n = std::hypot(ux, uy);
    if (n > 1e-9) {
      ux /= n;
      uy /= n;
    } else {
      ux = attack_positive_x ? -1.0 : 1.0;
      uy = 0.0;
    }
    const double behind = std::max(kKickerRadii * r, r + ball_r + 0.01);
    const double xmax = 0.5 * L + f.boundary_width() - r, ymax = 0.5 * W + f.boundary_width() - r;
    kicker_spot.set_x(std::clamp(ball.x + behind * ux, -xmax, xmax));
    kicker_spot.set_y(std::clamp(ball.y + behind * uy, -ymax, ymax));
    kicker_spot.set_theta(std::atan2(-uy, -ux));
  }
  // Where a robot may stay as it is. The margin covers a robot still
  // settling and the error of its pose estimate: the referee measures the
  // true pose. Our own robots at our restart only have to stay off the ball
  // and out of the taker's way.
  // A robot sent to `keep` stops a few centimetres either side of it and its
  // pose estimate wavers by as much: judged against `keep` itself, it was
  // told to stay one cycle and sent round the ball the next, where a
  // teammate stood in the way of the nearest point (MSL: two robots near our
  // goal area swapped spots 2 m apart every cycle for half a second).
  const double stay_keep = keep - kStayFraction * restart_margin();
  const Point kicker_at{kicker_spot.x(), kicker_spot.y()};
  auto may_stay = [&](Point at) {
    if (!we_take) return dist(at, ball) >= stay_keep;
    return dist(at, ball) >= r + ball_r + restart_margin() && dist(at, kicker_at) >= 2.0 * r + restart_margin();
  };

  std::map<uint32_t, msg::Pose2> out;
  std::vector<Point> taken;  // centres already given out
  if (has_kicker) {
    taken.push_back(kicker_at);
    out[kicker] = kicker_spot;
  }
  // Where the rules limit robots in the goal area (the referee lets at most
  // max_defenders_in_goal_area of a team stand in its own at a restart),
  // whether q lies in ours grown by `grow`.
  const bool area_counts = league_.rules().max_defenders_in_goal_area() > 0 && f.goal_area_depth() > 0.0 &&
                           f.goal_area_width() > 0.0;
  const double inward = own_goal_x < 0.0 ? 1.0 : -1.0;  // into the field from our goal line
  auto in_own_goal_area = [&](Point q, double grow) {
    return area_counts && std::abs(q.y) <= 0.5 * f.goal_area_width() + grow &&
           -inward * q.x >= std::abs(own_goal_x) - f.goal_area_depth() - grow;
  };

  struct Mover {
    uint32_t id;
    Point from;
    bool from_pose;     // `from` is where it stands (not a goal-area exit or a formation slot)
    bool out_there;     // leaving our goal area, it stands beyond the field's lines (see `free`)
    std::optional<Point> leaving_area_from;  // leaving our goal area's surroundings: where it stands
  };
  std::vector<Mover> movers;
  std::map<uint32_t, msg::Pose2> stayers;
  std::map<uint32_t, msg::Pose2> slots;
  for (const auto& p : kickoff_placements(ids, attack_positive_x, false)) slots[p.robot_id()] = p.pose();
  // Where a robot stands, or without a pose its kick-off slot.
  auto where = [&](uint32_t id) -> Point {
    if (const msg::Pose2* p = pose_of(id)) return {p->x(), p->y()};
    return {slots[id].x(), slots[id].y()};
  };
  // The keeper (lowest id) goes home: just off its goal line, on the line
  // from the goal centre to the ball, within the posts. Staying where it
  // happened to stand left the far side of the goal open to the kick. It is
  // the one robot allowed in the goal area.
  const uint32_t keeper = ids.front();
  if (!(has_kicker && kicker == keeper)) {
    const double kx = own_goal_x + inward * (r + std::clamp(0.5 * r, 0.02, 0.05));
    const double along = std::abs(ball.x - own_goal_x) > 1e-9 ? (kx - own_goal_x) / (ball.x - own_goal_x) : 0.0;
    const double half = std::max(0.0, 0.5 * f.goal_width() - r);
    Point home{kx, std::clamp(along * ball.y, -half, half)};
    // A ball within the distance of that spot (their restart or a drop ball
    // by our goal): the keeper slides along its line, away from the ball, to
    // the distance, if that lies within the posts. Sent out instead as any
    // robot inside the distance, it left its goal round the field players
    // gathering there and stood inside the distance at the restart (MSL vs
    // chaser, drop balls 0.9-1.1 m in from our goal line, 3.4 m to the side).
    // The slide ends at the distance exactly, which the rounding may put a
    // hair inside: judged by `dist` again, 5-8 % of ball spots sent the
    // keeper out as a field player, 3 m past its teammates (MSL restart
    // drill, seed 108: the referee moved it).
    bool slid = false;
    if (!we_take && dist(home, ball) < keep) {
      const double across = kx - ball.x;  // |across| <= dist(home, ball) < keep
      const double reach = std::sqrt(keep * keep - across * across);
      const double y = ball.y + (home.y <= ball.y ? -reach : reach);
      if (std::abs(y) <= half) {
        home.y = y;
        slid = true;
      }
    }
    if (we_take || slid || dist(home, ball) >= keep) {
      msg::Pose2 pose;
      pose.set_x(home.x);
      pose.set_y(home.y);
      pose.set_theta(face(home, ball));
      out[keeper] = pose;
    }
  }
  // Field players standing at the goal area's edge step into it as soon as
  // play goes on, and a free kick in front of the area follows, where they
  // stand again (SSL vs chaser: 94 goal-area fouls per match against 50
  // when every restart sent them to the formation). They leave the area's
  // surroundings, two radii wide, by the nearer side; so none of them is
  // ever left inside the area itself.
  const double near_grow = 2.0 * r + restart_margin();
  auto near_own_goal_area = [&](Point q) { return in_own_goal_area(q, near_grow); };
  auto out_of_goal_area = [&](Point q) {
    const Point front{-inward * (std::abs(own_goal_x) - f.goal_area_depth() - near_grow + 0.01), q.y};
    const Point side{q.x, (q.y < 0.0 ? -1.0 : 1.0) * (0.5 * f.goal_area_width() + near_grow + 0.01)};
    return dist(front, q) <= dist(side, q) ? front : side;
  };
  // But not out of the surroundings back inside the restart distance: a
  // robot sent beside the area (see `free` below) stands there, and
  // reclassified a mover it was sent on round the ball, through the area,
  // when an opponent came near (MSL restart drill, a drop ball by our corner
  // flag: the referee moved it out of the area).
  auto leaves_goal_area = [&](Point at) {
    return near_own_goal_area(at) && (in_own_goal_area(at, r) || !may_stay(at) || may_stay(out_of_goal_area(at)));
  };
  auto beyond_lines = [&](const msg::Pose2* p) {
    return p != nullptr && (std::abs(p->x()) > 0.5 * L || std::abs(p->y()) > 0.5 * W);
  };
  for (uint32_t id : ids) {
    if ((has_kicker && id == kicker) || out.count(id)) continue;
    const msg::Pose2* p = pose_of(id);
    if (p != nullptr && id != keeper && leaves_goal_area({p->x(), p->y()})) {
      movers.push_back({id, out_of_goal_area({p->x(), p->y()}), false, beyond_lines(p), Point{p->x(), p->y()}});
    } else if (p != nullptr && may_stay({p->x(), p->y()})) {
      stayers[id] = *p;  // keeps its place, unless it stands in a teammate's way out
    } else {
      movers.push_back({id, where(id), p != nullptr, false, std::nullopt});
    }
  }
  const double xmax = 0.5 * L - r, ymax = 0.5 * W - r;
  // A robot sent onto an opponent stops short of its spot, inside the
  // distance (MSL vs chaser: most robots the referee moved at a free kick or
  // drop ball had been sent next to an opponent on the same circle).
  const double opponent_clearance = 2.0 * r + restart_margin();
  auto clear_of_opponents = [&](Point q) {
    return std::all_of(opponents.begin(), opponents.end(),
                       [&](const msg::Pose2& o) { return dist({o.x(), o.y()}, q) >= opponent_clearance; });
  };

  // The other team's restart in our half: a wall of field players side by
  // side across the line from the ball to our goal centre, at `keep` from the
  // ball; the nearest ones go there. The keeper (lowest id) stays home.
  // Without it, a free kick just outside our goal area was a shot at an
  // open goal (SSL vs chaser: 31 goals against per match instead of 4).
  const bool their_restart = !we_take && game.restart_team() != msg::TEAM_UNSPECIFIED;
  if (their_restart && (own_goal_x < 0.0 ? ball.x < 0.0 : ball.x > 0.0) && ids.size() > 1) {
    double ux = own_goal_x - ball.x, uy = -ball.y;
    const double n = std::hypot(ux, uy);
    ux = n > 1e-9 ? ux / n : -inward;
    uy = n > 1e-9 ? uy / n : 0.0;
    std::vector<Point> spots;
    // As far apart as the skills' own walls stand (a gap the ball cannot
    // pass): closer, each robot's way round its teammate kept it off its spot.
    const double half_gap = 0.5 * runtime::teammate_keep(league_) + 0.001;
    for (double side : {-1.0, 1.0}) {
      const Point q{ball.x + keep * ux - side * half_gap * uy, ball.y + keep * uy + side * half_gap * ux};
      // Clear of the area's surroundings that the robots' skills keep out
      // of: a spot closer in was never reached (MSL corner kicks).
      if (std::abs(q.x) <= xmax && std::abs(q.y) <= ymax && !near_own_goal_area(q) && clear_of_opponents(q))
        spots.push_back(q);
    }
    std::vector<uint32_t> field_players(ids.begin() + 1, ids.end());
    for (const Point& spot : spots) {
      if (field_players.empty()) break;
      auto nearest = std::min_element(field_players.begin(), field_players.end(), [&](uint32_t a, uint32_t b) {
        return dist(where(a), spot) < dist(where(b), spot);
      });
      const uint32_t id = *nearest;
      field_players.erase(nearest);
      movers.erase(std::remove_if(movers.begin(), movers.end(), [&](const Mover& m) { return m.id == id; }),
                   movers.end());
      stayers.erase(id);
      msg::Pose2 pose;
      pose.set_x(spot.x);
      pose.set_y(spot.y);
      pose.set_theta(face(spot, ball));
      out[id] = pose;
    }
  }
  for (const auto& [id, pose] : out)
    if (!(has_kicker && id == kicker)) taken.push_back({pose.x(), pose.y()});
  for (const auto& [id, pose] : stayers) taken.push_back({pose.x(), pose.y()});

  // Movers: too close to the ball, at the own goal area, or not seen.
  // Nearest free point at `keep` from the ball, inside the field, a radius
  // clear of the own goal area, and clear of teammates by more than the
  // skills keep from them: a robot sent to touching distance of a teammate
  // goes round it and stops short, inside the distance (MSL drop balls).
  const double teammate_gap = runtime::teammate_keep(league_) + 0.02;
  // Ways out: at the other team's restart and at drop balls, each robot
  // inside the distance leaves along a lane from where it stands towards its
  // spot, and no teammate is given a spot in it nor stays standing in it.
  // The robots nearer the edge got out first and stood on it, side by side
  // with opponents, and the one that had been deepest, at the ball, was
  // walled in (MSL drop balls by a corner flag: most robots the referee
  // moved there had covered twice the straight way out in 8 s). The
  // deepest robot chooses first. A lane ends short of its spot by the gap,
  // so the teammates beside that spot stay.
  struct Lane {
    Point from, to;
  };
  std::vector<Lane> lanes;
  auto in_a_lane = [&](Point q) {
    return std::any_of(lanes.begin(), lanes.end(),
                       [&](const Lane& l) { return dist_to_segment(q, l.from, l.to) < teammate_gap; });
  };
  // Only the area itself and a radius round it, not its surroundings: at
  // the other team's corner kick those cut the crescent between the area
  // and the circle, and a robot inside the circle by the corner flag was
  // sent round the far side of the ball, past the opponents standing there
  // (MSL restart drill, a corner kick: the spot jumped between four points
  // beyond an opponent touching the robot, which turned from one to the
  // next for 8 s until the referee moved it). Placing, the skills keep off
  // only half a radius (SkillController::own_goal_area_keep()).
  // A robot leaving our goal area from beyond the end line, beside the
  // goal, may be given a spot out there too, as far as the skills go
  // (runtime::run_off()): in the field, its nearest free spot lay past the
  // opponents walling it in, and it stood still in the area (MSL restart
  // drill, seed 100, a corner kick: the referee moved it). Not every robot
  // beyond the lines: one by our corner flag at a drop ball, sent along the
  // run-off behind our goal, was late where it had gone into the field
  // (restart drill, MSL seeds 81-90: 30 of 191 drop balls changed, p95
  // 4.62 -> 5.28 s).
  const double run_off = runtime::run_off(league_);
  // How far from the centre lines a spot's centre may lie (x, y).
  auto bounds = [&](bool out_there) {
    return out_there ? Point{0.5 * L + run_off - r, 0.5 * W + run_off - r} : Point{xmax, ymax};
  };
  auto free = [&](Point q, bool out_there = false) {
    const Point b = bounds(out_there);
    if (std::abs(q.x) > b.x || std::abs(q.y) > b.y || in_own_goal_area(q, r) || !clear_of_opponents(q)) return false;
    return std::all_of(taken.begin(), taken.end(), [&](Point o) { return dist(o, q) >= teammate_gap; }) &&
           !in_a_lane(q);
  };
  // The free point at `keep`, or ring by ring beyond it, nearest to `from`;
  // the spot it was sent to last cycle while that is no more than
  // kHoldRadii radii further.
  auto spot_outside = [&](uint32_t id, Point from, bool out_there, bool* found_free = nullptr) {
    double dx = from.x - ball.x, dy = from.y - ball.y;
    double n = std::hypot(dx, dy);
    if (n < 1e-9) {  // on the ball: back towards the own goal
      dx = own_goal_x - ball.x;
      dy = -ball.y;
      n = std::hypot(dx, dy);
    }
    Point to{ball.x + keep * dx / n, ball.y + keep * dy / n};
    if (!free(to, out_there)) {
      double best = std::numeric_limits<double>::infinity();
      Point found = to;
      for (int ring = 0; ring < 4 && !std::isfinite(best); ++ring) {
        const double rad = keep + ring * 2.0 * r;
        for (int a = 0; a < 72; ++a) {
          const double ang = a * kPi / 36.0;
          const Point q{ball.x + rad * std::cos(ang), ball.y + rad * std::sin(ang)};
          if (free(q, out_there) && dist(q, from) < best) {
            best = dist(q, from);
            found = q;
          }
        }
      }
      const Point b = bounds(out_there);
      to = {std::clamp(found.x, -b.x, b.x), std::clamp(found.y, -b.y, b.y)};
    }
    if (const auto last = held.find(id); last != held.end()) {
      const Point kept{last->second.x(), last->second.y()};
      if (dist(kept, ball) >= keep - 1e-9 && free(kept, out_there) &&
          dist(from, kept) <= dist(from, to) + kHoldRadii * r)
        to = kept;
    }
    if (found_free != nullptr) *found_free = free(to, out_there);
    return to;
  };
  // Out of our goal area's surroundings: straight out by the nearer side,
  // or where that point is not free (an opponent or a teammate there) the
  // nearest free point of their edge, front or either side, no more than
  // kHoldRadii radii further; and the point given last cycle while it stays
  // free and no more than that further. Straight out only, the point lay
  // beside an opponent at the area's edge, and followed the robot along
  // the side as it went round it. (Where no point near is free, as among
  // five chasers at the area's corner, it is still the straight one: held
  // there, the robot stood still in the area until the referee moved it,
  // in 5 of 10 drills of that free kick against 1.)
  const double edge_grow = near_grow + 0.01;
  const double front_x = -inward * (std::abs(own_goal_x) - f.goal_area_depth() - edge_grow);
  const double side_y = 0.5 * f.goal_area_width() + edge_grow;
  const double back_x = own_goal_x - inward * run_off;  // as far as a spot out there may lie
  auto area_exit = [&](uint32_t id, Point at, bool out_there) {
    constexpr double kStep = 0.05;
    const Point straight = out_of_goal_area(at);
    Point to = straight;
    if (!free(straight, out_there)) {
      double best = dist(at, straight) + kHoldRadii * r;
      auto consider = [&](Point q) {
        if (dist(at, q) <= best && free(q, out_there)) {
          best = dist(at, q);
          to = q;
        }
      };
      for (double y = -side_y; y <= side_y; y += kStep) consider({front_x, y});
      const double depth = std::abs(front_x - back_x);
      for (double along = 0.0; along <= depth; along += kStep)
        for (double side : {-1.0, 1.0}) consider({front_x - inward * along, side * side_y});
    }
    if (const auto last = held.find(id); last != held.end()) {
      const Point kept{last->second.x(), last->second.y()};
      // Given while it stood beyond the lines, out there too.
      if (!near_own_goal_area(kept) && free(kept, true) && dist(at, kept) <= dist(at, to) + kHoldRadii * r)
        to = kept;
    }
    return to;
  };
  auto send = [&](uint32_t id, Point to) {
    msg::Pose2 pose;
    pose.set_x(to.x);
    pose.set_y(to.y);
    pose.set_theta(face(to, ball));
    taken.push_back(to);
    out[id] = pose;
  };
  const bool keep_lanes = !we_take;
  if (keep_lanes)
    std::stable_sort(movers.begin(), movers.end(),
                     [&](const Mover& a, const Mover& b) { return dist(a.from, ball) < dist(b.from, ball); });
  for (const auto& [id, straight_out, from_pose, out_there, leaving_area_from] : movers) {
    const Point from = leaving_area_from ? area_exit(id, *leaving_area_from, out_there) : straight_out;
    if (dist(from, ball) >= keep) {
      send(id, from);
      continue;
    }
    const Point to = spot_outside(id, from, out_there);
    const double length = dist(from, to);
    if (keep_lanes && from_pose && length > teammate_gap) {
      const double k = (length - teammate_gap) / length;
      lanes.push_back({from, {from.x + k * (to.x - from.x), from.y + k * (to.y - from.y)}});
    }
    send(id, to);
  }
  // A robot standing where it may, but in a teammate's way out, steps aside
  // to a free spot, if there is one.
  for (const auto& [id, pose] : stayers) {
    const Point at{pose.x(), pose.y()};
    if (in_a_lane(at)) {
      const auto own = std::find_if(taken.begin(), taken.end(), [&](Point q) { return q.x == at.x && q.y == at.y; });
      if (own != taken.end()) taken.erase(own);
      bool found = false;
      const Point aside = spot_outside(id, at, false, &found);
      if (found) {
        send(id, aside);
        continue;
      }
      taken.push_back(at);
    }
    out[id] = pose;
  }

  std::vector<msg::Placement> placements;
  for (const auto& [id, pose] : out) {
    msg::Placement pl;
    pl.set_robot_id(id);
    *pl.mutable_pose() = pose;
    placements.push_back(pl);
  }
  return placements;
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
  // The wings stand off the mirror image of the other team's (a team using
  // these placements too): a robot coming back from the far half to its wing
  // spot would otherwise meet the opponent on that spot head on, and push
  // against it until the kick-off.
  const double wing_shift = (attack_positive_x ? 0.1 : -0.1) * W;
  // The other team's kick-off follows our goal, and our robots run back
  // from the far half: slots that much deeper behind the halfway line and
  // the centre circle are reached across them at speed, not braked for just
  // beyond them (MSL: half the robots not back in their half at the
  // kick-off were within 0.3 m of it, and most of those inside the circle
  // within 0.6 m of its edge, still braking). Only where that run takes
  // seconds: where it takes one (MiroSot, SSL) no robot was late, and the
  // deeper slots only gave the kicking team room (MiroSot vs chaser: 376-32
  // against 427-15).
  const double deeper = we_kick_off || !runtime::long_kickoff_run(league_) ? 0.0 : kDeeperSlots * L;
  const double wing_x = -(r + margin) - deeper;
  // Running back, the wings shift outwards only: an inner wing at 0.2 W
  // (1.94, 2.4 in MSL) drew robots coming back from the far half past the
  // edge of the centre circle, where the kicking team gathers (it was the
  // spot of 23 of 28 robots late at kick-offs in six MSL matches).
  const bool running_back = deeper > 0.0;
  const double wing_left = 0.3 * W + (running_back ? std::max(wing_shift, 0.0) : wing_shift);
  const double wing_right = -0.3 * W + (running_back ? std::min(wing_shift, 0.0) : wing_shift);
  std::vector<Spot> slots = {
      {-clear - deeper, 0.0}, {wing_x, wing_left}, {wing_x, wing_right},
      {-0.3 * L, 0.2 * W},    {-0.3 * L, -0.2 * W},     {-back_x, 0.0},
  };
  // Off the goal line by a few centimetres: a keeper whose pose estimate is
  // that far off (onboard cameras) would otherwise stand over it.
  const Spot keeper{-0.5 * L + r + std::clamp(0.5 * r, 0.02, 0.05), 0.0};
  // Clear of the ball by more than a robot's arrival tolerance: touching it
  // before the kick-off is a foul. And by half a radius where that is more:
  // an opponent crossing the halfway line knocks the ball off the spot and
  // leans on our taker, and when the referee puts the ball back the taker
  // stands where it was pushed (MSL vs chaser, 3 cm clear: a taker 3-4 cm
  // onto the ball in 2 of 80 matches).
  const Spot kicker{-(ball_r + r + std::max(0.03, 0.5 * r)), 0.0};

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
