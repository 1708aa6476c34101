#include "views/field_renderer.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include <opencv2/imgproc.hpp>

namespace robocaf::views {

namespace {

const cv::Scalar kGrass{40, 110, 40};
const cv::Scalar kLine{235, 235, 235};
const cv::Scalar kWall{90, 90, 90};

}  // namespace

cv::Scalar FieldRenderer::team_colour(msg::Team team) {
  return team == msg::BLUE ? cv::Scalar{220, 90, 20} : cv::Scalar{0, 220, 240};
}

FieldRenderer::FieldRenderer(const msg::LeaguePreset& league, int width_px) : league_(league), width_(width_px) {
  const auto& field = league_.field();
  margin_ = std::max(field.boundary_width(), field.goal_depth()) + 0.05 * field.length();
  scale_ = width_ / (field.length() + 2 * margin_);
  caption_px_ = std::max(24, width_ / 25);
  height_ = static_cast<int>(std::lround((field.width() + 2 * margin_) * scale_)) + caption_px_;
}

cv::Point2d FieldRenderer::to_pixel(double x, double y) const {
  const auto& field = league_.field();
  return {(x + field.length() / 2 + margin_) * scale_,
          caption_px_ + (field.width() / 2 + margin_ - y) * scale_};
}

cv::Mat FieldRenderer::render(const msg::WorldTruth& truth, const msg::GameState* game) const {
  const auto& field = league_.field();
  const double l2 = field.length() / 2, w2 = field.width() / 2, g2 = field.goal_width() / 2;
  cv::Mat image(height_, width_, CV_8UC3, kGrass);
  cv::rectangle(image, {0, 0}, {width_, caption_px_}, cv::Scalar{30, 30, 30}, cv::FILLED);
  const int line = std::max(1, width_ / 400);
  auto px = [this](double x, double y) { return cv::Point(to_pixel(x, y)); };

  cv::rectangle(image, px(-l2, w2), px(l2, -w2), kLine, line, cv::LINE_AA);
  cv::line(image, px(0, w2), px(0, -w2), kLine, line, cv::LINE_AA);
  cv::circle(image, px(0, 0), static_cast<int>(field.center_circle_radius() * scale_), kLine, line, cv::LINE_AA);
  for (int side : {-1, 1}) {
    const double x = side * l2;
    const double a = field.goal_area_depth(), h = field.goal_area_width() / 2;
    cv::rectangle(image, px(x, h), px(x - side * a, -h), kLine, line, cv::LINE_AA);
    // The goal: a box behind the line, in the colour of nobody.
    cv::rectangle(image, px(x, g2), px(x + side * field.goal_depth(), -g2), kWall, 2 * line, cv::LINE_AA);
  }

  for (const auto& robot : truth.robots()) {
    const cv::Point2d c = to_pixel(robot.pose().x(), robot.pose().y());
    const double r = league_.robot().radius() * scale_;
    const cv::Scalar colour = team_colour(robot.team());
    cv::circle(image, c, static_cast<int>(std::lround(r)), colour, cv::FILLED, cv::LINE_AA);
    const double th = robot.pose().theta();
    cv::line(image, c, c + cv::Point2d(std::cos(th), -std::sin(th)) * r, cv::Scalar{20, 20, 20},
             std::max(1, static_cast<int>(r / 4)), cv::LINE_AA);
    cv::putText(image, std::to_string(robot.robot_id()), c + cv::Point2d(r, -r), cv::FONT_HERSHEY_SIMPLEX,
                0.0012 * width_, kLine, 1, cv::LINE_AA);
  }
  const double ball_r = std::max(2.0, league_.ball().radius() * scale_);
  cv::circle(image, to_pixel(truth.ball_position().x(), truth.ball_position().y()), static_cast<int>(std::lround(ball_r)),
             ball_colour(), cv::FILLED, cv::LINE_AA);

  char caption[160];
  if (game) {
    std::snprintf(caption, sizeof caption, "blue %u : %u yellow   t %.1f s   %s", game->score_blue(),
                  game->score_yellow(), truth.t(), msg::Stage_Name(game->stage()).c_str() + 6);
  } else {
    std::snprintf(caption, sizeof caption, "t %.1f s", truth.t());
  }
  cv::putText(image, caption, {caption_px_ / 3, caption_px_ * 3 / 4}, cv::FONT_HERSHEY_SIMPLEX,
              caption_px_ / 40.0, kLine, 1, cv::LINE_AA);
  return image;
}

}  // namespace robocaf::views
