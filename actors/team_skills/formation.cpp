#include "actors/team_skills/formation.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/kickoff_run.hpp"
#include "runtime/robot_spacing.hpp"

namespace robocaf::actors {

namespace {

using V = Eigen::Vector2d;

V unit_or(const V& v, const V& fallback) {
  const double n = v.norm();
  return n > 1e-9 ? V(v / n) : fallback;
}

}  // namespace

Formation::Formation(const msg::LeaguePreset& league) : league_(league) {}

double Formation::goal_area_keep() const {
  const double r = league_.robot().radius();
  return r + 0.02 + (league_.rules().max_defenders_in_goal_area() > 0 ? r : 0.0);
}

V Formation::defender(const V& ball, bool attack_positive_x) const {
  const auto& f = league_.field();
  const double a = attack_positive_x ? 1.0 : -1.0;
  const double reach = league_.robot().radius() + league_.ball().radius() + 0.1;
  const V own(-a * 0.5 * f.length(), 0.0);
  const V to_goal = own - ball;
  const V dir = unit_or(to_goal, V(-a, 0.0));
  const double d = std::clamp(0.4 * to_goal.norm(), reach, std::max(reach, 0.3 * f.length()));
  V spot = ball + dir * d;
  const double min_depth = f.goal_area_depth() + goal_area_keep();
  if (a * (spot.x() - own.x()) < min_depth) spot.x() = own.x() + a * min_depth;
  return spot;
}

V Formation::wall_slot(const V& ball, bool attack_positive_x, uint32_t index, uint32_t count) const {
  const auto& f = league_.field();
  const double a = attack_positive_x ? 1.0 : -1.0;
  const V own(-a * 0.5 * f.length(), 0.0);
  const double margin = goal_area_keep();
  const double depth = f.goal_area_depth() + margin;
  const double half_width = 0.5 * std::max(f.goal_area_width(), f.goal_width()) + margin;
  V u = unit_or(ball - own, V(a, 0.0));
  if (a * u.x() < 0.15) u = unit_or(V(a * 0.15, u.y()), V(a, 0.0));  // never along the goal line
  const double exit = std::min(depth / std::abs(u.x()), std::abs(u.y()) > 1e-9 ? half_width / std::abs(u.y()) : 1e9);
  const V centre = own + u * exit;
  const V left(-u.y(), u.x());
  const double spacing = runtime::teammate_keep(league_) + 0.002;  // neighbours' slots stay clear of giving way
  V slot = centre + left * ((static_cast<double>(index) - 0.5 * (static_cast<double>(count) - 1.0)) * spacing);
  // A slot that fell back into the grown area moves out along the ray.
  const double dx = a * (slot.x() - own.x());
  if (dx < depth && std::abs(slot.y()) < half_width) slot += u * std::min(depth - dx, half_width - std::abs(slot.y()));
  return slot;
}

int Formation::support_side(int previous, double ball_y) const {
  if (previous == 0 || std::abs(ball_y) > 0.1 * league_.field().width()) return ball_y >= 0.0 ? -1 : 1;
  return previous;
}

V Formation::on_field(double x, double y, double a) const {
  // Supporters stay out of the goal areas' depth and off the lines.
  const auto& f = league_.field();
  const double r = league_.robot().radius();
  const double max_deep = 0.5 * f.length() - f.goal_area_depth() - r - 0.05;
  // Where the run back to a kick-off takes seconds, no deeper up-field than
  // a run back in time: after our goal every robot has the placement time
  // to get back behind the halfway line, and supporters standing by the far
  // goal area were the robots late (MSL vs chaser: of 60 robots moved at the
  // other team's kick-offs in 40 matches, nearly all had started 7-9 m up-field).
  const double max_ahead = runtime::long_kickoff_run(league_) ? std::min(max_deep, kLongRunSupportDepth * f.length())
                                                              : max_deep;
  const double max_y = 0.5 * f.width() - r - 0.05;
  const double ax = std::clamp(a * x, -max_deep, max_ahead);
  return V(a * ax, std::clamp(y, -max_y, max_y));
}

V Formation::wide(const V& ball, double a, int side) const {
  const auto& f = league_.field();
  return on_field(ball.x() + a * 0.3 * f.length(), ball.y() + side * 0.35 * f.width(), a);
}

V Formation::follow(const V& ball, double a) const {
  const double inner = ball.y() >= 0.0 ? -1.0 : 1.0;
  return on_field(ball.x() - a * 0.3, ball.y() + inner * 0.2 * league_.field().width(), a);
}

V Formation::supporter(const V& ball, bool attack_positive_x, int side, uint32_t index, uint32_t count,
                       uint32_t robot_id) const {
  const double a = attack_positive_x ? 1.0 : -1.0;
  if (count < 2) return robot_id % 2 == 1 ? wide(ball, a, side) : follow(ball, a);
  if (index == 0) return wide(ball, a, side);
  if (index == 1) return follow(ball, a);
  const auto& f = league_.field();
  return on_field(wide(ball, a, side).x() - a * 0.15 * f.length() * std::max(0, static_cast<int>(index) - 2),
                  ball.y() - side * 0.35 * f.width(), a);
}

V Formation::lone_supporter_alternative(const V& ball, bool attack_positive_x, int side, uint32_t robot_id) const {
  const double a = attack_positive_x ? 1.0 : -1.0;
  return robot_id % 2 == 1 ? follow(ball, a) : wide(ball, a, side);
}

}  // namespace robocaf::actors
