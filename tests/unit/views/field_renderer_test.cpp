#include "views/field_renderer.hpp"

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::views {
namespace {

cv::Vec3b colour_at(const cv::Mat& image, cv::Point2d p) { return image.at<cv::Vec3b>(cv::Point(p)); }

bool same(const cv::Vec3b& pixel, const cv::Scalar& colour) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(pixel[c] - colour[c]) > 2) return false;
  return true;
}

TEST(FieldRenderer, DrawsTheBallAndRobotsWhereTheyAre) {
  auto league = runtime::default_match_config().league();
  FieldRenderer renderer{league, 880};
  msg::WorldTruth truth;
  truth.mutable_ball_position()->set_x(0.42);
  truth.mutable_ball_position()->set_y(-0.31);
  auto* blue = truth.add_robots();
  blue->set_team(msg::BLUE);
  blue->set_robot_id(2);
  blue->mutable_pose()->set_x(-0.6);
  blue->mutable_pose()->set_y(0.5);
  auto* yellow = truth.add_robots();
  yellow->set_team(msg::YELLOW);
  yellow->set_robot_id(4);
  yellow->mutable_pose()->set_x(0.7);
  yellow->mutable_pose()->set_y(0.2);
  yellow->mutable_pose()->set_theta(1.5);  // the heading mark points up, not through the sample pixel below

  cv::Mat image = renderer.render(truth, nullptr);
  ASSERT_EQ(image.size(), renderer.size());
  EXPECT_TRUE(same(colour_at(image, renderer.to_pixel(0.42, -0.31)), FieldRenderer::ball_colour()));
  // Sample beside the centre, away from the heading mark drawn along +x.
  EXPECT_TRUE(same(colour_at(image, renderer.to_pixel(-0.6, 0.5 - 0.02)), FieldRenderer::team_colour(msg::BLUE)));
  EXPECT_TRUE(same(colour_at(image, renderer.to_pixel(0.7 - 0.02, 0.2)), FieldRenderer::team_colour(msg::YELLOW)));
  // Nothing of the ball's colour where the ball is not.
  EXPECT_FALSE(same(colour_at(image, renderer.to_pixel(-0.42, 0.31)), FieldRenderer::ball_colour()));
}

TEST(FieldRenderer, MapsTheFieldCornersInsideTheImageKeepingItsAspect) {
  auto league = runtime::default_match_config().league();
  FieldRenderer renderer{league, 640};
  const double l2 = league.field().length() / 2, w2 = league.field().width() / 2;
  for (auto p : {renderer.to_pixel(-l2, w2), renderer.to_pixel(l2, -w2)}) {
    EXPECT_GT(p.x, 0);
    EXPECT_LT(p.x, renderer.size().width);
    EXPECT_GT(p.y, 0);
    EXPECT_LT(p.y, renderer.size().height);
  }
  const auto a = renderer.to_pixel(-l2, w2), b = renderer.to_pixel(l2, -w2);
  EXPECT_NEAR((b.x - a.x) / (b.y - a.y), league.field().length() / league.field().width(), 1e-9);
}

}  // namespace
}  // namespace robocaf::views
