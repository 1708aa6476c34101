#include "actors/perception/field_calibrator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "runtime/statistics.hpp"

namespace robocaf::actors {

namespace {

constexpr double kPi = 3.14159265358979323846;

// --- line fit tuning ---------------------------------------------------------
constexpr double kSampleSpacingPx = 4.0;     // model points along the lines, in guess pixels
constexpr double kDetectFraction = 0.6;      // line pixel: this far from field to line level
constexpr double kMinLineContrast = 30.0;    // line level minus field level, 0..255
constexpr double kProfileStep = 0.5;         // px between samples along a normal
constexpr double kRunMarginPx = 12.0;        // profile beyond the search radius: room for the run's far edge
constexpr double kMaxRunWidthPx = 30.0;      // wider white is not a line (goal frame, glare)
constexpr double kJunctionClearancePx = 8.0; // beyond the search radius around line junctions
// Free f only when this well determined by the noise alone. Lines: their
// systematic errors (blur, occlusion, lens terms not modelled) make the true
// error up to about three times larger. Board corners are clean 2D points.
constexpr double kLinesFocalRelativeSd = 0.002;
constexpr double kBoardFocalRelativeSd = 0.005;
constexpr double kFocalProfileStep = 0.01;   // f held this far (relative) off its optimum to measure that
constexpr double kRadialGain = 30;           // checkerboard: a radial term must cut the cost by this many sigma^2
constexpr int kMinLinePoints = 40;
constexpr double kMinBoundaryCoverage = 0.2; // of a touch/goal line's points, to count it as found
constexpr double kMaxRms = 1.5;

// Coarse alignment grid (similarity about the image centre).
constexpr double kCoarseScaleMin = 0.8, kCoarseScaleMax = 1.25, kCoarseScaleStep = 0.03;
constexpr double kCoarseAngle = 6 * kPi / 180, kCoarseAngleStep = 1.5 * kPi / 180;
constexpr double kCoarseShift = 0.15;      // of the image width / height
constexpr double kCoarseTruncate = 0.04;   // chamfer distance cap, of the image width
constexpr int kCoarsePoints = 200;         // model points in the first grid pass
constexpr double kCoarseHitPx = 3.0;       // a model point "on a line" after coarse alignment
constexpr double kCoarseMinHits = 0.25;    // fraction of model points that must land on line pixels

// An OpenCV camera: intrinsics and the pose of the field (the calibrated
// object) in the camera frame.
struct Camera {
  cv::Size size;
  cv::Matx33d k;
  cv::Mat dist;  // 1 x 5 CV_64F: k1 k2 p1 p2 k3
  cv::Vec3d rvec, tvec;

  Camera clone() const {
    Camera c = *this;
    c.dist = dist.clone();
    return c;
  }
  double focal() const { return k(0, 0); }
};

void check_guess(const CameraGuess& guess) {
  if (!(guess.height > 0)) throw std::invalid_argument("camera guess: height must be positive");
  if (!(guess.horizontal_fov > 0 && guess.horizontal_fov < kPi))
    throw std::invalid_argument("camera guess: horizontal_fov must be between 0 and pi radians");
  if (guess.distortion.size() > 5)
    throw std::invalid_argument("camera guess: at most 5 distortion coefficients (k1 k2 p1 p2 k3)");
  if (!std::isfinite(guess.yaw) || !std::isfinite(guess.x) || !std::isfinite(guess.y))
    throw std::invalid_argument("camera guess: yaw, x and y must be numbers");
  if (guess.looking_at && !guess.looking_at->allFinite())
    throw std::invalid_argument("camera guess: looking_at must be a point");
  if (guess.looking_at) {
    const Eigen::Vector2d d = *guess.looking_at - Eigen::Vector2d{guess.x, guess.y};
    if (d.norm() > 3 * guess.height)
      throw std::invalid_argument("camera guess: looking_at is more than 70 degrees from straight down");
  }
}

Camera camera_from(const msg::CameraCalibration& c) {
  Camera cam;
  cam.size = {static_cast<int>(c.width()), static_cast<int>(c.height())};
  cam.k = cv::Matx33d(c.fx(), 0, c.cx(), 0, c.fy(), c.cy(), 0, 0, 1);
  cam.dist = cv::Mat::zeros(1, 5, CV_64F);
  for (int i = 0; i < 5 && i < c.distortion_size(); ++i) cam.dist.at<double>(i) = c.distortion(i);
  cv::Matx33d r;
  for (int i = 0; i < 9; ++i) r.val[i] = c.rotation(i);
  cv::Rodrigues(r, cam.rvec);
  for (int i = 0; i < 3; ++i) cam.tvec[i] = c.translation(i);
  return cam;
}

msg::CameraCalibration calibration_from(const Camera& cam) {
  msg::CameraCalibration c;
  c.set_width(static_cast<uint32_t>(cam.size.width));
  c.set_height(static_cast<uint32_t>(cam.size.height));
  c.set_fx(cam.k(0, 0));
  c.set_fy(cam.k(1, 1));
  c.set_cx(cam.k(0, 2));
  c.set_cy(cam.k(1, 2));
  for (int i = 0; i < 5; ++i) c.add_distortion(cam.dist.at<double>(i) + 0.0);  // + 0.0: no "-0" in text
  cv::Matx33d r;
  cv::Rodrigues(cam.rvec, r);
  for (int i = 0; i < 9; ++i) c.add_rotation(r.val[i] + 0.0);
  for (int i = 0; i < 3; ++i) c.add_translation(cam.tvec[i] + 0.0);
  return c;
}

Eigen::Vector3d camera_centre(const Camera& cam) {
  cv::Matx33d r;
  cv::Rodrigues(cam.rvec, r);
  const cv::Vec3d c = -(r.t() * cam.tvec);
  return {c[0], c[1], c[2]};
}

// --- one-view and multi-view solves -------------------------------------------

// What cv::calibrateCamera may change besides the poses.
struct FreeParameters {
  bool focal = false;
  int radial = 0;  // 0: none, 1: k1, 2: k1 and k2
  bool principal_point = false;
};

struct SolveResult {
  double rms = 0;  // over all points of all views
  size_t points = 0;
  std::vector<cv::Vec3d> rvecs, tvecs;

