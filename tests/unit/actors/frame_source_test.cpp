#include "actors/perception/frame_source.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "runtime/config_loader.hpp"
#include "sim/camera/overhead_image.hpp"

namespace robocaf::actors {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Overhead MiroSot images of a ball rolling along the field and a robot
// crossing it, so neighbouring frames differ where the objects are.
const std::vector<cv::Mat>& rendered_frames() {
  static const std::vector<cv::Mat> frames = [] {
    const auto match = runtime::preset_match_config("mirosot");
    const sim::camera::OverheadImageRenderer renderer(match.league(), match.sim().global_camera(), 5);
    std::vector<cv::Mat> out;
    for (int i = 0; i < 7; ++i) {
      msg::WorldTruth truth;
      truth.mutable_ball_position()->set_x(-0.9 + 0.3 * i);
      truth.mutable_ball_position()->set_y(0.2);
      auto* robot = truth.add_robots();
      robot->set_team(msg::BLUE);
      robot->set_robot_id(3);
      robot->mutable_pose()->set_x(0.3);
      robot->mutable_pose()->set_y(-0.6 + 0.2 * i);
      robot->mutable_pose()->set_theta(0.4 * i);
      out.push_back(renderer.render(truth, static_cast<std::uint64_t>(i + 1)));
    }
    return out;
  }();
  return frames;
}

// Pixels where two images show different things: the pixel noise (sd 3,
// independent per frame) and JPEG's losses smoothed away, a difference of more
// than 20 levels in any channel is left only where the ball or a robot moved.
int scene_difference(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat smooth_a, smooth_b, difference;
  cv::GaussianBlur(a, smooth_a, {5, 5}, 1.5);
  cv::GaussianBlur(b, smooth_b, {5, 5}, 1.5);
  cv::absdiff(smooth_a, smooth_b, difference);
  cv::Mat changed;
  cv::inRange(difference, cv::Scalar(0, 0, 0), cv::Scalar(20, 20, 20), changed);
  return static_cast<int>(a.total()) - cv::countNonZero(changed);
}

void write_image(const fs::path& path, const cv::Mat& image) { ASSERT_TRUE(cv::imwrite(path.string(), image)) << path; }

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// The message of the FrameSourceError `f` throws, or "" if it throws nothing.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const FrameSourceError& e) {
    return e.what();
  }
  return "";
}

class FrameSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("robocaf_frames_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `count` copies of the rendered frames in turn, as frame_000.png, ...
  std::string image_folder(int count, const std::string& name = "images") {
    const fs::path folder = dir_ / name;
    fs::create_directories(folder);
    const auto& frames = rendered_frames();
    for (int i = 0; i < count; ++i) {
      char file[32];
      std::snprintf(file, sizeof file, "frame_%03d.png", i);
      write_image(folder / file, frames[static_cast<std::size_t>(i) % frames.size()]);
    }
    return folder.string();
  }

  fs::path dir_;
};

// --- sources -----------------------------------------------------------------

TEST_F(FrameSourceTest, ImageFolderGivesItsImagesSortedByNameAtIndexOverFps) {
  const auto& frames = rendered_frames();
  // Written out of order, with lossless formats of mixed case, next to files
  // that are not images (a text file, a folder named like an image).
  const std::vector<std::pair<std::string, int>> files{
      {"c_2.png", 2}, {"a_0.bmp", 0}, {"e_4.PNG", 4}, {"b_1.png", 1}, {"d_3.BMP", 3}};
  for (const auto& [name, index] : files) write_image(dir_ / name, frames[static_cast<std::size_t>(index)]);
  write_text(dir_ / "notes.txt", "not an image");
  fs::create_directories(dir_ / "f_5.png");

  FrameSourceOptions options;
  options.fps = 20;
  const auto source = open_frame_source(dir_.string(), options);
  EXPECT_FALSE(source->live());
  EXPECT_NE(source->description().find("5 images"), std::string::npos) << source->description();
  for (int i = 0; i < 5; ++i) {
    const auto frame = source->next();
    ASSERT_TRUE(frame) << "frame " << i;
    EXPECT_EQ(frame->frame_number, static_cast<std::uint64_t>(i + 1));
    EXPECT_DOUBLE_EQ(frame->t_capture, i / 20.0);
    EXPECT_EQ(frame->bgr.type(), CV_8UC3);
    ASSERT_EQ(frame->bgr.size(), frames[0].size());
    EXPECT_EQ(cv::norm(frame->bgr, frames[static_cast<std::size_t>(i)], cv::NORM_INF), 0.0) << "frame " << i;
  }
  EXPECT_FALSE(source->next());
  EXPECT_FALSE(source->next()) << "the end stays the end";
}

TEST_F(FrameSourceTest, SingleImageFileIsAOneFrameSource) {
  write_image(dir_ / "one.jpg", rendered_frames()[0]);
  const auto source = open_frame_source((dir_ / "one.jpg").string());
  const auto frame = source->next();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->bgr.size(), rendered_frames()[0].size());
  EXPECT_LT(scene_difference(frame->bgr, rendered_frames()[0]), 100);
  EXPECT_FALSE(source->next());
}

