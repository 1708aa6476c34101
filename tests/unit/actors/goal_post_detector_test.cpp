// Goal posts as landmarks on images the simulator renders (MSL preset: its
// onboard camera, lighting gradient and pixel noise), and self-localisation
// on them with drifting odometry, without actors.
#include "actors/perception/goal_post_detector.hpp"

#include <cmath>
#include <iostream>
#include <vector>

#include <gtest/gtest.h>

#include "actors/perception/landmark_localiser.hpp"
#include "actors/perception/onboard_filter.hpp"
#include "actors/perception/onboard_image_detector.hpp"
#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"
#include "sim/camera/onboard_image.hpp"
#include "sim/camera/robot_markings.hpp"
#include "sim/random.hpp"
#include "tests/unit/actors/geometry_test_helpers.hpp"
#include "tests/unit/actors/onboard_drive.hpp"
#include "tests/unit/sim/sim_test_helpers.hpp"

namespace robocaf::actors {
namespace {

using runtime::kPi;

using sim::testing::pose;
using testing::to_robot;

void add_robot(msg::WorldTruth& truth, msg::Team team, std::uint32_t id, const msg::Pose2& p) {
  auto* r = truth.add_robots();
  r->set_team(team);
  r->set_robot_id(id);
  *r->mutable_pose() = p;
}

class GoalPostDetectorTest : public ::testing::Test {
 protected:
  GoalPostDetectorTest()
      : match_(runtime::preset_match_config("msl")),
        renderer_(match_.league(), match_.sim().onboard_camera(),
                  sim::derive_seed(match_.seed(), sim::camera::kOnboardImageStream)),
        detector_(match_.league().field(), renderer_.calibration_for(msg::Pose2())),
        localiser_(match_.league().field()) {
    // The ball far off, out of every view used here.
    truth_.mutable_ball_position()->set_x(0.0);
    truth_.mutable_ball_position()->set_y(-30.0);
  }

  // Goals seen by blue 1 standing at `observer`, with `others` on the field.
  std::vector<SeenGoal> detect(const msg::Pose2& observer, const std::vector<msg::Pose2>& others = {},
                               std::uint64_t frame = 1) {
    msg::WorldTruth truth = truth_;
    add_robot(truth, msg::BLUE, 1, observer);
    std::uint32_t id = 1;
    for (const auto& o : others) add_robot(truth, msg::YELLOW, id++, o);
    return detector_.detect(renderer_.render(truth, msg::BLUE, 1, frame));
  }

  // The true robot-frame position of goal post `index` for an observer at `p`.
  Eigen::Vector2d post(const msg::Pose2& p, std::uint32_t index) const {
    return to_robot(p, *localiser_.field_position(msg::LANDMARK_GOAL_POST, index));
  }

