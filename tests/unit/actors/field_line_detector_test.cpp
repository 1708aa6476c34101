// Field line points on images the simulator renders from hand-made scenes
// (MSL preset: its onboard camera, lighting gradient and pixel noise),
// checked against the field's true lines.
#include "actors/perception/field_line_detector.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/field_lines.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/robot_markings.hpp"
#include "sim/random.hpp"
#include "tests/unit/actors/geometry_test_helpers.hpp"
#include "tests/unit/sim/sim_test_helpers.hpp"

namespace robocaf::actors {
namespace {

using runtime::kPi;

using sim::testing::pose;
using testing::segment_distance;
using testing::to_field;
using testing::to_robot;

std::string where(const msg::Pose2& p) {
  return "observer (" + std::to_string(p.x()) + ", " + std::to_string(p.y()) + ", " + std::to_string(p.theta()) + ")";
}

class FieldLineDetectorTest : public ::testing::Test {
 protected:
  FieldLineDetectorTest()
      : match_(runtime::preset_match_config("msl")),
        renderer_(match_.league(), match_.sim().onboard_camera(),
                  sim::derive_seed(match_.seed(), sim::camera::kOnboardImageStream)),
        detector_(match_.league().field(), renderer_.calibration_for(msg::Pose2())),
        lines_(match_.league().field()),
        eye_height_(match_.sim().onboard_camera().mount_height()),
        robot_radius_(match_.league().robot().radius()),
        ball_radius_(match_.league().ball().radius()) {}

  // The image of blue 1 at `observer`, yellow robots at `others`, the ball
  // at `ball` (field frame; default far off the field, out of every view).
  cv::Mat render(const msg::Pose2& observer, const std::vector<Eigen::Vector2d>& others = {},
                 const Eigen::Vector2d& ball = {0.0, -30.0}, std::uint64_t frame = 1) const {
    msg::WorldTruth truth;
    auto add = [&](msg::Team team, std::uint32_t id, const msg::Pose2& p) {
      auto* r = truth.add_robots();
      r->set_team(team);
      r->set_robot_id(id);
      *r->mutable_pose() = p;
    };
    add(msg::BLUE, 1, observer);
    std::uint32_t id = 1;
    for (const auto& o : others) {
      add(msg::YELLOW, id, pose(o.x(), o.y(), 0.4 * id));
      ++id;
    }
    truth.mutable_ball_position()->set_x(ball.x());
    truth.mutable_ball_position()->set_y(ball.y());
    return renderer_.render(truth, msg::BLUE, 1, frame);
  }

  // Tolerance for a point `distance` metres away: 2.5 % of it, at least 4 cm
  // (near points: the renderer's anti-aliased rims and the corners where two
  // lines meet).
  static double tolerance(double distance) { return std::max(0.04, 0.025 * distance); }

  // Error of each point: distance of its field position (true observer pose)
  // to the nearest true line, over the point's distance.
  struct Errors {
    double worst_share = 0.0, worst_metres = 0.0, sum_share = 0.0;
    int count = 0;
  };
  void expect_on_lines(const msg::Pose2& observer, const std::vector<Eigen::Vector2d>& points, Errors& errors) const {
    for (const auto& p : points) {
      const double off = lines_.nearest(to_field(observer, p)).distance;
      EXPECT_LT(off, tolerance(p.norm())) << where(observer) << ": point " << p.transpose() << " at "
                                          << to_field(observer, p).transpose() << " is " << off << " m off a line";
      errors.worst_share = std::max(errors.worst_share, off / p.norm());
      errors.worst_metres = std::max(errors.worst_metres, off);
      errors.sum_share += off / p.norm();
      ++errors.count;
    }
  }

