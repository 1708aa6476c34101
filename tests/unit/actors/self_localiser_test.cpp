#include "actors/perception/self_localiser.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "runtime/angle.hpp"
#include "runtime/config_loader.hpp"
#include "runtime/field_landmarks.hpp"
#include "runtime/field_lines.hpp"
#include "tests/unit/sim/sim_test_helpers.hpp"

namespace robocaf::actors {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
using sim::testing::pose;

msg::FieldGeometry msl_field() { return runtime::preset_match_config("msl").league().field(); }

Vector2d to_robot(const Vector3d& truth, const Vector2d& field_point) {
  const double c = std::cos(truth.z()), s = std::sin(truth.z());
  const Vector2d d = field_point - truth.head<2>();
  return {c * d.x() + s * d.y(), -s * d.x() + c * d.y()};
}

// What a robot at `truth` sees of the field's lines: a fan of `rays` rays
// over a 1.2 rad field of view, every crossing within 8 m, with noise of
// `noise_per_metre` times the distance (as the simulated camera).
msg::OnboardFrame line_frame(const msg::FieldGeometry& field, const Vector3d& truth, double noise_per_metre,
                             std::uint32_t seed, int rays = 16) {
  const runtime::FieldLines lines(field);
  std::mt19937 rng(seed);
  std::normal_distribution<double> unit(0.0, 1.0);
  msg::OnboardFrame frame;
  for (int k = 0; k < rays; ++k) {
    const double bearing = -0.6 + 1.2 * (k + 0.5) / rays;
    const Vector2d dir(std::cos(truth.z() + bearing), std::sin(truth.z() + bearing));
    for (double d : lines.crossings(truth.head<2>(), dir, 8.0)) {
      const Vector2d q(d * std::cos(bearing) + d * noise_per_metre * unit(rng),
                       d * std::sin(bearing) + d * noise_per_metre * unit(rng));
      auto* p = frame.add_line_points();
      p->set_x(q.x());
      p->set_y(q.y());
    }
  }
  return frame;
}

void add_landmark(msg::OnboardFrame& frame, const msg::FieldGeometry& field, const Vector3d& truth,
                  msg::LandmarkKind kind, std::uint32_t index) {
  const auto l = runtime::field_landmark(field, kind, index);
  ASSERT_TRUE(l);
  const Vector2d q = to_robot(truth, {l->x, l->y});
  auto* m = frame.add_landmarks();
  m->set_kind(kind);
  m->set_index(index);
  m->mutable_position()->set_x(q.x());
  m->mutable_position()->set_y(q.y());
}

double position_error(const SelfLocaliser& loc, const Vector3d& truth) {
  return (loc.pose().head<2>() - truth.head<2>()).norm();
}

TEST(FieldLines, NearestLineAndRayCrossings) {
  const runtime::FieldLines lines(msl_field());
  // 0.3 m beside the halfway line, far from the circle: that line, normal +x.
  const runtime::NearestLine n = lines.nearest({0.3, 4.5});
  EXPECT_NEAR(n.distance, 0.3, 1e-12);
  EXPECT_NEAR(n.normal.x(), 1.0, 1e-12);
  // Inside the centre circle: the halfway line or the circle, whichever is nearer.
  EXPECT_NEAR(lines.nearest({0.5, 0.0}).distance, 0.5, 1e-12);
  EXPECT_NEAR(lines.nearest({1.9, 0.0}).distance, 0.1, 1e-12);  // the circle (radius 2)
  // Just inside the circle, near the halfway line: the circle, then that line.
  const auto two = lines.nearest_two({0.3, 1.9});
  EXPECT_NEAR(two[0].distance, 2.0 - std::hypot(0.3, 1.9), 1e-12);
  EXPECT_NEAR(two[1].distance, 0.3, 1e-12);
  EXPECT_NEAR(two[1].normal.x(), 1.0, 1e-12);
  // A ray from (-3, 0) along +x crosses the circle at -2 and 2 and the halfway line at 0.
  const auto hits = lines.crossings({-3.0, 0.0}, {1.0, 0.0}, 8.0);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_NEAR(hits[0], 1.0, 1e-12);
  EXPECT_NEAR(hits[1], 3.0, 1e-12);
  EXPECT_NEAR(hits[2], 5.0, 1e-12);
  EXPECT_TRUE(lines.crossings({-3.0, 0.0}, {1.0, 0.0}, 0.5).empty()) << "beyond range";
}

// Wheels spinning against an opponent: odometry says a metre forward, the
// robot did not move. Line points bring it back.
TEST(SelfLocaliser, LinePointsCorrectOdometryThatRanAhead) {
  const auto field = msl_field();
  SelfLocaliser loc(field, 0.01);
  const Vector3d truth(-3.0, 1.0, 0.2);  // facing the centre circle and the halfway line
  loc.predict(pose(truth.x(), truth.y(), truth.z()), 0.0);
  for (int k = 1; k <= 10; ++k)
    loc.predict(pose(truth.x() + 0.1 * k * std::cos(truth.z()), truth.y() + 0.1 * k * std::sin(truth.z()), truth.z()),
                0.02 * k);
  ASSERT_GT(position_error(loc, truth), 0.9);
  for (std::uint32_t k = 0; k < 10; ++k) loc.update(line_frame(field, truth, 0.01, k + 1));
  EXPECT_LT(position_error(loc, truth), 0.03);
  EXPECT_NEAR(runtime::wrap_angle(loc.pose().z() - truth.z()), 0.0, 0.01);
  EXPECT_GT(loc.matched_line_points(), 10);
  EXPECT_LT(std::sqrt(loc.covariance()(0, 0)), 0.05) << "and it knows it";
}

// One straight line in view fixes the position across it only: along it
// the estimate and its uncertainty stay as odometry left them.
TEST(SelfLocaliser, OneLineConstrainsOnlyTheDirectionAcrossIt) {
  const auto field = msl_field();
  SelfLocaliser loc(field, 0.01);
  const Vector3d truth(-2.0, 4.0, 0.0);
  loc.predict(pose(truth.x() + 0.15, truth.y() + 0.15, truth.z()), 0.0);  // odometry off by 0.15 in x and y
  msg::OnboardFrame frame;
  for (double y = 3.0; y <= 5.0; y += 0.25) {  // points on the halfway line only
    const Vector2d q = to_robot(truth, {0.0, y});
    auto* p = frame.add_line_points();
    p->set_x(q.x());
    p->set_y(q.y());
  }
  const double y_sd_before = std::sqrt(loc.covariance()(1, 1));
  for (int k = 0; k < 5; ++k) loc.update(frame);
  EXPECT_NEAR(loc.pose().x(), truth.x(), 0.01) << "across the line: corrected";
  EXPECT_NEAR(loc.pose().y(), truth.y() + 0.15, 0.03) << "along it: as odometry said";
  EXPECT_LT(std::sqrt(loc.covariance()(0, 0)), 0.01);
  EXPECT_GT(std::sqrt(loc.covariance()(1, 1)), 0.5 * y_sd_before);
}

// MSL, seed 97: a robot pushed 0.25 m back in the centre circle, its
// position 0.25 m uncertain, sees three line points (the camera's, from the
// log): one on the circle, one on the halfway line just above the circle,
// one on the far touch line. Where it believes it stands, the halfway
// line's point lies nearer the circle. Fitted to the circle, the three
// agreed with a pose 0.65 m off, and the robot stayed lost for 30 s.
TEST(SelfLocaliser, APointThatMayBeOnEitherOfTwoLinesIsNotFittedToTheWrongOne) {
  const auto field = msl_field();
  SelfLocaliserParams params;
  params.start_position_sd = 0.25;
  params.start_heading_sd = 0.06;
  SelfLocaliser loc(field, 0.01, params);
  const Vector3d truth(1.27, 0.45, 2.76);
  loc.predict(pose(1.522, 0.429, 2.762), 0.0);
  const double error_before = position_error(loc, truth);
  msg::OnboardFrame frame;
  for (const Vector2d& q : {Vector2d(1.605, -1.008), Vector2d(1.810, -1.123), Vector2d(5.873, -3.827)}) {
    auto* p = frame.add_line_points();
    p->set_x(q.x());
    p->set_y(q.y());
  }
  // The points do lie where the truth puts them: on the circle, the
  // halfway line and the touch line (within the camera's noise).
  const runtime::FieldLines lines(field);
  for (const auto& p : frame.line_points()) {
    const double c = std::cos(truth.z()), s = std::sin(truth.z());
    const Vector2d at = truth.head<2>() + Vector2d(c * p.x() - s * p.y(), s * p.x() + c * p.y());
    EXPECT_LT(lines.nearest(at).distance, 3.0 * 0.01 * Vector2d(p.x(), p.y()).norm());
  }
  loc.update(frame);
  EXPECT_LE(position_error(loc, truth), error_before + 0.01) << "moved away from the truth";
}

TEST(SelfLocaliser, BumperContactsStopOdometryMotionIntoThem) {
  SelfLocaliser loc(msl_field(), 0.01);
  loc.predict(pose(1.0, 1.0, M_PI / 2), 0.0);     // facing +y
  loc.set_contacts({Vector2d(1.0, 0.0)});           // a robot right ahead
  loc.predict(pose(0.9, 1.5, M_PI / 2), 0.5);      // odometry: 0.5 forward, 0.1 to the left
  EXPECT_NEAR(loc.pose().y(), 1.0, 1e-9) << "the wheels slipped against the robot ahead";
  EXPECT_NEAR(loc.pose().x(), 0.9, 1e-9) << "sideways motion is still taken";
  const double along_sd = std::sqrt(loc.covariance()(1, 1));
  EXPECT_GT(along_sd, 0.1) << "but the robot may have pushed it: uncertain along";
  loc.set_contacts({});
  loc.predict(pose(0.9, 2.0, M_PI / 2), 1.0);
  EXPECT_NEAR(loc.pose().y(), 1.5, 1e-9) << "contact gone: odometry counts again";
}

// Wedged between two contacts the robot does not slide along either
// (MSL vs chaser, seed 53: pushing the ball into a wall of opponents, with
// one touching ahead on the left and one on its right, the estimate slid on
// 1 m while the robot stood).
TEST(SelfLocaliser, WedgedBetweenTwoContactsOdometryMotionIsNotTaken) {
  SelfLocaliser loc(msl_field(), 0.01);
  loc.predict(pose(1.0, 1.0, 0.0), 0.0);  // facing +x
  const double left = 0.57;               // ahead, 33 degrees to the left
  loc.set_contacts({Vector2d(std::cos(left), std::sin(left)), Vector2d(0.0, -1.0)});
  loc.predict(pose(1.15, 1.0, 0.0), 1.0);  // the wheels turned 0.15 forward
  EXPECT_NEAR(loc.pose().x(), 1.0, 1e-9);
  EXPECT_NEAR(loc.pose().y(), 1.0, 1e-9);
  EXPECT_GT(std::sqrt(loc.covariance()(0, 0)), std::sqrt(0.05 * 0.15) * 0.9) << "uncertain by what the wheels turned";
  // Motion that leaves both is taken.
  loc.predict(pose(1.05, 1.1, 0.0), 2.0);
  EXPECT_NEAR(loc.pose().x(), 0.9, 1e-9);
  EXPECT_NEAR(loc.pose().y(), 1.1, 1e-9);
}

// Pushing the ball dead ahead with an opponent touching ahead on the left:
// taken out of the opponent's direction and then out of the ball's, the
// motion came out sideways to the right, pointing into neither, and the
// estimate slid a third of what the wheels turned while the robot stood
// (MSL vs chaser, seed 67: 0.85 m in 13 s, then a line fit walked to the
// mirror pose 5 m off). Nothing the wheels push forwards moves it.
TEST(SelfLocaliser, PushingIntoTwoContactsAheadNoSlideComesOutOfThem) {
  SelfLocaliser loc(msl_field(), 0.01);
  loc.predict(pose(1.0, 1.0, 0.0), 0.0);  // facing +x
  const double left = 0.54;
  loc.set_contacts({Vector2d(std::cos(left), std::sin(left)), Vector2d(1.0, 0.0)});
  loc.predict(pose(1.1, 1.0, 0.0), 1.0);  // the wheels turned 0.1 forward
  EXPECT_NEAR(loc.pose().x(), 1.0, 1e-9);
  EXPECT_NEAR(loc.pose().y(), 1.0, 1e-9) << "no slide to the right";
  // Backing off to the right leaves both, and is taken.
  loc.predict(pose(1.05, 0.95, 0.0), 2.0);
  EXPECT_NEAR(loc.pose().x(), 0.95, 1e-9);
  EXPECT_NEAR(loc.pose().y(), 0.95, 1e-9);
  // Motion into one contact only slides along it.
  loc.set_contacts({Vector2d(1.0, 0.0)});
  loc.predict(pose(1.15, 1.05, 0.0), 3.0);
  EXPECT_NEAR(loc.pose().x(), 0.95, 1e-9);
  EXPECT_NEAR(loc.pose().y(), 1.05, 1e-9);
}

TEST(SelfLocaliser, LandmarksCorrectAndAMisreadIsRejected) {
  const auto field = msl_field();
  SelfLocaliser loc(field, 0.01);
  const Vector3d truth(6.0, -1.0, 0.1);
  loc.predict(pose(6.05, -1.04, 0.12), 0.0);
  msg::OnboardFrame goal;
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 0);
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 1);
  for (int k = 0; k < 20; ++k) loc.update(goal);
  EXPECT_LT(position_error(loc, truth), 0.01);
  EXPECT_NEAR(loc.pose().z(), truth.z(), 0.005);
  // One landmark reported 1.5 m from where it is: rejected, the pose stays.
  const Vector3d before = loc.pose();
  msg::OnboardFrame misread;
  add_landmark(misread, field, truth, msg::LANDMARK_CORNER, 0);
  misread.mutable_landmarks(0)->mutable_position()->set_y(misread.landmarks(0).position().y() + 1.5);
  loc.update(misread);
  EXPECT_LT((loc.pose() - before).norm(), 1e-12);
}

