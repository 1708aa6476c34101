#include "actors/perception/field_calibrator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "actors/perception/camera_geometry.hpp"
#include "runtime/config_loader.hpp"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/camera/scene_painter.hpp"

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;

// The preset's overhead camera moved to `centre` and turned by small angles
// about its own axes (tilt_x about image x, tilt_y about image y, roll about
// the optical axis), so the preset's guess is not the answer.
msg::CameraCalibration moved_camera(const msg::MatchConfig& match, const Eigen::Vector3d& centre, double tilt_x,
                                    double tilt_y, double roll) {
  msg::CameraCalibration c = sim::camera::overhead_calibration(match.league(), match.sim().global_camera());
  Eigen::Matrix3d r;
  for (int i = 0; i < 9; ++i) r(i / 3, i % 3) = c.rotation(i);
  const Eigen::Matrix3d turn = (Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitZ()) *
                                Eigen::AngleAxisd(tilt_y, Eigen::Vector3d::UnitY()) *
                                Eigen::AngleAxisd(tilt_x, Eigen::Vector3d::UnitX()))
                                   .toRotationMatrix();
  r = turn * r;
  const Eigen::Vector3d t = -r * centre;
  c.clear_rotation();
  c.clear_translation();
  for (int i = 0; i < 9; ++i) c.add_rotation(r(i / 3, i % 3));
  for (int i = 0; i < 3; ++i) c.add_translation(t(i));
  return c;
}

// A few robots, some standing on lines, and the ball.
msg::WorldTruth some_robots(const msg::LeaguePreset& league) {
  const double L = league.field().length() / 2, W = league.field().width() / 2;
  const double spots[][3] = {{0.0, 0.3 * W, 0.3},     {0.5 * L, -W, 1.0},         {-L, 0.6 * W, 2.0},
                             {-0.4 * L, -0.2 * W, -1}, {0.3 * L, 0.5 * W, 2.5},    {0.12 * L, 0.1 * W, 0.1}};
  msg::WorldTruth truth;
  int i = 0;
  for (const auto& s : spots) {
    auto* r = truth.add_robots();
    r->set_team(i % 2 ? msg::YELLOW : msg::BLUE);
    r->set_robot_id(static_cast<uint32_t>(i / 2 + 1));
    r->mutable_pose()->set_x(s[0]);
    r->mutable_pose()->set_y(s[1]);
    r->mutable_pose()->set_theta(s[2]);
    ++i;
  }
  truth.mutable_ball_position()->set_x(0.2 * L);
  truth.mutable_ball_position()->set_y(-0.3 * W);
  return truth;
}

// What the simulator's overhead camera would show through `calibration`
// (OverheadImageRenderer's drawing with any camera pose): floor and lines,
// walls and goals, robots, lighting gradient and noise of the preset.
cv::Mat render(const msg::MatchConfig& match, const msg::CameraCalibration& calibration, std::uint64_t seed = 5) {
  const sim::camera::Scene scene(match.league(), /*team_band_on_sides=*/false);
  const sim::camera::CameraModel camera(calibration);
  cv::Mat image(camera.size(), CV_8UC3);
  scene.paint_floor(camera, image);
  const auto dynamic = scene.dynamic_objects(some_robots(match.league()), camera);
  std::vector<const sim::camera::SceneObject*> objects;
  for (const auto& o : scene.static_objects()) objects.push_back(&o);
  for (const auto& o : dynamic) objects.push_back(&o);
  sim::camera::Scene::paint_objects(camera, objects, image);
  sim::camera::SensorEffects(camera.size(), match.sim().global_camera().image(), seed).apply(image, 1);
  return image;
}

struct Comparison {
  double max_px = 0;
  double mean_px = 0;
  double position_m = 0;
};