  // The true crossings of the detector's scans with the lines, robot frame,
  // nearest first, at most max_points_per_scan per scan, leaving out those
  // the method does not promise (a line within 20 deg of the scan's
  // direction, a crossing within two line widths of the scan's ends or of
  // another crossing).
  std::vector<Eigen::Vector2d> expected_crossings(const msg::Pose2& observer) const {
    std::vector<Eigen::Vector2d> out;
    const double w = detector_.line_width();
    for (const FieldLineScan& scan : detector_.scans()) {
      const Eigen::Vector2d a = to_field(observer, scan.near), b = to_field(observer, scan.far);
      const double length = (b - a).norm();
      const Eigen::Vector2d dir = (b - a) / length;
      const std::vector<double> hits = lines_.crossings(a, dir, length);
      int taken = 0;
      for (size_t i = 0; i < hits.size() && taken < detector_.max_points_per_scan(); ++i) {
        const double t = hits[i];
        ++taken;  // the detector's cap counts every crossing it finds, nearest first
        if (t < 2 * w || t > length - 2 * w) continue;
        if ((i > 0 && t - hits[i - 1] < 2 * w) || (i + 1 < hits.size() && hits[i + 1] - t < 2 * w)) continue;
        const Eigen::Vector2d c = a + t * dir;
        if (sine_to_line(c, dir) < std::sin(20.0 * kPi / 180.0)) continue;
        out.push_back(to_robot(observer, c));
      }
    }
    return out;
  }

  // The scan whose floor trace `p` (robot frame) lies on.
  static size_t scan_of(const FieldLineDetector& detector, const Eigen::Vector2d& p) {
    const auto& scans = detector.scans();
    size_t best = 0;
    double best_distance = 1e9;
    for (size_t k = 0; k < scans.size(); ++k) {
      const double d = segment_distance<Eigen::Vector2d>(scans[k].near, scans[k].far, p);
      if (d < best_distance) best_distance = d, best = k;
    }
    EXPECT_LT(best_distance, 0.005) << "point " << p.transpose() << " is on no scan";
    return best;
  }

  // sin of the angle between the lines and direction `u` at field point
  // `c` on a line, from the distance to the line a little way along u on
  // either side.
  double sine_to_line(const Eigen::Vector2d& c, const Eigen::Vector2d& u) const {
    const double probe = 0.2;
    return std::min(lines_.nearest(c + probe * u).distance, lines_.nearest(c - probe * u).distance) / probe;
  }

  // How many of `expected` have a detected point within tolerance.
  static int matched(const std::vector<Eigen::Vector2d>& expected, const std::vector<Eigen::Vector2d>& points) {
    int n = 0;
    for (const auto& e : expected)
      n += std::any_of(points.begin(), points.end(),
                       [&](const Eigen::Vector2d& p) { return (p - e).norm() < 2 * tolerance(e.norm()); });
    return n;
  }

