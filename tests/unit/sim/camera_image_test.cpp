// Simulated camera images: the camera models, the overhead and the onboard
// renderers (sim/camera/).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "runtime/config_loader.hpp"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/camera/robot_markings.hpp"

namespace robocaf::sim::camera {
namespace {

// --- fixtures ---------------------------------------------------------------

msg::ImageSpec image_spec(unsigned width, unsigned height, double noise_sd, double gradient,
                          std::vector<double> distortion = {}) {
  msg::ImageSpec image;
  image.set_width(width);
  image.set_height(height);
  image.set_noise_sd(noise_sd);
  image.set_lighting_gradient(gradient);
  for (double d : distortion) image.add_distortion(d);
  return image;
}

msg::GlobalCameraSpec overhead_spec(msg::ImageSpec image, double height = 0) {
  msg::GlobalCameraSpec spec;
  spec.set_height(height);
  *spec.mutable_image() = std::move(image);
  return spec;
}

// MSL-sized league, independent of the presets still being completed: the
// onboard tests need a tall robot and a big ball.
msg::LeaguePreset msl_like() {
  msg::LeaguePreset league;
  league.set_name("msl-test");
  auto* f = league.mutable_field();
  f->set_length(18);
  f->set_width(12);
  f->set_goal_width(2);
  f->set_goal_depth(0.6);
  f->set_boundary_width(1);
  f->set_center_circle_radius(2);
  f->set_goal_area_depth(0.75);
  f->set_goal_area_width(3.5);
  league.mutable_robot()->set_radius(0.25);
  league.mutable_robot()->set_height(0.7);
  league.mutable_ball()->set_radius(0.11);
  league.set_team_size(5);
  return league;
}

msg::OnboardCameraSpec onboard_spec(double noise_sd = 2, double gradient = 0.1) {
  msg::OnboardCameraSpec spec;
  spec.set_horizontal_fov(1.2);
  spec.set_mount_height(0.6);
  spec.set_tilt(0.25);
  *spec.mutable_image() = image_spec(640, 480, noise_sd, gradient, {-0.05, 0.01, 0, 0, 0});
  return spec;
}

msg::RobotTruth* add_robot(msg::WorldTruth& truth, msg::Team team, std::uint32_t id, double x, double y,
                           double theta) {
  auto* r = truth.add_robots();
  r->set_team(team);
  r->set_robot_id(id);
  r->mutable_pose()->set_x(x);
  r->mutable_pose()->set_y(y);
  r->mutable_pose()->set_theta(theta);
  return r;
}

void set_ball(msg::WorldTruth& truth, double x, double y) {
  truth.mutable_ball_position()->set_x(x);
  truth.mutable_ball_position()->set_y(y);
}

// Mean colour of the 3 x 3 pixels around p (noise averages down).
cv::Scalar colour_near(const cv::Mat& image, cv::Point2d p) {
  const cv::Point c(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  return cv::mean(image(cv::Rect(c.x - 1, c.y - 1, 3, 3)));
}

// The one pixel nearest p: for marks only a few pixels wide.
cv::Scalar colour_at(const cv::Mat& image, cv::Point2d p) {
  const cv::Vec3b v = image.at<cv::Vec3b>(cv::Point(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y))));
  return {double(v[0]), double(v[1]), double(v[2])};
}

// Within `tolerance` of `expected` on every channel (lighting +-10 % and noise).
::testing::AssertionResult looks_like(const cv::Scalar& actual, const cv::Scalar& expected, double tolerance = 40) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(actual[c] - expected[c]) > tolerance)
      return ::testing::AssertionFailure() << "BGR (" << actual[0] << ", " << actual[1] << ", " << actual[2]
                                           << ") is not near (" << expected[0] << ", " << expected[1] << ", "
                                           << expected[2] << ")";
  return ::testing::AssertionSuccess();
}

// Pixels of the ball's colour, by hue as perception would threshold: orange
// is hue 15 (OpenCV's 0..180 scale), the yellow team 27, so the darkened rim
// of a yellow band does not count.
cv::Mat orange_mask(const cv::Mat& image) {
  cv::Mat hsv, mask;
  cv::cvtColor(image, hsv, cv::COLOR_BGR2HSV);
  cv::inRange(hsv, cv::Scalar(9, 150, 150), cv::Scalar(21, 255, 255), mask);
  return mask;
}