// An image cannot tell the goals apart: facing the -x goal, its posts come
// labelled as the +x goal's (post 2 as 1, post 3 as 0) and symmetric. The
// reading nearer the prediction is taken, so they correct at once (a wrong
// reading would be rejected until the filter restarts at a full fix).
TEST(SelfLocaliser, SymmetricLandmarksCountAsTheGoalNearerThePrediction) {
  const auto field = msl_field();
  SelfLocaliser loc(field, 0.01);
  const Vector3d truth(-6.0, 0.5, M_PI);
  loc.predict(pose(-5.92, 0.56, M_PI - 0.02), 0.0);
  msg::OnboardFrame goal;
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 2);
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 3);
  goal.mutable_landmarks(0)->set_index(1);
  goal.mutable_landmarks(1)->set_index(0);
  for (auto& l : *goal.mutable_landmarks()) l.set_symmetric(true);
  loc.update(goal);
  loc.update(goal);
  EXPECT_LT(position_error(loc, truth), 0.02);
}

// The referee carried the robot 2 m: odometry knows nothing of it. A goal in
// view disagrees frame after frame; the filter restarts at the goal's fix.
TEST(SelfLocaliser, PersistentDisagreementWithAFullFixRestartsThere) {
  const auto field = msl_field();
  SelfLocaliserParams params;
  SelfLocaliser loc(field, 0.01, params);
  const Vector3d truth(5.0, 1.0, 0.0);
  loc.predict(pose(5.0, -1.0, 0.0), 0.0);
  msg::OnboardFrame goal;
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 0);
  add_landmark(goal, field, truth, msg::LANDMARK_GOAL_POST, 1);
  for (int k = 1; k < params.reset_after_rejections; ++k) {
    loc.update(goal);
    EXPECT_NEAR(loc.pose().y(), -1.0, 1e-9) << "a frame or two could be a misread";
  }
  loc.update(goal);
  EXPECT_LT(position_error(loc, truth), 1e-6);
}

