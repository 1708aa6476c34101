// The world answers whoever awaits the end of the match, also after it.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "deploy/local_match.hpp"
#include "runtime/config_loader.hpp"

namespace robocaf::deploy {
namespace {

TEST(WorldAwait, AskingAfterTheEndIsAnsweredAtOnce) {
  std::future<std::string> late;  // outlives the match: stopping the match ends an unanswered wait
  LocalMatchOptions options;
  options.match = runtime::default_match_config();
  options.match.set_half_duration(1);
  options.log_path = ::testing::TempDir() + "robocaf_world_await.rclog";
  LocalMatch match{options};
  ASSERT_EQ(match.wait(), "");
  // A caller that comes late (a test that broke actors first, a slow tool)
  // used to wait forever: the answer had gone out to the callers before it.
  late = std::async(std::launch::async, [&] { return match.wait(); });
  ASSERT_EQ(late.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "no answer after the end";
  EXPECT_EQ(late.get(), "");
}

}  // namespace
}  // namespace robocaf::deploy