  msg::MatchConfig match_;
  sim::camera::OnboardImageRenderer renderer_;
  FieldLineDetector detector_;
  runtime::FieldLines lines_;
  double eye_height_ = 0, robot_radius_ = 0, ball_radius_ = 0;
};

TEST_F(FieldLineDetectorTest, LineWidthAndColoursMatchTheSimulator) {
  EXPECT_EQ(FieldLineDetector::kLineWidthPerLength, sim::camera::kLineWidthPerLength);
  EXPECT_DOUBLE_EQ(detector_.line_width(), sim::camera::scene_geometry(match_.league()).line_width);
  // With the lighting gradient (+-5 %) and four noise sds: lines are runs,
  // the grey hall floor, the nets and anything dark are not carpet, the
  // carpet is.
  const double lo = 1 - match_.sim().onboard_camera().image().lighting_gradient() / 2;
  const double hi = 1 + match_.sim().onboard_camera().image().lighting_gradient() / 2;
  const double noise = 4 * match_.sim().onboard_camera().image().noise_sd();
  auto darkest = [](const cv::Scalar& c) { return std::min({c[0], c[1], c[2]}); };
  auto greenness = [](const cv::Scalar& c) { return c[1] - std::max(c[0], c[2]); };
  EXPECT_GE(darkest(sim::camera::kLineColour) * lo - noise, FieldLineDetector::kRunMin);
  EXPECT_LT(darkest(sim::camera::kFloorColour) * hi + noise, FieldLineDetector::kRunMin);
  EXPECT_LT(darkest(sim::camera::kFieldColour) * hi + noise, FieldLineDetector::kCarpetMaxWhiteness);
  EXPECT_GE(greenness(sim::camera::kFieldColour) * lo - 2 * noise, FieldLineDetector::kCarpetMinGreenness);
  for (const cv::Scalar& other : {sim::camera::kFloorColour, sim::camera::kGoalNetColour, sim::camera::kSkyColour,
                                  sim::camera::kRobotBodyColour, sim::camera::kBallColour,
                                  sim::camera::kBlueTeamColour, sim::camera::kYellowTeamColour})
    EXPECT_LT(greenness(other) * hi + 2 * noise, FieldLineDetector::kCarpetMinGreenness) << other;
}

TEST_F(FieldLineDetectorTest, ScansRunFromTheImageBottomToMaxRange) {
  const auto& scans = detector_.scans();
  ASSERT_EQ(scans.size(), static_cast<size_t>(FieldLineDetector::kDefaultColumns));
  for (size_t k = 0; k < scans.size(); ++k) {
    if (k > 0) {
      EXPECT_GT(scans[k].column, scans[k - 1].column);
    }
    EXPECT_EQ(scans[k].bottom_row, renderer_.size().height - 1);
    EXPECT_LT(scans[k].top_row, scans[k].bottom_row);
    EXPECT_LT(scans[k].near.norm(), 1.0);  // MSL: the image's bottom is ~0.6 m ahead
    EXPECT_LE(scans[k].far.norm(), detector_.max_range());
    EXPECT_GT(scans[k].far.norm(), detector_.max_range() - 0.2);
    EXPECT_GT(scans[k].far.x(), scans[k].near.x());
  }
}

// Views across the field: every point lies on a true line (within 2.5 % of
// its distance, 4 cm near by), and most crossings of the scans with the
// lines are found.
TEST_F(FieldLineDetectorTest, PointsLieOnTheLinesAndMostCrossingsAreFound) {
  const std::vector<msg::Pose2> views{
      pose(-1.0, 0.5, 0.1),      // by the centre circle, facing the +x goal
      pose(-2.5, -1.0, 0.6),     // the circle and the halfway line at an angle
      pose(1.0, 2.0, 2.3),       // the circle from the other side
      pose(2.0, -4.2, -1.0),     // near the -y touch line, at an angle
      pose(-5.0, 4.0, 2.0),      // near the +y touch line, towards the -x half
      pose(6.0, 1.0, 0.2),       // facing the +x goal area and goal
      pose(-6.5, -1.5, -2.6),    // facing the -x goal area at an angle
      pose(-6.5, 4.2, 2.7),      // towards the -x, +y corner
      pose(0.0, -5.0, kPi / 2),  // on the halfway line, along it (no points from it): the circle
  };
  Errors errors;
  int total_expected = 0, total_matched = 0, total_points = 0;
  std::uint64_t frame = 1;
  for (const auto& observer : views) {
    const std::vector<Eigen::Vector2d> points = detector_.detect(render(observer, {}, {0.0, -30.0}, frame++));
    expect_on_lines(observer, points, errors);
    const std::vector<Eigen::Vector2d> expected = expected_crossings(observer);
    const int found = matched(expected, points);
    std::cout << where(observer) << ": " << points.size() << " points, " << found << " of " << expected.size()
              << " crossings\n";
    EXPECT_GE(found, 0.8 * static_cast<double>(expected.size())) << where(observer);
    total_expected += static_cast<int>(expected.size());
    total_matched += found;
    total_points += static_cast<int>(points.size());
  }
  EXPECT_GE(total_expected, 100);  // the views do show lines
  EXPECT_GE(total_matched, 0.9 * total_expected);
  std::cout << total_points << " points in " << views.size() << " views; " << total_matched << " of "
            << total_expected << " crossings found; error mean "
            << 100.0 * errors.sum_share / std::max(1, errors.count) << " %, worst " << 100.0 * errors.worst_share
            << " % of the distance, " << errors.worst_metres << " m\n";
}

// A robot standing between the camera and a line hides the line behind it:
// no point is seen through the robot, the points there without the robot
// (the control) are gone, and the robot itself gives none.
TEST_F(FieldLineDetectorTest, ARobotInFrontHidesTheLineBehindIt) {
  const msg::Pose2 observer = pose(2.0, -3.5, -kPi / 2);  // facing the -y touch line 2.5 m off
  const Eigen::Vector2d robot(2.1, -4.8);
  const std::vector<Eigen::Vector2d> free = detector_.detect(render(observer));
  const std::vector<Eigen::Vector2d> hidden = detector_.detect(render(observer, {robot}));
  const Eigen::Vector2d eye(observer.x(), observer.y());
  auto behind = [&](const Eigen::Vector2d& p) {
    return segment_distance<Eigen::Vector2d>(eye, to_field(observer, p), robot) < robot_radius_;
  };
  const auto behind_free = std::count_if(free.begin(), free.end(), behind);
  EXPECT_GE(behind_free, 3) << "the control sees the line where the robot will stand";
  Errors errors;
  expect_on_lines(observer, hidden, errors);
  for (const auto& p : hidden) {
    EXPECT_FALSE(behind(p)) << "point " << to_field(observer, p).transpose() << " seen through the robot";
    EXPECT_GT((to_field(observer, p) - robot).norm(), robot_radius_ + 0.05);
  }
  // The line beside the robot is still seen.
  EXPECT_GE(hidden.size() + static_cast<size_t>(behind_free), free.size() - 2);
  EXPECT_LT(hidden.size(), free.size());
}

// Robots and the ball on the carpet, on and next to lines, and a goal's posts
// and nets: no point on any of them, every point on a line.
TEST_F(FieldLineDetectorTest, NoPointsOnTheBallRobotsOrGoals) {
  struct Scene {
    msg::Pose2 observer;
    std::vector<Eigen::Vector2d> robots;
    Eigen::Vector2d ball;
  };
  const std::vector<Scene> scenes{
      // Ball on the carpet, robots between the lines.
      {pose(-4.0, 0.0, 0.0), {{-1.5, 1.0}, {-2.0, -1.2}}, {-2.5, 0.3}},
      // Ball on the halfway line, a robot on the circle.
      {pose(-3.0, 1.0, 0.0), {{-1.5, -1.0}}, {0.0, 1.0}},
      // Facing the +x goal from 3.5 m: goal line, area, posts and nets; a
      // robot in the goal area, the ball on the goal area's line.
      {pose(5.5, 0.3, 0.0), {{8.5, -0.5}}, {8.25, 1.2}},
      // The -x goal at an angle, the ball on the goal line by a post.
      {pose(-5.0, -2.0, -2.8), {}, {-9.0, -1.2}},
      // 1.5 m from the +x goal's -y post, a scan grazing the foot of its
      // side net (light grey, as bright as white partly covering a pixel).
      {pose(7.516579, -1.334674, -0.426504), {}, {0.0, -30.0}},
  };
  Errors errors;
  std::uint64_t frame = 1;
  for (const auto& scene : scenes) {
    const std::vector<Eigen::Vector2d> points =
        detector_.detect(render(scene.observer, scene.robots, scene.ball, frame++));
    EXPECT_GE(points.size(), 10u) << where(scene.observer);
    expect_on_lines(scene.observer, points, errors);
    const Eigen::Vector3d eye(scene.observer.x(), scene.observer.y(), eye_height_);
    const Eigen::Vector3d ball(scene.ball.x(), scene.ball.y(), ball_radius_);
    for (const auto& p : points) {
      const Eigen::Vector2d f = to_field(scene.observer, p);
      for (const auto& r : scene.robots) {
        EXPECT_GE(segment_distance<Eigen::Vector2d>(eye.head<2>(), f, r), robot_radius_)
            << where(scene.observer) << ": point " << f.transpose() << " on or behind the robot at " << r.transpose();
      }
      EXPECT_GE(segment_distance<Eigen::Vector3d>(eye, {f.x(), f.y(), 0.0}, ball), ball_radius_)
          << where(scene.observer) << ": point " << f.transpose() << " on or behind the ball";
    }
  }
}

// A robot standing on a line and the ball just behind one hide the line's far
// edge in the scans through them while its near edge shows: no point there
// (the middle of the visible part would be off the line's middle), so every
// point's whole crossing along its scan is in view.
TEST_F(FieldLineDetectorTest, NoPointWhereAScanSeesOnlyPartOfACrossing) {
  struct Scene {
    msg::Pose2 observer;
    Eigen::Vector2d robot, ball;  // field frame
  };
  const double w = detector_.line_width();
  const std::vector<Scene> scenes{
      // Facing the -y touch line 2.5 m off, a robot on it, its near side on the line's middle.
      {pose(2.0, -3.5, -kPi / 2), {1.6, -6.0 - robot_radius_}, {0.0, -30.0}},
      // Facing the halfway line 3 m off, the ball touching the floor just past its middle.
      {pose(-3.0, 1.0, 0.0), {-30.0, 0.0}, {0.012, 1.0}},
      {pose(-2.0, -1.5, 0.3), {-30.0, 0.0}, {0.012, -0.9}},
  };
  int partial = 0, points_checked = 0;
  std::uint64_t frame = 1;
  for (const auto& scene : scenes) {
    const Eigen::Vector3d eye(scene.observer.x(), scene.observer.y(), eye_height_);
    const Eigen::Vector3d ball(scene.ball.x(), scene.ball.y(), ball_radius_);
    auto visible = [&](const Eigen::Vector2d& f) {  // robots are taller than the camera
      return segment_distance<Eigen::Vector2d>(eye.head<2>(), f, scene.robot) >= robot_radius_ &&
             segment_distance<Eigen::Vector3d>(eye, {f.x(), f.y(), 0.0}, ball) >= ball_radius_;
    };
    // Both edges of the line's crossing with the scan through field point c.
    auto edges_visible = [&](const Eigen::Vector2d& c, const Eigen::Vector2d& u, bool& near, bool& far) {
      const double half = 0.5 * w / std::max(0.25, sine_to_line(c, u)) + 0.01;
      near = visible(c - half * u);
      far = visible(c + half * u);
    };
    auto direction = [&](const FieldLineScan& scan) {
      return Eigen::Vector2d((to_field(scene.observer, scan.far) - to_field(scene.observer, scan.near)).normalized());
    };
    // The scenes do hide part of some crossings.
    for (const FieldLineScan& scan : detector_.scans()) {
      const Eigen::Vector2d a = to_field(scene.observer, scan.near), u = direction(scan);
      for (double t : lines_.crossings(a, u, (to_field(scene.observer, scan.far) - a).norm())) {
        bool near = false, far = false;
        edges_visible(a + t * u, u, near, far);
        partial += near && !far;
      }
    }
    const std::vector<Eigen::Vector2d> points =
        detector_.detect(render(scene.observer, {scene.robot}, scene.ball, frame++));
    EXPECT_GE(points.size(), 10u);
    for (const auto& p : points) {
      const Eigen::Vector2d f = to_field(scene.observer, p);
      bool near = false, far = false;
      edges_visible(f, direction(detector_.scans()[scan_of(detector_, p)]), near, far);
      EXPECT_TRUE(near && far) << where(scene.observer) << ": point " << f.transpose()
                               << " of a crossing seen only in part";
      ++points_checked;
    }
  }
  EXPECT_GE(partial, 4) << "the scenes should hide part of some crossings";
  std::cout << partial << " crossings partly hidden, " << points_checked << " points checked\n";
}

// The width check, on a drawn image: white bars across the view on plain
// carpet, a line's width (found), six line widths deep (rejected: no line
// crossed at over ~15 deg is that long) and a fifth of a line's width near by,
// where that is five pixels too few (rejected).
TEST_F(FieldLineDetectorTest, RejectsWhiteRunsOfTheWrongWidth) {
  const CameraGeometry camera(renderer_.calibration_for(msg::Pose2()));
  const double w = detector_.line_width();
  cv::Mat image(camera.size(), CV_8UC3, sim::camera::kFieldColour);
  // Robot frame: x from x - depth / 2 to x + depth / 2, across the whole view.
  auto bar = [&](double x, double depth) {
    std::vector<cv::Point> corners;
    for (const auto& [cx, cy] : {std::pair{x - depth / 2, -4.0}, {x + depth / 2, -4.0}, {x + depth / 2, 4.0},
                                 {x - depth / 2, 4.0}}) {
      const cv::Point2d p = *camera.field_to_pixel({cx, cy}, 0.0);
      corners.emplace_back(static_cast<int>(std::lround(p.x * 16)), static_cast<int>(std::lround(p.y * 16)));
    }
    cv::fillConvexPoly(image, corners, sim::camera::kLineColour, cv::LINE_AA, 4);
  };
  bar(1.0, 0.2 * w);
  bar(1.5, w);
  bar(2.5, 6.0 * w);
  bar(4.0, w);
  const std::vector<Eigen::Vector2d> points = detector_.detect(image);
  int at_line = 0, at_far_line = 0;
  for (const auto& p : points) {
    EXPECT_TRUE(std::abs(p.x() - 1.5) < 0.02 || std::abs(p.x() - 4.0) < 0.06) << "point " << p.transpose();
    at_line += std::abs(p.x() - 1.5) < 0.02;
    at_far_line += std::abs(p.x() - 4.0) < 0.06;
  }
  EXPECT_EQ(at_line, static_cast<int>(detector_.scans().size()));
  EXPECT_GE(at_far_line, static_cast<int>(detector_.scans().size()) - 2);
}

// Far lines are thin: the default range stops where they are about a pixel.
TEST_F(FieldLineDetectorTest, NoPointBeyondMaxRange) {
  FieldLineDetector near(match_.league().field(), renderer_.calibration_for(msg::Pose2()), 3.0);
  const msg::Pose2 observer = pose(-2.5, -1.0, 0.6);
  const cv::Mat image = render(observer);
  const std::vector<Eigen::Vector2d> all = detector_.detect(image), close = near.detect(image);
  EXPECT_GT(all.size(), close.size());
  EXPECT_FALSE(close.empty());
  for (const auto& p : close) EXPECT_LE(p.norm(), 3.0);
  for (const auto& p : all) EXPECT_LE(p.norm(), detector_.max_range());
  EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const Eigen::Vector2d& p) { return p.norm() > 3.5; }));
}

