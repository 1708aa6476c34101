// `robocaf trace LOG --robot blue/N --from T0 --to T1`: one robot's course
// through a stretch of a game log (sim::trace_robot): the referee's calls,
// and every so often where it stood, how it moved, the ball, and the robots
// near it. Why the referee moved a robot reads from here, no debug build.

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/noise_covariance.hpp"
#include "sim/robot_trace.hpp"

namespace robocaf::deploy {

namespace {

const char* kTraceUsage =
    "usage: robocaf trace LOG --robot blue/N|yellow/N --from T0 --to T1 [--every S] [--near M] [--beliefs]\n"
    "  one robot's course from T0 to T1 s of the game log: the referee's events, and every S s\n"
    "  (default 0.5) its true pose (x y m, heading rad), velocity (m/s) and turn rate (rad/s),\n"
    "  its distance to the ball, and the robots within M m of it (default 1.5), nearest first\n"
    "  (B3: blue 3, Y2: yellow 2); under it, from logs that hold them, what its player skills steered\n"
    "  for: directive and role, the placement, the way out of a restart circle (exit, or steps out to),\n"
    "  the point it aimed at and the planner's first waypoint towards it, and placing, the opponents\n"
    "  its plan went round as it believed them (unseen: no sighting for that long; +way: and where it\n"
    "  was going); with --beliefs, where it believed itself and how far that was off";

}  // namespace

int trace_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"robot", "from", "to", "every", "near"}, {"help", "beliefs"}, 1};
  if (arguments.has("help")) {
    std::cout << kTraceUsage << '\n';
    return 0;
  }
  if (arguments.positional().size() != 1) throw UsageError(std::string("give one game log\n") + kTraceUsage);
  const auto robot = arguments.value("robot");
  if (!robot) throw UsageError(std::string("give --robot\n") + kTraceUsage);
  runtime::NoiseSubject subject;
  try {
    subject = runtime::parse_noise_subject(*robot);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--robot: ") + e.what());
  }
  if (subject.ball) throw UsageError("--robot: give a robot, blue/N or yellow/N, not the ball");
  sim::TraceRequest request;
  request.team = subject.team;
  request.robot_id = subject.robot_id;
  const auto from = arguments.number("from", 0.0, 1e9);
  const auto to = arguments.number("to", 0.0, 1e9);
  if (!from || !to) throw UsageError(std::string("give --from and --to\n") + kTraceUsage);
  if (*to < *from) throw UsageError("--to must not be before --from");
  request.from = *from;
  request.to = *to;
  request.every = arguments.number("every", 0.001, 1e9).value_or(0.5);
  request.near = arguments.number("near", 0.0, 1e3).value_or(1.5);
  const bool beliefs = arguments.has("beliefs");

  const std::string& path = arguments.positional()[0];
  const sim::RobotTrace trace = sim::trace_robot(path, request);
  if (trace.truths_with_robot == 0) {
    std::cerr << "robocaf trace: " << path << " has no " << *robot << " between " << request.from << " and "
              << request.to << " s\n";
    return 1;
  }
  std::printf("%s, %s from %.2f to %.2f s: REF lines are the referee's events\n", path.c_str(), robot->c_str(),
              request.from, request.to);
  std::printf("%9s  %7s %7s %6s  %5s %5s %6s  %6s  %s\n", "t s", "x", "y", "theta", "vx", "vy", "omega", "ball",
              "near");
  std::fputs(sim::trace_rows(trace, beliefs).c_str(), stdout);
  return 0;
}

}  // namespace robocaf::deploy