Eigen::Vector3d at(double x, double y, double z) { return {x, y, z}; }

// --- camera models ------------------------------------------------------------

TEST(CameraModel, OverheadLooksStraightDownWithFieldXRightAndYUp) {
  const auto league = runtime::default_match_config().league();
  const CameraModel camera{overhead_calibration(league, overhead_spec(image_spec(640, 480, 0, 0), 2.5))};
  EXPECT_NEAR(camera.position().z(), 2.5, 1e-12);
  const auto centre = camera.project(at(0, 0, 0));
  ASSERT_TRUE(centre);
  EXPECT_NEAR(centre->x, 319.5, 1e-9);
  EXPECT_NEAR(centre->y, 239.5, 1e-9);
  const auto plus_x = camera.project(at(0.5, 0, 0)), plus_y = camera.project(at(0, 0.5, 0));
  ASSERT_TRUE(plus_x && plus_y);
  EXPECT_GT(plus_x->x, centre->x + 10);
  EXPECT_NEAR(plus_x->y, centre->y, 1e-9);
  EXPECT_LT(plus_y->y, centre->y - 10);  // +y is up in the image
  EXPECT_NEAR(plus_y->x, centre->x, 1e-9);
  EXPECT_NEAR(camera.calibration().fx(), camera.calibration().fy(), 1e-12);
}

TEST(CameraModel, OverheadHeightZeroFitsTheWholeArenaWithDistortion) {
  auto league = runtime::default_match_config().league();
  for (std::vector<double> distortion : {std::vector<double>{}, std::vector<double>{-0.25, 0.08, 0.002, -0.001, 0},
                                         std::vector<double>{0.2, 0, 0, 0, 0}}) {
    const CameraModel camera{overhead_calibration(league, overhead_spec(image_spec(640, 480, 0, 0, distortion)))};
    const auto g = scene_geometry(league);
    EXPECT_GT(camera.position().z(), g.top_height());
    for (double sx : {-1.0, 1.0})
      for (double sy : {-1.0, 1.0})
        for (double z : {0.0, g.top_height()}) {
          const auto p = camera.project(at(sx * g.arena_half_length(), sy * g.arena_half_width(), z));
          ASSERT_TRUE(p);
          EXPECT_GT(p->x, 0);
          EXPECT_LT(p->x, 639);
          EXPECT_GT(p->y, 0);
          EXPECT_LT(p->y, 479);
        }
    // Not absurdly high: the arena spans more than half the image width.
    const auto left = camera.project(at(-g.arena_half_length(), 0, 0));
    const auto right = camera.project(at(g.arena_half_length(), 0, 0));
    EXPECT_GT(right->x - left->x, 320);
  }
}

TEST(CameraModel, OverheadWithHeightButNoFovFitsTheArena) {
  auto league = runtime::default_match_config().league();
  const CameraModel camera{overhead_calibration(league, overhead_spec(image_spec(800, 600, 0, 0), 3.0))};
  EXPECT_NEAR(camera.position().z(), 3.0, 1e-12);
  const auto g = scene_geometry(league);
  const auto corner = camera.project(at(g.arena_half_length(), g.arena_half_width(), g.top_height()));
  ASSERT_TRUE(corner);
  EXPECT_LT(corner->x, 799);
  EXPECT_GT(corner->x, 700);  // the fit is tight, not just any fov
  EXPECT_THROW(overhead_calibration(league, overhead_spec(image_spec(640, 480, 0, 0), 0.1)), std::invalid_argument);
}

TEST(CameraModel, ProjectsLikeOpenCvProjectPoints) {
  const std::vector<double> distortion{-0.21, 0.07, 0.0015, -0.0012, -0.01};
  msg::OnboardCameraSpec spec = onboard_spec();
  *spec.mutable_image() = image_spec(640, 480, 0, 0, distortion);
  msg::Pose2 pose;
  pose.set_x(-1.2);
  pose.set_y(0.4);
  pose.set_theta(0.6);
  const CameraModel camera{onboard_calibration(msl_like(), spec, pose)};
  const auto& c = camera.calibration();
  cv::Matx33d r;
  for (int i = 0; i < 9; ++i) r.val[i] = c.rotation(i);
  cv::Vec3d rvec, tvec{c.translation(0), c.translation(1), c.translation(2)};
  cv::Rodrigues(r, rvec);
  const cv::Matx33d k{c.fx(), 0, c.cx(), 0, c.fy(), c.cy(), 0, 0, 1};
  std::vector<cv::Point3d> points{{1.0, 1.0, 0}, {2.0, 0.0, 0.3}, {0.5, 1.5, 0}, {3.0, 2.5, 1.0}};
  std::vector<cv::Point2d> expected;
  cv::projectPoints(points, rvec, tvec, k, distortion, expected);
  for (size_t i = 0; i < points.size(); ++i) {
    const auto p = camera.project(at(points[i].x, points[i].y, points[i].z));
    ASSERT_TRUE(p) << i;
    EXPECT_NEAR(p->x, expected[i].x, 1e-6) << i;
    EXPECT_NEAR(p->y, expected[i].y, 1e-6) << i;
  }
}

