#pragma once
// Camera images for perception from outside the simulator: an image folder, a
// video file or a live camera (cv::VideoCapture), and a grabber that keeps
// only the newest frame so a consumer that falls behind drops stale frames
// instead of queueing them.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include <opencv2/core.hpp>

namespace robocaf::actors {

/// One image of a source.
struct Frame {
  cv::Mat bgr;                     ///< 8-bit, 3 channels, BGR (CV_8UC3)
  double t_capture = 0;            ///< s; each source's origin: see open_frame_source
  std::uint64_t frame_number = 0;  ///< 1, 2, 3, ... in the order the source delivered them
};

/// A source that cannot be opened or read: what() names the path, camera or
/// file and says what was wrong.
class FrameSourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A stream of frames, all of one size. Not thread-safe: one reader.
///
/// next() numbers the frames and checks the size; concrete sources implement
/// read_frame(). Grey or BGRA images are converted to BGR.
class FrameSource {
 public:
  virtual ~FrameSource() = default;
  FrameSource() = default;
  FrameSource(const FrameSource&) = delete;
  FrameSource& operator=(const FrameSource&) = delete;

  /// The next frame, or nullopt at the end of the stream (and on every call
  /// after it). Throws FrameSourceError for a frame that cannot be read, is
  /// not 8-bit, or whose size differs from the first frame's; a file source
  /// has then moved past that frame.
  std::optional<Frame> next();

  /// "image folder DIR (N images)", "video file PATH", "camera N".
  virtual std::string description() const = 0;
  /// True for a live camera: it delivers frames at its own pace, and a frame
  /// not taken in time is gone. False for files, which can be read at any pace.
  virtual bool live() const = 0;

 protected:
  /// The next image and its capture time (s); image empty at the end of the
  /// stream. `name` names the image in errors (a file name, "frame 12").
  struct RawFrame {
    cv::Mat image;
    double t_capture = 0;
    std::string name;
  };
  virtual RawFrame read_frame() = 0;

 private:
  std::uint64_t delivered_ = 0;
  cv::Size size_;
  bool ended_ = false;
};

struct FrameSourceOptions {
  /// Frame rate (Hz) of an image folder (frame i is captured at i / fps), and
  /// of a video file whose container gives none.
  double fps = 30.0;
};

/// Opens the source `spec` names:
///  - `camera:N`: camera N through cv::VideoCapture(N); t_capture is steady
///    time since the camera was opened;
///  - a directory: its .png, .jpg, .jpeg and .bmp files (any case), sorted by
///    file name; frame i (from 0) at t_capture = i / options.fps; other files
///    are ignored;
///  - an image file (those extensions): a folder of one image;
///  - any other file: a video (FFmpeg when OpenCV has it); t_capture from the
///    position in the video, from the frame index and the frame rate when the
///    container has no timestamps.
/// Throws FrameSourceError for a path that does not exist, a folder without
/// images, a file OpenCV cannot open as a video, a camera that does not open,
/// a malformed `camera:` spec, or fps not positive. Images are read lazily:
/// one that cannot be decoded is an error of next().
std::unique_ptr<FrameSource> open_frame_source(const std::string& spec, const FrameSourceOptions& options = {});

/// Reads a source on its own thread as fast as it delivers and keeps only the
/// newest frame in a single slot; take() hands it to the consumer. No queue:
/// at most three frames exist at once (being read, in the slot, taken).
///
/// Pacing:
///  - a live source paces itself; a frame still in the slot when the next
///    arrives is dropped;
///  - a file source with `paced`: frames are released at their t_capture
///    (wall time since the first frame), and dropped like a camera's, so a slow
///    consumer sees what it would with a live camera at that frame rate;
///  - a file source without `paced`: the reader waits until the slot is
///    taken, so every frame is processed, as fast as the consumer goes.
///
/// Every frame read is either taken or dropped: at the end of the stream the
/// sum of dropped counts plus the frames taken is frames_read().
class LatestFrameGrabber {
 public:
  struct Options {
    bool paced = false;  ///< file sources only; ignored for a live source
  };

  /// A frame and how many frames the source delivered since the previous
  /// take() that nobody took.
  struct Taken {
    Frame frame;
    std::uint64_t dropped = 0;
  };

  /// Starts reading at once.
  explicit LatestFrameGrabber(std::unique_ptr<FrameSource> source);
  LatestFrameGrabber(std::unique_ptr<FrameSource> source, Options options);
  /// Stops the reader and joins it; a read in progress is finished first (a
  /// camera returns within a frame period).
  ~LatestFrameGrabber();
  LatestFrameGrabber(const LatestFrameGrabber&) = delete;
  LatestFrameGrabber& operator=(const LatestFrameGrabber&) = delete;

  /// Waits for a frame newer than the last one taken and takes it; nullopt at
  /// the end of the stream. A source error (FrameSourceError) ends the stream:
  /// once the frame read before it has been taken, every take() rethrows it.
  /// One consumer thread.
  std::optional<Taken> take();

  std::uint64_t frames_read() const;
  std::uint64_t frames_dropped() const;

 private:
  void read_loop();

  std::unique_ptr<FrameSource> source_;
  Options options_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Frame> slot_;
  std::uint64_t read_ = 0;
  std::uint64_t dropped_ = 0;
  std::uint64_t dropped_since_take_ = 0;
  bool ended_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread reader_;  // last: started once everything above is set up
};

}  // namespace robocaf::actors
