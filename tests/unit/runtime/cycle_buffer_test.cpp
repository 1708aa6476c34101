#include "runtime/cycle_buffer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace robocaf::runtime {
namespace {

TEST(CycleBuffer, ReleasesOnlyMessagesOfEarlierCycles) {
  CycleBuffer<int, std::string> buffer;
  buffer.put(1, 4, "four");
  buffer.put(1, 5, "five");
  EXPECT_EQ(buffer.latest_before(1, 5).value(), "four");
  EXPECT_EQ(buffer.latest_before(1, 6).value(), "five");
  EXPECT_FALSE(buffer.latest_before(1, 4).has_value());
  EXPECT_FALSE(buffer.latest_before(2, 9).has_value());
}

TEST(CycleBuffer, ArrivalOrderDoesNotChangeWhatIsReleased) {
  CycleBuffer<int, std::string> early, late;
  early.put(7, 10, "a");
  early.put(7, 11, "b");
  late.put(7, 11, "b");
  late.put(7, 10, "a");
  EXPECT_EQ(early.latest_before(7, 11), late.latest_before(7, 11));
  EXPECT_EQ(early.latest_before(7, 12), late.latest_before(7, 12));
}

TEST(CycleBuffer, VisitsSendersInKeyOrderWithTheirNewestSettledMessage) {
  CycleBuffer<int, int> buffer;
  buffer.put(3, 1, 31);
  buffer.put(1, 1, 11);
  buffer.put(1, 2, 12);
  buffer.put(2, 5, 25);  // not settled before cycle 3
  std::vector<std::pair<int, int>> seen;
  buffer.for_each_before(3, [&](int sender, uint64_t, int value) { seen.emplace_back(sender, value); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{1, 12}, {3, 31}}));
}

TEST(CycleBuffer, KeepsMemoryBoundedOverALongMatch) {
  CycleBuffer<int, int> buffer;
  for (int cycle = 0; cycle < 30000; ++cycle) buffer.put(1, static_cast<uint64_t>(cycle), cycle);
  EXPECT_EQ(buffer.latest_before(1, 29999).value(), 29998);
  EXPECT_FALSE(buffer.latest_before(1, 100).has_value());
}

}  // namespace
}  // namespace robocaf::runtime