TEST_F(FrameSourceTest, VideoFileGivesItsFramesInOrderWithTimesFromThePosition) {
  const auto& frames = rendered_frames();
  const std::string path = (dir_ / "match.avi").string();
  {
    cv::VideoWriter writer(path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25.0, frames[0].size());
    ASSERT_TRUE(writer.isOpened());
    for (const auto& frame : frames) writer.write(frame);
  }
  const auto source = open_frame_source(path);
  EXPECT_FALSE(source->live());
  std::size_t count = 0;
  while (const auto frame = source->next()) {
    ASSERT_LT(count, frames.size()) << "more frames than were written";
    EXPECT_EQ(frame->frame_number, count + 1);
    EXPECT_NEAR(frame->t_capture, static_cast<double>(count) / 25.0, 1e-6);
    ASSERT_EQ(frame->bgr.type(), CV_8UC3);
    ASSERT_EQ(frame->bgr.size(), frames[0].size());
    // JPEG is lossy: the frame is the one written at its place when it shows
    // the same scene and every other frame's differs.
    for (std::size_t i = 0; i < frames.size(); ++i)
      if (i == count)
        EXPECT_LT(scene_difference(frame->bgr, frames[i]), 100) << "frame " << count;
      else
        EXPECT_GT(scene_difference(frame->bgr, frames[i]), 500) << "frame " << count << " looks like " << i;
    ++count;
  }
  EXPECT_EQ(count, frames.size());
}

TEST_F(FrameSourceTest, BadSpecsAreRefusedNamingWhatIsWrong) {
  const std::string missing = (dir_ / "no-such-folder").string();
  EXPECT_NE(error_of([&] { open_frame_source(missing); }).find("no such file or folder '" + missing + "'"),
            std::string::npos);

  fs::create_directories(dir_ / "empty");
  write_text(dir_ / "empty" / "readme.txt", "no images here");
  EXPECT_NE(error_of([&] { open_frame_source((dir_ / "empty").string()); }).find("has no images"), std::string::npos);

  const std::string text = (dir_ / "notes.txt").string();
  write_text(text, "this is not a video");
  const std::string not_video = error_of([&] { open_frame_source(text); });
  EXPECT_NE(not_video.find("cannot open video file '" + text + "'"), std::string::npos) << not_video;

  EXPECT_NE(error_of([&] { open_frame_source("camera:63"); }).find("camera 63 does not open"), std::string::npos);
  for (const char* bad : {"camera:", "camera:front", "camera:-1", "camera:123456"})
    EXPECT_NE(error_of([&] { open_frame_source(bad); }).find("expected camera:N"), std::string::npos) << bad;
  EXPECT_NE(error_of([&] { open_frame_source(""); }).find("no source given"), std::string::npos);

  const std::string folder = image_folder(1);
  for (double fps : {0.0, -5.0}) {
    FrameSourceOptions options;
    options.fps = fps;
    EXPECT_NE(error_of([&] { open_frame_source(folder, options); }).find("frame rate must be positive"),
              std::string::npos);
  }
}