TEST(CameraModel, GroundPointInvertsProjectWithDistortionToWithinAMillimetre) {
  const std::vector<double> distortion{-0.25, 0.08, 0.002, -0.001, 0.01};
  auto league = runtime::default_match_config().league();
  const CameraModel overhead{overhead_calibration(league, overhead_spec(image_spec(640, 480, 0, 0, distortion)))};
  const auto g = scene_geometry(league);
  double worst = 0;
  for (double x = -g.arena_half_length(); x <= g.arena_half_length(); x += 0.1)
    for (double y = -g.arena_half_width(); y <= g.arena_half_width(); y += 0.1)
      for (double z : {0.0, 0.05}) {
        const auto pixel = overhead.project(at(x, y, z));
        ASSERT_TRUE(pixel);
        const auto back = overhead.ground_point(*pixel, z);
        ASSERT_TRUE(back);
        worst = std::max(worst, (*back - at(x, y, z)).norm());
      }
  EXPECT_LT(worst, 1e-3);

  msg::OnboardCameraSpec spec = onboard_spec();
  *spec.mutable_image() = image_spec(640, 480, 0, 0, distortion);
  msg::Pose2 pose;
  pose.set_theta(-0.4);
  const CameraModel onboard{onboard_calibration(msl_like(), spec, pose)};
  worst = 0;
  for (double d = 1.0; d < 8; d += 0.5)
    for (double a = -0.4; a <= 0.4; a += 0.1) {
      const Eigen::Vector3d p = at(d * std::cos(a - 0.4), d * std::sin(a - 0.4), 0);
      const auto pixel = onboard.project(p);
      ASSERT_TRUE(pixel);
      const auto back = onboard.ground_point(*pixel);
      ASSERT_TRUE(back);
      worst = std::max(worst, (*back - p).norm());
    }
  EXPECT_LT(worst, 1e-3);
  // Above the horizon a pixel meets no floor in front of the camera.
  EXPECT_FALSE(onboard.ground_point({320, 0}));
}

TEST(CameraModel, PointsBehindTheCameraDoNotProject) {
  msg::Pose2 pose;  // at the origin looking along +x
  const CameraModel camera{onboard_calibration(msl_like(), onboard_spec(), pose)};
  EXPECT_TRUE(camera.project(at(2, 0, 0)));
  EXPECT_FALSE(camera.project(at(-2, 0, 0)));
  EXPECT_FALSE(camera.project(at(-0.01, 0.5, 0.6)));
  // A line from behind to in front is cut at the view volume: one run, all
  // of it in front of the camera.
  const auto runs = camera.project_polyline({at(-3, 0, 0), at(0, 0, 0), at(5, 0, 0)});
  ASSERT_EQ(runs.size(), 1u);
  for (const auto& p : runs[0]) EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y));
  // ... and its far end is the projection of (5, 0, 0).
  const auto far = camera.project(at(5, 0, 0));
  EXPECT_NEAR(runs[0].back().x, far->x, 1e-9);
  EXPECT_NEAR(runs[0].back().y, far->y, 1e-9);
  EXPECT_TRUE(camera.project_polyline({at(-3, 0, 0), at(-1, 1, 0)}).empty());
  EXPECT_TRUE(camera.project_polygon({at(-3, -1, 0), at(-1, -1, 0), at(-1, 1, 0)}).empty());
}

