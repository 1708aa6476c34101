#pragma once
// Estimating a global (overhead) camera's calibration from images, so a team
// can set up a real field: the msg::CameraCalibration that CameraGeometry and
// ImageDetector take (pinhole, OpenCV's k1 k2 p1 p2 k3 distortion,
// p_cam = R * p_field + t). The robot software's own code: it must not depend
// on the simulator.
//
// Conventions (as CameraGeometry): field frame in metres, origin at the
// centre spot, x along the length, z up from the floor; pixel (i, j) has its
// centre at (i, j); the principal point is taken to be the image centre
// ((width - 1) / 2, (height - 1) / 2).

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <opencv2/core.hpp>

#include "messages/geometry.pb.h"
#include "messages/vision.pb.h"

namespace robocaf::actors {

/// What a team knows about its camera before calibrating: roughly where it
/// hangs, where it looks and its lens. The calibrators start here; the line
/// fit needs it right to within about 15 % in height and scale, 5 degrees in
/// angle and a tenth of the image in where the field appears.
struct CameraGuess {
  /// Camera centre above the floor, metres (> 0).
  double height = 0;
  /// Horizontal field of view, radians (0 < fov < pi), e.g. from the lens's
  /// data sheet. It also gives the focal length wherever the images cannot
  /// (see FieldCalibrator), so it is worth getting right.
  double horizontal_fov = 0;
  /// Direction of image +x on the field, radians from the field's +x,
  /// counter-clockwise seen from above. 0 is the overhead convention (image x
  /// along field +x, image up along field +y). The field looks the same
  /// turned by 180 degrees, so this also decides which goal is +x: the
  /// calibrators return the solution nearest to this yaw.
  double yaw = 0;
  /// Field position under the camera centre, metres (0, 0: above the centre spot).
  double x = 0;
  double y = 0;
  /// The floor point the optical axis meets, for a camera hung off to one
  /// side and tilted towards the field; none: straight down. At most ~70
  /// degrees from straight down; image x is then `yaw` made square to the axis.
  std::optional<Eigen::Vector2d> looking_at;
  /// Starting distortion k1 k2 p1 p2 k3 (shorter: padded with zeros). Zero is
  /// fine for the line calibration; the checkerboard calibration keeps what
  /// it cannot estimate at these values.
  std::vector<double> distortion;
};

/// A calibration and how well it fits.
struct CalibrationResult {
  msg::CameraCalibration calibration;
  /// RMS distance, pixels, between the features found in the image and the
  /// model's features projected with `calibration` (inliers only).
  double rms_px = 0;
  /// Number of features behind the solution: matched line points (lines) or
  /// board corners over all images (checkerboard).
  int features = 0;
  /// Features found but left out as outliers (occluded or mismatched lines).
  int outliers = 0;
  /// Whether the focal length was estimated from the images; false: it is
  /// the guess's horizontal_fov, because the images do not determine it.
  bool focal_estimated = false;
  /// Camera centre in the field frame, metres.
  Eigen::Vector3d camera_position = Eigen::Vector3d::Zero();
};

/// A checkerboard for FieldCalibrator::calibrate_from_checkerboard.
struct Checkerboard {
  /// Inner corners along a row and along a column (OpenCV's pattern size);
  /// both >= 2 and different from each other, so the board's orientation in
  /// an image is unambiguous up to a half turn.
  int columns = 0;
  int rows = 0;
  /// Side of one square, metres.
  double square = 0;
  /// Where the board lies in the first image: the field position of its
  /// first inner corner (the origin of OpenCV's corner order), the direction
  /// of its rows (first corner towards the second) as an angle from field +x,
  /// and the height of its surface above the floor (its thickness).
  double x = 0;
  double y = 0;
  double yaw = 0;
  double z = 0;
};

/// Estimates an overhead camera's calibration.
///
/// Field lines (calibrate_from_lines), a model-based fit:
///  1. White line pixels: "whiteness" is the smallest of B, G, R (white is
///     high in all three, carpet green, team colours and the ball are not).
///     The field's level is the median whiteness of the image's central
///     quarter, the lines' the 99th percentile of the whole image; a pixel
///     is line when it is above 60 % of the way between them.
///  2. Coarse alignment: the field-line model projected with the guess is
///     slid, scaled and turned in the image (a similarity transform about the
///     image centre, scale 0.8..1.25, +-6 degrees, +-15 % of the image) to
///     the place with the least truncated chamfer distance to line pixels;
///     cv::solvePnP then turns that into a camera pose. A grid search
///     rather than a local fit, because the markings are parallel lines a
///     few tens of pixels apart and a local fit from a wrong height locks
///     onto the wrong ones.
///  3. Refinement, model-based and iterated: every few pixels along every
///     line of the model (FieldGeometry: touch and goal lines, halfway line,
///     centre circle, goal areas) the current estimate projects the line,
///     and the image is sampled along the projected line's normal within a
///     search radius. The nearest white run gives a sub-pixel measurement
///     where the profile crosses halfway between field and line brightness:
///     the run's centre for inner lines (so the line width need not be
///     known), and for the touch and goal lines only their inner edge (their
///     outer half may be hidden by walls or goals), placed half a line width
///     inside, the width measured on the inner lines. Points near line
///     junctions, in goal mouths and off the image are left out. Each
///     measurement pairs a model point with an image point, and
///     cv::calibrateCamera (Levenberg-Marquardt, one view) solves for pose,
///     then pose + k1, then pose + k1 + k2 as the search radius shrinks
///     (16 -> 3 px), dropping residuals over 3 robust sigmas (1 px at least)
///     each time. Normal search converges where every projected line lies on
///     its white line.
///  4. Focal length: seen straight down, a flat field cannot tell a longer
///     lens from a higher camera (only their ratio shows), so f is freed
///     only if the image determines it to 0.2 % (standard deviation from the
///     profile of the fit's cost: f held 1 % off, the rest re-fitted), which
///     takes a camera tilted some 15 degrees or more from vertical; otherwise
///     it stays at the guess's horizontal_fov, and an error in that becomes
///     one in the camera's height (the pixels stay right). Tangential
///     distortion and k3 stay 0 and the principal point at the image centre:
///     one view of a plane cannot separate those from tilt and k1/k2.
/// Throws std::runtime_error naming what failed: an image without bright
/// line pixels, no placement near the guess where a quarter of the model
/// lands on them, lines found on fewer than 3 of the 4 touch and goal lines,
/// too few line points (< 40), or a fit whose RMS stays over 1.5 px.
/// About 0.2-0.5 s for a 640 x 480 or 1280 x 1024 image.
///
/// Checkerboard (calibrate_from_checkerboard), the simpler fallback:
/// cv::findChessboardCorners + cv::cornerSubPix in every image,
/// cv::calibrateCamera over all of them for the intrinsics (k1 and k2 each
/// if it lowers the cost clearly, f if determined to 0.5 %: corners are
/// cleaner measurements than line edges; with 3 or more images also the
/// principal point),
/// then cv::solvePnP on the first image, where the board lies on the field at
/// a known place, for the extrinsics. Extra images (the board held at other
/// tilts and places) only improve the intrinsics. Of the two corner orders a
/// board can be found in (a half turn apart), the one putting the camera
/// nearest the guess's yaw is used. Throws std::runtime_error when a board is
/// not found or the board description is invalid.
///
/// Stateless apart from the field model; thread-safe.
class FieldCalibrator {
 public:
  /// Throws std::invalid_argument unless length and width are positive.
  /// Markings the geometry leaves 0 (centre circle, goal area) are not
  /// looked for.
  explicit FieldCalibrator(const msg::FieldGeometry& field);