  msg::MatchConfig match_;
  sim::camera::OnboardImageRenderer renderer_;
  GoalPostDetector detector_;
  LandmarkLocaliser localiser_;
  msg::WorldTruth truth_;
};

TEST_F(GoalPostDetectorTest, GoalSizesAndColoursMatchTheSimulator) {
  EXPECT_EQ(GoalPostDetector::kGoalHeightPerWidth, sim::camera::kGoalHeightPerWidth);
  EXPECT_EQ(GoalPostDetector::kLineWidthPerLength, sim::camera::kLineWidthPerLength);
  // White posts pass, the nets and the sky (its darkest channel) do not.
  for (int c = 0; c < 3; ++c) {
    EXPECT_GE(sim::camera::kGoalFrameColour[c] * 0.95 - 12, GoalPostDetector::kWhiteMin);
    EXPECT_LT(sim::camera::kGoalNetColour[c] * 1.05 + 12, GoalPostDetector::kWhiteMin);
  }
  EXPECT_LT(sim::camera::kSkyColour[2] * 1.05 + 12, GoalPostDetector::kWhiteMin);
}

// Facing either goal from 3 to 8 m, head-on and at an angle: one goal, each
// landmark within 5 % of its distance, left and right the right way round.
// (The simulated onboard camera's noise is 1 % per axis; head-on views stay
// within 2 %, oblique ones at 8 m are the worst: the renderer's
// anti-aliased edges wander by tenths of a pixel, which the distances from
// edge rows feel most.)
TEST_F(GoalPostDetectorTest, FindsBothGoalsPostsWithinFivePercentOfTheirDistance) {
  double worst = 0.0;
  int views = 0;
  for (double goal_x : {9.0, -9.0}) {
    for (double distance : {3.0, 5.5, 8.0}) {
      for (double y : {-2.5, 0.0, 1.5}) {
        const double x = goal_x > 0 ? goal_x - distance : goal_x + distance;
        // Face the goal's centre, then look a little aside so it is not always mid-image.
        const double theta = std::atan2(-y, goal_x - x) + 0.1;
        const msg::Pose2 observer = pose(x, y, theta);
        const std::vector<SeenGoal> goals = detect(observer, {}, static_cast<std::uint64_t>(++views));
        ASSERT_EQ(goals.size(), 1u) << "goal x " << goal_x << ", from (" << x << ", " << y << ")";
        // +x goal: left = post 1 (+y), right = post 0; the -x goal is its half-turn: 2 and 3.
        const Eigen::Vector2d left = post(observer, goal_x > 0 ? 1 : 2);
        const Eigen::Vector2d right = post(observer, goal_x > 0 ? 0 : 3);
        const double e_left = (goals[0].left - left).norm() / left.norm();
        const double e_right = (goals[0].right - right).norm() / right.norm();
        EXPECT_LT(e_left, 0.05) << "left post from (" << x << ", " << y << "): " << goals[0].left.transpose()
                                << " vs " << left.transpose();
        EXPECT_LT(e_right, 0.05) << "right post from (" << x << ", " << y << "): " << goals[0].right.transpose()
                                 << " vs " << right.transpose();
        worst = std::max({worst, e_left, e_right});
      }
    }
  }
  std::cout << "worst goal post error: " << 100.0 * worst << " % of its distance over " << views << " views\n";
}

// Lines, the centre circle and the touch line seen from close by, the nets
// from the side: no goal where there is none.
TEST_F(GoalPostDetectorTest, NoGoalInViewsWithoutOne) {
  const std::vector<msg::Pose2> views{
      pose(0.0, 0.0, kPi / 2),     // along the half-way line to the touch line
      pose(-3.0, -4.0, -kPi / 2),  // at the touch line, close
      pose(2.0, 0.5, 0.0),         // facing the +x goal 7 m off (the control: it is found)
      pose(6.0, -5.0, 0.0),        // along the touch line, the goal out of view
  };
  for (size_t i = 0; i < views.size(); ++i) {
    const std::vector<SeenGoal> goals = detect(views[i], {}, 100 + i);
    // The third view looks straight at the +x goal from 7 m: that one is there.
    if (i == 2) {
      EXPECT_EQ(goals.size(), 1u);
      continue;
    }
    EXPECT_TRUE(goals.empty()) << "a goal in view " << i;
  }
}

// A robot in front of a post hides its foot: that post must not give a
// landmark at a made-up distance (the goal is dropped or the post is right).
TEST_F(GoalPostDetectorTest, ARobotHidingAPostsFootGivesNoWrongLandmark) {
  const msg::Pose2 observer = pose(3.0, 0.0, 0.0);  // 6 m in front of the +x goal
  for (double along : {0.3, 0.5, 0.7}) {
    // A robot on the line of sight to post 1, `along` of the way.
    const Eigen::Vector2d p1 = *localiser_.field_position(msg::LANDMARK_GOAL_POST, 1);
    const Eigen::Vector2d blocker = Eigen::Vector2d(3.0, 0.0) + along * (p1 - Eigen::Vector2d(3.0, 0.0));
    const std::vector<SeenGoal> goals = detect(observer, {pose(blocker.x(), blocker.y(), 0.0)});
    for (const SeenGoal& goal : goals) {
      EXPECT_LT((goal.left - post(observer, 1)).norm(), 0.02 * 6.0) << "blocker at " << along;
      EXPECT_LT((goal.right - post(observer, 0)).norm(), 0.02 * 6.0) << "blocker at " << along;
    }
  }
}

TEST_F(GoalPostDetectorTest, LandmarksAreSymmetricPostsOneAndZero) {
  SeenGoal goal;
  goal.left = {5.0, 1.0};
  goal.right = {5.0, -1.0};
  msg::OnboardFrame frame;
  GoalPostDetector::to_landmarks({goal}, frame);
  ASSERT_EQ(frame.landmarks_size(), 2);
  EXPECT_EQ(frame.landmarks(0).index(), 1u);
  EXPECT_EQ(frame.landmarks(0).position().y(), 1.0);
  EXPECT_EQ(frame.landmarks(1).index(), 0u);
  for (const auto& l : frame.landmarks()) {
    EXPECT_EQ(l.kind(), msg::LANDMARK_GOAL_POST);
    EXPECT_TRUE(l.symmetric());
  }
}

TEST_F(GoalPostDetectorTest, RejectsImagesOfTheWrongSize) {
  EXPECT_THROW(detector_.detect(cv::Mat(100, 100, CV_8UC3, cv::Scalar::all(0))), std::invalid_argument);
  EXPECT_THROW(detector_.detect(cv::Mat(480, 640, CV_8UC1, cv::Scalar::all(0))), std::invalid_argument);
}

// The whole onboard chain without actors: a robot driven by the simulator's
// physics (wheel slip and heading noise, so odometry drifts), its camera
// image rendered every 0.1 s, OnboardImageDetector, OnboardFilter. Its
// odometry starts 0.7 m and 0.12 rad off (as after the referee moved it,
// which odometry never learns of): with the goal in view the filter's pose
// closes on the truth and stays there.
TEST_F(GoalPostDetectorTest, OnboardFilterOnImagesFindsTheTruthWhereOdometryIsOff) {
  // Back and forth 4 to 6 m before the +x goal, swaying +-0.2 rad: the goal stays in view.
  testing::OnboardDrive drive;
  drive.start = pose(3.5, 0.8, 0.0);
  drive.odometry_offset = pose(0.6, -0.4, 0.12);
  const testing::OnboardDriveResult r = testing::drive_on_onboard_images(match_, renderer_, drive);
  std::cout << r.images << " images, " << r.images_with_goal << " with a goal; after 5 s position error mean "
            << r.mean_error << " m, worst " << r.worst_error << " m, heading worst " << r.worst_heading_error
            << " rad; odometry alone mean " << r.mean_odometry_error << " m\n";
  EXPECT_GT(r.first_odometry_error, 0.5) << "odometry started well off";
  EXPECT_GT(r.images_with_goal, r.images / 3) << "the goal was in view for a good part of the drive";
  EXPECT_LT(r.mean_error, 0.15);
  EXPECT_LT(r.mean_error, 0.25 * r.mean_odometry_error);
  EXPECT_LT(r.worst_error, 0.4);
  EXPECT_LT(r.worst_heading_error, 0.06);
}

}  // namespace
}  // namespace robocaf::actors
