#pragma once
// The robocaf subcommands. Each takes the arguments after its name and returns
// the process exit status (2 for bad arguments or configs).

#include <string>
#include <vector>

namespace robocaf::deploy {

/// `robocaf match`: a whole match in one process, in virtual time (or --realtime).
int match_command(const std::vector<std::string>& args);

/// `robocaf node --config FILE`: one node process of a distributed match.
int node_command(const std::vector<std::string>& args);

/// `robocaf render LOG --png DIR | --video FILE`: pictures of a match from its game log.
int render_command(const std::vector<std::string>& args);

/// `robocaf scenario NAME [--seeds N]`: a scripted situation over seeds, as a table and JSON.
int scenario_command(const std::vector<std::string>& args);

/// `robocaf covariance LOG [--object ball|blue/N]`: measurement covariance of a still object.
int covariance_command(const std::vector<std::string>& args);

/// `robocaf eval-perception`: image perception and world knowledge against ground truth.
int eval_perception_command(const std::vector<std::string>& args);

/// `robocaf calibrate IMAGE --out FILE`: the overhead camera's calibration from field lines or a checkerboard.
int calibrate_command(const std::vector<std::string>& args);

/// `robocaf perceive --source DIR|FILE|camera:N --calibration FILE`: overhead image perception on
/// frames from an image folder, a video or a live camera; a table and optionally JSON lines.
int perceive_command(const std::vector<std::string>& args);

/// `robocaf restarts LOG...`: per kind of restart, how long a team took to stand legally, and how
/// many of its robots the referee moved.
int restarts_command(const std::vector<std::string>& args);

/// `robocaf pose-error LOG...`: each robot's belief of its own pose against the truth, a row per robot.
int pose_error_command(const std::vector<std::string>& args);

/// `robocaf trace LOG --robot blue/N --from T0 --to T1`: one robot's course through a stretch of a game
/// log, with the referee's events and the robots near it.
int trace_command(const std::vector<std::string>& args);

/// `robocaf kickoff-drill LOG...`: the other team's kick-off after each goal in game logs, played again
/// with this build from where the robots stood; how long the scorers took to stand legally.
int kickoff_drill_command(const std::vector<std::string>& args);

/// `robocaf restart-drill LOG...`: each restart in game logs at which a team kept its distance, played
/// again with this build from where the robots stood; how long it took to stand legally.
int restart_drill_command(const std::vector<std::string>& args);

/// `robocaf tournament --preset P --opponent O --matches N [--jobs J]`: many matches, one table.
int tournament_command(const std::vector<std::string>& args, const std::string& self_executable);

/// `robocaf launch FILE`: starts and supervises the node processes of a deploy config.
int launch_command(const std::vector<std::string>& args, const std::string& self_executable);

}  // namespace robocaf::deploy
