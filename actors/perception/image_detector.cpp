#include "actors/perception/image_detector.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <Eigen/Geometry>

namespace robocaf::actors {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDotNominal = 0.7204;       // |kMarkingDots[i]|, radii
constexpr double kDotSearchMin = 0.35;       // radii from the patch
constexpr double kDotSearchMax = 1.05;       // a neighbour's dots are >= 1.28 R away when bodies touch
constexpr double kMaxDecodedRms = 0.15;      // radii
// Four dots fitted this well (radii, RMS) are read as they are: blob centroid
// noise gives 0.01..0.02. Worse fits (a dot cut by an occluder, merged with a
// neighbour's, or a neighbour's dot taken) go through the partial decode,
// which checks every slot in the image.
constexpr double kMaxCertainRms = 0.06;
constexpr double kUndecodedConfidence = 0.2;
constexpr double kPartialConfidence = 0.4;  // below any four-dot decode's 0.8
// A partial fit this much worse (radii, RMS) than the best one with as many
// dots is no rival: a wrong assignment of three dots still fits within
// kMaxDecodedRms, but several times worse than the right one.
constexpr double kRivalRmsMargin = 0.04;
// Winners reading the same id with headings this far apart (radians) leave
// the heading unknown: the id is then not reported with either pose.
constexpr double kSamePoseHeading = 0.35;
// More candidates than four only matter when one of them is not a dot of this
// robot (a fragment of a dot cut by an occluder, a merged pair); five keeps
// the partial search at a few hundred fits.
constexpr std::size_t kMaxDotCandidates = 5;
// Dot blobs measure up to ~1.5 times a dot's disc (the anti-aliased rim counts
// where it is mostly dot-coloured); two merged dots twice that.
constexpr double kMergedDotArea = 2.2;
// A dot is read from at least this many pixels of its colour: one pixel may be
// noise on an anti-aliased rim.
constexpr int kMinDotPixels = 2;
// A pixel whose brightest channel stays below this is the robot's bare top
// (body 25 per channel, lighting +7.5 %, pixel noise, dark rims); what hides
// a dot is brighter (goal frame 255, nets 190, walls 128, carpet green 120).
constexpr int kBodyMaxValue = 80;

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

// The best rigid fit of the marking layout (patch, then the four dot slots) to
// the patch and candidates[0..n): every assignment of those n dots to distinct
// slots.
struct Assignment {
  Fit fit;
  double rms = 0;                        // metres, over the patch and the n dots
  std::array<int, 4> candidate_of_slot;  // index into the candidates, -1 for none
};

Assignment best_assignment(const std::array<Eigen::Vector2d, 5>& layout, const Eigen::Vector2d& patch,
                           const std::vector<Eigen::Vector2d>& candidates, int n) {
  // Permutations of the slots, the first n of them used (duplicates for
  // n < 4 are harmless).
  std::array<int, 4> slots{0, 1, 2, 3};
  Assignment best;
  best.fit.sq_error = 1e300;
  std::array<Eigen::Vector2d, 5> model, seen;
  model[0] = layout[0];
  seen[0] = patch;
  do {
    for (int k = 0; k < n; ++k) {
      model[k + 1] = layout[slots[k] + 1];
      seen[k + 1] = candidates[k];
    }
    const Fit f = rigid_fit(model.data(), seen.data(), n + 1);
    if (f.sq_error < best.fit.sq_error) {
      best.fit = f;
      best.candidate_of_slot.fill(-1);
      for (int k = 0; k < n; ++k) best.candidate_of_slot[slots[k]] = k;
    }
  } while (std::next_permutation(slots.begin(), slots.end()));
  best.rms = std::sqrt(best.fit.sq_error / (n + 1));
  return best;
}

enum class DotReading { kZero, kOne, kHidden, kBare };

// What the image shows in the disc of `radius` pixels around `centre`, where a
// dot should be: its colour when enough of it is visible; kBare when mostly
// the robot's dark top shows there (no dot where the pose puts one: the pose
// is wrong); kHidden when something else covers it.
DotReading read_dot(const cv::Mat& bgr, const ColourSegmenter& segmenter, const cv::Point2d& centre, double radius) {
  constexpr std::uint8_t kGreen = 1u << static_cast<int>(ColourClass::kGreenDot);
  constexpr std::uint8_t kMagenta = 1u << static_cast<int>(ColourClass::kMagentaDot);
  int green = 0, magenta = 0, dark = 0, total = 0;
  const int y0 = std::max(0, static_cast<int>(std::floor(centre.y - radius)));
  const int y1 = std::min(bgr.rows - 1, static_cast<int>(std::ceil(centre.y + radius)));
  const int x0 = std::max(0, static_cast<int>(std::floor(centre.x - radius)));
  const int x1 = std::min(bgr.cols - 1, static_cast<int>(std::ceil(centre.x + radius)));
  for (int y = y0; y <= y1; ++y) {
    const std::uint8_t* row = bgr.ptr<std::uint8_t>(y);
    for (int x = x0; x <= x1; ++x) {
      if ((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y) > radius * radius) continue;
      ++total;
      const std::uint8_t* p = row + 3 * x;
      const std::uint8_t c = segmenter.classify(p[0], p[1], p[2]);
      if (c & kGreen) ++green;
      else if (c & kMagenta) ++magenta;
      else if (std::max({p[0], p[1], p[2]}) < kBodyMaxValue) ++dark;
    }
  }
  if (green + magenta >= kMinDotPixels && green != magenta) return magenta > green ? DotReading::kOne : DotReading::kZero;
  if (total > 0 && 2 * dark >= total) return DotReading::kBare;
  return DotReading::kHidden;
}

// A robot id the markings allow, with the pose that reads it.
struct IdOption {
  std::uint32_t id = 0;
  Fit fit;
  bool pose_known = true;  // false: poses far apart read it alike (hidden bits)
};

struct PartialDecode {
  Fit fit;                      // the best-fitting winner's pose
  std::vector<IdOption> options;  // the ids in play the visible bits allow, ascending
};

// A robot whose markings are not all seen as four good dots. Every assignment
// of two or more candidates to distinct slots whose fit is good enough is a
// pose hypothesis; all four slots are then read from the image at the pose's
// dot positions (`read`), and a hypothesis that puts a dot on bare top is
// dropped, as is one whose bits no id in play shows. The winners fit the
// most dots (a wrong assignment of fewer dots often fits as well and reads
// other bits), within kRivalRmsMargin of the best fit of as many; every id
// 1..max_id that agrees with a winner's bits is an option,
// with the best such winner's pose (several options when bits are hidden or
// the winners disagree). nullopt when no hypothesis survives.
template <typename Read>
std::optional<PartialDecode> partial_decode(const std::array<Eigen::Vector2d, 5>& layout, const Eigen::Vector2d& patch,
                                            const std::vector<Eigen::Vector2d>& candidates, double radius, Read read,
                                            std::uint32_t max_id) {
  const int n = static_cast<int>(candidates.size());
  struct Hypothesis {
    Fit fit;
    int used = 0, read = 0;
    double rms = 0;  // radii
    std::uint32_t known = 0, ones = 0;
  };
  std::vector<Hypothesis> kept;
  std::array<int, 4> choice{};  // candidate per slot, -1 for none
  std::array<Eigen::Vector2d, 5> model, seen;
  model[0] = layout[0];
  seen[0] = patch;
  // Every choice in {-1, 0..n-1}^4 with distinct candidates and at least two dots.
  const int combinations = static_cast<int>(std::pow(n + 1, 4));
  for (int code = 0; code < combinations; ++code) {
    int rest = code, used = 0;
    std::uint32_t taken = 0;
    bool distinct = true;
    for (int k = 0; k < 4; ++k) {
      choice[k] = rest % (n + 1) - 1;
      rest /= n + 1;
      if (choice[k] < 0) continue;
      if (taken & (1u << choice[k])) distinct = false;
      taken |= 1u << choice[k];
      model[used + 1] = layout[k + 1];
      seen[used + 1] = candidates[choice[k]];
      ++used;
    }
    if (!distinct || used < 2) continue;
    const Fit f = rigid_fit(model.data(), seen.data(), used + 1);
    const double rms = std::sqrt(f.sq_error / (used + 1)) / radius;
    if (rms >= kMaxDecodedRms) continue;
    Hypothesis h{f, used, 0, rms};
    const Eigen::Rotation2Dd rotation(f.theta);
    bool bare = false;
    for (int k = 0; k < 4 && !bare; ++k) {
      const DotReading r = read(Eigen::Vector2d(rotation * layout[k + 1] + f.t));
      bare = r == DotReading::kBare;
      if (r == DotReading::kZero || r == DotReading::kOne) {
        ++h.read;
        h.known |= 1u << k;
        if (r == DotReading::kOne) h.ones |= 1u << k;
      }
    }
    // Bits no robot in play shows (say bit 3 with five robots a team) mean
    // the assignment is wrong, however well it fits.
    bool possible = false;
    for (std::uint32_t id = 1; id <= max_id && !possible; ++id) possible = (id & h.known) == h.ones;
    if (!bare && possible) kept.push_back(h);
  }
  if (kept.empty()) return std::nullopt;
  // The winners: most dots fitted; of those, the ones that fit about as well
  // as the best.
  int most_used = 0;
  for (const Hypothesis& h : kept) most_used = std::max(most_used, h.used);
  double least = 1e300;
  for (const Hypothesis& h : kept)
    if (h.used == most_used) least = std::min(least, h.rms);
  const auto contender = [&](const Hypothesis& h) { return h.used == most_used && h.rms < least + kRivalRmsMargin; };
  // Reading more bits is no evidence: a wrong pose may put a slot on a
  // fragment of another dot where the right one finds its slot hidden.
  const auto winner = contender;
  PartialDecode out;
  double best = 1e300;
  for (const Hypothesis& h : kept)
    if (winner(h) && h.rms < best) {
      best = h.rms;
      out.fit = h.fit;
    }
  for (std::uint32_t id = 1; id <= max_id; ++id) {
    const Hypothesis* reader = nullptr;
    for (const Hypothesis& h : kept)
      if (winner(h) && (id & h.known) == h.ones && (!reader || h.rms < reader->rms)) reader = &h;
    if (!reader) continue;
    IdOption option{id, reader->fit};
    for (const Hypothesis& h : kept)
      if (winner(h) && (id & h.known) == h.ones &&
          std::abs(std::remainder(h.fit.theta - reader->fit.theta, 2 * kPi)) > kSamePoseHeading)
        option.pose_known = false;
    out.options.push_back(option);
  }
  return out;
}

// One robot of one team in the frame being decoded.
struct RobotFinding {
  Fit fit;  // the pose reported without an id
  cv::Point2d pixel;
  std::vector<IdOption> options;  // still possible; decoded when exactly one
  double confidence = 0;
  bool certain = false;  // four dots, good fit: never revised
};

// Each id is on one robot of a team at most: ids decoded for one robot are
// struck from the others' possibilities until nothing changes; two robots left
// with the same single id lose it (unless it was read from four dots).
void settle_ids(std::vector<RobotFinding>& found) {
  const auto decided = [&](std::size_t j, std::uint32_t id) {
    return found[j].options.size() == 1 && found[j].options.front().id == id;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < found.size(); ++i) {
      auto& options = found[i].options;
      if (options.size() < 2) continue;
      const auto before = options.size();
      options.erase(std::remove_if(options.begin(), options.end(),
                                   [&](const IdOption& o) {
                                     for (std::size_t j = 0; j < found.size(); ++j)
                                       if (j != i && decided(j, o.id)) return true;
                                     return false;
                                   }),
                    options.end());
      changed = changed || options.size() != before;
    }
  }
  std::vector<bool> clash(found.size(), false);
  for (std::size_t i = 0; i < found.size(); ++i)
    for (std::size_t j = i + 1; j < found.size(); ++j)
      if (found[i].options.size() == 1 && decided(j, found[i].options.front().id)) clash[i] = clash[j] = true;
  for (std::size_t i = 0; i < found.size(); ++i)
    if (clash[i] && !found[i].certain) found[i].options.clear();
}

}  // namespace