  double sum_squares() const { return rms * rms * static_cast<double>(points); }
};

// cv::calibrateCamera from the camera's current intrinsics; updates them (and,
// for a single view, the camera's pose). Tangential distortion and k3 stay
// as they are (zero for the lines), fx / fy keeps its ratio.
SolveResult solve(const std::vector<std::vector<cv::Point3f>>& object, const std::vector<std::vector<cv::Point2f>>& image,
                  Camera& cam, const FreeParameters& free) {
  int flags = cv::CALIB_USE_INTRINSIC_GUESS | cv::CALIB_FIX_ASPECT_RATIO | cv::CALIB_FIX_TANGENT_DIST |
              cv::CALIB_FIX_K3;
  if (!free.focal) flags |= cv::CALIB_FIX_FOCAL_LENGTH;
  if (!free.principal_point) flags |= cv::CALIB_FIX_PRINCIPAL_POINT;
  if (free.radial < 1) flags |= cv::CALIB_FIX_K1;
  if (free.radial < 2) flags |= cv::CALIB_FIX_K2;
  cv::Mat k(cam.k), dist = cam.dist.clone();
  SolveResult r;
  for (const auto& view : object) r.points += view.size();
  r.rms = cv::calibrateCamera(object, image, cam.size, k, dist, r.rvecs, r.tvecs, flags,
                              cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12));
  cam.k = cv::Matx33d(k);
  cam.dist = dist.reshape(1, 1).colRange(0, 5).clone();
  if (object.size() == 1) {
    cam.rvec = r.rvecs[0];
    cam.tvec = r.tvecs[0];
  }
  return r;
}

// Relative standard deviation of the focal length of a fit with f free
// (`optimum`), from the profile of the least-squares cost: f held 1 % off
// either way, everything else re-fitted, the cost's rise against the
// residual variance. Not cv::calibrateCamera's own standard deviations: its
// pseudo-inverse reports ~0 for a direction the data does not constrain at
// all, such as f against height for a camera looking straight down.
double focal_relative_sd(const std::vector<std::vector<cv::Point3f>>& object,
                         const std::vector<std::vector<cv::Point2f>>& image, const Camera& fitted,
                         const SolveResult& optimum, FreeParameters free) {
  free.focal = false;
  double cost = 0;
  for (double scale : {1 - kFocalProfileStep, 1 + kFocalProfileStep}) {
    Camera trial = fitted.clone();
    trial.k(0, 0) *= scale;
    trial.k(1, 1) *= scale;
    cost += solve(object, image, trial, free).sum_squares() / 2;
  }
  const double rise = cost - optimum.sum_squares();
  // Per point rather than per coordinate: normal-shooting matches have next
  // to no residual along the line, so this errs on the side of "undetermined".
  const double variance = optimum.sum_squares() / static_cast<double>(std::max<size_t>(1, optimum.points));
  if (!(rise > 0)) return std::numeric_limits<double>::infinity();
  return kFocalProfileStep * std::sqrt(variance / rise);
}

std::vector<cv::Point2f> project(const std::vector<cv::Point3f>& points, const Camera& cam) {
  std::vector<cv::Point2f> pixels;
  if (!points.empty()) cv::projectPoints(points, cam.rvec, cam.tvec, cam.k, cam.dist, pixels);
  return pixels;
}

std::string metres(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f", x);
  return text;
}

// --- the field-line model -------------------------------------------------------

struct ModelSample {
  cv::Point3d point;    // on the line's centre, z = 0
  cv::Point3d tangent;  // unit
  cv::Point3d normal;   // unit, in the floor; touch and goal lines: towards the field's inside
  int piece = 0;
};

struct ModelPiece {
  std::string name;
  bool boundary = false;  // touch or goal line: only the inner edge is measured
  int samples = 0;
};

struct LineModel {
  std::vector<ModelPiece> pieces;
  std::vector<ModelSample> samples;
  std::vector<cv::Point3d> junctions;  // where lines meet or end: normals there see the other line
};

LineModel build_line_model(const msg::FieldGeometry& f, double spacing) {
  LineModel m;
  const double L = f.length() / 2, W = f.width() / 2, r = f.center_circle_radius();
  const double gw = f.goal_width() / 2, ad = f.goal_area_depth(), aw = f.goal_area_width() / 2;
  auto piece = [&](std::string name, bool boundary) {
    m.pieces.push_back({std::move(name), boundary, 0});
    return static_cast<int>(m.pieces.size()) - 1;
  };
  auto segment = [&](int id, cv::Point2d a, cv::Point2d b, cv::Point2d normal) {
    const cv::Point2d d = b - a;
    const double length = std::hypot(d.x, d.y);
    if (length <= 0) return;
    const int n = std::max(2, static_cast<int>(std::ceil(length / spacing)));
    for (int i = 0; i < n; ++i) {
      const cv::Point2d p = a + d * ((i + 0.5) / n);
      m.samples.push_back({{p.x, p.y, 0}, {d.x / length, d.y / length, 0}, {normal.x, normal.y, 0}, id});
      ++m.pieces[id].samples;
    }
  };

  // Touch and goal lines. The goal mouths are left out: posts, nets and
  // crossbars stand there, and behind a goal line there may be no field.
  const double mouth = gw > 0 ? 1.15 * gw + 0.02 : 0.0;
  for (double s : {-1.0, 1.0}) {
    segment(piece("touch line y = " + metres(s * W), true), {-L, s * W}, {L, s * W}, {0, -s});
    const int goal_line = piece("goal line x = " + metres(s * L), true);
    if (mouth > 0 && mouth < W) {
      segment(goal_line, {s * L, -W}, {s * L, -mouth}, {-s, 0});
      segment(goal_line, {s * L, mouth}, {s * L, W}, {-s, 0});
    } else if (mouth <= 0) {
      segment(goal_line, {s * L, -W}, {s * L, W}, {-s, 0});
    }
  }
  segment(piece("halfway line", false), {0, -W}, {0, W}, {1, 0});
  if (r > 0) {
    const int id = piece("centre circle", false);
    const int n = std::max(8, static_cast<int>(std::ceil(2 * kPi * r / spacing)));
    for (int i = 0; i < n; ++i) {
      const double a = 2 * kPi * (i + 0.5) / n;
      m.samples.push_back(
          {{r * std::cos(a), r * std::sin(a), 0}, {-std::sin(a), std::cos(a), 0}, {std::cos(a), std::sin(a), 0}, id});
      ++m.pieces[id].samples;
    }
  }
  if (ad > 0 && aw > 0 && ad < L && aw < W)
    for (double s : {-1.0, 1.0}) {
      const int id = piece("goal area at x = " + metres(s * L), false);
      segment(id, {s * (L - ad), -aw}, {s * (L - ad), aw}, {1, 0});
      segment(id, {s * (L - ad), -aw}, {s * L, -aw}, {0, 1});
      segment(id, {s * (L - ad), aw}, {s * L, aw}, {0, 1});
    }

  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      m.junctions.push_back({sx * L, sy * W, 0});
      if (gw > 0) m.junctions.push_back({sx * L, sy * gw, 0});
      if (ad > 0 && aw > 0) {
        m.junctions.push_back({sx * (L - ad), sy * aw, 0});
        m.junctions.push_back({sx * L, sy * aw, 0});
      }
    }
  for (double sy : {-1.0, 1.0}) {
    m.junctions.push_back({0, sy * W, 0});
    if (r > 0) m.junctions.push_back({0, sy * r, 0});
  }
  m.junctions.push_back({0, 0, 0});  // the centre spot
  return m;
}