TEST(CameraModel, CalibrationSurvivesProtobufText) {
  const auto calibration =
      overhead_calibration(runtime::default_match_config().league(), overhead_spec(image_spec(640, 480, 0, 0)));
  const std::string text = calibration_to_text(calibration);
  EXPECT_NE(text.find("fx:"), std::string::npos);
  const auto back = calibration_from_text(text);
  EXPECT_EQ(back.SerializeAsString(), calibration.SerializeAsString());
  EXPECT_THROW(calibration_from_text("fx: banana"), runtime::ConfigError);
  EXPECT_THROW(calibration_from_text("focal: 3"), runtime::ConfigError);
  msg::CameraCalibration bad = calibration;
  bad.clear_rotation();
  EXPECT_THROW(CameraModel{bad}, std::invalid_argument);
}

// --- overhead images ------------------------------------------------------------

TEST(OverheadImage, HasTheSizeOfTheSpec) {
  const auto league = runtime::default_match_config().league();
  msg::WorldTruth truth;
  OverheadImageRenderer sized{league, overhead_spec(image_spec(800, 600, 2, 0.1)), 1};
  cv::Mat image = sized.render(truth, 0);
  EXPECT_EQ(image.size(), cv::Size(800, 600));
  EXPECT_EQ(image.type(), CV_8UC3);
  EXPECT_EQ(sized.calibration().width(), 800u);
  OverheadImageRenderer defaults{league, msg::GlobalCameraSpec{}, 1};
  EXPECT_EQ(defaults.render(truth, 0).size(), cv::Size(640, 480));
}

TEST(OverheadImage, ShowsBallFieldAndTeamPatchesInTheirColours) {
  const auto league = runtime::default_match_config().league();
  OverheadImageRenderer renderer{league, overhead_spec(image_spec(640, 480, 3, 0.2, {-0.15, 0.02, 0, 0, 0})), 7};
  msg::WorldTruth truth;
  set_ball(truth, 0.3, -0.2);
  add_robot(truth, msg::BLUE, 1, -0.5, 0.4, 0.3);
  add_robot(truth, msg::YELLOW, 2, 0.8, 0.6, -2.0);
  const cv::Mat image = renderer.render(truth, 12);
  const auto& camera = renderer.camera();
  const auto g = scene_geometry(league);

  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(0.3, -0.2, g.ball_radius))), kBallColour));
  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(-0.5, 0.4, g.robot_height))), kBlueTeamColour));
  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(0.8, 0.6, g.robot_height))), kYellowTeamColour));
  // Empty carpet, away from every line.
  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(-0.55, -0.45, 0))), kFieldColour));
  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(0.6, -0.5, 0))), kFieldColour));
  // The halfway line is white, the hall floor beyond the walls grey.
  EXPECT_TRUE(looks_like(colour_at(image, *camera.project(at(0, 0.6, 0))), kLineColour));
  const double beyond_wall = g.half_length + g.boundary + kWallThickness + 0.06;
  EXPECT_TRUE(looks_like(colour_near(image, *camera.project(at(beyond_wall, 0.5, 0))), kFloorColour));
  // Nothing orange where the ball is not.
  EXPECT_FALSE(looks_like(colour_near(image, *camera.project(at(-0.3, 0.2, g.ball_radius))), kBallColour));
}

TEST(OverheadImage, IdDotsShowTheIdBitsRotatedWithTheRobot) {
  // A large image so the MiroSot-sized dots are several pixels wide.
  const auto league = runtime::default_match_config().league();
  OverheadImageRenderer renderer{league, overhead_spec(image_spec(1600, 1200, 2, 0.1)), 3};
  const auto g = scene_geometry(league);
  for (std::uint32_t id : {5u, 10u, 14u}) {
    const double x = -0.3, y = 0.2, theta = 2.2;
    msg::WorldTruth truth;
    set_ball(truth, 0.5, 0.5);
    add_robot(truth, msg::YELLOW, id, x, y, theta);
    const cv::Mat image = renderer.render(truth, id);
    const Eigen::Vector2d fwd{std::cos(theta), std::sin(theta)}, left{-std::sin(theta), std::cos(theta)};
    for (int bit = 0; bit < 4; ++bit) {
      const Eigen::Vector2d c =
          Eigen::Vector2d{x, y} + g.robot_radius * (kIdDots[bit][0] * fwd + kIdDots[bit][1] * left);
      const auto pixel = renderer.camera().project(at(c.x(), c.y(), g.robot_height));
      EXPECT_TRUE(looks_like(colour_near(image, *pixel), id_dot_colour(id, bit))) << "id " << id << " bit " << bit;
    }
  }
}