// Pixels of a grid over the field (and its boundary) on the floor, true
// camera against estimated calibration; and the distance between the camera
// centres.
Comparison compare(const msg::FieldGeometry& field, const msg::CameraCalibration& truth,
                   const msg::CameraCalibration& estimate) {
  const sim::camera::CameraModel true_camera(truth);
  const CameraGeometry estimated(estimate);
  const double hx = field.length() / 2 + field.boundary_width(), hy = field.width() / 2 + field.boundary_width();
  Comparison c;
  int n = 0;
  for (int i = 0; i <= 20; ++i)
    for (int j = 0; j <= 20; ++j) {
      const Eigen::Vector2d p{-hx + 2 * hx * i / 20, -hy + 2 * hy * j / 20};
      const auto a = true_camera.project({p.x(), p.y(), 0});
      const auto b = estimated.field_to_pixel(p, 0);
      if (!a || !b) {
        c.max_px = INFINITY;
        continue;
      }
      if (a->x < 0 || a->y < 0 || a->x > truth.width() - 1 || a->y > truth.height() - 1) continue;
      const double e = std::hypot(a->x - b->x, a->y - b->y);
      c.max_px = std::max(c.max_px, e);
      c.mean_px += e;
      ++n;
    }
  c.mean_px /= std::max(1, n);
  c.position_m = (true_camera.position() - estimated.position()).norm();
  return c;
}

void report(const char* name, const CalibrationResult& r, const Comparison& c) {
  std::printf("[%s] rms %.3f px, %d features (%d outliers), focal %s; vs truth: mean %.3f px, max %.3f px, "
              "camera %.1f mm off; camera at (%.3f, %.3f, %.3f)\n",
              name, r.rms_px, r.features, r.outliers, r.focal_estimated ? "estimated" : "from the guess", c.mean_px,
              c.max_px, 1000 * c.position_m, r.camera_position.x(), r.camera_position.y(), r.camera_position.z());
}

CameraGuess guess_for(const msg::MatchConfig& match, double height) {
  CameraGuess g;
  g.height = height;
  g.horizontal_fov = match.sim().global_camera().image().horizontal_fov();
  return g;
}

// --- field lines ------------------------------------------------------------------

TEST(FieldCalibrator, MiroSotLinesFromMovedAndTiltedCamera) {
  const auto match = runtime::preset_match_config("mirosot");
  const auto truth = moved_camera(match, {0.04, -0.03, 2.42}, 1.5 * kDeg, -1.0 * kDeg, 1.0 * kDeg);
  const cv::Mat image = render(match, truth);
  // The team thinks the camera hangs 2.2 m up, straight down over the centre spot.
  const FieldCalibrator calibrator(match.league().field());
  const auto result = calibrator.calibrate_from_lines(image, guess_for(match, 2.2));
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("mirosot moved", result, c);
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.mean_px, 0.4);
  EXPECT_LT(c.position_m, 0.03);
  EXPECT_LT(result.rms_px, 0.6);
  EXPECT_GT(result.features, 300);
  EXPECT_EQ(result.calibration.width(), 640u);
  EXPECT_EQ(result.calibration.distortion_size(), 5);
}

TEST(FieldCalibrator, MiroSotPresetCameraFromWrongHeight) {
  const auto match = runtime::preset_match_config("mirosot");
  const sim::camera::OverheadImageRenderer renderer(match.league(), match.sim().global_camera(), 11);
  const cv::Mat image = renderer.render(some_robots(match.league()), 3);
  const FieldCalibrator calibrator(match.league().field());
  const auto result = calibrator.calibrate_from_lines(image, guess_for(match, 2.75));
  const auto c = compare(match.league().field(), renderer.calibration(), result.calibration);
  report("mirosot preset", result, c);
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.03);
  // Lens distortion recovered from the curved lines (the preset: k1 -0.08, k2 0.01).
  EXPECT_NEAR(result.calibration.distortion(0), -0.08, 0.02);
}

TEST(FieldCalibrator, SslLinesFromMovedCamera) {
  const auto match = runtime::preset_match_config("ssl");
  const auto truth = moved_camera(match, {0.12, 0.15, 7.25}, -1.0 * kDeg, 2.0 * kDeg, -1.5 * kDeg);
  const cv::Mat image = render(match, truth);
  const FieldCalibrator calibrator(match.league().field());
  const auto result = calibrator.calibrate_from_lines(image, guess_for(match, 6.5));
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("ssl moved", result, c);
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.05);
  EXPECT_GT(result.features, 500);
}