// --- the image's line pixels --------------------------------------------------------

struct Whiteness {
  cv::Mat image;  // CV_32F: min(B, G, R)
  double field_level = 0;
  double line_level = 0;
  double detect = 0;  // threshold for line pixels
};

double percentile(const cv::Mat& grey8, double fraction) {
  int bins[256] = {0};
  for (int y = 0; y < grey8.rows; ++y) {
    const uchar* row = grey8.ptr<uchar>(y);
    for (int x = 0; x < grey8.cols; ++x) ++bins[row[x]];
  }
  const double target = fraction * static_cast<double>(grey8.total());
  double seen = 0;
  for (int v = 0; v < 256; ++v) {
    seen += bins[v];
    if (seen >= target) return v;
  }
  return 255;
}

Whiteness whiteness_of(const cv::Mat& bgr) {
  std::vector<cv::Mat> channels;
  cv::split(bgr, channels);
  cv::Mat grey;
  cv::min(channels[0], channels[1], grey);
  cv::min(grey, channels[2], grey);
  Whiteness w;
  grey.convertTo(w.image, CV_32F);
  // An overhead camera sees carpet in the middle of its image.
  const cv::Rect centre(bgr.cols / 4, bgr.rows / 4, std::max(1, bgr.cols / 2), std::max(1, bgr.rows / 2));
  w.field_level = percentile(grey(centre), 0.5);
  w.line_level = percentile(grey, 0.99);
  if (w.line_level - w.field_level < kMinLineContrast) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "no field lines in the image: its brightest pixels (99th percentile %.0f of 255, as min(B,G,R)) "
                  "are hardly brighter than the field (%.0f); the lines must be white on a darker carpet",
                  w.line_level, w.field_level);
    throw std::runtime_error(text);
  }
  w.detect = w.field_level + kDetectFraction * (w.line_level - w.field_level);
  return w;
}

float bilinear(const cv::Mat& image, double x, double y) {
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const double fx = x - x0, fy = y - y0;
  const float* r0 = image.ptr<float>(y0);
  const float* r1 = image.ptr<float>(y0 + 1);
  return static_cast<float>((r0[x0] * (1 - fx) + r0[x0 + 1] * fx) * (1 - fy) + (r1[x0] * (1 - fx) + r1[x0 + 1] * fx) * fy);
}