TEST(OverheadImage, RobotTopsShowParallaxAwayFromTheImageCentre) {
  auto league = runtime::default_match_config().league();
  league.mutable_robot()->set_height(0.15);  // exaggerated so the shift is many pixels
  OverheadImageRenderer renderer{league, overhead_spec(image_spec(640, 480, 0, 0), 2.0), 1};
  msg::WorldTruth truth;
  set_ball(truth, 0, 0.5);
  add_robot(truth, msg::BLUE, 3, 0.9, -0.7, 0);
  const cv::Mat image = renderer.render(truth, 0);
  const auto floor = *renderer.camera().project(at(0.9, -0.7, 0));
  const auto top = *renderer.camera().project(at(0.9, -0.7, 0.15));
  EXPECT_GT(cv::norm(top - floor), 5.0);
  EXPECT_GT(top.x, floor.x);  // away from the centre
  EXPECT_TRUE(looks_like(colour_near(image, top), kBlueTeamColour, 5));
}

TEST(OverheadImage, SameSeedSameImageOtherSeedOtherNoise) {
  const auto league = runtime::default_match_config().league();
  const auto spec = overhead_spec(image_spec(640, 480, 4, 0.2));
  msg::WorldTruth truth;
  set_ball(truth, 0.1, 0.1);
  add_robot(truth, msg::BLUE, 4, 0.4, -0.3, 1.0);
  const OverheadImageRenderer a{league, spec, 42}, b{league, spec, 42}, c{league, spec, 43};
  const cv::Mat first = a.render(truth, 5);
  EXPECT_EQ(cv::norm(first, b.render(truth, 5), cv::NORM_INF), 0.0);
  EXPECT_EQ(cv::norm(first, a.render(truth, 5), cv::NORM_INF), 0.0);
  EXPECT_GT(cv::norm(first, c.render(truth, 5), cv::NORM_L1), 0.0);
  EXPECT_GT(cv::norm(first, a.render(truth, 6), cv::NORM_L1), 0.0);  // each frame its own noise
  // The noise has about the configured spread: compare with a noiseless image.
  const OverheadImageRenderer clean{league, overhead_spec(image_spec(640, 480, 0, 0.2)), 42};
  cv::Mat diff;
  cv::subtract(first, clean.render(truth, 5), diff, cv::noArray(), CV_32F);
  cv::Scalar mean, sd;
  cv::meanStdDev(diff.reshape(1), mean, sd);
  EXPECT_NEAR(sd[0], 4.0, 0.5);
  EXPECT_NEAR(mean[0], 0.0, 0.2);
}

TEST(OverheadImage, LightingGradientBrightensTowardsTheBottomRight) {
  const auto league = runtime::default_match_config().league();
  OverheadImageRenderer renderer{league, overhead_spec(image_spec(640, 480, 0, 0.4)), 1};
  msg::WorldTruth truth;
  set_ball(truth, 0, 0.5);
  const cv::Mat image = renderer.render(truth, 0);
  const auto& camera = renderer.camera();
  // The same carpet colour, darker top-left (+y, -x) than bottom-right.
  const cv::Scalar top_left = colour_near(image, *camera.project(at(-0.85, 0.6, 0)));
  const cv::Scalar bottom_right = colour_near(image, *camera.project(at(0.85, -0.6, 0)));
  EXPECT_LT(top_left[1], kFieldColour[1]);
  EXPECT_GT(bottom_right[1], kFieldColour[1]);
  EXPECT_GT(bottom_right[1] - top_left[1], 0.2 * kFieldColour[1]);
}

