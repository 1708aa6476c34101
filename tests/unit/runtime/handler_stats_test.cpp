#include "runtime/handler_stats.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <cmath>

namespace robocaf::runtime {
namespace {

using namespace std::chrono_literals;

TEST(HandlerStatsTest, PerTypeMinAvgMax) {
  HandlerStats stats;
  stats.record("robocaf.msg.WorldTruth", 1us);
  stats.record("robocaf.msg.WorldTruth", 3us);
  stats.record("robocaf.msg.WorldTruth", 2us);
  stats.record("robocaf.msg.GameState", 10us);
  EXPECT_EQ(stats.total_calls(), 4u);

  auto snap = stats.snapshot("blue/3/motor");
  ASSERT_EQ(snap.size(), 2u);
  EXPECT_EQ(snap[0].message_type(), "robocaf.msg.GameState");  // sorted by type
  EXPECT_EQ(snap[0].calls(), 1u);
  EXPECT_DOUBLE_EQ(snap[0].min_us(), 10);
  EXPECT_DOUBLE_EQ(snap[0].max_us(), 10);
  const auto& truth = snap[1];
  EXPECT_EQ(truth.actor(), "blue/3/motor");
  EXPECT_EQ(truth.message_type(), "robocaf.msg.WorldTruth");
  EXPECT_EQ(truth.calls(), 3u);
  EXPECT_DOUBLE_EQ(truth.min_us(), 1);
  EXPECT_DOUBLE_EQ(truth.avg_us(), 2);
  EXPECT_DOUBLE_EQ(truth.max_us(), 3);
  EXPECT_NEAR(truth.sd_us(), std::sqrt(2.0 / 3.0), 1e-9);
  EXPECT_DOUBLE_EQ(snap[0].sd_us(), 0);

  stats.reset();
  EXPECT_EQ(stats.total_calls(), 0u);
  EXPECT_TRUE(stats.snapshot("x").empty());
}

TEST(HandlerStatsTest, ScopeTimesItsLifetime) {
  HandlerStats stats;
  {
    HandlerStats::Scope scope(stats, "tick");
    std::this_thread::sleep_for(2ms);
  }
  auto snap = stats.snapshot("a");
  ASSERT_EQ(snap.size(), 1u);
  EXPECT_EQ(snap[0].calls(), 1u);
  EXPECT_GE(snap[0].min_us(), 2000);
}

TEST(HandlerStatsTest, ConcurrentRecordAndSnapshot) {
  HandlerStats stats;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done) (void)stats.snapshot("a");
  });
  for (int i = 0; i < 20000; ++i) stats.record(i % 2 ? "x" : "y", std::chrono::nanoseconds(i));
  done = true;
  reader.join();
  EXPECT_EQ(stats.total_calls(), 20000u);
}

// Collects alerts from the watchdog thread.
struct Alerts {
  std::vector<msg::WatchdogAlert> list;
  std::mutex mutex;
  Watchdog::Callback callback() {
    return [this](const msg::WatchdogAlert& a) {
      std::lock_guard<std::mutex> lock(mutex);
      list.push_back(a);
    };
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mutex);
    return list.size();
  }
  bool wait_for_count(size_t n, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (size() < n) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(5ms);
    }
    return true;
  }
};

TEST(WatchdogTest, SlowHandlerReportedOnceWhileRunningFastNever) {
  Alerts alerts;
  Watchdog watchdog(alerts.callback());
  EXPECT_EQ(watchdog.threshold(), 500ms);
  for (int i = 0; i < 1000; ++i) Watchdog::Scope fast(watchdog, "blue/1/motor", "fast");
  {
    Watchdog::Scope slow(watchdog, "yellow/2/player_skills", "slow");
    std::this_thread::sleep_for(700ms);
    // Reported while the handler still runs: a hang must be visible.
    EXPECT_TRUE(alerts.wait_for_count(1, 5s));
    std::this_thread::sleep_for(300ms);  // several more checks: still one alert
  }
  for (int i = 0; i < 1000; ++i) Watchdog::Scope fast(watchdog, "blue/1/motor", "fast");
  std::this_thread::sleep_for(200ms);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts.list[0].actor(), "yellow/2/player_skills");
  EXPECT_EQ(alerts.list[0].message_type(), "slow");
  EXPECT_GE(alerts.list[0].duration_ms(), 500);
  EXPECT_EQ(watchdog.alerts(), 1u);
}

TEST(WatchdogTest, OverrunEndingBetweenChecksIsStillReportedOnce) {
  Alerts alerts;
  {
    // Checks are far apart, so only leave() can notice the overrun.
    Watchdog watchdog(alerts.callback(), 100ms, 60s);
    {
      Watchdog::Scope slow(watchdog, "coach", "GameState");
      std::this_thread::sleep_for(150ms);
    }
    Watchdog::Scope fast(watchdog, "coach", "Ready");
  }  // the destructor delivers what is pending
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts.list[0].message_type(), "GameState");
  EXPECT_GE(alerts.list[0].duration_ms(), 100);
}

TEST(WatchdogTest, ManyActorsConcurrently) {
  Alerts alerts;
  Watchdog watchdog(alerts.callback(), 500ms, 10ms);
  std::vector<std::thread> actors;
  for (int a = 0; a < 4; ++a) {
    actors.emplace_back([&watchdog, a] {
      std::string name = "blue/" + std::to_string(a) + "/world_knowledge";
      for (int i = 0; i < 20000; ++i) Watchdog::Scope scope(watchdog, name, "robocaf.msg.DetectionFrame");
    });
  }
  auto hung = watchdog.enter("yellow/5/motor", "robocaf.msg.RobotCommand");
  for (auto& t : actors) t.join();
  EXPECT_TRUE(alerts.wait_for_count(1, 5s));
  watchdog.leave(hung);
  watchdog.leave(hung);  // a stale token is ignored
  std::this_thread::sleep_for(50ms);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts.list[0].actor(), "yellow/5/motor");
}

}  // namespace
}  // namespace robocaf::runtime