// One landmark only, disagreeing frame after frame. Without a second one to
// check it against it may be a misread: a few frames, or readings that do
// not agree with each other, leave the estimate where it is. One that keeps
// putting the robot in the same place for lone_landmark_frames is believed
// (MSL: a robot that had pushed an opponent was 1.3 m off, and lines alone
// held it there for seven seconds while a line crossing said otherwise).
TEST(SelfLocaliser, ASingleDisagreeingLandmarkMovesTheEstimateOnlyWhenItKeepsAgreeingWithItself) {
  const auto field = msl_field();
  const SelfLocaliserParams params;
  const Vector3d truth(-1.0, 4.0, 1.2);  // facing the halfway line's crossing with the +y touch line
  auto ahead = [&](double metres, double heading_error) {
    SelfLocaliser loc(field, 0.01, params);
    loc.predict(pose(truth.x() + metres * std::cos(truth.z()), truth.y() + metres * std::sin(truth.z()),
                     truth.z() + heading_error),
                0.0);
    return loc;
  };
  msg::OnboardFrame crossing;
  add_landmark(crossing, field, truth, msg::LANDMARK_LINE_CROSSING, 1);

  SelfLocaliser misread = ahead(1.5, 0.0);
  const Vector3d before = misread.pose();
  msg::OnboardFrame jumpy = crossing;
  for (int k = 0; k < 30; ++k) {
    // Every other reading half a metre aside: no two in a row agree.
    jumpy.mutable_landmarks(0)->mutable_position()->set_y(crossing.landmarks(0).position().y() + (k % 2 ? 0.5 : 0.0));
    misread.update(jumpy);
  }
  EXPECT_LT((misread.pose() - before).norm(), 1e-12) << "readings that disagree with each other are misreads";

  SelfLocaliser steady = ahead(1.5, 0.0);
  for (int k = 1; k < params.lone_landmark_frames; ++k) steady.update(crossing);
  EXPECT_LT((steady.pose() - before).norm(), 1e-12) << "a few frames could be a misread";
  steady.update(crossing);
  EXPECT_LT(position_error(steady, truth), 0.02);
  EXPECT_NEAR(steady.pose().z(), truth.z(), 1e-9) << "the heading is the filter's own";
  // As uncertain as a position found with the filter's heading at that distance.
  EXPECT_GE(std::sqrt(steady.covariance()(0, 0)), params.restart_position_sd);

  // With the heading a quarter turn off, the same readings put the robot
  // metres from its estimate: the heading is what is wrong, and one landmark
  // cannot mend it.
  SelfLocaliser turned = ahead(1.5, M_PI / 2);
  const Vector3d turned_before = turned.pose();
  for (int k = 0; k < 30; ++k) turned.update(crossing);
  EXPECT_LT((turned.pose() - turned_before).norm(), 1e-12);

  // Less than half a metre off: inside the gate, so it corrects at once.
  SelfLocaliser near(field, 0.01);
  near.predict(pose(truth.x() + 0.3, truth.y() - 0.2, truth.z()), 0.0);
  for (int k = 0; k < 30; ++k) near.update(crossing);
  EXPECT_LT(position_error(near, truth), 0.1);
}