TEST(FieldCalibrator, FocalLengthFromACameraHungOffToTheSide) {
  // 15 degrees from vertical, hung beside the -y touch line: the
  // perspective tells the focal length, so a lens guess 4 % off does no harm.
  const auto match = runtime::preset_match_config("mirosot");
  const double height = 2.6, off = height * std::tan(15 * kDeg);
  const auto truth = moved_camera(match, {0.02, -off, height}, -15 * kDeg, 0.5 * kDeg, 1.0 * kDeg);
  const cv::Mat image = render(match, truth);
  CameraGuess guess = guess_for(match, height - 0.15);
  guess.horizontal_fov *= 1.04;
  guess.y = -off + 0.1;
  guess.looking_at = Eigen::Vector2d{0.0, 0.05};
  const auto result = FieldCalibrator(match.league().field()).calibrate_from_lines(image, guess);
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("mirosot hung aside", result, c);
  EXPECT_TRUE(result.focal_estimated);
  EXPECT_NEAR(result.calibration.fx(), truth.fx(), 0.015 * truth.fx());
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.04);
}

TEST(FieldCalibrator, FocalLengthStaysAtTheGuessForACameraLookingStraightDown) {
  // Straight down, a longer lens and a higher camera look the same: f stays
  // at the (here wrong) guess, the height takes the error, the pixels are right.
  const auto match = runtime::preset_match_config("mirosot");
  const auto truth = moved_camera(match, {0.0, 0.0, 2.5}, 0.5 * kDeg, 0, 0);
  const cv::Mat image = render(match, truth);
  CameraGuess guess = guess_for(match, 2.5);
  guess.horizontal_fov *= 1.04;
  const auto result = FieldCalibrator(match.league().field()).calibrate_from_lines(image, guess);
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("mirosot wrong fov", result, c);
  EXPECT_FALSE(result.focal_estimated);
  EXPECT_LT(c.max_px, 1.0);
  const double expected_height = 2.5 * result.calibration.fx() / truth.fx();
  EXPECT_NEAR(result.camera_position.z(), expected_height, 0.02);
}

TEST(FieldCalibrator, YawGuessPicksWhichGoalIsPlusX) {
  // The field looks the same turned by half a turn; the guess decides.
  const auto match = runtime::preset_match_config("mirosot");
  const auto truth = moved_camera(match, {0.0, 0.0, 2.5}, 0, 0, kPi + 2 * kDeg);
  const cv::Mat image = render(match, truth);
  CameraGuess guess = guess_for(match, 2.4);
  guess.yaw = kPi;
  const auto result = FieldCalibrator(match.league().field()).calibrate_from_lines(image, guess);
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("mirosot turned", result, c);
  EXPECT_LT(c.max_px, 1.0);
}

TEST(FieldCalibrator, BlackImageFailsClearly) {
  const auto match = runtime::preset_match_config("mirosot");
  const cv::Mat black(480, 640, CV_8UC3, cv::Scalar::all(0));
  const FieldCalibrator calibrator(match.league().field());
  try {
    calibrator.calibrate_from_lines(black, guess_for(match, 2.5));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no field lines"), std::string::npos) << e.what();
  }
}

TEST(FieldCalibrator, GreenImageWithoutLinesFailsClearly) {
  // Some bright pixels, but nothing shaped like the field.
  const auto match = runtime::preset_match_config("mirosot");
  cv::Mat image(480, 640, CV_8UC3, cv::Scalar(40, 120, 30));
  cv::circle(image, {100, 100}, 40, cv::Scalar::all(255), cv::FILLED);
  const FieldCalibrator calibrator(match.league().field());
  try {
    calibrator.calibrate_from_lines(image, guess_for(match, 2.5));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("field lines not found"), std::string::npos) << e.what();
  }
}

TEST(FieldCalibrator, RejectsBadInput) {
  const auto match = runtime::preset_match_config("mirosot");
  const FieldCalibrator calibrator(match.league().field());
  EXPECT_THROW(calibrator.calibrate_from_lines(cv::Mat(), guess_for(match, 2.5)), std::invalid_argument);
  const cv::Mat grey(480, 640, CV_8UC1, cv::Scalar(0));
  EXPECT_THROW(calibrator.calibrate_from_lines(grey, guess_for(match, 2.5)), std::invalid_argument);
  const cv::Mat bgr(480, 640, CV_8UC3, cv::Scalar(0));
  EXPECT_THROW(calibrator.calibrate_from_lines(bgr, guess_for(match, 0)), std::invalid_argument);
  EXPECT_THROW(FieldCalibrator(msg::FieldGeometry{}), std::invalid_argument);
}

