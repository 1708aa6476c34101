#include "deploy/perception_evaluation.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <stdexcept>
#include <vector>

#include <opencv2/core.hpp>

#include "actors/perception/detection_filter.hpp"
#include "actors/perception/image_detector.hpp"
#include "actors/perception/landmark_localiser.hpp"
#include "actors/perception/onboard_image_detector.hpp"
#include "actors/world_knowledge/world_tracker.hpp"
#include "messages/log.pb.h"
#include "runtime/angle.hpp"
#include "runtime/field_lines.hpp"
#include "runtime/game_log.hpp"
#include "runtime/statistics.hpp"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/camera/robot_markings.hpp"
#include "sim/random.hpp"

namespace robocaf::deploy {

namespace {

// A ball candidate this close to the true ball is the ball; farther, a false one.
constexpr double kBallMatch = 0.05;

struct SquareSum {
  double sum = 0.0;
  std::uint64_t n = 0;
  void add(double x) {
    sum += x * x;
    ++n;
  }
  double rms() const { return n ? std::sqrt(sum / static_cast<double>(n)) : 0.0; }
};

// Calls `use` with every `every`-th truth record of the log (the first one
// included), in order.
template <typename Use>
void for_each_nth_truth(runtime::GameLogReader& reader, std::uint64_t every, Use use) {
  msg::LogRecord record;
  std::uint64_t truths = 0;
  while (reader.next(record)) {
    if (!record.has_truth()) continue;
    if (truths++ % std::max<std::uint64_t>(every, 1) != 0) continue;
    use(record.truth());
  }
}

// Onboard: a candidate this close to the truth is it (5 x the 2 % target).
constexpr double kOnboardMatchShare = 0.10;
constexpr double kOnboardMatchMin = 0.10;  // m
double onboard_match_gate(double distance) { return std::max(kOnboardMatchMin, kOnboardMatchShare * distance); }

// Field frame -> the frame of a robot at `pose` (x forward, y left).
Eigen::Vector2d to_robot_frame(const msg::Pose2& pose, double x, double y) {
  const double c = std::cos(pose.theta()), s = std::sin(pose.theta());
  const double dx = x - pose.x(), dy = y - pose.y();
  return {c * dx + s * dy, -s * dx + c * dy};
}

// kFar: in the image at least in part, but beyond the camera's range.
enum class Visibility { kOut, kPartly, kFar, kClear };

// What a robot's camera shows of the ball or of another robot; see
// OnboardPerceptionScores for the rules.
class OnboardVisibility {
 public:
  OnboardVisibility(const msg::LeaguePreset& league, const msg::OnboardCameraSpec& spec,
                    const msg::CameraCalibration& robot_frame_calibration)
      : geometry_(sim::camera::scene_geometry(league)), camera_(robot_frame_calibration), range_(spec.range()) {}

  // The ball at robot-frame `ball` seen by `observer`, with the other robots
  // of `truth` as occluders.
  Visibility ball(const msg::WorldTruth& truth, const msg::RobotTruth& observer, const Eigen::Vector2d& ball) const {
    const double r = geometry_.ball_radius;
    const Visibility outline = outline_in_image({ball.x(), ball.y(), r}, r);
    if (outline == Visibility::kOut) return Visibility::kOut;
    const Cover cover = covered(truth, observer, nullptr, {ball.x(), ball.y(), r}, r);
    if (cover == Cover::kWhole) return Visibility::kOut;
    if (ball.norm() > range_) return Visibility::kFar;
    const double bx = truth.ball_position().x(), by = truth.ball_position().y();
    const bool in_goal = std::abs(bx) > geometry_.half_length - r && std::abs(by) < geometry_.goal_half_width + r;
    if (outline == Visibility::kPartly || in_goal || cover == Cover::kPart) return Visibility::kPartly;
    return Visibility::kClear;
  }

  // A goal whose posts stand at robot-frame `a` and `b` (floor points),
  // `height` tall and `thickness` wide: both in full view, near enough for
  // GoalPostDetector, and no robot in front of either.
  bool goal_clear(const msg::WorldTruth& truth, const msg::RobotTruth& observer, const Eigen::Vector2d& a,
                  const Eigen::Vector2d& b, double height, double thickness, double max_range) const {
    const cv::Size size = camera_.size();
    for (const Eigen::Vector2d& p : {a, b}) {
      if (p.norm() > max_range) return false;
      for (double z : {0.0, height}) {
        const auto pixel = camera_.project({p.x(), p.y(), z});
        if (!pixel || pixel->x < 1.0 || pixel->y < 1.0 || pixel->x > size.width - 2.0 || pixel->y > size.height - 2.0)
          return false;
      }
      if (covered(truth, observer, nullptr, {p.x(), p.y(), height / 2}, thickness) != Cover::kNone) return false;
    }
    return true;
  }