// --- matching the model to the image ------------------------------------------------

struct Correspondences {
  std::vector<cv::Point3f> model;
  std::vector<cv::Point2f> image;
  std::vector<int> piece;

  size_t size() const { return model.size(); }
  void add(const cv::Point3d& m, const cv::Point2d& i, int p) {
    model.emplace_back(static_cast<float>(m.x), static_cast<float>(m.y), static_cast<float>(m.z));
    image.emplace_back(static_cast<float>(i.x), static_cast<float>(i.y));
    piece.push_back(p);
  }
  Correspondences subset(const std::vector<bool>& keep) const {
    Correspondences out;
    for (size_t i = 0; i < size(); ++i)
      if (keep[i]) {
        out.model.push_back(model[i]);
        out.image.push_back(image[i]);
        out.piece.push_back(piece[i]);
      }
    return out;
  }
};

// A white run crossing a profile: where it starts and ends (sub-sample, at
// half the contrast between field and the run's peak); NaN where the profile
// ends (or leaves the image) first.
struct Run {
  double start = NAN, end = NAN;
};

std::vector<Run> white_runs(const std::vector<float>& v, double s0, const Whiteness& w) {
  std::vector<Run> runs;
  const int n = static_cast<int>(v.size());
  for (int i = 0; i < n;) {
    if (!(v[i] > w.detect)) {  // NaN (off the image) is not white either
      ++i;
      continue;
    }
    int a = i, b = i;
    float peak = v[i];
    while (b + 1 < n && v[b + 1] > w.detect) peak = std::max(peak, v[++b]);
    i = b + 1;
    const double level = (w.field_level + peak) / 2;
    Run run;
    while (a > 0 && v[a - 1] > level) --a;
    if (a > 0) run.start = s0 + kProfileStep * ((a - 1) + (level - v[a - 1]) / (v[a] - v[a - 1]));
    while (b + 1 < n && v[b + 1] > level) ++b;
    if (b + 1 < n) run.end = s0 + kProfileStep * (b + (v[b] - level) / (v[b] - v[b + 1]));
    runs.push_back(run);
    i = std::max(i, b + 1);
  }
  return runs;
}

// Measures every usable model point in the image: see the class comment.
// `line_width` (m) is updated from the inner lines when enough are measured.
Correspondences match_lines(const LineModel& model, const Camera& cam, const Whiteness& w, double radius,
                            double& line_width) {
  constexpr double kStep = 0.01;  // m, for the local tangent and normal
  std::vector<cv::Point3f> points;
  points.reserve(3 * model.samples.size());
  for (const auto& s : model.samples) {
    points.emplace_back(s.point);
    points.emplace_back(s.point + kStep * s.tangent);
    points.emplace_back(s.point + kStep * s.normal);
  }
  const auto pixels = project(points, cam);
  std::vector<cv::Point3f> junction_points(model.junctions.begin(), model.junctions.end());
  const auto junctions = project(junction_points, cam);
  const double clearance = radius + kJunctionClearancePx;
  const double reach = radius + kRunMarginPx;
  const int count = static_cast<int>(std::ceil(2 * reach / kProfileStep)) + 1;
  const double s0 = -reach;
  auto inside = [&](const cv::Point2d& q) {
    return q.x >= 0 && q.y >= 0 && q.x < cam.size.width - 1 && q.y < cam.size.height - 1;
  };

  struct Probe {
    size_t sample;
    cv::Point2d pixel, normal;
    double ppm;  // pixels per metre along the normal
  };
  std::vector<Probe> inner, boundary;
  for (size_t i = 0; i < model.samples.size(); ++i) {
    const cv::Point2d p = pixels[3 * i], along = cv::Point2d(pixels[3 * i + 1]) - p,
                      across = cv::Point2d(pixels[3 * i + 2]) - p;
    const double length = std::hypot(along.x, along.y);
    if (!(length > 1e-6)) continue;
    cv::Point2d n{-along.y / length, along.x / length};
    if (n.dot(across) < 0) n = -n;
    if (!inside(p)) continue;
    bool near_junction = false;
    for (const auto& j : junctions) near_junction |= std::hypot(j.x - p.x, j.y - p.y) < clearance;
    if (near_junction) continue;
    const Probe probe{i, p, n, std::abs(n.dot(across)) / kStep};
    (model.pieces[model.samples[i].piece].boundary ? boundary : inner).push_back(probe);
  }

  Correspondences out;
  std::vector<float> profile(count);
  auto sample_profile = [&](const Probe& probe) {
    for (int k = 0; k < count; ++k) {
      // NaN off the image: no run includes it and no edge is found there.
      const cv::Point2d q = probe.pixel + (s0 + k * kProfileStep) * probe.normal;
      profile[k] = inside(q) ? bilinear(w.image, q.x, q.y) : NAN;
    }
  };

  // Inner lines: the centre of the nearest run.
  std::vector<double> widths;
  for (const auto& probe : inner) {
    sample_profile(probe);
    double best = radius;
    double found = NAN, found_width = NAN;
    for (const auto& run : white_runs(profile, s0, w)) {
      if (std::isnan(run.start) || std::isnan(run.end)) continue;
      const double width = run.end - run.start;
      const double centre = (run.start + run.end) / 2;
      if (width > kMaxRunWidthPx || std::abs(centre) > best) continue;
      best = std::abs(centre);
      found = centre;
      found_width = width;
    }
    if (std::isnan(found)) continue;
    const auto& s = model.samples[probe.sample];
    out.add(s.point, probe.pixel + found * probe.normal, s.piece);
    widths.push_back(found_width / probe.ppm);
  }
  if (widths.size() >= 10) line_width = runtime::median(widths);

  // Touch and goal lines: the inner edge, half a line width inside the centre.
  for (const auto& probe : boundary) {
    sample_profile(probe);
    const double expected = line_width / 2 * probe.ppm;
    double best = radius;
    double found = NAN;
    for (const auto& run : white_runs(profile, s0, w)) {
      if (std::isnan(run.end)) continue;
      if (!std::isnan(run.start) && run.end - run.start > kMaxRunWidthPx) continue;
      if (std::abs(run.end - expected) > best) continue;
      best = std::abs(run.end - expected);
      found = run.end;
    }
    if (std::isnan(found)) continue;
    const auto& s = model.samples[probe.sample];
    out.add(s.point + (line_width / 2) * s.normal, probe.pixel + found * probe.normal, s.piece);
  }
  return out;
}