TEST(FieldCalibrator, GuessCalibrationIsTheOverheadConvention) {
  // Same as the simulator's overhead camera for the same height and fov.
  const auto match = runtime::preset_match_config("mirosot");
  auto expected = sim::camera::overhead_calibration(match.league(), match.sim().global_camera());
  CameraGuess guess = guess_for(match, match.sim().global_camera().height());
  for (double k : match.sim().global_camera().image().distortion()) guess.distortion.push_back(k);
  const auto c = compare(match.league().field(), expected, FieldCalibrator::guess_calibration({640, 480}, guess));
  EXPECT_LT(c.max_px, 1e-6);
  EXPECT_LT(c.position_m, 1e-9);
}

// --- checkerboard -------------------------------------------------------------------

// Board frame (metres, z = 0 on the board) -> field.
using BoardPlacement = std::function<Eigen::Vector3d(double, double)>;

// A board lying on the floor as Checkerboard describes it: x along the rows
// (yaw), y to their right seen from above.
BoardPlacement lying_at(const Checkerboard& b) {
  return [b](double u, double v) {
    const double c = std::cos(b.yaw), s = std::sin(b.yaw);
    return Eigen::Vector3d{b.x + c * u + s * v, b.y + s * u - c * v, b.z};
  };
}

// Images of a checkerboard on a green field through a camera, drawn exactly:
// an area-sampled texture of the board (one square of margin, white), put
// into the pinhole image with cv::warpPerspective (a plane's exact
// projection), then distorted with cv::remap. Not the simulator's polygon
// fill, whose anti-aliased rims make polygons about a pixel larger all round
// and bias corners where squares meet.
class BoardCamera {
 public:
  explicit BoardCamera(const msg::CameraCalibration& c) : calibration_(c) {
    size_ = {static_cast<int>(c.width()), static_cast<int>(c.height())};
    k_ = cv::Matx33d(c.fx(), 0, c.cx(), 0, c.fy(), c.cy(), 0, 0, 1);
    for (int i = 0; i < 9; ++i) rotation_(i / 3, i % 3) = c.rotation(i);
    for (int i = 0; i < 3; ++i) translation_(i) = c.translation(i);
    bool distorted = false;
    for (double k : c.distortion()) distorted |= k != 0;
    if (distorted) {
      // Where each distorted pixel lies in the pinhole image.
      std::vector<cv::Point2f> pixels, pinhole;
      for (int y = 0; y < size_.height; ++y)
        for (int x = 0; x < size_.width; ++x) pixels.emplace_back(static_cast<float>(x), static_cast<float>(y));
      std::vector<double> d(c.distortion().begin(), c.distortion().end());
      cv::undistortPoints(pixels, pinhole, k_, d, cv::noArray(), k_,
                          cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-10));
      map_ = cv::Mat(size_, CV_32FC2, pinhole.data()).clone();
    }
  }

  cv::Mat image_with(const Checkerboard& board, const BoardPlacement& to_field) const {
    constexpr double kTexelsPerMetre = 500;
    constexpr int kSubsamples = 8;
    const double q = board.square, u0 = -2 * q, v0 = -2 * q;
    const int tw = static_cast<int>((board.columns + 3) * q * kTexelsPerMetre) + 1;
    const int th = static_cast<int>((board.rows + 3) * q * kTexelsPerMetre) + 1;
    cv::Mat texture(th, tw, CV_32F);
    for (int j = 0; j < th; ++j)
      for (int i = 0; i < tw; ++i) {
        double sum = 0;  // area average over the texel around (i, j)
        for (int a = 0; a < kSubsamples; ++a)
          for (int b = 0; b < kSubsamples; ++b) {
            const double u = u0 + (i + (a + 0.5) / kSubsamples - 0.5) / kTexelsPerMetre;
            const double v = v0 + (j + (b + 0.5) / kSubsamples - 0.5) / kTexelsPerMetre;
            const int cu = static_cast<int>(std::floor(u / q)), cv_ = static_cast<int>(std::floor(v / q));
            const bool square = cu >= -1 && cu < board.columns && cv_ >= -1 && cv_ < board.rows;
            sum += square && ((cu + cv_) % 2 + 2) % 2 == 0 ? 20 : 245;
          }
        texture.at<float>(j, i) = static_cast<float>(sum / (kSubsamples * kSubsamples));
      }
    // Texel (i, j) <-> board (u0 + i / tpm, v0 + j / tpm) <-> pinhole pixel.
    std::vector<cv::Point2f> from, to;
    for (auto [i, j] : {std::pair{0, 0}, {tw - 1, 0}, {tw - 1, th - 1}, {0, th - 1}}) {
      const Eigen::Vector3d p = rotation_ * to_field(u0 + i / kTexelsPerMetre, v0 + j / kTexelsPerMetre) + translation_;
      from.emplace_back(static_cast<float>(i), static_cast<float>(j));
      to.emplace_back(static_cast<float>(k_(0, 0) * p.x() / p.z() + k_(0, 2)),
                      static_cast<float>(k_(1, 1) * p.y() / p.z() + k_(1, 2)));
    }
    const cv::Mat h = cv::getPerspectiveTransform(from, to);
    cv::Mat grey, mask;
    cv::warpPerspective(texture, grey, h, size_, cv::INTER_LINEAR, cv::BORDER_CONSTANT, 0);
    cv::warpPerspective(cv::Mat(texture.size(), CV_32F, cv::Scalar(1)), mask, h, size_, cv::INTER_LINEAR,
                        cv::BORDER_CONSTANT, 0);
    if (!map_.empty()) {
      cv::remap(grey, grey, map_, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, 0);
      cv::remap(mask, mask, map_, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, 0);
    }
    cv::Mat image(size_, CV_8UC3);
    const cv::Vec3f field(40, 120, 30);
    for (int y = 0; y < size_.height; ++y)
      for (int x = 0; x < size_.width; ++x) {
        const float m = mask.at<float>(y, x), g = grey.at<float>(y, x);
        const cv::Vec3f v = field * (1 - m) + cv::Vec3f(g, g, g);  // grey is already premultiplied by the mask
        image.at<cv::Vec3b>(y, x) = cv::Vec3b(cv::saturate_cast<uchar>(v[0]), cv::saturate_cast<uchar>(v[1]),
                                              cv::saturate_cast<uchar>(v[2]));
      }
    return image;
  }

 private:
  msg::CameraCalibration calibration_;
  cv::Size size_;
  cv::Matx33d k_;
  Eigen::Matrix3d rotation_;
  Eigen::Vector3d translation_;
  cv::Mat map_;  // CV_32FC2, empty without distortion
};