// With one point per scan, each scan's point is its nearest crossing: the
// same as the first of that scan's points with three.
TEST_F(FieldLineDetectorTest, AtMostMaxPointsPerScanNearestFirst) {
  FieldLineDetector one(match_.league().field(), renderer_.calibration_for(msg::Pose2()), detector_.max_range(),
                        FieldLineDetector::kDefaultColumns, 1);
  ASSERT_EQ(one.scans().size(), detector_.scans().size());
  const msg::Pose2 observer = pose(6.0, 1.0, 0.2);  // the goal area's line, the goal line behind it
  const cv::Mat image = render(observer);
  const std::vector<Eigen::Vector2d> firsts = one.detect(image), all = detector_.detect(image);
  auto scan_of = [&](const Eigen::Vector2d& p) { return FieldLineDetectorTest::scan_of(detector_, p); };
  std::vector<std::vector<Eigen::Vector2d>> per_scan(detector_.scans().size());
  for (const auto& p : all) per_scan[scan_of(p)].push_back(p);
  size_t with_points = 0, with_two = 0;
  for (const auto& points : per_scan) {
    with_points += !points.empty();
    with_two += points.size() >= 2;
    for (size_t i = 1; i < points.size(); ++i) EXPECT_GT(points[i].norm(), points[i - 1].norm()) << "nearest first";
  }
  EXPECT_GE(with_two, 10u) << "the view shows two lines in most scans";
  ASSERT_EQ(firsts.size(), with_points);
  for (const auto& p : firsts) {
    const auto& points = per_scan[scan_of(p)];
    ASSERT_FALSE(points.empty());
    EXPECT_LT((p - points.front()).norm(), 1e-9);
  }
}

