#pragma once
// Points on the white field lines in the image of a robot's own camera (MSL),
// on the floor of the robot's own frame: what self-localisation
// (SelfLocaliser, msg::OnboardFrame.line_points) matches to the field's
// lines. No CAF here.

#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "actors/perception/camera_geometry.hpp"
#include "messages/config.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// One scan line of a FieldLineDetector: an image column from the image's
/// bottom up to where the floor lies max_range() away, and its floor trace.
struct FieldLineScan {
  int column = 0;      ///< image x of the pixels scanned
  int bottom_row = 0;  ///< first row scanned (the image's last)
  int top_row = 0;     ///< last row scanned, a few rows past max_range for the far edge's carpet check
  /// Floor points (robot frame, metres) of the bottom row's pixel and of
  /// the last row within max_range: the column's trace on the floor is the
  /// straight segment between them (for a lens without distortion).
  Eigen::Vector2d near = Eigen::Vector2d::Zero();
  Eigen::Vector2d far = Eigen::Vector2d::Zero();
};

/// Finds points on the white field lines in the BGR images of a robot's own
/// camera: each point is the middle of a line where a scan line crosses it,
/// on the floor (z = 0) in the robot's frame (x forward, y left, metres),
/// the way MSL teams scan their images for line crossings.
///
/// The calibration is the camera's pose relative to its robot (as
/// OnboardImageDetector's), so every point is egocentric. Vision protocol
/// (sim/camera/robot_markings.hpp): lines are white, kLineWidthPerLength x
/// the field's length wide (9 cm in MSL), on a green carpet that reaches at
/// least a line's width past every line.
///
/// Method. The constructor picks `columns` image columns spread evenly over
/// the image and, once, undistorts every pixel of them into a ray: the scan
/// of a column runs from the image's bottom row up to the row whose floor
/// point is max_range() from the robot (or the horizon). A column's pixels
/// see a straight floor line (a plane through the camera) that passes a few
/// decimetres behind the camera (MSL: 0.19 m), so columns are near-radial
/// scan lines like an omnidirectional camera's rays. Per image, the scans'
/// pixels are read row by row (no full-image pass) as whiteness (darkest
/// channel: white ~250, carpet 30, grey hall floor 100, sky 170, nets 190,
/// robots, ball and team colours <= 25) and greenness (green less the larger
/// of blue and red: carpet ~80, everything else <= 0, carpet blended with
/// white or a robot in between). Along each scan, near to far:
///  - a crossing candidate is a run of pixels of whiteness >= kRunMin, half
///    way between carpet and white rather than GoalPostDetector::kWhiteMin:
///    from ~4 m on a 9 cm line is under two pixels tall in the image, its
///    anti-aliased pixels are mixed with carpet and few reach kWhiteMin;
///  - its anti-aliased rim (up to kMaxRimPixels more pixels of whiteness >
///    kCarpetMaxWhiteness on each side) must be followed on both sides by
///    kCarpetPixels of carpet (greenness >= kCarpetMinGreenness and not
///    whitish). A run bounded by anything else is no line crossing: a robot or
///    the ball hiding part of the line (its middle would be off the line's),
///    goal posts (taller than the camera: they run on past the scan's end or
///    into the nets or the sky), the grey hall floor, the image's bottom
///    edge or the scan's end cutting the line;
///  - its pixels must be white blended with that carpet: their greenness
///    within kMaxGreenDeviation on average of the carpet's scaled down by
///    their coverage (below). The light grey nets' foot, grazed by a scan, is
///    as bright as a thin line's pixels but has no green in it;
///  - both edges are located to a fraction of a pixel from the coverage of
///    the rim pixels (whiteness between the local carpet level, from the
///    carpet pixels beside it, and the white level, the run's brightest
///    pixel or kNominalWhite if that is higher): a wide run's edges from the
///    coverage summed from its middle outwards, a run of one or two pixels
///    from its coverage-weighted centre +- half its summed coverage;
///  - each edge's ray (interpolated between the precomputed rays of its two
///    pixels) is intersected with the floor; the point is the middle of the
///    two floor points (not the floor point of the middle pixel: perspective
///    makes the far half of a crossing shorter in the image);
///  - width check: the floor distance between the edges must be at least
///    half a line width and at most kMaxLengthPerWidth line widths, each with
///    kWidthTolerancePixels pixels' worth of floor at that distance to spare
///    (the renderer's anti-aliasing grows shapes by about a pixel; at 6 m a
///    pixel is 13 cm of floor). Longer runs are rejected, not cut short: they
///    come from a line the scan runs nearly along (within ~15 deg), where the
///    run may end at a corner or junction rather than the line's far edge
///    and its middle need not lie on the line;
///  - at most max_points_per_scan() crossings per scan, nearest first, and
///    only those within max_range() of the robot.
///
/// Accuracy (MSL preset, 300 random poses on the field, rendered with its
/// noise and lighting gradient): ~25 points per image, 98 % of the scans'
/// crossings at over 20 deg found; distance to the nearest true line 0.15 %
/// of the point's distance on average, 0.4 % at the 95th and 0.8 % at the
/// 99th percentile (1.3 cm on average at 5-6 m). The worst, up to ~12 cm, are where
/// markings meet or end: a scan through a corner, a line's end, the centre
/// spot (twice a line's width, on the halfway line but not a line itself) or
/// a goal line merging with the white post standing on it gives the middle
/// of the white it crosses, not of one line.
///
/// Limits. Lines running within ~15 deg of a scan's direction (straight away
/// from the robot, e.g. the line the robot stands on) give no points. A line
/// partly hidden where a scan crosses it gives no point there, nor one cut by
/// the image's bottom edge. Far lines are thin: at 6 m (the default range) a
/// 9 cm line crossing a scan squarely is ~0.7 pixels tall and a pixel is 13 cm
/// of floor; points from farther are still good on rendered images (1.5 cm
/// mean error at 6-8 m) but a real camera's pitch jitter moves a floor point
/// about with the square of its distance, so the default stays at 6 m. The
/// camera must not roll much: a column must run from near to far on the
/// floor. Assumes one floor plane (z = 0) and the league's colours; no model
/// of shadows or real-camera white balance.
///
/// Cost: a sparse scan, ~0.03 ms per 640 x 480 image (optimised build); no
/// allocation per image once the output vector has grown (detect with an
/// output argument). Not thread-safe (scratch buffers); one detector per
/// thread.
class FieldLineDetector {
 public:
  /// Line width over field length (sim/camera/robot_markings.hpp's
  /// kLineWidthPerLength; at least 5 mm).
  static constexpr double kLineWidthPerLength = 1.0 / 200.0;
  /// Default farthest point: beyond ~6 m a line crossing is under a pixel
  /// tall and a pixel is over 13 cm of floor (MSL camera).
  static constexpr double kDefaultMaxRange = 6.0;
  static constexpr int kDefaultColumns = 32;
  static constexpr int kDefaultMaxPointsPerScan = 3;
  /// Least whiteness (darkest channel) of a run's pixels: about half way from
  /// carpet (30) to white (250); above the grey hall floor (100 +- 5 %).
  static constexpr int kRunMin = 128;
  /// Pixels at most this white may be carpet; whiter ones next to a run
  /// belong to its anti-aliased rim.
  static constexpr int kCarpetMaxWhiteness = 60;
  /// Least greenness (green less the larger of blue and red) of carpet
  /// (~80; white, grey, robots, the ball and team colours are <= 0).
  static constexpr int kCarpetMinGreenness = 40;
  /// Rim pixels allowed beyond a run on each side, and carpet pixels that
  /// must follow them.
  static constexpr int kMaxRimPixels = 2;
  static constexpr int kCarpetPixels = 3;
  /// Largest mean difference between a run's greenness and that of white
  /// blended with the carpet beside it at the pixel's coverage (noise: ~4).
  static constexpr double kMaxGreenDeviation = 12.0;
  /// White level for the coverage of runs whose brightest pixel is darker
  /// (thin, far lines have no fully covered pixel).
  static constexpr int kNominalWhite = 245;
  /// Width check (see the class comment).
  static constexpr double kMinLengthPerWidth = 0.5;
  static constexpr double kMaxLengthPerWidth = 4.0;
  static constexpr double kWidthTolerancePixels = 1.5;