std::vector<double> residuals(const Correspondences& c, const Camera& cam) {
  const auto projected = project(c.model, cam);
  std::vector<double> r(c.size());
  for (size_t i = 0; i < c.size(); ++i) r[i] = std::hypot(projected[i].x - c.image[i].x, projected[i].y - c.image[i].y);
  return r;
}

struct RobustFit {
  Correspondences inliers;
  SolveResult solve;
  double rms = 0;
  int outliers = 0;
};

// Solves, drops residuals over 3 robust sigmas (at least 1 px), solves again.
RobustFit robust_solve(const Correspondences& all, Camera& cam, const FreeParameters& free) {
  RobustFit fit;
  fit.inliers = all;
  for (int round = 0; round < 3; ++round) {
    fit.solve = solve({fit.inliers.model}, {fit.inliers.image}, cam, free);
    const auto r = residuals(fit.inliers, cam);
    const double limit = std::max(1.0, 3 * 1.4826 * runtime::median(r));
    std::vector<bool> keep(r.size());
    size_t kept = 0;
    for (size_t i = 0; i < r.size(); ++i) kept += (keep[i] = r[i] <= limit);
    if (kept == r.size() || kept < static_cast<size_t>(kMinLinePoints)) break;
    fit.inliers = fit.inliers.subset(keep);
  }
  fit.outliers = static_cast<int>(all.size() - fit.inliers.size());
  const auto r = residuals(fit.inliers, cam);
  double sum = 0;
  for (double x : r) sum += x * x;
  fit.rms = r.empty() ? 0 : std::sqrt(sum / static_cast<double>(r.size()));
  return fit;
}

// --- coarse alignment -------------------------------------------------------------

struct Similarity {
  double scale = 1, angle = 0, dx = 0, dy = 0;
};