ImageDetector::ImageDetector(const msg::LeaguePreset& league, const msg::CameraCalibration& calibration,
                             const msg::ColourThresholds& thresholds)
    : geometry_(calibration), segmenter_(thresholds) {
  robot_radius_ = league.robot().radius() > 0 ? league.robot().radius() : 0.09;
  robot_height_ = league.robot().height() > 0 ? league.robot().height() : 0.05;
  ball_radius_ = league.ball().radius() > 0 ? league.ball().radius() : 0.0215;
  max_robot_id_ = league.team_size() > 0 ? std::min<std::uint32_t>(league.team_size(), kMaxMarkingId) : kMaxMarkingId;
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
    std::vector<RobotFinding> found;
    for (const Point& patch : patches) {
      const double ppm = geometry_.pixels_per_metre(patch.field, robot_height_);
      const double patch_area = kPi * std::pow(kMarkingPatchRadius * R * ppm, 2);
      if (patch.area < 0.25 * patch_area) continue;

      // Dot candidates on the robot-top plane, nearest to the nominal ring
      // first. A blob of two or more dots' size is dots of two robots merged
      // (pressed together): its centroid is no dot's, so it is left out of
      // the fits; the partial decode still reads its colour at the slots.
      const double dot_area = kPi * std::pow(kMarkingDotRadius * R * ppm, 2);
      std::vector<std::pair<double, int>> near;
      for (int d = 0; d < static_cast<int>(dots.size()); ++d) {
        if (dots[d].area > kMergedDotArea * dot_area) continue;
        const double dist = (dots[d].field - patch.field).norm() / R;
        if (dist >= kDotSearchMin && dist <= kDotSearchMax) near.emplace_back(std::abs(dist - kDotNominal), d);
      }
      std::sort(near.begin(), near.end());
      if (near.size() < 2) continue;
      std::vector<Eigen::Vector2d> candidates;
      std::vector<bool> magenta;
      for (std::size_t k = 0; k < std::min<std::size_t>(near.size(), kMaxDotCandidates); ++k) {
        candidates.push_back(dots[near[k].second].field);
        magenta.push_back(dots[near[k].second].one);
      }

      RobotFinding f;
      f.pixel = patch.pixel;
      // Every marking visible: the four nearest dots, every assignment to the
      // slots, the least residual.
      const Assignment all =
          best_assignment(layout, patch.field, candidates, std::min(4, static_cast<int>(candidates.size())));
      f.fit = all.fit;
      const double rms = all.rms / R;
      if (candidates.size() >= 4 && rms < kMaxCertainRms) {
        std::uint32_t id = 0;
        for (int k = 0; k < 4; ++k)
          if (magenta[all.candidate_of_slot[k]]) id |= 1u << k;
        if (id >= 1 && id <= max_robot_id_) {
          f.options = {{id, all.fit}};
          f.confidence = std::clamp(1.0 - rms / 0.3, 0.5, 1.0);
          f.certain = true;
        }
      }
      if (!f.certain) {
        // Part of the markings hidden (under the goal's crossbar, behind a
        // net) or a dot merged with a neighbour's: the pose from the dots
        // that fit, each bit read from the image where its dot should be.
        const auto read = [&](const Eigen::Vector2d& centre) {
          const auto px = geometry_.field_to_pixel(centre, robot_height_);
          return px ? read_dot(bgr, segmenter_, *px, kMarkingDotRadius * R * ppm) : DotReading::kHidden;
        };
        if (auto partial = partial_decode(layout, patch.field, candidates, R, read, max_robot_id_)) {
          f.fit = partial->fit;
          f.options = partial->options;
          f.confidence = kPartialConfidence;
        }
      }
      found.push_back(f);
    }
    settle_ids(found);
    for (const RobotFinding& f : found) {
      auto* robot = out->Add();
      const bool decoded = f.options.size() == 1 && f.options.front().pose_known;
      const Fit& fit = decoded ? f.options.front().fit : f.fit;
      robot->set_confidence(decoded ? f.confidence : kUndecodedConfidence);
      robot->set_robot_id(decoded ? f.options.front().id : 0);
      robot->set_x(fit.t.x());
      robot->set_y(fit.t.y());
      robot->set_orientation(fit.theta);
      robot->set_pixel_x(f.pixel.x);
      robot->set_pixel_y(f.pixel.y);
    }
  };
  find_robots(blue, frame.mutable_robots_blue());
  find_robots(yellow, frame.mutable_robots_yellow());
  return frame;
}

}  // namespace robocaf::actors