TEST(FieldCalibrator, CheckerboardOnTheFieldGivesTheCamera) {
  auto match = runtime::preset_match_config("mirosot");
  match.mutable_sim()->mutable_global_camera()->mutable_image()->clear_distortion();  // a rectified camera
  const auto truth = moved_camera(match, {0.05, 0.02, 2.45}, 1.0 * kDeg, 1.5 * kDeg, -2.0 * kDeg);
  Checkerboard board;
  board.columns = 9;
  board.rows = 6;
  board.square = 0.06;
  board.x = -0.25;
  board.y = 0.3;
  board.yaw = 0.3;
  cv::Mat image = BoardCamera(truth).image_with(board, lying_at(board));
  sim::camera::SensorEffects(image.size(), match.sim().global_camera().image(), 3).apply(image, 1);

  const auto result = FieldCalibrator::calibrate_from_checkerboard({image}, board, guess_for(match, 2.2));
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("checkerboard", result, c);
  EXPECT_FALSE(result.focal_estimated);  // one flat view from above: f from the guess
  EXPECT_EQ(result.features, 54);
  EXPECT_LT(result.rms_px, 0.3);
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.03);
}

TEST(FieldCalibrator, CheckerboardHalfTurnFollowsTheGuess) {
  // A board found from its other end still gives the camera above the field,
  // turned as guessed, when the image itself is turned.
  auto match = runtime::preset_match_config("mirosot");
  match.mutable_sim()->mutable_global_camera()->mutable_image()->clear_distortion();
  const auto truth = moved_camera(match, {0.0, 0.0, 2.5}, 0, 0, kPi + 1 * kDeg);
  Checkerboard board;
  board.columns = 7;
  board.rows = 5;
  board.square = 0.07;
  board.x = 0.1;
  board.y = -0.1;
  board.yaw = 0.0;
  const cv::Mat image = BoardCamera(truth).image_with(board, lying_at(board));
  CameraGuess guess = guess_for(match, 2.5);
  guess.yaw = kPi;
  const auto result = FieldCalibrator::calibrate_from_checkerboard({image}, board, guess);
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("checkerboard turned", result, c);
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.03);
}