// Moves `cam`'s pose so the model lands where the best similarity transform
// of its guessed projection put it (see the class comment).
void coarse_align(const LineModel& model, const Whiteness& w, Camera& cam) {
  std::vector<cv::Point3f> points;
  for (const auto& s : model.samples) points.emplace_back(s.point);
  const auto projected = project(points, cam);

  cv::Mat not_line = w.image <= w.detect;
  cv::Mat distance;
  cv::distanceTransform(not_line, distance, cv::DIST_L2, cv::DIST_MASK_5);
  const float cap = static_cast<float>(std::max(10.0, kCoarseTruncate * cam.size.width));
  cv::min(distance, cap, distance);

  // The distance map padded with the cap, so shifted points need no bounds
  // checks; points further out are clamped into the padding.
  const int shift_step = std::max(2, static_cast<int>(std::lround(0.005 * cam.size.width)));
  const int shift_x = static_cast<int>(kCoarseShift * cam.size.width) / shift_step * shift_step;
  const int shift_y = static_cast<int>(kCoarseShift * cam.size.height) / shift_step * shift_step;
  const int reach = std::max(shift_x, shift_y) + shift_step + 2;  // largest shift of any pass, and a margin
  const int pad = 2 * reach;
  cv::Mat padded;
  cv::copyMakeBorder(distance, padded, pad, pad, pad, pad, cv::BORDER_CONSTANT, cv::Scalar(cap));

  const cv::Point2d centre{(cam.size.width - 1) / 2.0, (cam.size.height - 1) / 2.0};
  std::vector<int> qx, qy;
  // Rounded, clamped, padded positions of every stride-th point under scale and angle.
  auto place = [&](double scale, double angle, size_t stride) {
    const double c = std::cos(angle) * scale, s = std::sin(angle) * scale;
    qx.clear();
    qy.clear();
    for (size_t i = 0; i < projected.size(); i += stride) {
      const double x = projected[i].x - centre.x, y = projected[i].y - centre.y;
      const double u = std::clamp(centre.x + c * x - s * y, -reach + 0.0, cam.size.width - 1.0 + reach);
      const double v = std::clamp(centre.y + s * x + c * y, -reach + 0.0, cam.size.height - 1.0 + reach);
      qx.push_back(static_cast<int>(std::lround(u)) + pad);
      qy.push_back(static_cast<int>(std::lround(v)) + pad);
    }
  };
  auto score = [&](int dx, int dy, int* hits) {
    double sum = 0;
    int near = 0;
    for (size_t i = 0; i < qx.size(); ++i) {
      const float d = padded.ptr<float>(qy[i] + dy)[qx[i] + dx];
      sum += d;
      near += d <= kCoarseHitPx;
    }
    if (hits) *hits = near;
    return qx.empty() ? double(cap) : sum / static_cast<double>(qx.size());
  };

  // Pass 1: a coarse grid over a subset of the points.
  const size_t stride = std::max<size_t>(1, projected.size() / kCoarsePoints);
  Similarity best;
  double best_score = std::numeric_limits<double>::infinity();
  for (double scale = kCoarseScaleMin; scale <= kCoarseScaleMax + 1e-9; scale *= 1 + kCoarseScaleStep)
    for (double angle = -kCoarseAngle; angle <= kCoarseAngle + 1e-9; angle += kCoarseAngleStep) {
      place(scale, angle, stride);
      for (int dy = -shift_y; dy <= shift_y; dy += shift_step)
        for (int dx = -shift_x; dx <= shift_x; dx += shift_step) {
          const double value = score(dx, dy, nullptr);
          if (value < best_score) {
            best_score = value;
            best = {scale, angle, double(dx), double(dy)};
          }
        }
    }
  // Pass 2: a fine grid around the best, all points.
  const Similarity around = best;
  best_score = std::numeric_limits<double>::infinity();
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j) {
      const double scale = around.scale * (1 + i * kCoarseScaleStep / 6), angle = around.angle + j * kCoarseAngleStep / 6;
      place(scale, angle, 1);
      for (int dy = -shift_step; dy <= shift_step; ++dy)
        for (int dx = -shift_step; dx <= shift_step; ++dx) {
          const double value = score(static_cast<int>(around.dx) + dx, static_cast<int>(around.dy) + dy, nullptr);
          if (value < best_score) {
            best_score = value;
            best = {scale, angle, around.dx + dx, around.dy + dy};
          }
        }
    }
  int hits = 0;
  place(best.scale, best.angle, 1);
  score(static_cast<int>(best.dx), static_cast<int>(best.dy), &hits);
  if (hits < kCoarseMinHits * static_cast<double>(projected.size())) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "field lines not found: at the best placement near the guess only %d of %zu points of the line "
                  "model fall on white pixels (need %.0f %%); is the whole field in view and are the guessed "
                  "height and field of view roughly right?",
                  hits, projected.size(), 100 * kCoarseMinHits);
    throw std::runtime_error(text);
  }

  std::vector<cv::Point2f> moved(projected.size());
  const double c = std::cos(best.angle) * best.scale, s = std::sin(best.angle) * best.scale;
  for (size_t i = 0; i < projected.size(); ++i) {
    const double x = projected[i].x - centre.x, y = projected[i].y - centre.y;
    moved[i] = cv::Point2f(static_cast<float>(centre.x + c * x - s * y + best.dx),
                           static_cast<float>(centre.y + s * x + c * y + best.dy));
  }
  cv::solvePnP(points, moved, cam.k, cam.dist, cam.rvec, cam.tvec, true, cv::SOLVEPNP_ITERATIVE);
}

// Radius schedule of the refinement: (search radius px, radial terms).
struct Stage {
  double radius;
  int radial;
};
constexpr Stage kStages[] = {{16, 0}, {16, 0}, {12, 0}, {10, 1}, {8, 1}, {6, 1},
                             {6, 2},  {5, 2},  {4, 2},  {3, 2}};
constexpr double kFinalRadius = 3;
constexpr int kFinalIterations = 40;  // a cap: it converges in a few unless f is freed
constexpr double kConvergedPx = 0.01;

double max_motion(const LineModel& model, const Camera& a, const Camera& b) {
  std::vector<cv::Point3f> points;
  for (size_t i = 0; i < model.samples.size(); i += 4) points.emplace_back(model.samples[i].point);
  const auto pa = project(points, a), pb = project(points, b);
  double m = 0;
  for (size_t i = 0; i < pa.size(); ++i) m = std::max(m, double(std::hypot(pa[i].x - pb[i].x, pa[i].y - pb[i].y)));
  return m;
}

}  // namespace

FieldCalibrator::FieldCalibrator(const msg::FieldGeometry& field) : field_(field) {
  if (!(field.length() > 0) || !(field.width() > 0))
    throw std::invalid_argument("FieldCalibrator: field length and width must be positive");
}

msg::CameraCalibration FieldCalibrator::guess_calibration(cv::Size size, const CameraGuess& guess) {
  check_guess(guess);
  if (size.width <= 0 || size.height <= 0) throw std::invalid_argument("camera guess: image size must be positive");
  const double f = size.width / 2.0 / std::tan(guess.horizontal_fov / 2);
  const Eigen::Vector3d centre{guess.x, guess.y, guess.height};
  Eigen::Vector3d axis{0, 0, -1};
  if (guess.looking_at) axis = (Eigen::Vector3d{guess.looking_at->x(), guess.looking_at->y(), 0} - centre).normalized();
  // Image x: the yaw direction made square to the optical axis; image y = axis x image x.
  const Eigen::Vector3d heading{std::cos(guess.yaw), std::sin(guess.yaw), 0};
  const Eigen::Vector3d image_x = (heading - heading.dot(axis) * axis).normalized();
  const Eigen::Vector3d image_y = axis.cross(image_x);
  Eigen::Matrix3d rotation;  // rows: the camera axes in the field frame
  rotation.row(0) = image_x;
  rotation.row(1) = image_y;
  rotation.row(2) = axis;
  const Eigen::Vector3d t = -rotation * centre;
  msg::CameraCalibration cal;
  cal.set_width(static_cast<uint32_t>(size.width));
  cal.set_height(static_cast<uint32_t>(size.height));
  cal.set_fx(f);
  cal.set_fy(f);
  cal.set_cx((size.width - 1) / 2.0);
  cal.set_cy((size.height - 1) / 2.0);
  for (int i = 0; i < 5; ++i) cal.add_distortion(i < static_cast<int>(guess.distortion.size()) ? guess.distortion[i] : 0.0);
  for (int i = 0; i < 9; ++i) cal.add_rotation(rotation(i / 3, i % 3) + 0.0);
  for (int i = 0; i < 3; ++i) cal.add_translation(t(i) + 0.0);
  return cal;
}