// The same scenes through a lens with barrel distortion (the SSL preset's):
// the scans' pixels are undistorted in the constructor.
TEST_F(FieldLineDetectorTest, WorksThroughADistortingLens) {
  msg::OnboardCameraSpec spec = match_.sim().onboard_camera();
  spec.mutable_image()->clear_distortion();
  for (double k : {-0.1, 0.02, 0.0, 0.0, 0.0}) spec.mutable_image()->add_distortion(k);
  const sim::camera::OnboardImageRenderer renderer(match_.league(), spec, 5);
  FieldLineDetector detector(match_.league().field(), renderer.calibration_for(msg::Pose2()));
  Errors errors;
  int expected = 0, found = 0;
  for (const auto& observer : {pose(-2.5, -1.0, 0.6), pose(6.0, 1.0, 0.2), pose(-6.5, 4.2, 2.7)}) {
    msg::WorldTruth truth;
    auto* r = truth.add_robots();
    r->set_team(msg::BLUE);
    r->set_robot_id(1);
    *r->mutable_pose() = observer;
    truth.mutable_ball_position()->set_y(-30.0);
    const std::vector<Eigen::Vector2d> points = detector.detect(renderer.render(truth, msg::BLUE, 1, 1));
    expect_on_lines(observer, points, errors);
    // Crossings along the scans' (now curved) floor traces: each point must
    // be near one, and most crossings near the image's middle are found.
    int near_middle = 0, matched_here = 0;
    for (const auto& scan : detector.scans()) {
      if (std::abs(scan.column - renderer.size().width / 2) > renderer.size().width / 4) continue;
      const Eigen::Vector2d a = to_field(observer, scan.near), b = to_field(observer, scan.far);
      for (double t : lines_.crossings(a, (b - a).normalized(), (b - a).norm())) {
        const Eigen::Vector2d c = to_robot(observer, a + t * (b - a).normalized());
        ++near_middle;
        matched_here += std::any_of(points.begin(), points.end(), [&](const Eigen::Vector2d& p) {
          return (p - c).norm() < 0.1 + 0.05 * c.norm();
        });
      }
    }
    expected += near_middle;
    found += matched_here;
  }
  EXPECT_GE(errors.count, 60);
  EXPECT_GE(found, 0.8 * expected);
  std::cout << "distorted lens: " << errors.count << " points, worst " << 100.0 * errors.worst_share
            << " % of the distance; " << found << " of " << expected << " crossings near the middle\n";
}

