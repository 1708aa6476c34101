#include "actors/mission_manager/heartbeat_monitor.hpp"

#include <gtest/gtest.h>

namespace robocaf::actors {
namespace {

using Children = std::vector<int>;

TEST(HeartbeatMonitor, SilentChildBecomesOverdueAfterTimeout) {
  HeartbeatMonitor hb(1.5);
  hb.watch(0, 0.0);
  hb.watch(1, 0.0);
  for (int round = 1; round <= 8; ++round) {
    const double now = round * 0.25;
    const uint64_t seq = hb.next_sequence();
    hb.ack(0, seq, now);  // child 0 answers every round, child 1 never does
  }
  EXPECT_EQ(hb.overdue(1.5), Children{});
  EXPECT_EQ(hb.overdue(1.51), Children{1});
  EXPECT_EQ(hb.overdue(2.0), Children{1});
  EXPECT_EQ(hb.overdue(3.6), (Children{0, 1}));  // child 0 last answered at 2.0
}

TEST(HeartbeatMonitor, AcksKeepAliveAndResetRestartsTheClock) {
  HeartbeatMonitor hb(1.0);
  hb.watch(2, 0.0);
  hb.ack(2, hb.next_sequence(), 0.9);
  EXPECT_EQ(hb.overdue(1.8), Children{});
  EXPECT_EQ(hb.overdue(2.0), Children{2});
  hb.reset(2, 2.0);
  EXPECT_EQ(hb.overdue(2.5), Children{});
  EXPECT_DOUBLE_EQ(*hb.last_alive(2), 2.0);
}

TEST(HeartbeatMonitor, AcksFromBeforeAResetDoNotCount) {
  HeartbeatMonitor hb(1.0);
  hb.watch(0, 0.0);
  const uint64_t old_seq = hb.next_sequence();
  hb.reset(0, 0.5);  // restarted: the old instance's answer is not the new one's
  hb.ack(0, old_seq, 1.4);
  EXPECT_EQ(hb.overdue(1.6), Children{0});
  const uint64_t new_seq = hb.next_sequence();
  hb.ack(0, new_seq, 1.55);
  EXPECT_EQ(hb.overdue(1.6), Children{});
}

TEST(HeartbeatMonitor, IgnoresUnknownChildrenAndUnsentSequences) {
  HeartbeatMonitor hb(1.0);
  hb.ack(5, 1, 0.0);
  EXPECT_FALSE(hb.watching(5));
  EXPECT_EQ(hb.overdue(10.0), Children{});
  hb.reset(5, 0.0);  // reset also starts watching
  EXPECT_TRUE(hb.watching(5));
  hb.ack(5, 99, 0.9);  // never sent
  EXPECT_EQ(hb.overdue(1.5), Children{5});
  hb.unwatch(5);
  EXPECT_EQ(hb.overdue(1.5), Children{});
  EXPECT_FALSE(hb.last_alive(5).has_value());
}

TEST(HeartbeatMonitor, SequencesIncrease) {
  HeartbeatMonitor hb(1.0);
  EXPECT_EQ(hb.next_sequence(), 1u);
  EXPECT_EQ(hb.next_sequence(), 2u);
}

TEST(RestartPolicy, BackoffGrowsAndBudgetRunsOut) {
  RestartPolicy policy(3, 10.0, 0.1, 0.3);
  EXPECT_DOUBLE_EQ(*policy.on_failure(1, 0.0), 0.1);
  EXPECT_DOUBLE_EQ(*policy.on_failure(1, 1.0), 0.2);
  EXPECT_DOUBLE_EQ(*policy.on_failure(1, 2.0), 0.3);  // 0.4 capped
  EXPECT_FALSE(policy.on_failure(1, 3.0).has_value());
  EXPECT_EQ(policy.recent_restarts(1, 3.0), 3u);
  EXPECT_DOUBLE_EQ(*policy.on_failure(2, 3.0), 0.1);  // per child
  // Once the first restarts leave the window, the budget and backoff recover.
  EXPECT_DOUBLE_EQ(*policy.on_failure(1, 10.5), 0.3);
  EXPECT_EQ(policy.recent_restarts(1, 10.5), 3u);
  EXPECT_EQ(policy.total_restarts(1), 4u);
  EXPECT_EQ(policy.recent_restarts(1, 30.0), 0u);
  EXPECT_DOUBLE_EQ(*policy.on_failure(1, 30.0), 0.1);
}

}  // namespace
}  // namespace robocaf::actors