TEST_F(FrameSourceTest, AnImageOpenCvCannotDecodeIsNamedWhenReachedAndSkippedAfter) {
  write_image(dir_ / "a.png", rendered_frames()[0]);
  write_text(dir_ / "b_broken.png", "this is not a png");
  write_image(dir_ / "c.png", rendered_frames()[2]);
  const auto source = open_frame_source(dir_.string());
  ASSERT_TRUE(source->next());
  const std::string error = error_of([&] { source->next(); });
  EXPECT_NE(error.find("b_broken.png"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
  const auto after = source->next();
  ASSERT_TRUE(after);
  EXPECT_EQ(after->frame_number, 2u) << "only delivered frames are numbered";
  EXPECT_EQ(cv::norm(after->bgr, rendered_frames()[2], cv::NORM_INF), 0.0);
}

TEST_F(FrameSourceTest, FramesOfChangingSizeAreRefused) {
  cv::Mat half;
  cv::resize(rendered_frames()[1], half, {}, 0.5, 0.5);
  write_image(dir_ / "1.png", rendered_frames()[0]);
  write_image(dir_ / "2.png", half);
  const auto source = open_frame_source(dir_.string());
  ASSERT_TRUE(source->next());
  const std::string error = error_of([&] { source->next(); });
  EXPECT_NE(error.find("2.png"), std::string::npos) << error;
  EXPECT_NE(error.find("320x240"), std::string::npos) << error;
  EXPECT_NE(error.find("640x480"), std::string::npos) << error;
}

TEST_F(FrameSourceTest, GreyImagesComeOutAsBgr) {
  cv::Mat grey;
  cv::cvtColor(rendered_frames()[0], grey, cv::COLOR_BGR2GRAY);
  write_image(dir_ / "grey.png", grey);
  const auto frame = open_frame_source((dir_ / "grey.png").string())->next();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->bgr.type(), CV_8UC3);
  std::vector<cv::Mat> channels;
  cv::split(frame->bgr, channels);
  EXPECT_EQ(cv::norm(channels[0], grey, cv::NORM_INF), 0.0);
  EXPECT_EQ(cv::norm(channels[2], grey, cv::NORM_INF), 0.0);
}

// --- LatestFrameGrabber --------------------------------------------------------

TEST_F(FrameSourceTest, UnpacedFileSourceGivesASlowConsumerEveryFrame) {
  LatestFrameGrabber grabber(open_frame_source(image_folder(8)));
  for (std::uint64_t n = 1; n <= 8; ++n) {
    const auto taken = grabber.take();
    ASSERT_TRUE(taken) << "frame " << n;
    EXPECT_EQ(taken->frame.frame_number, n);
    EXPECT_EQ(taken->dropped, 0u);
    EXPECT_EQ(cv::norm(taken->frame.bgr, rendered_frames()[(n - 1) % 7], cv::NORM_INF), 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
  }
  EXPECT_FALSE(grabber.take());
  EXPECT_FALSE(grabber.take());
  EXPECT_EQ(grabber.frames_read(), 8u);
  EXPECT_EQ(grabber.frames_dropped(), 0u);
}

TEST_F(FrameSourceTest, PacedSourceMakesASlowConsumerDropStaleFrames) {
  constexpr int kFrames = 30;
  FrameSourceOptions options;
  // 0.3 s of frames, a consumer that needs 100 ms per frame: far slower than
  // the source even when a loaded machine (ctest -j2) slows the reader down.
  options.fps = 100;
  LatestFrameGrabber grabber(open_frame_source(image_folder(kFrames), options), {true});
  std::uint64_t taken_count = 0, dropped_sum = 0, previous = 0;
  double previous_t = -1;
  while (const auto taken = grabber.take()) {
    ++taken_count;
    dropped_sum += taken->dropped;
    EXPECT_GT(taken->frame.frame_number, previous) << "each frame newer than the last";
    EXPECT_GT(taken->frame.t_capture, previous_t);
    EXPECT_EQ(taken->dropped, taken->frame.frame_number - previous - 1) << "the frames in between were dropped";
    previous = taken->frame.frame_number;
    previous_t = taken->frame.t_capture;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(previous, static_cast<std::uint64_t>(kFrames)) << "the last frame is not dropped";
  EXPECT_LT(taken_count, static_cast<std::uint64_t>(kFrames) / 2) << "a slow consumer of a paced source drops frames";
  EXPECT_GE(taken_count, 2u);
  EXPECT_EQ(taken_count + dropped_sum, static_cast<std::uint64_t>(kFrames));
  EXPECT_EQ(grabber.frames_read(), static_cast<std::uint64_t>(kFrames));
  EXPECT_EQ(grabber.frames_dropped(), dropped_sum);
}

TEST_F(FrameSourceTest, PacedSourceReleasesFramesAtTheirFrameRate) {
  FrameSourceOptions options;
  options.fps = 50;
  const std::string folder = image_folder(10);
  // From before the source opens: the reader paces frames from its own
  // start, so a first take() that a busy machine delays does not shorten
  // the rest (timing from that take failed under load).
  const auto start = Clock::now();
  LatestFrameGrabber grabber(open_frame_source(folder, options), {true});
  ASSERT_TRUE(grabber.take());
  std::uint64_t last = 1;
  while (const auto taken = grabber.take()) last = taken->frame.frame_number;
  EXPECT_EQ(last, 10u);
  // Frames 2..10 come 20 ms apart after frame 1: at least 180 ms (sleeping
  // only ever takes longer).
  EXPECT_GE(seconds_since(start), 0.17);
}

TEST_F(FrameSourceTest, DestructorStopsTheReaderWithoutWaitingForTheStream) {
  FrameSourceOptions options;
  options.fps = 0.5;  // 5 frames paced over 8 s
  const std::string folder = image_folder(5);
  const auto start = Clock::now();
  {
    LatestFrameGrabber paced(open_frame_source(folder, options), {true});
    ASSERT_TRUE(paced.take());
  }
  {
    LatestFrameGrabber unpaced(open_frame_source(folder));  // reader blocked on a full slot
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(seconds_since(start), 2.0);
}

TEST_F(FrameSourceTest, SourceErrorReachesTheConsumerAfterTheFramesBeforeIt) {
  write_image(dir_ / "a.png", rendered_frames()[0]);
  write_image(dir_ / "b.png", rendered_frames()[1]);
  write_text(dir_ / "c_broken.png", "not a png");
  write_image(dir_ / "d.png", rendered_frames()[3]);
  LatestFrameGrabber grabber(open_frame_source(dir_.string()));
  ASSERT_TRUE(grabber.take());
  const auto second = grabber.take();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->frame.frame_number, 2u);
  EXPECT_NE(error_of([&] { grabber.take(); }).find("c_broken.png"), std::string::npos);
  EXPECT_NE(error_of([&] { grabber.take(); }).find("c_broken.png"), std::string::npos) << "the stream stays broken";
}

}  // namespace
}  // namespace robocaf::actors