CalibrationResult FieldCalibrator::calibrate_from_lines(const cv::Mat& bgr, const CameraGuess& guess) const {
  if (bgr.empty() || bgr.type() != CV_8UC3)
    throw std::invalid_argument("FieldCalibrator: the image must be a non-empty 8-bit BGR image");
  Camera cam = camera_from(guess_calibration(bgr.size(), guess));
  const double pixels_per_metre = cam.focal() / guess.height;
  const LineModel model = build_line_model(field_, kSampleSpacingPx / pixels_per_metre);
  const Whiteness w = whiteness_of(bgr);

  coarse_align(model, w, cam);

  double line_width = 0;  // m; measured on the inner lines
  FreeParameters free;
  RobustFit fit;
  auto iterate = [&](double radius) {
    const Correspondences found = match_lines(model, cam, w, radius, line_width);
    if (found.size() < static_cast<size_t>(kMinLinePoints))
      throw std::runtime_error("found only " + std::to_string(found.size()) +
                               " points on the field's lines near where the guess puts them (need " +
                               std::to_string(kMinLinePoints) + ")");
    const Camera before = cam.clone();
    fit = robust_solve(found, cam, free);
    return max_motion(model, before, cam);
  };
  auto converge = [&] {
    for (int i = 0; i < kFinalIterations; ++i)
      if (iterate(kFinalRadius) < kConvergedPx) return;
  };
  for (const auto& stage : kStages) {
    free.radial = stage.radial;
    iterate(stage.radius);
  }
  converge();

  // The focal length, only where the image determines it.
  {
    Camera trial = cam.clone();
    FreeParameters with_focal = free;
    with_focal.focal = true;
    const SolveResult r = solve({fit.inliers.model}, {fit.inliers.image}, trial, with_focal);
    if (focal_relative_sd({fit.inliers.model}, {fit.inliers.image}, trial, r, with_focal) < kLinesFocalRelativeSd) {
      free.focal = true;
      cam = trial;
      converge();
    }
  }
  iterate(kFinalRadius);

  // Enough of the field's outline behind the solution?
  std::vector<int> per_piece(model.pieces.size(), 0);
  for (int p : fit.inliers.piece) ++per_piece[p];
  int boundary_found = 0;
  std::string missing;
  for (size_t p = 0; p < model.pieces.size(); ++p) {
    if (!model.pieces[p].boundary) continue;
    if (per_piece[p] >= kMinBoundaryCoverage * model.pieces[p].samples)
      ++boundary_found;
    else
      missing += (missing.empty() ? "" : ", ") + model.pieces[p].name;
  }
  if (boundary_found < 3)
    throw std::runtime_error("found only " + std::to_string(boundary_found) +
                             " of the field's 4 touch and goal lines (need at least 3); missing: " + missing +
                             " (is the whole field in view?)");
  if (fit.rms > kMaxRms) {
    char text[200];
    std::snprintf(text, sizeof text, "the line fit did not converge: RMS %.2f px over %zu line points (limit %.1f px)",
                  fit.rms, fit.inliers.size(), kMaxRms);
    throw std::runtime_error(text);
  }

  CalibrationResult result;
  result.calibration = calibration_from(cam);
  result.rms_px = fit.rms;
  result.features = static_cast<int>(fit.inliers.size());
  result.outliers = fit.outliers;
  result.focal_estimated = free.focal;
  result.camera_position = camera_centre(cam);
  return result;
}

