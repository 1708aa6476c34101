#include "sim/pose_error.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "runtime/angle.hpp"
#include "runtime/game_log.hpp"
#include "runtime/statistics.hpp"

namespace robocaf::sim {

namespace {

// Truth older than this before the newest is dropped: beliefs are predicted
// ahead of their cycle (by camera latency and actuation delay, a tenth of a
// second or so), never behind it.
constexpr double kTruthKept = 1.0;

}  // namespace

void PoseErrorMeter::add(const msg::LogRecord& record) {
  if (record.has_belief()) {
    ++beliefs_;
    pending_.push_back(record.belief());
    return;
  }
  if (!record.has_truth()) return;
  TruthPoses& poses = history_.emplace_back();
  poses.t = record.truth().t();
  poses.robots.reserve(static_cast<std::size_t>(record.truth().robots_size()));
  for (const auto& robot : record.truth().robots())
    poses.robots.push_back({robot.team(), robot.robot_id(), robot.pose().x(), robot.pose().y(), robot.pose().theta()});
  while (history_.size() > 2 && history_.front().t < history_.back().t - kTruthKept) history_.pop_front();
  resolve();
}

std::vector<PoseErrorSample> PoseErrorMeter::take_samples() {
  std::vector<PoseErrorSample> taken;
  taken.swap(samples_);
  return taken;
}

bool PoseErrorMeter::truth_at(msg::Team team, uint32_t id, double t, double& x, double& y, double& theta) const {
  if (history_.empty() || history_.front().t > t) return false;
  // The last truth at or before `t` and the first after it.
  const RobotPose* before = nullptr;
  const RobotPose* after = nullptr;
  double t_before = 0.0, t_after = 0.0;
  for (const TruthPoses& truth : history_) {
    const auto robot = std::find_if(truth.robots.begin(), truth.robots.end(),
                                    [&](const RobotPose& r) { return r.team == team && r.robot_id == id; });
    if (robot == truth.robots.end()) continue;
    if (truth.t <= t) {
      before = &*robot;
      t_before = truth.t;
    } else {
      after = &*robot;
      t_after = truth.t;
      break;
    }
  }
  if (before == nullptr) return false;
  x = before->x;
  y = before->y;
  theta = before->theta;
  if (after != nullptr && t_after > t_before) {
    const double f = (t - t_before) / (t_after - t_before);
    x += f * (after->x - x);
    y += f * (after->y - y);
    theta += f * runtime::wrap_angle(after->theta - theta);
  }
  return true;
}

void PoseErrorMeter::resolve() {
  const double newest = history_.back().t;
  for (auto it = pending_.begin(); it != pending_.end();) {
    const msg::SelfBelief& belief = *it;
    if (belief.t() > newest) {
      ++it;
      continue;
    }
    double x, y, theta;
    if (truth_at(belief.team(), belief.robot_id(), belief.t(), x, y, theta)) {
      PoseErrorSample sample;
      sample.team = belief.team();
      sample.robot_id = belief.robot_id();
      sample.t = belief.t();
      sample.error = std::hypot(belief.pose().x() - x, belief.pose().y() - y);
      sample.heading_error = std::abs(runtime::wrap_angle(belief.pose().theta() - theta));
      sample.position_sd = belief.position_sd();
      sample.localisation_sd = belief.localisation_sd();
      if (belief.has_perceived_position() &&
          truth_at(belief.team(), belief.robot_id(), belief.t_perceived(), x, y, theta))
        sample.perceived_error =
            std::hypot(belief.perceived_position().x() - x, belief.perceived_position().y() - y);
      samples_.push_back(sample);
      ++matched_;
    }
    it = pending_.erase(it);
  }
}

std::vector<PoseErrorEpisode> pose_error_episodes(const std::vector<PoseErrorSample>& samples, double threshold,
                                                  double gap) {
  std::map<std::pair<int, uint32_t>, std::vector<const PoseErrorSample*>> by_robot;
  for (const auto& sample : samples)
    if (sample.error > threshold) by_robot[{int(sample.team), sample.robot_id}].push_back(&sample);
  std::vector<PoseErrorEpisode> episodes;
  for (auto& [robot, over] : by_robot) {
    std::stable_sort(over.begin(), over.end(),
                     [](const PoseErrorSample* a, const PoseErrorSample* b) { return a->t < b->t; });
    PoseErrorEpisode* open = nullptr;
    for (const PoseErrorSample* sample : over) {
      if (open == nullptr || sample->t - open->end >= gap) {
        episodes.emplace_back();
        open = &episodes.back();
        open->team = sample->team;
        open->robot_id = sample->robot_id;
        open->begin = sample->t;
      }
      open->end = sample->t;
      if (sample->error > open->max_error) {
        open->max_error = sample->error;
        open->t_max = sample->t;
        open->position_sd_at_max = sample->position_sd;
        open->localisation_sd_at_max = sample->localisation_sd;
        open->perceived_error_at_max = sample->perceived_error;
      }
    }
  }
  return episodes;
}

PoseErrorLog measure_pose_error(const std::string& path) {
  runtime::GameLogReader reader(path);
  PoseErrorMeter meter;
  msg::LogRecord record;
  while (reader.next(record)) meter.add(record);
  PoseErrorLog log;
  log.samples = meter.take_samples();
  log.beliefs = meter.beliefs();
  std::map<std::pair<int, uint32_t>, double> last;
  std::vector<double> gaps;
  for (const auto& sample : log.samples) {
    const auto key = std::make_pair(int(sample.team), sample.robot_id);
    const auto it = last.find(key);
    if (it != last.end() && sample.t > it->second) gaps.push_back(sample.t - it->second);
    last[key] = sample.t;
  }
  log.sample_period = runtime::median(std::move(gaps));
  return log;
}

}  // namespace robocaf::sim
