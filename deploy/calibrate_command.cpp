#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "actors/perception/field_calibrator.hpp"
#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/config_loader.hpp"
#include "sim/camera/camera_model.hpp"

namespace robocaf::deploy {

namespace {

const char* kCalibrateUsage =
    "usage: robocaf calibrate IMAGE [IMAGE...] [--preset mirosot|ssl | --config FILE] [--camera-height M]\n"
    "                         [--fov RAD] [--yaw RAD] [--camera-at X,Y] [--looking-at X,Y]\n"
    "                         [--checkerboard COLSxROWS --square M [--board-at X,Y[,YAW]]] --out FILE\n"
    "  Estimates the overhead camera's calibration and writes it to FILE (protobuf text, like\n"
    "  `robocaf render --calibration`).\n"
    "  default: from the field's white lines in one IMAGE showing the whole field; the field's size from\n"
    "  the preset (mirosot by default) or the match config.\n"
    "  The starting guess: straight down over the centre spot from --camera-height (default: the\n"
    "  config's sim.global_camera.height) with --fov (default: its image.horizontal_fov), image x along\n"
    "  field +x turned by --yaw (default 0; it also says which goal is +x). A camera hung elsewhere:\n"
    "  --camera-at X,Y (m, the field point under it) and --looking-at X,Y (where its optical axis meets\n"
    "  the floor). f comes from --fov unless the image determines it (a camera tilted ~15 deg or more).\n"
    "  --checkerboard 9x6 --square 0.05   from a board with 9 x 6 inner corners of 5 cm squares instead:\n"
    "                             it lies on the field in the first IMAGE, its first inner corner at\n"
    "                             --board-at X,Y (m, default 0,0), its rows along YAW (rad, default 0)\n"
    "                             and the next rows to their right seen from above; more IMAGEs of the\n"
    "                             board held tilted elsewhere improve the lens estimate.";

// "9x6" -> {9, 6}.
std::pair<int, int> parse_pattern(const std::string& text) {
  const std::string bad = "--checkerboard expects COLSxROWS inner corners like 9x6, got '" + text + "'";
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) throw UsageError(bad);
  const std::string a = text.substr(0, x), b = text.substr(x + 1);
  auto whole = [&](const std::string& s) {
    if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
    return std::stoi(s);
  };
  const int cols = whole(a), rows = whole(b);
  if (cols < 2 || rows < 2) throw UsageError(bad + " (at least 2x2)");
  if (cols == rows)
    throw UsageError("--checkerboard " + text +
                     ": use a board with different numbers of inner corners along its sides, so its orientation "
                     "is unambiguous");
  return {cols, rows};
}

// "X,Y" or "X,Y,YAW".
std::vector<double> parse_numbers(const std::string& option, const std::string& text) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    const double x = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !std::isfinite(x))
      throw UsageError("--" + option + " expects numbers separated by commas, got '" + text + "'");
    out.push_back(x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

cv::Mat read_image(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw UsageError("no image file '" + path + "'");
  cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
  if (image.empty()) throw UsageError("cannot read image '" + path + "' (missing, or not a format OpenCV reads)");
  return image;
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args) {
  Arguments arguments{args,
                      {"preset", "config", "camera-height", "fov", "yaw", "camera-at", "looking-at", "checkerboard",
                       "square", "board-at", "out"},
                      {},
                      64};
  if (arguments.positional().empty() || !arguments.value("out")) throw UsageError(kCalibrateUsage);
  const bool checkerboard = arguments.value("checkerboard").has_value();
  if (!checkerboard && arguments.positional().size() > 1)
    throw UsageError("the field-line calibration takes one IMAGE (several only with --checkerboard)");
  if (arguments.value("square") && !checkerboard) throw UsageError("--square only goes with --checkerboard");
  if (arguments.value("board-at") && !checkerboard) throw UsageError("--board-at only goes with --checkerboard");
  if (checkerboard && !arguments.value("square")) throw UsageError("--checkerboard needs --square M (square side)");
  if (arguments.value("preset") && arguments.value("config")) throw UsageError("give --preset or --config, not both");

  const msg::MatchConfig config = arguments.value("config")
                                      ? runtime::load_match_config(*arguments.value("config"))
                                      : runtime::preset_match_config(arguments.value("preset").value_or("mirosot"));
  const auto& camera_spec = config.sim().global_camera();
  actors::CameraGuess guess;
  guess.height = arguments.number("camera-height", 0.01, 1000).value_or(camera_spec.height());
  if (!(guess.height > 0))
    throw UsageError("the config leaves the camera height to the simulator (0): give --camera-height M");
  guess.horizontal_fov = arguments.number("fov", 0.01, 3.1).value_or(camera_spec.image().horizontal_fov());
  if (!(guess.horizontal_fov > 0))
    throw UsageError("the config gives no camera field of view (image.horizontal_fov 0): give --fov RAD");
  guess.yaw = arguments.number("yaw", -7, 7).value_or(0.0);
  if (auto at = arguments.value("camera-at")) {
    const auto xy = parse_numbers("camera-at", *at);
    if (xy.size() != 2) throw UsageError("--camera-at expects X,Y");
    guess.x = xy[0];
    guess.y = xy[1];
  }
  if (auto at = arguments.value("looking-at")) {
    const auto xy = parse_numbers("looking-at", *at);
    if (xy.size() != 2) throw UsageError("--looking-at expects X,Y");
    guess.looking_at = Eigen::Vector2d{xy[0], xy[1]};
    if ((*guess.looking_at - Eigen::Vector2d{guess.x, guess.y}).norm() > 3 * guess.height)
      throw UsageError("--looking-at is more than 70 degrees from straight down below the camera");
  }

  std::vector<cv::Mat> images;
  for (const auto& path : arguments.positional()) images.push_back(read_image(path));

  actors::CalibrationResult result;
  std::string method;
  if (checkerboard) {
    const auto [cols, rows] = parse_pattern(*arguments.value("checkerboard"));
    actors::Checkerboard board;
    board.columns = cols;
    board.rows = rows;
    board.square = *arguments.number("square", 1e-4, 10);
    if (auto at = arguments.value("board-at")) {
      const auto numbers = parse_numbers("board-at", *at);
      if (numbers.size() < 2 || numbers.size() > 3) throw UsageError("--board-at expects X,Y or X,Y,YAW");
      board.x = numbers[0];
      board.y = numbers[1];
      if (numbers.size() == 3) board.yaw = numbers[2];
    }
    for (size_t i = 1; i < images.size(); ++i)
      if (images[i].size() != images[0].size())
        throw UsageError("image '" + arguments.positional()[i] + "' is not the size of the first");
    result = actors::FieldCalibrator::calibrate_from_checkerboard(images, board, guess);
    method = "a " + std::to_string(cols) + "x" + std::to_string(rows) + " checkerboard in " +
             std::to_string(images.size()) + " image(s)";
  } else {
    const actors::FieldCalibrator calibrator(config.league().field());
    result = calibrator.calibrate_from_lines(images[0], guess);
    method = "the field lines of " + config.league().name();
  }

  const msg::CameraCalibration& c = result.calibration;
  const double tilt = std::acos(std::clamp(-c.rotation(8), -1.0, 1.0));
  char text[512];
  std::string header = "# robocaf calibrate: " + arguments.positional()[0] + ", from " + method + "\n";
  std::snprintf(text, sizeof text, "# RMS reprojection %.3f px over %d features; camera at (%.4f, %.4f, %.4f) m\n",
                result.rms_px, result.features, result.camera_position.x(), result.camera_position.y(),
                result.camera_position.z());
  header += text;
  write_text_file(*arguments.value("out"), header + sim::camera::calibration_to_text(c));

  std::printf("calibrated %s from %s\n", arguments.positional()[0].c_str(), method.c_str());
  std::printf("reprojection RMS %.3f px over %d features", result.rms_px, result.features);
  if (result.outliers > 0) std::printf(" (%d left out as outliers)", result.outliers);
  std::printf("\ncamera at x %+.4f  y %+.4f  z %.4f m, optical axis %.2f deg from straight down\n",
              result.camera_position.x(), result.camera_position.y(), result.camera_position.z(),
              tilt * 180 / 3.14159265358979323846);
  std::printf("focal length %.2f px (horizontal fov %.4f rad), %s\n", c.fx(),
              2 * std::atan(c.width() / 2.0 / c.fx()),
              result.focal_estimated ? "estimated from the image(s)"
                                     : "from the guessed fov: the image(s) do not determine it, so an error in the "
                                       "fov shows up as one in the camera height");
  std::printf("distortion k1 %.5f  k2 %.5f  p1 %.5f  p2 %.5f  k3 %.5f\n", c.distortion(0), c.distortion(1),
              c.distortion(2), c.distortion(3), c.distortion(4));
  std::printf("wrote %s\n", arguments.value("out")->c_str());
  return 0;
}

}  // namespace robocaf::deploy