// Four metres off (MSL: odometry ran off while the robot's wheels spun against
// an opponent for seconds), more than odometry alone could explain: the lone
// landmark is believed because the line points in view fit where it puts
// the robot. Line points that fit the estimate instead leave it there.
TEST(SelfLocaliser, ALoneLandmarkFarFromTheEstimateIsBelievedWhereTheLinePointsAgree) {
  const auto field = msl_field();
  const SelfLocaliserParams params;
  const Vector3d truth(-1.0, 3.0, 1.2);  // the halfway line's crossing with the +y touch line ahead
  const Vector3d estimate(truth.x() + 0.5, truth.y() - 4.0, truth.z());
  for (bool lines_fit_truth : {true, false}) {
    SCOPED_TRACE(lines_fit_truth ? "line points fit the landmark" : "line points fit the estimate");
    msg::OnboardFrame frame = line_frame(field, lines_fit_truth ? truth : estimate, 0.01, 7);
    ASSERT_GE(frame.line_points_size(), 2 * params.min_line_points);
    add_landmark(frame, field, truth, msg::LANDMARK_LINE_CROSSING, 1);
    SelfLocaliser loc(field, 0.01, params);
    loc.predict(pose(estimate.x(), estimate.y(), estimate.z()), 0.0);
    for (int k = 0; k < params.lone_landmark_frames + 5; ++k) loc.update(frame);
    if (lines_fit_truth)
      EXPECT_LT(position_error(loc, truth), 0.05);
    else
      EXPECT_LT(position_error(loc, estimate), 0.05);
  }
}

TEST(SelfLocaliser, NothingBeforeTheFirstOdometryAndNonFiniteInputIgnored) {
  const auto field = msl_field();
  SelfLocaliser loc(field, 0.01);
  loc.update(line_frame(field, {0.0, 0.0, 0.0}, 0.0, 1));
  EXPECT_FALSE(loc.started());
  loc.predict(pose(1.0, 2.0, 0.5), 0.0);
  loc.predict(pose(std::nan(""), 2.0, 0.5), 0.1);
  EXPECT_TRUE(loc.pose().allFinite());
  msg::OnboardFrame bad;
  for (int k = 0; k < 5; ++k) {
    auto* p = bad.add_line_points();
    p->set_x(std::numeric_limits<double>::infinity());
    p->set_y(1.0);
  }
  loc.update(bad);
  EXPECT_TRUE(loc.pose().allFinite());
  EXPECT_NEAR(loc.pose().x(), 1.0, 1e-12);
}

}  // namespace
}  // namespace robocaf::actors
