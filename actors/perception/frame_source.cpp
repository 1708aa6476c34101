#include "actors/perception/frame_source.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <utility>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <opencv2/videoio/registry.hpp>

namespace robocaf::actors {

namespace fs = std::filesystem;

namespace {

constexpr const char* kCameraPrefix = "camera:";

std::string size_text(const cv::Size& size) {
  return std::to_string(size.width) + "x" + std::to_string(size.height);
}

bool is_image_file(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".png" || extension == ".jpg" || extension == ".jpeg" || extension == ".bmp";
}

class ImageFilesSource final : public FrameSource {
 public:
  ImageFilesSource(std::string description, std::vector<fs::path> files, double fps)
      : description_(std::move(description)), files_(std::move(files)), fps_(fps) {}

  std::string description() const override { return description_; }
  bool live() const override { return false; }

 protected:
  RawFrame read_frame() override {
    RawFrame raw;
    if (next_ >= files_.size()) return raw;
    const std::size_t index = next_++;  // past a bad file too, so a caller may skip it
    raw.name = "image '" + files_[index].string() + "'";
    raw.image = cv::imread(files_[index].string(), cv::IMREAD_COLOR);
    if (raw.image.empty())
      throw FrameSourceError("cannot read " + raw.name + ": not an image OpenCV can decode, or damaged");
    raw.t_capture = static_cast<double>(index) / fps_;
    return raw;
  }

 private:
  std::string description_;
  std::vector<fs::path> files_;
  double fps_;
  std::size_t next_ = 0;
};

class VideoFileSource final : public FrameSource {
 public:
  VideoFileSource(const std::string& path, double fallback_fps) : path_(path) {
    // FFmpeg reads nearly every container; asking it alone keeps the other
    // backends from printing their own failures for a file that is no video.
    const int api = cv::videoio_registry::hasBackend(cv::CAP_FFMPEG) ? cv::CAP_FFMPEG : cv::CAP_ANY;
    if (!capture_.open(path, api))
      throw FrameSourceError("cannot open video file '" + path + "': OpenCV cannot read it as a video");
    const double fps = capture_.get(cv::CAP_PROP_FPS);
    period_ = 1.0 / (std::isfinite(fps) && fps > 0 ? fps : fallback_fps);
  }

  std::string description() const override { return "video file " + path_; }
  bool live() const override { return false; }

 protected:
  RawFrame read_frame() override {
    RawFrame raw;
    if (!capture_.read(raw.image)) {
      raw.image.release();
      return raw;
    }
    ++index_;
    raw.name = "frame " + std::to_string(index_) + " of video '" + path_ + "'";
    // After a read, the position is that frame's timestamp (FFmpeg). Backends
    // without timestamps report 0 or stand still: then one period on.
    const double position = capture_.get(cv::CAP_PROP_POS_MSEC) / 1000.0;
    if (index_ == 1)
      last_t_ = std::isfinite(position) && position >= 0 ? position : 0.0;
    else
      last_t_ = std::isfinite(position) && position > last_t_ ? position : last_t_ + period_;
    raw.t_capture = last_t_;
    return raw;
  }

 private:
  std::string path_;
  cv::VideoCapture capture_;
  double period_ = 0;
  double last_t_ = 0;
  std::uint64_t index_ = 0;
};

class CameraSource final : public FrameSource {
 public:
  explicit CameraSource(int index) : index_(index) {
    if (!capture_.open(index))
      throw FrameSourceError("camera " + std::to_string(index) +
                             " does not open (no such device, no permission, or in use by another program)");
    opened_ = std::chrono::steady_clock::now();
  }

  std::string description() const override { return "camera " + std::to_string(index_); }
  bool live() const override { return true; }

 protected:
  RawFrame read_frame() override {
    RawFrame raw;
    if (!capture_.read(raw.image) || raw.image.empty())
      throw FrameSourceError("camera " + std::to_string(index_) + " stopped delivering frames after " +
                             std::to_string(frames_) + " (unplugged?)");
    raw.t_capture = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
    raw.name = "frame " + std::to_string(++frames_) + " of camera " + std::to_string(index_);
    return raw;
  }

 private:
  int index_;
  cv::VideoCapture capture_;
  std::chrono::steady_clock::time_point opened_;
  std::uint64_t frames_ = 0;
};

int parse_camera_index(const std::string& spec) {
  const std::string digits = spec.substr(std::string(kCameraPrefix).size());
  if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos)
    throw FrameSourceError("bad camera '" + spec + "': expected camera:N with N a camera index such as 0");
  return std::stoi(digits);
}

}  // namespace

