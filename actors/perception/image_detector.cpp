#include "actors/perception/image_detector.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDotNominal = 0.7204;       // |kMarkingDots[i]|, radii
constexpr double kDotSearchMin = 0.35;       // radii from the patch
constexpr double kDotSearchMax = 1.05;       // a neighbour's dots are >= 1.28 R away when bodies touch
constexpr double kMaxDecodedRms = 0.15;      // radii
constexpr double kUndecodedConfidence = 0.2;

struct Point {
  Eigen::Vector2d field;
  cv::Point2d pixel;
  int area = 0;
  bool one = false;  // dots: magenta
};

struct Fit {
  double theta = 0;
  Eigen::Vector2d t = Eigen::Vector2d::Zero();
  double sq_error = 0;
};

// Least-squares rigid transform (rotation + translation, no scale) taking the
// model points onto the observed ones (2D Procrustes, closed form).
Fit rigid_fit(const Eigen::Vector2d* model, const Eigen::Vector2d* seen, int n) {
  Eigen::Vector2d mm = Eigen::Vector2d::Zero(), ms = Eigen::Vector2d::Zero();
  for (int i = 0; i < n; ++i) {
    mm += model[i];
    ms += seen[i];
  }
  mm /= n;
  ms /= n;
  double c = 0, s = 0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d a = model[i] - mm, b = seen[i] - ms;
    c += a.dot(b);
    s += a.x() * b.y() - a.y() * b.x();
  }
  Fit f;
  f.theta = std::atan2(s, c);
  Eigen::Matrix2d r;
  r << std::cos(f.theta), -std::sin(f.theta), std::sin(f.theta), std::cos(f.theta);
  f.t = ms - r * mm;
  for (int i = 0; i < n; ++i) f.sq_error += (r * model[i] + f.t - seen[i]).squaredNorm();
  return f;
}

}  // namespace

ImageDetector::ImageDetector(const msg::LeaguePreset& league, const msg::CameraCalibration& calibration,
                             const msg::ColourThresholds& thresholds)
    : geometry_(calibration), segmenter_(thresholds) {
  robot_radius_ = league.robot().radius() > 0 ? league.robot().radius() : 0.09;
  robot_height_ = league.robot().height() > 0 ? league.robot().height() : 0.05;
  ball_radius_ = league.ball().radius() > 0 ? league.ball().radius() : 0.0215;
}

msg::DetectionFrame ImageDetector::detect(const cv::Mat& bgr, std::uint64_t frame_number, double t_capture) {
  msg::DetectionFrame frame;
  frame.set_frame_number(frame_number);
  frame.set_t_capture(t_capture);

  const std::vector<ColourBlob> blobs = segmenter_.segment(bgr);
  std::vector<cv::Point2d> pixels(blobs.size());
  for (std::size_t i = 0; i < blobs.size(); ++i) pixels[i] = blobs[i].centroid;
  const std::vector<cv::Point2d> normalised = geometry_.undistort(pixels);  // one call for all blobs

  std::vector<Point> dots, blue, yellow;
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    const ColourBlob& b = blobs[i];
    if (b.colour == ColourClass::kBall) {
      const auto p = geometry_.normalised_to_field(normalised[i], ball_radius_);
      if (!p) continue;
      const double ppm = geometry_.pixels_per_metre(*p, ball_radius_);
      const double expected = kPi * ball_radius_ * ppm * ball_radius_ * ppm;
      const double ratio = expected > 0 ? b.area / expected : 0.0;
      auto* ball = frame.add_balls();
      ball->set_confidence(ratio <= 1 ? ratio : 1 / ratio);
      ball->set_x(p->x());
      ball->set_y(p->y());
      ball->set_pixel_x(b.centroid.x);
      ball->set_pixel_y(b.centroid.y);
      continue;
    }
    const auto p = geometry_.normalised_to_field(normalised[i], robot_height_);
    if (!p) continue;
    Point point{*p, b.centroid, b.area, b.colour == ColourClass::kMagentaDot};
    switch (b.colour) {
      case ColourClass::kBlue: blue.push_back(point); break;
      case ColourClass::kYellow: yellow.push_back(point); break;
      default: dots.push_back(point); break;
    }
  }

  const double R = robot_radius_;
  std::array<Eigen::Vector2d, 5> layout;  // patch, then dot slots 0..3, metres in the robot frame
  layout[0] = Eigen::Vector2d::Zero();
  for (int k = 0; k < 4; ++k) layout[k + 1] = R * Eigen::Vector2d(kMarkingDots[k][0], kMarkingDots[k][1]);

  auto find_robots = [&](const std::vector<Point>& patches,
                         google::protobuf::RepeatedPtrField<msg::DetectionRobot>* out) {
    for (const Point& patch : patches) {
      const double ppm = geometry_.pixels_per_metre(patch.field, robot_height_);
      const double patch_area = kPi * std::pow(kMarkingPatchRadius * R * ppm, 2);
      if (patch.area < 0.25 * patch_area) continue;

      // Dot candidates on the robot-top plane, nearest to the nominal ring first.
      std::vector<std::pair<double, int>> near;
      for (int d = 0; d < static_cast<int>(dots.size()); ++d) {
        const double dist = (dots[d].field - patch.field).norm() / R;
        if (dist >= kDotSearchMin && dist <= kDotSearchMax) near.emplace_back(std::abs(dist - kDotNominal), d);
      }
      std::sort(near.begin(), near.end());
      const int n = std::min<int>(4, static_cast<int>(near.size()));
      if (n < 2) continue;

      // Try every assignment of the n dots to the 4 slots: permutations of the
      // slots, the first n of them used (duplicates for n < 4 are harmless).
      std::array<int, 4> slots{0, 1, 2, 3};
      Fit best;
      best.sq_error = 1e300;
      std::array<int, 4> best_slots = slots;
      std::array<Eigen::Vector2d, 5> model, seen;
      do {
        model[0] = layout[0];
        seen[0] = patch.field;
        for (int k = 0; k < n; ++k) {
          model[k + 1] = layout[slots[k] + 1];
          seen[k + 1] = dots[near[k].second].field;
        }
        const Fit f = rigid_fit(model.data(), seen.data(), n + 1);
        if (f.sq_error < best.sq_error) {
          best = f;
          best_slots = slots;
        }
      } while (std::next_permutation(slots.begin(), slots.end()));

      const double rms = std::sqrt(best.sq_error / (n + 1)) / R;
      const bool decoded = n == 4 && rms < kMaxDecodedRms;
      std::uint32_t id = 0;
      if (decoded)
        for (int k = 0; k < 4; ++k)
          if (dots[near[k].second].one) id |= 1u << best_slots[k];

      auto* robot = out->Add();
      robot->set_confidence(decoded ? std::clamp(1.0 - rms / 0.3, 0.5, 1.0) : kUndecodedConfidence);
      robot->set_robot_id(id);
      robot->set_x(best.t.x());
      robot->set_y(best.t.y());
      robot->set_orientation(best.theta);
      robot->set_pixel_x(patch.pixel.x);
      robot->set_pixel_y(patch.pixel.y);
    }
  };
  find_robots(blue, frame.mutable_robots_blue());
  find_robots(yellow, frame.mutable_robots_yellow());
  return frame;
}

}  // namespace robocaf::actors
