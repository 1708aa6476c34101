#include <filesystem>
#include <iostream>
#include <optional>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include "deploy/cli.hpp"
#include "deploy/commands.hpp"
#include "messages/log.pb.h"
#include "runtime/game_log.hpp"
#include "views/field_renderer.hpp"

namespace robocaf::deploy {

namespace fs = std::filesystem;

int render_command(const std::vector<std::string>& args) {
  Arguments arguments{args, {"png", "video", "every", "width"}, {}, 1};
  if (arguments.positional().empty() || (!arguments.value("png") && !arguments.value("video")))
    throw UsageError("usage: robocaf render LOG (--png DIR [--every N] | --video FILE) [--width PIXELS]");
  const std::string log_path = arguments.positional()[0];
  const uint64_t every = std::max<uint64_t>(1, arguments.unsigned_number("every").value_or(1));
  const int width = static_cast<int>(arguments.number("width", 160, 4096).value_or(880));

  runtime::GameLogReader reader{log_path};
  views::FieldRenderer renderer{reader.header().config().league(), width};
  const double period = reader.header().config().sim().control_period();
  std::optional<std::string> png_dir = arguments.value("png");
  if (png_dir) fs::create_directories(*png_dir);
  cv::VideoWriter video;
  if (auto video_path = arguments.value("video")) {
    // Motion-JPEG in AVI: OpenCV writes it without any external codec.
    const double fps = period > 0 ? 1.0 / (period * static_cast<double>(every)) : 25.0;
    if (!video.open(*video_path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, renderer.size()))
      throw std::runtime_error("cannot write video " + *video_path);
  }

  msg::LogRecord record;
  msg::GameState game;
  bool have_game = false;
  uint64_t truths = 0, written = 0;
  while (reader.next(record)) {
    if (record.has_game_state()) {
      game = record.game_state();
      have_game = true;
    }
    if (!record.has_truth() || truths++ % every != 0) continue;
    cv::Mat frame = renderer.render(record.truth(), have_game ? &game : nullptr);
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
  return 0;
}

}  // namespace robocaf::deploy