  // Another robot: its band (a vertical cylinder) in clear view.
  bool robot_clear(const msg::WorldTruth& truth, const msg::RobotTruth& observer, const msg::RobotTruth& other,
                   const Eigen::Vector2d& centre) const {
    const double band = 0.5 * (sim::camera::kTeamBandBottom + sim::camera::kTeamBandTop) * geometry_.robot_height;
    if (centre.norm() > range_) return false;
    if (outline_in_image({centre.x(), centre.y(), band}, geometry_.robot_radius) != Visibility::kClear) return false;
    return covered(truth, observer, &other, {centre.x(), centre.y(), geometry_.robot_height / 2},
                   geometry_.robot_radius) == Cover::kNone;
  }

 private:
  // A disc of `radius` at `centre` facing the camera (how the renderer draws
  // the ball): all, some or none of its rim inside the image.
  Visibility outline_in_image(const Eigen::Vector3d& centre, double radius) const {
    const Eigen::Vector3d ray = centre - camera_.position();
    Eigen::Vector3d u = ray.normalized().cross(Eigen::Vector3d::UnitZ());
    if (u.norm() < 1e-9) return Visibility::kOut;
    u.normalize();
    const Eigen::Vector3d v = ray.normalized().cross(u);
    const cv::Size size = camera_.size();
    int inside = 0;
    constexpr int kRimPoints = 16;
    for (int k = 0; k < kRimPoints; ++k) {
      const double a = 2.0 * runtime::kPi * k / kRimPoints;
      const auto pixel = camera_.project(centre + radius * (std::cos(a) * u + std::sin(a) * v));
      if (pixel && pixel->x >= 0.5 && pixel->y >= 0.5 && pixel->x <= size.width - 1.5 && pixel->y <= size.height - 1.5)
        ++inside;
    }
    return inside == kRimPoints ? Visibility::kClear : inside > 0 ? Visibility::kPartly : Visibility::kOut;
  }

  enum class Cover { kNone, kPart, kWhole };

  // How much of an object (anchor `anchor`, robot frame, horizontal
  // half-width `radius`) robots other than the observer and `self` paint
  // over: those nearer to the camera by anchor (the renderer's order) that
  // overlap it in bearing. A robot is taller than the camera, so it hides
  // everything behind it within its bearings; kWhole when one robot covers
  // all of the object's.
  Cover covered(const msg::WorldTruth& truth, const msg::RobotTruth& observer, const msg::RobotTruth* self,
                const Eigen::Vector3d& anchor, double radius) const {
    const Eigen::Vector3d eye = camera_.position();
    const double distance = (anchor - eye).norm();
    const Eigen::Vector2d flat(anchor.x() - eye.x(), anchor.y() - eye.y());
    const double bearing = std::atan2(flat.y(), flat.x());
    const double half = std::asin(std::min(1.0, radius / std::max(flat.norm(), radius)));
    const double pixel = 1.0 / camera_.calibration().fx();  // anti-aliased rims touch a pixel earlier
    Cover cover = Cover::kNone;
    for (const auto& r : truth.robots()) {
      if (&r == &observer || &r == self) continue;
      const Eigen::Vector2d c = to_robot_frame(observer.pose(), r.pose().x(), r.pose().y());
      const Eigen::Vector3d occluder_anchor(c.x(), c.y(), geometry_.robot_height / 2);
      if ((occluder_anchor - eye).norm() >= distance) continue;
      const Eigen::Vector2d occluder_flat(c.x() - eye.x(), c.y() - eye.y());
      const double occluder_half =
          std::asin(std::min(1.0, geometry_.robot_radius / std::max(occluder_flat.norm(), geometry_.robot_radius)));
      const double gap = std::abs(runtime::wrap_angle(std::atan2(occluder_flat.y(), occluder_flat.x()) - bearing));
      if (gap + half < occluder_half - pixel) return Cover::kWhole;
      if (gap < half + occluder_half + pixel) cover = Cover::kPart;
    }
    return cover;
  }