  /// `robot_frame_calibration`: the camera relative to its robot (as
  /// OnboardImageDetector). `max_range`: farthest point reported, metres
  /// from the robot's origin. `columns`: scan lines, spread evenly over the
  /// image's width. Throws std::invalid_argument for a calibration
  /// CameraGeometry refuses, a field without length, max_range <= 0,
  /// columns outside 1..image width or max_points_per_scan < 1. A camera
  /// that sees no floor within max_range gets no scans (and finds nothing).
  FieldLineDetector(const msg::FieldGeometry& field, const msg::CameraCalibration& robot_frame_calibration,
                    double max_range = kDefaultMaxRange, int columns = kDefaultColumns,
                    int max_points_per_scan = kDefaultMaxPointsPerScan);

  /// Line points in one image, robot frame, metres: scan by scan (left to
  /// right in the image), each scan's nearest first. Throws
  /// std::invalid_argument unless bgr is a non-empty CV_8UC3 image of the
  /// calibration's size.
  std::vector<Eigen::Vector2d> detect(const cv::Mat& bgr);

  /// The same into `points` (cleared first), which keeps its capacity: no
  /// allocation per image.
  void detect(const cv::Mat& bgr, std::vector<Eigen::Vector2d>& points);

  /// The same as msg::OnboardFrame.line_points (appended).
  static void to_line_points(const std::vector<Eigen::Vector2d>& points, msg::OnboardFrame& frame);

  /// The scan lines, left to right (for tests and debugging views).
  const std::vector<FieldLineScan>& scans() const { return scans_; }
  double line_width() const { return line_width_; }
  double max_range() const { return max_range_; }
  int max_points_per_scan() const { return max_points_; }

 private:
  // The floor point seen at fractional sample index t of scan k (samples
  // are the scan's pixels bottom up; t = j is pixel j's centre).
  Eigen::Vector2d floor_at(int scan, double t) const;
  // Crossings of one scan into `points`.
  void scan_one(int scan, std::vector<Eigen::Vector2d>& points) const;

  CameraGeometry geometry_;
  double line_width_ = 0;
  double max_range_ = 0;
  int max_points_ = 0;
  Eigen::Vector3d eye_;  // camera centre, robot frame
  std::vector<FieldLineScan> scans_;
  // Per scan, samples [offset_[k], offset_[k + 1]) of the arrays below, bottom up.
  std::vector<int> offset_;
  std::vector<Eigen::Vector3d> rays_;  // robot frame, pointing down to the floor
  int longest_scan_ = 0;               // samples
  // Scratch, per image.
  std::vector<unsigned char> whiteness_;
  std::vector<short> greenness_;
};

}  // namespace robocaf::actors
