#pragma once
// Top-down pictures of the field from game-log data, for people to look at:
// field lines, goals, robots with their team colour and heading, the ball,
// and the score and clock.

#include <opencv2/core.hpp>

#include "messages/config.pb.h"
#include "messages/game.pb.h"
#include "messages/world.pb.h"

namespace robocaf::views {

class FieldRenderer {
 public:
  /// `width_px` is the image width; the height follows the field's aspect.
  FieldRenderer(const msg::LeaguePreset& league, int width_px);

  /// One frame: the world as `truth` has it, with `game` (if any) as the caption.
  cv::Mat render(const msg::WorldTruth& truth, const msg::GameState* game) const;

  /// The pixel of a field point (metres, field frame).
  cv::Point2d to_pixel(double x, double y) const;

  cv::Size size() const { return {width_, height_}; }

  /// Colours (BGR) a test can look for.
  static cv::Scalar ball_colour() { return {0, 140, 255}; }
  static cv::Scalar team_colour(msg::Team team);

 private:
  msg::LeaguePreset league_;
  int width_ = 0;
  int height_ = 0;
  double scale_ = 1;    // pixels per metre
  double margin_ = 0;   // metres of surround drawn beyond the field
  int caption_px_ = 0;  // band above the field for score and clock
};

}  // namespace robocaf::views