  /// The calibration from one 8-bit BGR image showing the whole field
  /// (see the class comment). Throws std::invalid_argument for an empty or
  /// non-BGR image or a guess without positive height and fov in (0, pi);
  /// std::runtime_error when the lines cannot be found or fitted.
  CalibrationResult calibrate_from_lines(const cv::Mat& bgr, const CameraGuess& guess) const;

  /// The calibration from checkerboard images (see the class comment):
  /// images[0] shows `board` lying on the field at its given place; all
  /// images must have the same size. 8-bit BGR or grey. Throws
  /// std::invalid_argument for no images, mixed sizes or a bad board or
  /// guess, std::runtime_error when a board is not found.
  static CalibrationResult calibrate_from_checkerboard(const std::vector<cv::Mat>& images,
                                                       const Checkerboard& board, const CameraGuess& guess);

  /// The calibration the guess describes for an image of `size`: from
  /// (x, y, height), straight down or towards looking_at, image x along yaw;
  /// fx = fy = width / 2 / tan(fov / 2), principal point at the image
  /// centre, the guess's distortion. Throws std::invalid_argument for a bad
  /// guess.
  static msg::CameraCalibration guess_calibration(cv::Size size, const CameraGuess& guess);

 private:
  msg::FieldGeometry field_;
};

}  // namespace robocaf::actors
