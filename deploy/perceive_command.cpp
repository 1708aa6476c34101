// `robocaf perceive`: overhead image perception on frames from outside the
// simulator (an image folder, a video file, a live camera), newest frame first.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <google/protobuf/util/json_util.h>

#include "actors/perception/frame_source.hpp"
#include "actors/perception/image_detector.hpp"
#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/statistics.hpp"

namespace robocaf::deploy {

namespace {

const char* kPerceiveUsage =
    "usage: robocaf perceive --source SPEC --calibration FILE [--preset mirosot|ssl] [--fps F] [--paced]\n"
    "                        [--frames N] [--jsonl FILE]\n"
    "  Detects the ball and the robots in overhead camera frames, with the camera calibration\n"
    "  `robocaf calibrate` (or `robocaf render --calibration`) wrote, and prints a table.\n"
    "  --source DIR               the folder's .png .jpg .jpeg .bmp images in file-name order\n"
    "  --source FILE              one image, or a video (anything OpenCV's FFmpeg reads)\n"
    "  --source camera:N          live camera N (cv::VideoCapture(N))\n"
    "  --preset mirosot|ssl       the league: field, ball and robot sizes, marking colours (mirosot)\n"
    "  --fps F                    frame rate of an image folder (frame i taken at i / F s), and of a\n"
    "                             video that gives none (30)\n"
    "  --paced                    files: release frames at their frame rate as a camera would, so the\n"
    "                             frames detection cannot keep up with are dropped (a camera always is);\n"
    "                             without it every frame of a file is processed\n"
    "  --frames N                 stop after N frames processed\n"
    "  --jsonl FILE               one msg::DetectionFrame per processed frame, protobuf JSON, one per line";

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

std::string detection_json(const msg::DetectionFrame& frame) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;    // the names of messages/vision.proto
  options.always_print_primitive_fields = true;  // "balls": [] rather than no key at all
  std::string json;
  const auto status = google::protobuf::util::MessageToJsonString(frame, &json, options);
  if (!status.ok()) throw std::runtime_error("cannot print a detection frame as JSON: " + status.ToString());
  return json;
}

}  // namespace

int perceive_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"source", "calibration", "preset", "fps", "frames", "jsonl"}, {"paced", "help"}, 0};
  if (arguments.has("help")) {
    std::cout << kPerceiveUsage << '\n';
    return 0;
  }
  if (!arguments.value("source")) throw UsageError(std::string("--source is missing\n") + kPerceiveUsage);
  if (!arguments.value("calibration")) throw UsageError(std::string("--calibration is missing\n") + kPerceiveUsage);
  const std::string source_spec = *arguments.value("source");
  const std::string calibration_path = *arguments.value("calibration");

  const msg::MatchConfig config = runtime::preset_match_config(arguments.value("preset").value_or("mirosot"));
  if (config.league().vision() != msg::VISION_GLOBAL)
    throw UsageError("preset '" + config.league().name() + "' has no overhead camera");

  msg::CameraCalibration calibration;
  runtime::load_text_config(calibration_path, calibration);  // ConfigError names file:line:col
  std::optional<actors::ImageDetector> detector;
  try {
    detector.emplace(config.league(), calibration, config.colour_thresholds());
  } catch (const std::invalid_argument& e) {
    throw UsageError("calibration " + calibration_path + " is not a usable camera: " + e.what());
  }

  actors::FrameSourceOptions source_options;
  source_options.fps = arguments.number("fps", 1e-3, 1e4).value_or(source_options.fps);
  std::unique_ptr<actors::FrameSource> source;
  try {
    source = actors::open_frame_source(source_spec, source_options);
  } catch (const actors::FrameSourceError& e) {
    throw UsageError(std::string("--source: ") + e.what());
  }
  const std::string description = source->description();
  const bool live = source->live();
  const bool paced = arguments.has("paced");
  if (paced && live) std::cout << "(--paced has no effect on a camera: it paces itself)\n";
  const std::optional<std::uint64_t> max_frames = arguments.unsigned_number("frames");
  if (max_frames && *max_frames == 0) throw UsageError("--frames must be at least 1");

  std::ofstream jsonl;
  if (auto path = arguments.value("jsonl")) {
    jsonl.open(*path, std::ios::trunc);
    if (!jsonl) throw std::runtime_error("cannot write " + *path);
  }

  std::cout << "robocaf perceive: " << description << ", " << config.league().name() << ", calibration "
            << calibration_path << " (" << size_text(calibration.width(), calibration.height()) << ")" << std::endl;

  actors::LatestFrameGrabber grabber(std::move(source), {paced});
  std::vector<double> detection_ms;
  std::uint64_t processed = 0, balls = 0, robots = 0;
  std::string source_error;
  try {
    while (!max_frames || processed < *max_frames) {
      const auto taken = grabber.take();
      if (!taken) break;
      const cv::Mat& image = taken->frame.bgr;
      if (image.cols != static_cast<int>(calibration.width()) || image.rows != static_cast<int>(calibration.height()))
        throw UsageError("the frames of " + description + " are " + size_text(image.cols, image.rows) +
                         " pixels, the calibration " + calibration_path + " is for " +
                         size_text(calibration.width(), calibration.height()));
      const auto start = std::chrono::steady_clock::now();
      msg::DetectionFrame detections = detector->detect(image, taken->frame.frame_number, taken->frame.t_capture);
      detection_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      ++processed;
      balls += static_cast<std::uint64_t>(detections.balls_size());
      robots += static_cast<std::uint64_t>(detections.robots_blue_size() + detections.robots_yellow_size());
      if (jsonl.is_open()) jsonl << detection_json(detections) << '\n';
    }
  } catch (const actors::FrameSourceError& e) {
    source_error = e.what();  // reported after the table of what was processed
  }
  if (jsonl.is_open()) {
    jsonl.close();
    if (!jsonl) throw std::runtime_error("cannot write " + *arguments.value("jsonl"));
  }

  const std::uint64_t read = grabber.frames_read(), dropped = grabber.frames_dropped();
  const double per_frame = processed > 0 ? 1.0 / static_cast<double>(processed) : 0.0;
  std::printf("frames read         %10llu", static_cast<unsigned long long>(read));
  if (read > processed + dropped)  // stopped by --frames or an error with a newer frame waiting
    std::printf("   (%llu neither processed nor dropped)", static_cast<unsigned long long>(read - processed - dropped));
  std::printf("\n");
  std::printf("frames processed    %10llu\n", static_cast<unsigned long long>(processed));
  std::printf("frames dropped      %10llu   (%s)\n", static_cast<unsigned long long>(dropped),
              live    ? "live camera: a frame not yet taken is replaced by a newer one"
              : paced ? "paced at the frame rate: a frame not yet taken is replaced by a newer one"
                      : "unpaced: every frame is processed");
  std::printf("detection median    %10.3f ms\n", runtime::median(detection_ms));
  std::printf("balls per frame     %10.2f\n", static_cast<double>(balls) * per_frame);
  std::printf("robots per frame    %10.2f\n", static_cast<double>(robots) * per_frame);
  if (auto path = arguments.value("jsonl")) std::printf("wrote %s\n", path->c_str());
  if (!source_error.empty()) {
    std::cerr << "robocaf perceive: " << source_error << '\n';
    return 2;
  }
  return 0;
}

}  // namespace robocaf::deploy