TEST_F(FieldLineDetectorTest, FillsFrameLinePoints) {
  msg::OnboardFrame frame;
  FieldLineDetector::to_line_points({{1.0, 2.0}, {3.0, -0.5}}, frame);
  ASSERT_EQ(frame.line_points_size(), 2);
  EXPECT_EQ(frame.line_points(1).x(), 3.0);
  EXPECT_EQ(frame.line_points(1).y(), -0.5);
}

TEST_F(FieldLineDetectorTest, RejectsBadImagesAndSettings) {
  auto message = [&](const cv::Mat& image) {
    try {
      detector_.detect(image);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message(cv::Mat()).find("empty"), std::string::npos);
  EXPECT_NE(message(cv::Mat(480, 640, CV_8UC1, cv::Scalar(0))).find("CV_8UC3"), std::string::npos);
  EXPECT_NE(message(cv::Mat(480, 640, CV_8UC4, cv::Scalar(0))).find("CV_8UC3"), std::string::npos);
  EXPECT_NE(message(cv::Mat(240, 320, CV_8UC3, cv::Scalar(0))).find("size"), std::string::npos);
  const msg::CameraCalibration calibration = renderer_.calibration_for(msg::Pose2());
  const msg::FieldGeometry& field = match_.league().field();
  EXPECT_THROW(FieldLineDetector(field, calibration, 0.0), std::invalid_argument);
  EXPECT_THROW(FieldLineDetector(field, calibration, 6.0, 0), std::invalid_argument);
  EXPECT_THROW(FieldLineDetector(field, calibration, 6.0, 32, 0), std::invalid_argument);
  EXPECT_THROW(FieldLineDetector(msg::FieldGeometry(), calibration), std::invalid_argument);
  EXPECT_THROW(FieldLineDetector(field, msg::CameraCalibration()), std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::actors