std::optional<Frame> FrameSource::next() {
  if (ended_) return std::nullopt;
  RawFrame raw = read_frame();
  if (raw.image.empty()) {
    ended_ = true;
    return std::nullopt;
  }
  if (raw.image.depth() != CV_8U)
    throw FrameSourceError(raw.name + " is not an 8-bit image (OpenCV depth " + std::to_string(raw.image.depth()) +
                           ")");
  if (raw.image.channels() == 1)
    cv::cvtColor(raw.image, raw.image, cv::COLOR_GRAY2BGR);
  else if (raw.image.channels() == 4)
    cv::cvtColor(raw.image, raw.image, cv::COLOR_BGRA2BGR);
  else if (raw.image.channels() != 3)
    throw FrameSourceError(raw.name + " has " + std::to_string(raw.image.channels()) + " channels");
  if (delivered_ == 0)
    size_ = raw.image.size();
  else if (raw.image.size() != size_)
    throw FrameSourceError(raw.name + " is " + size_text(raw.image.size()) + " pixels, the frames before it " +
                           size_text(size_) + ": all frames of a source must have one size");
  Frame frame;
  frame.bgr = std::move(raw.image);
  frame.t_capture = raw.t_capture;
  frame.frame_number = ++delivered_;
  return frame;
}

std::unique_ptr<FrameSource> open_frame_source(const std::string& spec, const FrameSourceOptions& options) {
  if (!(std::isfinite(options.fps) && options.fps > 0))
    throw FrameSourceError("the frame rate must be positive, got " + std::to_string(options.fps));
  if (spec.rfind(kCameraPrefix, 0) == 0) return std::make_unique<CameraSource>(parse_camera_index(spec));
  if (spec.empty()) throw FrameSourceError("no source given: a folder of images, a video file or camera:N");

  std::error_code error;
  const fs::file_status status = fs::status(spec, error);
  if (!fs::exists(status)) throw FrameSourceError("no such file or folder '" + spec + "'");
  if (fs::is_directory(status)) {
    std::vector<fs::path> images;
    try {
      for (const auto& entry : fs::directory_iterator(spec))
        if (entry.is_regular_file() && is_image_file(entry.path())) images.push_back(entry.path());
    } catch (const fs::filesystem_error& e) {
      throw FrameSourceError("cannot list folder '" + spec + "': " + e.code().message());
    }
    if (images.empty()) throw FrameSourceError("folder '" + spec + "' has no images (.png, .jpg, .jpeg, .bmp)");
    std::sort(images.begin(), images.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename().string() < b.filename().string(); });
    const std::string description =
        "image folder " + spec + " (" + std::to_string(images.size()) + " image" + (images.size() == 1 ? ")" : "s)");
    return std::make_unique<ImageFilesSource>(description, std::move(images), options.fps);
  }
  if (is_image_file(spec))
    return std::make_unique<ImageFilesSource>("image file " + spec, std::vector<fs::path>{spec}, options.fps);
  return std::make_unique<VideoFileSource>(spec, options.fps);
}

// --- LatestFrameGrabber -------------------------------------------------------

LatestFrameGrabber::LatestFrameGrabber(std::unique_ptr<FrameSource> source)
    : LatestFrameGrabber(std::move(source), Options{}) {}

LatestFrameGrabber::LatestFrameGrabber(std::unique_ptr<FrameSource> source, Options options)
    : source_(std::move(source)), options_(options) {
  if (!source_) throw std::invalid_argument("LatestFrameGrabber needs a source");
  reader_ = std::thread([this] { read_loop(); });
}

LatestFrameGrabber::~LatestFrameGrabber() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  reader_.join();
}

void LatestFrameGrabber::read_loop() {
  using Clock = std::chrono::steady_clock;
  const bool live = source_->live();
  const bool paced = options_.paced && !live;
  const bool every_frame = !options_.paced && !live;
  Clock::time_point first_release;
  double first_t = 0;
  for (;;) {
    // Read the next frame while the consumer works on the slot's.
    std::optional<Frame> frame;
    try {
      frame = source_->next();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      ended_ = true;
      changed_.notify_all();
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (!frame) {
      ended_ = true;
      changed_.notify_all();
      return;
    }
    if (paced) {
      // Released at its capture time after the first frame's release, as a
      // camera would deliver it; a slow read only delays this one frame.
      if (read_ == 0) {
        first_release = Clock::now();
        first_t = frame->t_capture;
      }
      const auto due = first_release + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(frame->t_capture - first_t));
      if (changed_.wait_until(lock, due, [this] { return stopping_; })) return;
    } else if (every_frame) {
      changed_.wait(lock, [this] { return stopping_ || !slot_; });
    }
    if (stopping_) return;
    ++read_;
    if (slot_) {
      ++dropped_;
      ++dropped_since_take_;
    }
    slot_ = std::move(frame);
    changed_.notify_all();
  }
}

std::optional<LatestFrameGrabber::Taken> LatestFrameGrabber::take() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return slot_.has_value() || ended_; });
  if (slot_) {
    Taken taken{std::move(*slot_), dropped_since_take_};
    slot_.reset();
    dropped_since_take_ = 0;
    lock.unlock();
    changed_.notify_all();  // a reader waiting for the slot to empty
    return taken;
  }
  if (error_) std::rethrow_exception(error_);
  return std::nullopt;
}

std::uint64_t LatestFrameGrabber::frames_read() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return read_;
}

std::uint64_t LatestFrameGrabber::frames_dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace robocaf::actors