  sim::camera::SceneGeometry geometry_;
  sim::camera::CameraModel camera_;
  double range_ = 0.0;
};

// The percept an onboard robot's perception would make of its detected balls,
// with `self_pose` as its dead-reckoned pose (as OnboardFilter pairs frames
// with odometry). Robots are left out: without ids, WorldTracker could not
// associate them.
msg::Percept ball_percept(const msg::WorldTruth& truth, const msg::RobotTruth& robot, const msg::Pose2& self_pose,
                          const actors::OnboardDetections& detections) {
  msg::Percept percept;
  percept.set_cycle(truth.cycle());
  percept.set_t_capture(truth.t());
  percept.set_team(robot.team());
  percept.set_robot_id(robot.robot_id());
  *percept.mutable_self_pose() = self_pose;
  percept.set_self_dead_reckoned(true);
  for (const auto& candidate : detections.balls) {
    auto* ball = percept.add_balls();
    ball->mutable_position()->set_x(candidate.position.x());
    ball->mutable_position()->set_y(candidate.position.y());
    ball->set_confidence(candidate.confidence);
    ball->set_position_sd(candidate.position_sd);
  }
  return percept;
}

// World knowledge of every robot of a match, twice: from its own percepts
// only, and with its teammates' shares fused as the world-knowledge actor
// fuses them (runtime::CycleBuffer): a robot shares its estimate once per
// share period, and a share made in cycle k is fused from the first later
// cycle on, newest share of each teammate only, each once.
class SharingTrial {
 public:
  SharingTrial(const msg::LeaguePreset& league, std::uint64_t share_every)
      : league_(league), share_every_(std::max<std::uint64_t>(share_every, 1)) {}

  struct Estimates {
    msg::WorldEstimate own, shared;
  };

  /// One robot's percept of the current cycle -> both of its estimates at the
  /// percept's time.
  Estimates observe(const msg::Percept& percept) {
    const Key key{static_cast<int>(percept.team()), percept.robot_id()};
    Robot& robot = robots_[key];
    if (!robot.own) {
      robot.own.emplace(percept.team(), percept.robot_id(), league_);
      robot.shared.emplace(percept.team(), percept.robot_id(), league_);
    }
    robot.own->observe(percept);
    robot.shared->observe(percept);
    for (const auto& [mate, share] : shares_) {
      if (mate.first != key.first || mate.second == key.second || share.cycle >= percept.cycle()) continue;
      auto fused = robot.fused.find(mate.second);
      if (fused != robot.fused.end() && fused->second >= share.cycle) continue;
      robot.shared->fuse(share.estimate);
      robot.fused[mate.second] = share.cycle;
    }
    Estimates estimates{robot.own->estimate(percept.cycle(), percept.t_capture()),
                        robot.shared->estimate(percept.cycle(), percept.t_capture())};
    // With --every > 1 a share period may hold no evaluated cycle at all, so
    // a robot shares at its first cycle of each period.
    const std::uint64_t period = percept.cycle() / share_every_;
    if (!robot.last_share_period || period > *robot.last_share_period) {
      robot.last_share_period = period;
      outgoing_.push_back({key, Share{percept.cycle(), estimates.shared}});
    }
    return estimates;
  }

  /// After every robot's percept of a cycle: the cycle's shares go out.
  void end_cycle() {
    for (auto& [key, share] : outgoing_) shares_[key] = std::move(share);
    outgoing_.clear();
  }

 private:
  using Key = std::pair<int, std::uint32_t>;  // (team, robot id)
  struct Robot {
    std::optional<actors::WorldTracker> own, shared;
    std::optional<std::uint64_t> last_share_period;
    std::map<std::uint32_t, std::uint64_t> fused;  // teammate -> cycle of the newest share fused
  };
  struct Share {
    std::uint64_t cycle = 0;
    msg::WorldEstimate estimate;
  };