CalibrationResult FieldCalibrator::calibrate_from_checkerboard(const std::vector<cv::Mat>& images,
                                                               const Checkerboard& board, const CameraGuess& guess) {
  if (images.empty()) throw std::invalid_argument("checkerboard calibration: no images");
  if (board.columns < 2 || board.rows < 2 || board.columns == board.rows)
    throw std::invalid_argument(
        "checkerboard: need at least 2 x 2 inner corners, and different numbers along the sides so the board's "
        "orientation is unambiguous");
  if (!(board.square > 0)) throw std::invalid_argument("checkerboard: square size must be positive");
  const cv::Size size = images[0].size();
  const cv::Size pattern{board.columns, board.rows};
  std::vector<std::vector<cv::Point2f>> corners(images.size());
  for (size_t i = 0; i < images.size(); ++i) {
    const cv::Mat& image = images[i];
    if (image.empty() || image.size() != size || (image.type() != CV_8UC3 && image.type() != CV_8UC1))
      throw std::invalid_argument("checkerboard calibration: image " + std::to_string(i + 1) +
                                  " is empty, not 8-bit BGR or grey, or not the size of the first");
    cv::Mat grey;
    if (image.channels() == 3)
      cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
    else
      grey = image;
    const std::string which = "checkerboard with " + std::to_string(board.columns) + " x " +
                              std::to_string(board.rows) + " inner corners";
    if (!cv::findChessboardCorners(grey, pattern, corners[i], cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE))
      throw std::runtime_error(which + " not found in image " + std::to_string(i + 1) + " of " +
                               std::to_string(images.size()));
    // Refine within half the corner spacing (so no neighbour corner enters the window).
    double spacing = std::numeric_limits<double>::infinity();
    for (int r = 0; r < board.rows; ++r)
      for (int c = 0; c + 1 < board.columns; ++c) {
        const cv::Point2f d = corners[i][r * board.columns + c + 1] - corners[i][r * board.columns + c];
        spacing = std::min(spacing, double(std::hypot(d.x, d.y)));
      }
    const int half = std::clamp(static_cast<int>(spacing / 2) - 1, 2, 11);
    cv::cornerSubPix(grey, corners[i], {half, half}, {-1, -1},
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 100, 1e-4));
  }
  std::vector<cv::Point3f> board_points;
  for (int r = 0; r < board.rows; ++r)
    for (int c = 0; c < board.columns; ++c)
      board_points.emplace_back(static_cast<float>(c * board.square), static_cast<float>(r * board.square), 0.f);
  const std::vector<std::vector<cv::Point3f>> object(images.size(), board_points);

  // Intrinsics: everything the views determine, the rest from the guess.
  const msg::CameraCalibration start = guess_calibration(size, guess);
  Camera cam = camera_from(start);
  // Radial terms with f at the guess, each kept only if it cuts the cost
  // clearly (a board in one spot says little about the lens's edge); then f
  // if the views determine it.
  FreeParameters free;
  free.principal_point = images.size() >= 3;
  {
    Camera trial = cam.clone();
    double cost = solve(object, corners, trial, free).sum_squares();
    for (int radial = 1; radial <= 2; ++radial) {
      FreeParameters more = free;
      more.radial = radial;
      trial = cam.clone();
      const SolveResult r = solve(object, corners, trial, more);
      const double variance = r.sum_squares() / static_cast<double>(r.points);
      if (cost - r.sum_squares() < kRadialGain * variance) break;
      free.radial = radial;
      cost = r.sum_squares();
    }
    FreeParameters with_focal = free;
    with_focal.focal = true;
    trial = cam.clone();
    const SolveResult r = solve(object, corners, trial, with_focal);
    free.focal = focal_relative_sd(object, corners, trial, r, with_focal) < kBoardFocalRelativeSd;
  }
  solve(object, corners, cam, free);

  // Extrinsics from the first image. Board frame: x along the rows, z into
  // the floor (OpenCV orders the corners of a board seen from its front
  // clockwise in the image), so y lies to the right of the rows seen from above.
  const double c = std::cos(board.yaw), s = std::sin(board.yaw);
  const cv::Matx33d board_to_field(c, s, 0,  //
                                   s, -c, 0,  //
                                   0, 0, -1);  // columns: x_b, y_b, z_b in the field
  const cv::Vec3d origin{board.x, board.y, board.z};
  cv::Matx33d guess_rotation;
  for (int i = 0; i < 9; ++i) guess_rotation.val[i] = start.rotation(i);

  // The board's corners in the field frame, for the reprojection error.
  std::vector<cv::Point3f> field_points;
  for (const auto& p : board_points) {
    const cv::Vec3d q = origin + board_to_field * cv::Vec3d(p.x, p.y, p.z);
    field_points.emplace_back(static_cast<float>(q[0]), static_cast<float>(q[1]), static_cast<float>(q[2]));
  }
  Camera best;
  std::vector<cv::Point2f> best_view;
  double best_alignment = -std::numeric_limits<double>::infinity();
  for (bool reversed : {false, true}) {
    std::vector<cv::Point2f> view = corners[0];
    if (reversed) std::reverse(view.begin(), view.end());  // the board's other half turn
    Camera trial = cam.clone();
    cv::solvePnP(board_points, view, trial.k, trial.dist, trial.rvec, trial.tvec, false, cv::SOLVEPNP_ITERATIVE);
    cv::Matx33d rb;
    cv::Rodrigues(trial.rvec, rb);
    // p_cam = Rb * p_board + tb and p_board = M^T (p_field - o).
    const cv::Matx33d r = rb * board_to_field.t();
    trial.tvec = trial.tvec - r * origin;
    cv::Rodrigues(r, trial.rvec);
    const double alignment = cv::trace(guess_rotation.t() * r);
    if (alignment > best_alignment) {
      best_alignment = alignment;
      best = trial;
      best_view = view;
    }
  }
  const auto reprojected = project(field_points, best);
  double sum = 0;
  for (size_t i = 0; i < reprojected.size(); ++i)
    sum += std::pow(std::hypot(reprojected[i].x - best_view[i].x, reprojected[i].y - best_view[i].y), 2);

  CalibrationResult result;
  result.calibration = calibration_from(best);
  result.rms_px = std::sqrt(sum / static_cast<double>(reprojected.size()));
  int total = 0;
  for (const auto& v : corners) total += static_cast<int>(v.size());
  result.features = total;
  result.focal_estimated = free.focal;
  result.camera_position = camera_centre(best);
  return result;
}

}  // namespace robocaf::actors
