#include "sim/camera/scene_painter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>
#include <opencv2/imgproc.hpp>

namespace robocaf::sim::camera {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kShift = 4;  // fillPoly sub-pixel bits: vertices at 1/16 pixel
constexpr int kRobotSides = 24;
constexpr int kDiscPoints = 20;
constexpr double kHallFloor = 1000.0;  // m: half size of the floor around the arena

using Polygon = std::vector<Eigen::Vector3d>;

Polygon rectangle(double x0, double y0, double x1, double y1) {
  return {{x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y1, 0}};
}

// A straight line marking from a to b (floor), `width` wide, reaching width/2
// past both ends so lines meeting at a corner join.
Polygon line_marking(Eigen::Vector2d a, Eigen::Vector2d b, double width) {
  const Eigen::Vector2d d = (b - a).normalized() * (width / 2);
  const Eigen::Vector2d n{-d.y(), d.x()};
  a -= d;
  b += d;
  return {{a.x() + n.x(), a.y() + n.y(), 0},
          {b.x() + n.x(), b.y() + n.y(), 0},
          {b.x() - n.x(), b.y() - n.y(), 0},
          {a.x() - n.x(), a.y() - n.y(), 0}};
}

// A ring on the floor as one polygon: the outer circle, a zero-width slit,
// the inner circle backwards. One polygon so no seams show between pieces.
Polygon ring(double radius, double width, int points) {
  Polygon p;
  const double ro = radius + width / 2, ri = std::max(0.0, radius - width / 2);
  for (int i = 0; i <= points; ++i) {
    const double a = 2 * kPi * i / points;
    p.emplace_back(ro * std::cos(a), ro * std::sin(a), 0);
  }
  for (int i = points; i >= 0; --i) {
    const double a = 2 * kPi * i / points;
    p.emplace_back(ri * std::cos(a), ri * std::sin(a), 0);
  }
  return p;
}

Polygon disc(const Eigen::Vector3d& centre, const Eigen::Vector3d& u, const Eigen::Vector3d& v, double radius,
             int points) {
  Polygon p;
  p.reserve(points);
  for (int i = 0; i < points; ++i) {
    const double a = 2 * kPi * i / points;
    p.push_back(centre + radius * (std::cos(a) * u + std::sin(a) * v));
  }
  return p;
}

// An axis-aligned box [lo, hi] as six outward faces.
SceneObject box(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, const cv::Scalar& colour) {
  SceneObject o;
  o.anchor = (lo + hi) / 2;
  const double x0 = lo.x(), y0 = lo.y(), z0 = lo.z(), x1 = hi.x(), y1 = hi.y(), z1 = hi.z();
  auto face = [&](Polygon p, Eigen::Vector3d n) { o.faces.push_back({std::move(p), colour, n}); };
  face({{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}, {0, 0, 1});
  face({{x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}, {x1, y0, z0}}, {0, 0, -1});
  face({{x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}}, {1, 0, 0});
  face({{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}}, {-1, 0, 0});
  face({{x0, y1, z0}, {x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}}, {0, 1, 0});
  face({{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}}, {0, -1, 0});
  return o;
}

Eigen::Vector3d lo3(double x0, double x1, double y0, double y1, double z0) {
  return {std::min(x0, x1), std::min(y0, y1), z0};
}
Eigen::Vector3d hi3(double x0, double x1, double y0, double y1, double z1) {
  return {std::max(x0, x1), std::max(y0, y1), z1};
}

}  // namespace

Scene::Scene(const msg::LeaguePreset& league, bool team_band_on_sides)
    : geometry_(scene_geometry(league)), team_band_(team_band_on_sides) {
  const auto& g = geometry_;
  const double L = g.half_length, W = g.half_width, b = g.boundary, lw = g.line_width;
  const double gw = g.goal_half_width, t = g.post_thickness;

  // Carpet: the field and its boundary, and the floor inside the goals.
  carpet_.push_back(rectangle(-L - b, -W - b, L + b, W + b));
  if (g.goal_depth > b)
    for (double s : {-1.0, 1.0}) carpet_.push_back(rectangle(s * L, -gw - t, s * (L + g.goal_depth), gw + t));

  // Lines.
  using V2 = Eigen::Vector2d;
  lines_.push_back(line_marking(V2{-L, -W}, V2{L, -W}, lw));
  lines_.push_back(line_marking(V2{-L, W}, V2{L, W}, lw));
  lines_.push_back(line_marking(V2{-L, -W}, V2{-L, W}, lw));
  lines_.push_back(line_marking(V2{L, -W}, V2{L, W}, lw));
  lines_.push_back(line_marking(V2{0, -W}, V2{0, W}, lw));
  if (league.field().center_circle_radius() > 0) lines_.push_back(ring(league.field().center_circle_radius(), lw, 96));
  lines_.push_back(disc({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, lw, 16));
  const double ad = league.field().goal_area_depth(), aw = league.field().goal_area_width() / 2;
  if (ad > 0 && aw > 0)
    for (double s : {-1.0, 1.0}) {
      lines_.push_back(line_marking(V2{s * (L - ad), -aw}, V2{s * (L - ad), aw}, lw));
      lines_.push_back(line_marking(V2{s * L, -aw}, V2{s * (L - ad), -aw}, lw));
      lines_.push_back(line_marking(V2{s * L, aw}, V2{s * (L - ad), aw}, lw));
    }

  // Goals: two posts and a crossbar just behind the goal line, nets at the
  // sides and back, each a separate solid so painter's order works inside.
  const double h = g.goal_height;
  if (gw > 0 && h > 0)
    for (double s : {-1.0, 1.0}) {
      const double xl = s * L, xp = s * (L + t);
      for (double side : {-1.0, 1.0})
        static_objects_.push_back(
            box(lo3(xl, xp, side * gw, side * (gw + t), 0), hi3(xl, xp, side * gw, side * (gw + t), h),
                kGoalFrameColour));
      static_objects_.push_back(box(lo3(xl, xp, -gw - t, gw + t, h - t), hi3(xl, xp, -gw - t, gw + t, h),
                                    kGoalFrameColour));
      if (g.goal_depth > t) {
        const double xb = s * (L + g.goal_depth), net = t / 2;
        for (double side : {-1.0, 1.0})
          static_objects_.push_back(box(lo3(xp, xb, side * (gw + t / 2 - net / 2), side * (gw + t / 2 + net / 2), 0),
                                        hi3(xp, xb, side * (gw + t / 2 - net / 2), side * (gw + t / 2 + net / 2), h),
                                        kGoalNetColour));
        static_objects_.push_back(
            box(lo3(xb, xb + s * net, -gw - t, gw + t, 0), hi3(xb, xb + s * net, -gw - t, gw + t, h), kGoalNetColour));
      }
    }

  // Walls in short pieces, so sorting by distance stays right next to a robot.
  if (g.walls) {
    const double wt = kWallThickness, segment = std::max(0.1, 4 * g.robot_radius);
    auto wall = [&](double x0, double y0, double x1, double y1) {
      // (x0, y0)-(x1, y1) is the wall's inner edge along x or y; it extends outwards by wt.
      const bool along_x = std::abs(y1 - y0) < 1e-12;
      const double length = along_x ? x1 - x0 : y1 - y0;
      const int pieces = std::max(1, static_cast<int>(std::ceil(std::abs(length) / segment)));
      for (int i = 0; i < pieces; ++i) {
        const double a = double(i) / pieces, c = double(i + 1) / pieces;
        if (along_x) {
          const double out = y0 > 0 ? wt : -wt;
          static_objects_.push_back(box(lo3(x0 + a * length, x0 + c * length, y0, y0 + out, 0),
                                        hi3(x0 + a * length, x0 + c * length, y0, y0 + out, kWallHeight), kWallColour));
        } else {
          const double out = x0 > 0 ? wt : -wt;
          static_objects_.push_back(box(lo3(x0, x0 + out, y0 + a * length, y0 + c * length, 0),
                                        hi3(x0, x0 + out, y0 + a * length, y0 + c * length, kWallHeight), kWallColour));
        }
      }
    };
    const double X = L + b, Y = W + b;
    wall(-X - wt, Y, X + wt, Y);
    wall(-X - wt, -Y, X + wt, -Y);
    const bool goal_through_wall = gw > 0 && g.goal_depth + t > b;
    for (double s : {-1.0, 1.0}) {
      if (goal_through_wall) {
        wall(s * X, -Y, s * X, -gw - t);
        wall(s * X, gw + t, s * X, Y);
      } else {
        wall(s * X, -Y, s * X, Y);
      }
    }
  }
}

void Scene::fill(const CameraModel& camera, const std::vector<Eigen::Vector3d>& polygon, const cv::Scalar& colour,
                 cv::Mat& image) {
  const auto pixels = camera.project_polygon(polygon);
  if (pixels.size() < 3) return;
  std::vector<cv::Point> points;
  points.reserve(pixels.size());
  constexpr double scale = 1 << kShift;
  for (const auto& p : pixels)
    points.emplace_back(static_cast<int>(std::lround(p.x * scale)), static_cast<int>(std::lround(p.y * scale)));
  const cv::Point* data = points.data();
  const int count = static_cast<int>(points.size());
  cv::fillPoly(image, &data, &count, 1, colour, cv::LINE_AA, kShift);
}

void Scene::paint_floor(const CameraModel& camera, cv::Mat& image) const {
  image.setTo(kSkyColour);
  fill(camera, rectangle(-kHallFloor, -kHallFloor, kHallFloor, kHallFloor), kFloorColour, image);
  for (const auto& p : carpet_) fill(camera, p, kFieldColour, image);
  for (const auto& p : lines_) fill(camera, p, kLineColour, image);
}

SceneObject Scene::robot_object(const msg::RobotTruth& robot) const {
  const auto& g = geometry_;
  const double x = robot.pose().x(), y = robot.pose().y(), th = robot.pose().theta();
  const double r = g.robot_radius, h = g.robot_height;
  const cv::Scalar team = team_colour(robot.team());
  SceneObject o;
  o.anchor = {x, y, h / 2};

  // Sides: a prism of kRobotSides faces, optionally with the team band.
  std::vector<std::pair<double, double>> bands{{0.0, h}};
  if (team_band_) bands = {{0.0, kTeamBandBottom * h}, {kTeamBandBottom * h, kTeamBandTop * h}, {kTeamBandTop * h, h}};
  for (int i = 0; i < kRobotSides; ++i) {
    const double a0 = th + 2 * kPi * i / kRobotSides, a1 = th + 2 * kPi * (i + 1) / kRobotSides;
    const double am = (a0 + a1) / 2;
    const Eigen::Vector3d n{std::cos(am), std::sin(am), 0};
    const double x0 = x + r * std::cos(a0), y0 = y + r * std::sin(a0);
    const double x1 = x + r * std::cos(a1), y1 = y + r * std::sin(a1);
    for (size_t k = 0; k < bands.size(); ++k) {
      const auto [zb, zt] = bands[k];
      o.faces.push_back({{{x0, y0, zb}, {x1, y1, zb}, {x1, y1, zt}, {x0, y0, zt}},
                         (bands.size() == 3 && k == 1) ? team : kRobotBodyColour, n});
    }
  }

  // Top and its markings (robot_markings.hpp), lying on the top face.
  const Eigen::Vector3d up{0, 0, 1}, top{x, y, h};
  const Eigen::Vector3d fwd{std::cos(th), std::sin(th), 0}, left{-std::sin(th), std::cos(th), 0};
  o.faces.push_back({disc(top, fwd, left, r, kRobotSides * 2), kRobotBodyColour, up});
  o.faces.push_back({disc(top, fwd, left, kTeamPatchRadius * r, kDiscPoints), team, up});
  for (int bit = 0; bit < 4; ++bit) {
    const Eigen::Vector3d c = top + r * (kIdDots[bit][0] * fwd + kIdDots[bit][1] * left);
    o.faces.push_back({disc(c, fwd, left, kIdDotRadius * r, kDiscPoints), id_dot_colour(robot.robot_id(), bit), up});
  }
  return o;
}

std::vector<SceneObject> Scene::dynamic_objects(const msg::WorldTruth& truth, const CameraModel& camera,
                                                msg::Team skip_team, std::uint32_t skip_id) const {
  std::vector<SceneObject> objects;
  objects.reserve(truth.robots_size() + 1);
  for (const auto& robot : truth.robots()) {
    if (skip_team != msg::TEAM_UNSPECIFIED && robot.team() == skip_team && robot.robot_id() == skip_id) continue;
    objects.push_back(robot_object(robot));
  }
  // The ball: a sphere's outline is (nearly) a disc facing the camera.
  const double br = geometry_.ball_radius;
  const Eigen::Vector3d centre{truth.ball_position().x(), truth.ball_position().y(), br};
  const Eigen::Vector3d ray = centre - camera.position();
  if (ray.norm() > br) {
    const Eigen::Vector3d d = ray.normalized();
    Eigen::Vector3d u = d.cross(Eigen::Vector3d::UnitZ());
    if (u.norm() < 1e-6) u = Eigen::Vector3d::UnitX();
    u.normalize();
    const Eigen::Vector3d v = d.cross(u);
    SceneObject ball;
    ball.anchor = centre;
    ball.faces.push_back({disc(centre, u, v, br, kDiscPoints + 4), kBallColour, Eigen::Vector3d::Zero()});
    objects.push_back(std::move(ball));
  }
  return objects;
}

void Scene::paint_objects(const CameraModel& camera, std::vector<const SceneObject*> objects, cv::Mat& image) {
  const Eigen::Vector3d eye = camera.position();
  std::vector<std::pair<double, const SceneObject*>> order;
  order.reserve(objects.size());
  for (const auto* o : objects) order.emplace_back((o->anchor - eye).squaredNorm(), o);
  // Far to near; ties (never in practice) keep the given order.
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [distance, o] : order) {
    (void)distance;
    for (const auto& face : o->faces) {
      if (!face.normal.isZero() && face.normal.dot(eye - face.polygon.front()) <= 0) continue;
      fill(camera, face.polygon, face.colour, image);
    }
  }
}

SensorEffects::SensorEffects(cv::Size size, const msg::ImageSpec& image, std::uint64_t seed) : size_(size) {
  if (image.noise_sd() < 0) throw std::invalid_argument("camera image: negative noise_sd");
  const double gradient = image.lighting_gradient();
  if (gradient != 0 && size.area() > 0) {
    // gain(u, v) = 1 + gradient * ((u / (w-1) + v / (h-1)) / 2 - 1/2): a row
    // ramp plus a column ramp.
    cv::Mat row(1, size.width, CV_32F), col(size.height, 1, CV_32F);
    for (int u = 0; u < size.width; ++u)
      row.at<float>(0, u) = static_cast<float>(gradient * (size.width > 1 ? double(u) / (size.width - 1) : 0.5) / 2);
    for (int v = 0; v < size.height; ++v)
      col.at<float>(v, 0) =
          static_cast<float>(1 + gradient * ((size.height > 1 ? double(v) / (size.height - 1) : 0.5) / 2 - 0.5));
    const cv::Mat gain = cv::repeat(row, size.height, 1) + cv::repeat(col, 1, size.width);
    cv::merge(std::vector<cv::Mat>{gain, gain, gain}, gain_);
  }
  if (image.noise_sd() > 0 && size.area() > 0) {
    noise_.create(1, 2 * size.area() * 3, CV_32F);
    cv::RNG rng(seed);
    rng.fill(noise_, cv::RNG::NORMAL, 0.0, image.noise_sd());
  }
}

void SensorEffects::apply(cv::Mat& image, std::uint64_t frame_seed) const {
  if (gain_.empty() && noise_.empty()) return;
  CV_Assert(image.type() == CV_8UC3 && image.size() == size_);
  // Mixed-depth arithmetic: no separate conversion passes over the image.
  cv::Mat lit = image;
  if (!gain_.empty()) cv::multiply(image, gain_, lit, 1.0, CV_32F);
  cv::Mat out;
  if (!noise_.empty()) {
    const int n = size_.area() * 3;
    cv::RNG rng(frame_seed);
    const int offset = static_cast<int>(rng.uniform(0, n + 1));
    const cv::Mat noise(size_, CV_32FC3, const_cast<float*>(noise_.ptr<float>()) + offset);
    cv::add(lit, noise, out, cv::noArray(), CV_8U);
  } else {
    lit.convertTo(out, CV_8U);
  }
  image = out;
}

}  // namespace robocaf::sim::camera