  msg::LeaguePreset league_;
  std::uint64_t share_every_;
  std::map<Key, Robot> robots_;
  std::map<Key, Share> shares_;  // newest share of each robot
  std::vector<std::pair<Key, Share>> outgoing_;
};

}  // namespace

PerceptionScores evaluate_overhead_perception(const std::string& log_path, std::uint64_t every) {
  runtime::GameLogReader reader{log_path};
  const msg::MatchConfig& config = reader.header().config();
  if (config.league().vision() != msg::VISION_GLOBAL)
    throw std::runtime_error(log_path + ": league '" + config.league().name() + "' has no global camera");
  sim::camera::OverheadImageRenderer renderer(config.league(), config.sim().global_camera(),
                                              sim::derive_seed(config.seed(), sim::camera::kOverheadImageStream));
  actors::ImageDetector detector(config.league(), renderer.calibration(), msg::ColourThresholds());
  actors::DetectionFilter filter(msg::BLUE, 1);
  actors::WorldTracker tracker(msg::BLUE, 1, config.league());

  SquareSum ball, robot, heading, tracked;
  std::uint64_t ball_frames = 0, robot_frames = 0, robots_right = 0;
  PerceptionScores scores;
  std::vector<double> frame_ms, tracked_errors;
  for_each_nth_truth(reader, every, [&](const msg::WorldTruth& truth) {
    const cv::Mat image = renderer.render(truth, truth.cycle());
    const auto start = std::chrono::steady_clock::now();
    const msg::DetectionFrame frame = detector.detect(image, truth.cycle() + 1, truth.t());
    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    ++scores.frames;

    const double bx = truth.ball_position().x(), by = truth.ball_position().y();
    double nearest = 1e300;
    for (const auto& b : frame.balls()) {
      const double d = std::hypot(b.x() - bx, b.y() - by);
      nearest = std::min(nearest, d);
      if (d > kBallMatch) ++scores.false_balls;
    }
    ++ball_frames;
    if (nearest <= kBallMatch) {
      ball.add(nearest);
      scores.ball_found += 1.0;
    }

    for (const auto& r : truth.robots()) {
      ++robot_frames;
      const auto& list = r.team() == msg::BLUE ? frame.robots_blue() : frame.robots_yellow();
      for (const auto& d : list) {
        if (d.robot_id() != r.robot_id()) continue;
        const double e = std::hypot(d.x() - r.pose().x(), d.y() - r.pose().y());
        if (e > config.league().robot().radius()) continue;  // right id, wrong place: not this robot
        ++robots_right;
        robot.add(e);
        heading.add(runtime::wrap_angle(d.orientation() - r.pose().theta()));
        break;
      }
    }
    for (const auto* list : {&frame.robots_blue(), &frame.robots_yellow()}) {
      const msg::Team team = list == &frame.robots_blue() ? msg::BLUE : msg::YELLOW;
      for (const auto& d : *list) {
        const bool real = std::any_of(truth.robots().begin(), truth.robots().end(), [&](const msg::RobotTruth& r) {
          return r.team() == team && r.robot_id() == d.robot_id();
        });
        if (!real) ++scores.false_robots;
      }
    }

    tracker.observe(filter.to_percept(frame));
    const msg::WorldEstimate estimate = tracker.estimate(truth.cycle(), truth.t());
    if (estimate.ball().valid()) {
      const double e = std::hypot(estimate.ball().position().x() - bx, estimate.ball().position().y() - by);
      tracked.add(e);
      tracked_errors.push_back(e);
    }
  });
  if (scores.frames == 0) throw std::runtime_error(log_path + ": no truth records to evaluate");
  std::sort(frame_ms.begin(), frame_ms.end());
  scores.frame_ms_median = frame_ms[frame_ms.size() / 2];
  scores.ball_rmse_mm = 1000.0 * ball.rms();
  scores.ball_found /= static_cast<double>(ball_frames);
  scores.robot_rmse_mm = 1000.0 * robot.rms();
  scores.heading_rmse_deg = heading.rms() * 180.0 / runtime::kPi;
  scores.id_accuracy = robot_frames ? static_cast<double>(robots_right) / static_cast<double>(robot_frames) : 0.0;
  scores.tracked_ball_rmse_mm = 1000.0 * tracked.rms();
  if (!tracked_errors.empty()) {
    std::nth_element(tracked_errors.begin(), tracked_errors.begin() + tracked_errors.size() / 2, tracked_errors.end());
    scores.tracked_ball_median_mm = 1000.0 * tracked_errors[tracked_errors.size() / 2];
  }
  return scores;
}

OnboardPerceptionScores evaluate_onboard_perception(const std::string& log_path, std::uint64_t every) {
  runtime::GameLogReader reader{log_path};
  const msg::MatchConfig& config = reader.header().config();
  if (config.league().vision() != msg::VISION_ONBOARD)
    throw std::runtime_error(log_path + ": league '" + config.league().name() + "' has no onboard cameras");
  const msg::LeaguePreset& league = config.league();
  const msg::OnboardCameraSpec& spec = config.sim().onboard_camera();
  const sim::camera::OnboardImageRenderer renderer(league, spec,
                                                   sim::derive_seed(config.seed(), sim::camera::kOnboardImageStream));
  // Every onboard camera sits on its robot the same way: one robot-frame
  // calibration (the camera at a robot standing at the origin, facing +x).
  const msg::CameraCalibration calibration = renderer.calibration_for(msg::Pose2());
  actors::OnboardImageDetector detector(league, calibration, config.colour_thresholds());
  const OnboardVisibility visibility(league, spec, calibration);

  const double period = config.sim().control_period();
  const std::uint64_t share_every =
      period > 0 && config.share_period() > 0
          ? std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(config.share_period() / period)))
          : 1;
  const double robot_radius = sim::camera::scene_geometry(league).robot_radius;

  OnboardPerceptionScores scores;
  scores.usable_ball_error_m = 2.0 * robot_radius;

  SharingTrial sharing(league, share_every);

  std::vector<double> frame_ms, error_pct, robot_error_pct;
  SquareSum error_sq;
  std::uint64_t partly = 0, found_clear = 0, found_partly = 0, robots_clear = 0, robots_found = 0;
  std::uint64_t known_own = 0, known_shared = 0;
  // Goal posts: landmark points in the field (vision.proto's indices).
  const actors::LandmarkLocaliser field_points(league.field());
  const sim::camera::SceneGeometry scene = sim::camera::scene_geometry(league);
  const double goal_range = actors::GoalPostDetector(league.field(), calibration).max_range();
  std::vector<double> landmark_pct;
  SquareSum landmark_sq;
  std::uint64_t goals_found = 0;
  const runtime::FieldLines lines(league.field());
  std::vector<double> line_pct;
  SquareSum line_sq;
  std::uint64_t line_points = 0;
  for_each_nth_truth(reader, every, [&](const msg::WorldTruth& truth) {
    ++scores.frames;
    for (const msg::RobotTruth& robot : truth.robots()) {
      ++scores.robot_frames;
      const cv::Mat image = renderer.render(truth, robot.team(), robot.robot_id(), truth.cycle());
      const auto start = std::chrono::steady_clock::now();
      const actors::OnboardDetections detections = detector.detect(image);
      frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());

      // The ball.
      const Eigen::Vector2d ball = to_robot_frame(robot.pose(), truth.ball_position().x(), truth.ball_position().y());
      const double distance = ball.norm();
      const double gate = onboard_match_gate(distance);
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& candidate : detections.balls) {
        const double e = (candidate.position - ball).norm();
        nearest = std::min(nearest, e);
        if (e > gate) ++scores.false_balls;
      }
      const Visibility seen = visibility.ball(truth, robot, ball);
      if (seen == Visibility::kClear) {
        ++scores.ball_clear_view;
        if (nearest <= gate) {
          ++found_clear;
          const double pct = 100.0 * nearest / distance;
          error_sq.add(pct);
          error_pct.push_back(pct);
        }
      } else if (seen == Visibility::kPartly) {
        ++partly;
        if (nearest <= gate) ++found_partly;
      }

      // Other robots.
      for (const msg::RobotTruth& other : truth.robots()) {
        if (&other == &robot) continue;
        const Eigen::Vector2d centre = to_robot_frame(robot.pose(), other.pose().x(), other.pose().y());
        if (!visibility.robot_clear(truth, robot, other, centre)) continue;
        ++robots_clear;
        double best = std::numeric_limits<double>::infinity();
        for (const auto& candidate : detections.robots)
          if (candidate.team == other.team()) best = std::min(best, (candidate.position - centre).norm());
        if (best <= kOnboardMatchShare * centre.norm()) {
          ++robots_found;
          robot_error_pct.push_back(100.0 * best / centre.norm());
        }
      }

      // Goal posts. Each detected goal as the +x goal (left post 1, right 0)
      // or the -x one (2, 3), whichever fits; each goal in clear view is
      // found when a detected goal fits it within 10 % of the distance.
      auto post = [&](std::uint32_t index) {
        const Eigen::Vector2d f = *field_points.field_position(msg::LANDMARK_GOAL_POST, index);
        return to_robot_frame(robot.pose(), f.x(), f.y());
      };
      std::array<bool, 2> matched{false, false};
      for (const auto& goal : detections.goals) {
        bool any = false;
        for (int g = 0; g < 2; ++g) {
          const Eigen::Vector2d left = post(g == 0 ? 1 : 2), right = post(g == 0 ? 0 : 3);
          const double e_left = (goal.left - left).norm() / left.norm();
          const double e_right = (goal.right - right).norm() / right.norm();
          if (std::max(e_left, e_right) > kOnboardMatchShare) continue;
          any = true;
          if (!matched[static_cast<size_t>(g)]) {
            matched[static_cast<size_t>(g)] = true;
            for (double e : {e_left, e_right}) {
              landmark_pct.push_back(100.0 * e);
              landmark_sq.add(100.0 * e);
            }
          }
        }
        if (!any) ++scores.false_goals;
      }
      for (int g = 0; g < 2; ++g) {
        const Eigen::Vector2d left = post(g == 0 ? 1 : 2), right = post(g == 0 ? 0 : 3);
        if (!visibility.goal_clear(truth, robot, left, right, scene.goal_height, scene.post_thickness, goal_range))
          continue;
        ++scores.goal_clear_view;
        goals_found += matched[static_cast<size_t>(g)];
      }

      // Field-line points.
      const double c = std::cos(robot.pose().theta()), sn = std::sin(robot.pose().theta());
      for (const Eigen::Vector2d& q : detections.line_points) {
        ++line_points;
        const Eigen::Vector2d field(robot.pose().x() + c * q.x() - sn * q.y(),
                                    robot.pose().y() + sn * q.x() + c * q.y());
        const double off = lines.nearest(field).distance;
        if (off > OnboardPerceptionScores::kLinePointOff) ++scores.line_points_off;
        const double pct = 100.0 * off / std::max(q.norm(), 1e-9);
        line_pct.push_back(pct);
        line_sq.add(pct);
      }

      // World knowledge, own and shared. The true pose stands in for
      // odometry (see the header).
      const SharingTrial::Estimates estimates = sharing.observe(ball_percept(truth, robot, robot.pose(), detections));
      auto usable = [&](const msg::WorldEstimate& e) {
        return e.ball().valid() && std::hypot(e.ball().position().x() - truth.ball_position().x(),
                                              e.ball().position().y() - truth.ball_position().y()) <=
                                       scores.usable_ball_error_m;
      };
      known_own += usable(estimates.own);
      known_shared += usable(estimates.shared);
    }
    sharing.end_cycle();
  });
  if (scores.frames == 0) throw std::runtime_error(log_path + ": no truth records to evaluate");
  const double samples = static_cast<double>(std::max<std::uint64_t>(scores.robot_frames, 1));
  scores.ball_error_pct_of_distance = error_sq.rms();
  scores.ball_error_pct_median = runtime::median(error_pct);
  scores.ball_found_in_view =
      scores.ball_clear_view ? static_cast<double>(found_clear) / static_cast<double>(scores.ball_clear_view) : 0.0;
  scores.ball_found_partly_in_view = partly ? static_cast<double>(found_partly) / static_cast<double>(partly) : 0.0;
  scores.robot_found_in_view = robots_clear ? static_cast<double>(robots_found) / static_cast<double>(robots_clear) : 0.0;
  scores.robot_error_pct_median = runtime::median(robot_error_pct);
  scores.frame_ms_median = runtime::median(frame_ms);
  scores.ball_known_own = static_cast<double>(known_own) / samples;
  scores.ball_known_shared = static_cast<double>(known_shared) / samples;
  scores.goal_found_in_view =
      scores.goal_clear_view ? static_cast<double>(goals_found) / static_cast<double>(scores.goal_clear_view) : 0.0;
  scores.landmark_error_pct = landmark_sq.rms();
  scores.landmark_error_pct_median = runtime::median(landmark_pct);
  scores.line_points_per_image = static_cast<double>(line_points) / samples;
  scores.line_point_error_pct = line_sq.rms();
  scores.line_point_error_pct_median = runtime::median(line_pct);
  return scores;
}

}  // namespace robocaf::deploy