TEST(FieldCalibrator, CheckerboardViewsGiveLensAndFocalLength) {
  // The board on the field, then held tilted at other places: the tilted
  // views determine f and the distortion, so a wrong fov guess does no harm.
  const auto match = runtime::preset_match_config("mirosot");  // k1 -0.08, k2 0.01
  const auto truth = moved_camera(match, {0.03, -0.02, 2.5}, 0.5 * kDeg, -0.5 * kDeg, 0.5 * kDeg);
  const BoardCamera camera(truth);
  Checkerboard board;
  board.columns = 9;
  board.rows = 6;
  board.square = 0.07;
  board.x = -0.3;
  board.y = 0.2;
  board.yaw = 0.0;
  std::vector<cv::Mat> images;
  images.push_back(camera.image_with(board, lying_at(board)));
  // Held at 0.4 m above the floor, tilted 25..35 degrees about varied axes, all over the image.
  const double held[][4] = {{-0.5, 0.3, 0.5, 0.0},  {0.5, 0.3, 0.55, 1.2}, {0.5, -0.3, 0.6, 2.5},
                            {-0.5, -0.3, 0.5, -1.9}, {0.0, 0.0, 0.6, 0.8}, {0.1, 0.25, 0.45, -0.7}};
  for (const auto& h : held) {
    const Eigen::Vector3d centre{h[0], h[1], 0.4};
    const Eigen::Matrix3d turn = (Eigen::AngleAxisd(h[3], Eigen::Vector3d::UnitZ()) *
                                  Eigen::AngleAxisd(h[2], Eigen::Vector3d::UnitX()))
                                     .toRotationMatrix();
    const double half_x = (board.columns - 1) * board.square / 2, half_y = (board.rows - 1) * board.square / 2;
    images.push_back(camera.image_with(board, [&](double u, double v) {
      return Eigen::Vector3d{centre + turn * Eigen::Vector3d{u - half_x, -(v - half_y), 0}};
    }));
  }
  CameraGuess guess = guess_for(match, 2.2);
  guess.horizontal_fov *= 1.06;  // a wrong lens guess
  const auto result = FieldCalibrator::calibrate_from_checkerboard(images, board, guess);
  const auto c = compare(match.league().field(), truth, result.calibration);
  report("checkerboard views", result, c);
  EXPECT_TRUE(result.focal_estimated);
  EXPECT_NEAR(result.calibration.fx(), truth.fx(), 0.01 * truth.fx());
  EXPECT_LT(c.max_px, 1.0);
  EXPECT_LT(c.position_m, 0.03);
}

TEST(FieldCalibrator, CheckerboardNotFoundFailsClearly) {
  const auto match = runtime::preset_match_config("mirosot");
  const cv::Mat image(480, 640, CV_8UC3, cv::Scalar(40, 120, 30));
  Checkerboard board;
  board.columns = 7;
  board.rows = 5;
  board.square = 0.05;
  try {
    FieldCalibrator::calibrate_from_checkerboard({image}, board, guess_for(match, 2.5));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("7 x 5 inner corners not found in image 1"), std::string::npos) << e.what();
  }
  board.rows = 7;
  EXPECT_THROW(FieldCalibrator::calibrate_from_checkerboard({image}, board, guess_for(match, 2.5)),
               std::invalid_argument);
}

}  // namespace
}  // namespace robocaf::actors
