#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "messages/log.pb.h"
#include "runtime/game_log.hpp"
#include "sim/camera/camera_model.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/overhead_image.hpp"
#include "sim/random.hpp"
#include "views/field_renderer.hpp"

namespace robocaf::deploy {

namespace fs = std::filesystem;

namespace {

const char* kRenderUsage =
    "usage: robocaf render LOG (--png DIR [--every N] | --video FILE) [--width PIXELS]\n"
    "                      [--camera overhead | --camera onboard --robot TEAM/ID] [--calibration FILE]\n"
    "  default: a schematic top view of the field, --width pixels wide (880)\n"
    "  --camera overhead          the simulated overhead camera's image instead (size from the config)\n"
    "  --camera onboard --robot blue/3\n"
    "                             what robot 3 of the blue team's own camera sees\n"
    "  --calibration FILE         with --camera: write the camera's CameraCalibration (protobuf text;\n"
    "                             onboard: of the first frame written)";

struct RobotChoice {
  msg::Team team = msg::TEAM_UNSPECIFIED;
  uint32_t id = 0;
};

// "blue/3", "yellow/1".
RobotChoice parse_robot(const std::string& text) {
  const auto slash = text.find('/');
  const std::string bad = "--robot expects TEAM/ID like blue/3, got '" + text + "'";
  if (slash == std::string::npos) throw UsageError(bad);
  std::string team = text.substr(0, slash);
  for (auto& c : team) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string id = text.substr(slash + 1);
  RobotChoice choice;
  if (team == "blue")
    choice.team = msg::BLUE;
  else if (team == "yellow")
    choice.team = msg::YELLOW;
  else
    throw UsageError(bad + " (TEAM is blue or yellow)");
  if (id.empty() || id.size() > 9 || id.find_first_not_of("0123456789") != std::string::npos) throw UsageError(bad);
  choice.id = static_cast<uint32_t>(std::stoul(id));
  return choice;
}

}  // namespace

int render_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"png", "video", "every", "width", "camera", "robot", "calibration"}, {}, 1};
  if (arguments.positional().empty() || (!arguments.value("png") && !arguments.value("video")))
    throw UsageError(kRenderUsage);
  const std::string log_path = arguments.positional()[0];
  const uint64_t every = std::max<uint64_t>(1, arguments.unsigned_number("every").value_or(1));
  const int width = static_cast<int>(arguments.number("width", 160, 4096).value_or(880));

  const std::optional<std::string> camera_kind = arguments.value("camera");
  if (camera_kind && *camera_kind != "overhead" && *camera_kind != "onboard")
    throw UsageError("--camera must be 'overhead' or 'onboard', got '" + *camera_kind + "'");
  const bool overhead = camera_kind && *camera_kind == "overhead";
  const bool onboard = camera_kind && *camera_kind == "onboard";
  std::optional<RobotChoice> robot;
  if (auto text = arguments.value("robot")) {
    if (!onboard) throw UsageError("--robot only goes with --camera onboard");
    robot = parse_robot(*text);
  }
  if (onboard && !robot) throw UsageError("--camera onboard needs --robot TEAM/ID, e.g. --robot blue/3");
  const std::optional<std::string> calibration_path = arguments.value("calibration");
  if (calibration_path && !camera_kind) throw UsageError("--calibration needs --camera overhead or --camera onboard");
  if (camera_kind && arguments.value("width"))
    throw UsageError("--width is for the schematic view; a camera image has the size of the config's camera spec");

  runtime::GameLogReader reader{log_path};
  const msg::MatchConfig& config = reader.header().config();
  if (robot && (robot->id < 1 || robot->id > config.league().team_size()))
    throw UsageError("--robot " + *arguments.value("robot") + ": this match has robots 1.." +
                     std::to_string(config.league().team_size()) + " per team");

  std::optional<views::FieldRenderer> schematic;
  std::optional<sim::camera::OverheadImageRenderer> overhead_camera;
  std::optional<sim::camera::OnboardImageRenderer> onboard_camera;
  cv::Size size;
  if (overhead) {
    overhead_camera.emplace(config.league(), config.sim().global_camera(),
                            sim::derive_seed(config.seed(), sim::camera::kOverheadImageStream));
    size = overhead_camera->size();
    if (calibration_path) write_text_file(*calibration_path, sim::camera::calibration_to_text(overhead_camera->calibration()));
  } else if (onboard) {
    onboard_camera.emplace(config.league(), config.sim().onboard_camera(),
                           sim::derive_seed(config.seed(), sim::camera::kOnboardImageStream));
    size = onboard_camera->size();
  } else {
    schematic.emplace(config.league(), width);
    size = schematic->size();
  }

  const double period = config.sim().control_period();
  std::optional<std::string> png_dir = arguments.value("png");
  if (png_dir) fs::create_directories(*png_dir);
  cv::VideoWriter video;
  if (auto video_path = arguments.value("video")) {
    // Motion-JPEG in AVI: OpenCV writes it without any external codec.
    const double fps = period > 0 ? 1.0 / (period * static_cast<double>(every)) : 25.0;
    if (!video.open(*video_path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, size))
      throw std::runtime_error("cannot write video " + *video_path);
  }

  msg::LogRecord record;
  msg::GameState game;
  bool have_game = false;
  uint64_t truths = 0, written = 0, absent = 0;
  while (reader.next(record)) {
    if (record.has_game_state()) {
      game = record.game_state();
      have_game = true;
    }
    if (!record.has_truth() || truths++ % every != 0) continue;
    const msg::WorldTruth& truth = record.truth();
    cv::Mat frame;
    // Camera images take the cycle as frame number, so a frame's noise does
    // not depend on --every.
    if (overhead_camera) {
      frame = overhead_camera->render(truth, truth.cycle());
    } else if (onboard_camera) {
      const msg::RobotTruth* self = nullptr;
      for (const auto& r : truth.robots())
        if (r.team() == robot->team && r.robot_id() == robot->id) self = &r;
      if (!self) {
        ++absent;  // not on the field in this cycle
        continue;
      }
      if (calibration_path && written == 0)
        write_text_file(*calibration_path, sim::camera::calibration_to_text(onboard_camera->calibration_for(self->pose())));
      frame = onboard_camera->render(truth, robot->team, robot->id, truth.cycle());
    } else {
      frame = schematic->render(truth, have_game ? &game : nullptr);
    }
    if (png_dir) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%06llu.png", static_cast<unsigned long long>(written));
      const std::string path = (fs::path(*png_dir) / name).string();
      if (!cv::imwrite(path, frame)) throw std::runtime_error("cannot write " + path);
    }
    if (video.isOpened()) video.write(frame);
    ++written;
  }
  std::cout << "rendered " << written << " frames from " << log_path
            << (reader.truncated() ? " (its last record was cut short and skipped)" : "") << '\n';
  if (absent > 0)
    std::cout << "skipped " << absent << " frames in which robot " << *arguments.value("robot")
              << " was not on the field\n";
  if (onboard && calibration_path && written == 0)
    std::cout << "no calibration written: no frame of robot " << *arguments.value("robot") << '\n';
  return 0;
}

}  // namespace robocaf::deploy
