#include "runtime/contact_cone.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace robocaf::runtime {
namespace {

Eigen::Vector2d at(double degrees) {
  const double a = degrees * M_PI / 180.0;
  return {std::cos(a), std::sin(a)};
}

Eigen::Vector2d free_motion(const Eigen::Vector2d& wanted, const std::vector<Eigen::Vector2d>& towards) {
  return nearest_free_motion(wanted, towards.data(), towards.size());
}

TEST(NearestFreeMotion, PushingForwardsBetweenTwoContactsAheadNeitherSlidesBack) {
  // Ahead on the left at 30 degrees and ahead on the right at -30: the free
  // directions lie between 120 and 240 degrees, more than 90 degrees from
  // straight ahead, so nothing is left. One contact after the other, the
  // motion ended at 240 degrees, right and back.
  const Eigen::Vector2d moved = free_motion({1.0, 0.0}, {at(30.0), at(-30.0)});
  EXPECT_NEAR(moved.norm(), 0.0, 1e-12);
  // A motion into neither is untouched; into one, it slides along it.
  EXPECT_TRUE(free_motion({-1.0, 0.0}, {at(30.0), at(-30.0)}).isApprox(Eigen::Vector2d(-1.0, 0.0)));
  const Eigen::Vector2d slide = free_motion({1.0, 0.0}, {at(60.0)});
  EXPECT_NEAR(slide.dot(at(60.0)), 0.0, 1e-12);
  EXPECT_NEAR(slide.x(), 0.75, 1e-12);
  EXPECT_TRUE(free_motion({1.0, 0.0}, {}).isApprox(Eigen::Vector2d(1.0, 0.0)));
}

TEST(NearestFreeMotion, IsTheNearestMotionThatPointsIntoNoContact) {
  // Against a fine search of the free motions, for random contacts.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-180.0, 180.0), length(0.0, 2.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Eigen::Vector2d> towards;
    for (int k = 0; k < 1 + trial % 3; ++k) towards.push_back(at(angle(rng)));
    const Eigen::Vector2d wanted = length(rng) * at(angle(rng));
    const Eigen::Vector2d moved = free_motion(wanted, towards);
    for (const auto& c : towards) EXPECT_LE(moved.dot(c), 1e-9);
    double nearest = wanted.norm();  // standing still is always free
    for (int a = 0; a < 3600; ++a)
      for (double r = 0.0; r <= 2.0; r += 0.01) {
        const Eigen::Vector2d m = r * at(0.1 * a);
        bool free = true;
        for (const auto& c : towards) free = free && m.dot(c) <= 0.0;
        if (free) nearest = std::min(nearest, (wanted - m).norm());
      }
    EXPECT_LE((wanted - moved).norm(), nearest + 1e-9) << "trial " << trial;
    EXPECT_GE((wanted - moved).norm(), nearest - 0.02) << "trial " << trial;
  }
}

}  // namespace
}  // namespace robocaf::runtime