TEST(OverheadImage, RendersEveryLeaguePresetAndAnMslSizedField) {
  std::vector<msg::LeaguePreset> leagues;
  for (const auto& name : runtime::preset_names()) leagues.push_back(runtime::preset_match_config(name).league());
  leagues.push_back(msl_like());
  for (const auto& league : leagues) {
    OverheadImageRenderer renderer{league, overhead_spec(image_spec(640, 480, 2, 0.1)), 9};
    msg::WorldTruth truth;
    set_ball(truth, league.field().length() / 8, -league.field().width() / 8);
    add_robot(truth, msg::BLUE, 1, -league.field().length() / 5, league.field().width() / 6, 0.5);
    const cv::Mat image = renderer.render(truth, 0);
    ASSERT_EQ(image.size(), cv::Size(640, 480)) << league.name();
    const auto g = scene_geometry(league);
    const auto& camera = renderer.camera();
    EXPECT_TRUE(looks_like(
        colour_at(image, *camera.project(at(league.field().length() / 8, -league.field().width() / 8, g.ball_radius))),
        kBallColour))
        << league.name();
    EXPECT_TRUE(looks_like(colour_at(image, *camera.project(at(-league.field().length() / 5,
                                                                 league.field().width() / 6, g.robot_height))),
                           kBlueTeamColour))
        << league.name();
    EXPECT_TRUE(looks_like(
        colour_near(image, *camera.project(at(league.field().length() / 3.3, league.field().width() / 3.3, 0))),
        kFieldColour))
        << league.name();
  }
}

// --- onboard images ------------------------------------------------------------

// Row of the horizon in an undistorted onboard image: cy - fy tan(tilt).
double horizon_row(const msg::CameraCalibration& c, double tilt) { return c.cy() - c.fy() * std::tan(tilt); }

TEST(OnboardImage, BallStraightAheadIsInTheCentreColumnBelowTheHorizon) {
  auto spec = onboard_spec(2, 0.1);
  spec.mutable_image()->clear_distortion();  // so the horizon is a straight row
  const OnboardImageRenderer renderer{msl_like(), spec, 5};
  for (const double theta : {0.0, 0.7, -2.5}) {
    const double x = -1.0, y = 0.5;
    msg::WorldTruth truth;
    add_robot(truth, msg::BLUE, 3, x, y, theta);
    set_ball(truth, x + 2 * std::cos(theta), y + 2 * std::sin(theta));
    const cv::Mat image = renderer.render(truth, msg::BLUE, 3, 0);
    ASSERT_EQ(image.size(), cv::Size(640, 480));
    const cv::Mat mask = orange_mask(image);
    const cv::Moments m = cv::moments(mask, true);
    ASSERT_GT(m.m00, 100) << "theta " << theta;
    const double u = m.m10 / m.m00, v = m.m01 / m.m00;
    msg::Pose2 pose;
    pose.set_x(x);
    pose.set_y(y);
    pose.set_theta(theta);
    const auto calibration = renderer.calibration_for(pose);
    EXPECT_NEAR(u, calibration.cx(), 1.0) << "theta " << theta;
    EXPECT_GT(v, horizon_row(calibration, spec.tilt()) + 20) << "theta " << theta;
    // Its apparent size follows perspective: radius ~ f r / distance.
    const double distance = std::hypot(2.0, spec.mount_height() - 0.11);
    const double radius = std::sqrt(m.m00 / M_PI);
    EXPECT_NEAR(radius, calibration.fx() * 0.11 / distance, 3.0);
  }
}

TEST(OnboardImage, BallBehindTheRobotDoesNotAppear) {
  const OnboardImageRenderer renderer{msl_like(), onboard_spec(), 5};
  msg::WorldTruth truth;
  add_robot(truth, msg::YELLOW, 2, 1.0, 1.0, 0.3);
  set_ball(truth, 1.0 - 2 * std::cos(0.3), 1.0 - 2 * std::sin(0.3));
  const cv::Mat image = renderer.render(truth, msg::YELLOW, 2, 0);
  EXPECT_EQ(cv::countNonZero(orange_mask(image)), 0);
  // ... nor one just beside the robot, outside the field of view.
  set_ball(truth, 1.0 - 0.5 * std::sin(0.3), 1.0 + 0.5 * std::cos(0.3));
  EXPECT_EQ(cv::countNonZero(orange_mask(renderer.render(truth, msg::YELLOW, 2, 0))), 0);
}

TEST(OnboardImage, RobotBetweenCameraAndBallHidesIt) {
  const OnboardImageRenderer renderer{msl_like(), onboard_spec(), 5};
  msg::WorldTruth truth;
  add_robot(truth, msg::BLUE, 1, 0, 0, 0);
  set_ball(truth, 2.5, 0);
  const cv::Mat open_view = renderer.render(truth, msg::BLUE, 1, 0);
  ASSERT_GT(cv::countNonZero(orange_mask(open_view)), 100);

  add_robot(truth, msg::YELLOW, 4, 1.2, 0, 2.0);
  const cv::Mat blocked = renderer.render(truth, msg::BLUE, 1, 0);
  EXPECT_EQ(cv::countNonZero(orange_mask(blocked)), 0);
  // What hides it is the yellow robot: its team band shows in the centre column.
  cv::Mat yellow;
  cv::inRange(blocked.col(320), cv::Scalar(0, 180, 200), cv::Scalar(60, 255, 255), yellow);
  EXPECT_GT(cv::countNonZero(yellow), 10);

  // A robot behind the ball does not hide it.
  truth.mutable_robots(1)->mutable_pose()->set_x(4.0);
  EXPECT_GT(cv::countNonZero(orange_mask(renderer.render(truth, msg::BLUE, 1, 0))), 100);
}

