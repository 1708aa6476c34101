#pragma once
// CMVision / SSL-Vision style colour segmentation of 8-bit BGR camera images:
// a colour lookup table turns each pixel into a colour class with one load,
// run-length encoding and union-find join the runs into connected blobs, and
// simple shape tests drop noise.

#include <array>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "messages/config.pb.h"

namespace robocaf::actors {

/// The colour classes of the vision protocol (robot markings of the
/// simulator, sim/camera/robot_markings.hpp).
enum class ColourClass : std::uint8_t { kBall = 0, kBlue = 1, kYellow = 2, kGreenDot = 3, kMagentaDot = 4 };
inline constexpr int kColourClassCount = 5;

/// One connected region of one colour class (4-connectivity).
struct ColourBlob {
  ColourClass colour = ColourClass::kBall;
  cv::Point2d centroid;  ///< pixels, mean of the pixel centres (pixel (i, j) has its centre at (i, j))
  int area = 0;          ///< pixels
  cv::Rect bbox;         ///< pixels
};

/// Shape limits of a blob; a blob is kept when all hold.
struct BlobFilter {
  int min_area = 3;           ///< pixels (ColourThresholds.min_blob_pixels overrides when > 0)
  int max_area = 1 << 20;     ///< pixels
  double min_fill = 0.35;     ///< area / bbox area: discs are ~0.785, noise streaks lower
  double max_aspect = 3.0;    ///< longer over shorter bbox side
};

/// Default HSV boxes (OpenCV ranges: hue 0..179, saturation and value 0..255)
/// used for a ColourRange left all zero. They are wide around the marking
/// colours of robot_markings.hpp (ball orange h 15, blue team h 112, yellow
/// team h 27, green dot h 60, magenta dot h 150, all fully saturated and
/// bright) and tight enough to exclude what lies next to them in an image:
///  - ball  h  5..21, s >= 150, v >= 120;
///  - blue  h 100..125, s >= 150, v >= 120;
///  - yellow h 22..35, s >= 150, v >= 180: the anti-aliased rim of the ball on
///    the carpet passes through a darker yellow hue, the bright floor excludes it;
///  - green dot h 45..75, s >= 150, v >= 170: the carpet (h 63, s 191, v 120)
///    is darker;
///  - magenta dot h 140..170, s >= 150, v >= 120.
/// Value minima leave room for the lighting gradient (+-7.5 % in the presets)
/// and pixel noise.
msg::ColourRange default_colour_range(ColourClass colour);

/// Segments BGR images into blobs per colour class.
///
/// Lookup table: 5 bits per channel (32 x 32 x 32 = 32 KiB, one byte per
/// entry), so it stays in L1 cache; each cell is classified by the HSV of its
/// centre colour. The marking colours are far apart in HSV, so the 8-level
/// quantisation only moves the class boundary by about half a hue unit, far
/// less than the margins of the boxes. A full 2^24 table (16 MiB) would miss
/// cache on every pixel for no gain in accuracy here.
/// Overlapping boxes: a colour belongs to the first matching class in the
/// order ball, blue, yellow, green dot, magenta dot.
///
/// Not thread-safe for concurrent segment() calls (scratch buffers are reused);
/// one segmenter per thread.
class ColourSegmenter {
 public:
  explicit ColourSegmenter(const msg::ColourThresholds& thresholds, BlobFilter filter = {});

  /// Class bitmask (bit = ColourClass) of one BGR colour, per the table; 0 = none.
  std::uint8_t classify(std::uint8_t b, std::uint8_t g, std::uint8_t r) const {
    return lut_[(b >> 3) << 10 | (g >> 3) << 5 | (r >> 3)];
  }

  /// Blobs of every class in an 8-bit 3-channel BGR image, filtered by the
  /// BlobFilter, in scan order of their first pixel. Throws
  /// std::invalid_argument for another image type.
  std::vector<ColourBlob> segment(const cv::Mat& bgr);

  /// The image's class mask (bitmask per pixel, CV_8UC1), for debugging and tests.
  cv::Mat classify_image(const cv::Mat& bgr) const;

  const BlobFilter& filter() const { return filter_; }

 private:
  struct Run {
    std::int32_t x0, x1;  // inclusive
    std::int32_t y;
    std::int32_t parent;
    std::uint8_t colour;  // class index
  };

  std::array<std::uint8_t, 32 * 32 * 32> lut_{};
  BlobFilter filter_;
  std::vector<Run> runs_;            // scratch
  std::vector<std::int32_t> parent_;  // scratch: union-find parent of each run
};

}  // namespace robocaf::actors