TEST(OnboardImage, FieldLinePassingUnderTheCameraStaysBelowTheHorizon) {
  auto spec = onboard_spec(0, 0);
  spec.mutable_image()->clear_distortion();
  const OnboardImageRenderer renderer{msl_like(), spec, 5};
  msg::WorldTruth truth;
  set_ball(truth, 5, 5);
  // Standing on the halfway line, looking along it: the line runs from
  // behind the camera to the touch line ahead.
  add_robot(truth, msg::BLUE, 2, 0, 0.5, M_PI / 2);
  const cv::Mat image = renderer.render(truth, msg::BLUE, 2, 0);
  cv::Mat white;
  cv::inRange(image, cv::Scalar(230, 230, 230), cv::Scalar(255, 255, 255), white);
  msg::Pose2 pose;
  pose.set_y(0.5);
  pose.set_theta(M_PI / 2);
  const int horizon = static_cast<int>(horizon_row(renderer.calibration_for(pose), spec.tilt()));
  EXPECT_EQ(cv::countNonZero(white.rowRange(0, horizon - 2)), 0);
  // The line fills the centre column at the bottom of the image.
  EXPECT_GT(cv::countNonZero(white(cv::Rect(300, 400, 40, 80))), 200);
  // Beside the line: carpet.
  EXPECT_TRUE(looks_like(colour_near(image, {40, 470}), kFieldColour, 5));
}

TEST(OnboardImage, SameSeedSameImageAndEachRobotItsOwnNoise) {
  const auto league = msl_like();
  msg::WorldTruth truth;
  add_robot(truth, msg::BLUE, 1, 0, 0, 0);
  add_robot(truth, msg::BLUE, 2, 0, 0, 0);  // same pose, so only the noise differs
  set_ball(truth, 2, 0.3);
  const OnboardImageRenderer a{league, onboard_spec(3, 0.1), 11}, b{league, onboard_spec(3, 0.1), 11},
      c{league, onboard_spec(3, 0.1), 12};
  const cv::Mat first = a.render(truth, msg::BLUE, 1, 8);
  EXPECT_EQ(cv::norm(first, b.render(truth, msg::BLUE, 1, 8), cv::NORM_INF), 0.0);
  EXPECT_GT(cv::norm(first, c.render(truth, msg::BLUE, 1, 8), cv::NORM_L1), 0.0);
  EXPECT_GT(cv::norm(first, a.render(truth, msg::BLUE, 2, 8), cv::NORM_L1), 0.0);
  EXPECT_THROW(a.render(truth, msg::YELLOW, 1, 8), std::invalid_argument);
}

TEST(OnboardImage, RendersWithEveryLeaguePresetsCamera) {
  for (const auto& name : runtime::preset_names()) {
    const auto config = runtime::preset_match_config(name);
    const auto& league = config.league();
    const OnboardImageRenderer renderer{league, config.sim().onboard_camera(), 3};
    // A robot on its own half looking at the ball an eighth of the field ahead.
    const double x = -league.field().length() / 4, ahead = league.field().length() / 8;
    msg::WorldTruth truth;
    add_robot(truth, msg::YELLOW, 1, x, 0, 0);
    set_ball(truth, x + ahead, 0);
    const cv::Mat image = renderer.render(truth, msg::YELLOW, 1, 0);
    EXPECT_EQ(image.size(), renderer.size()) << name;
    const cv::Moments m = cv::moments(orange_mask(image), true);
    ASSERT_GT(m.m00, 4) << name;
    EXPECT_NEAR(m.m10 / m.m00, renderer.calibration_for(truth.robots(0).pose()).cx(), 1.5) << name;
  }
}

}  // namespace
}  // namespace robocaf::sim::camera

