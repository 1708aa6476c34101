#include "deploy/launcher.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace robocaf::deploy {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 5s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// Gone, or a zombie nobody will run again (its reaper is not us).
bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  auto paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

pid_t read_pid(const std::string& path) {
  pid_t pid = 0;
  std::ifstream(path) >> pid;
  return pid;
}

class LauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("robocaf_launcher_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string logs() const { return (dir_ / "logs").string(); }
  fs::path dir_;
};

TEST_F(LauncherTest, WaitForReturnsTheExitCode) {
  Launcher launcher(logs());
  launcher.add({"world", {"/bin/sh", "-c", "sleep 0.2; exit 3"}, false});
  launcher.add({"victim", {"/bin/sh", "-c", "exec sleep 30"}, false});
  launcher.start();
  EXPECT_GT(launcher.pid_of("world"), 0);
  EXPECT_EQ(launcher.wait_for("world", 10s), 3);
  EXPECT_EQ(launcher.pid_of("world"), 0);

  EXPECT_EQ(launcher.wait_for("victim", 50ms), std::nullopt);  // still running
  ASSERT_EQ(::kill(launcher.pid_of("victim"), SIGKILL), 0);
  EXPECT_EQ(launcher.wait_for("victim", 10s), 128 + SIGKILL);
}

TEST_F(LauncherTest, OutputGoesToPerProcessLog) {
  Launcher launcher(logs());
  launcher.add({"talker", {"/bin/sh", "-c", "echo to-stdout; echo to-stderr 1>&2"}, false});
  launcher.start();
  ASSERT_EQ(launcher.wait_for("talker", 10s), 0);
  auto text = read_text(logs() + "/talker.log");
  EXPECT_EQ(launcher.log_path("talker"), logs() + "/talker.log");
  EXPECT_NE(text.find("to-stdout"), std::string::npos) << text;
  EXPECT_NE(text.find("to-stderr"), std::string::npos) << text;
}

TEST_F(LauncherTest, RespawnChildKilledBySignalIsRestarted) {
  Launcher launcher(logs());
  launcher.add({"node", {"/bin/sh", "-c", "echo started; exec sleep 30"}, true});
  launcher.start();
  pid_t first = launcher.pid_of("node");
  ASSERT_GT(first, 0);
  // Kill it only once it runs, so the log shows both starts.
  ASSERT_TRUE(eventually([&] { return read_text(logs() + "/node.log").find("started") != std::string::npos; }));
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ASSERT_TRUE(eventually([&] {
    pid_t p = launcher.pid_of("node");
    return p != 0 && p != first;
  }));
  EXPECT_EQ(launcher.restarts("node"), 1);
  EXPECT_TRUE(launcher.alive("node"));
  EXPECT_EQ(::kill(launcher.pid_of("node"), 0), 0);  // a real, running process
  ASSERT_TRUE(eventually([&] {
    auto text = read_text(logs() + "/node.log");
    return text.find("started") != text.rfind("started");  // two starts in one log
  }));
  EXPECT_NE(read_text(logs() + "/node.log").find("killed by signal 9"), std::string::npos);
}

TEST_F(LauncherTest, RespawnChildExitingNonZeroIsRestartedWithBackoff) {
  Launcher launcher(logs());
  launcher.add({"crasher", {"/bin/sh", "-c", "exit 1"}, true});
  launcher.start();
  ASSERT_TRUE(eventually([&] { return launcher.restarts("crasher") >= 2; }));
  // Backoff doubles from 200 ms: not a tight loop.
  std::this_thread::sleep_for(300ms);
  EXPECT_LE(launcher.restarts("crasher"), 4);
  launcher.stop_all();
  EXPECT_FALSE(launcher.alive("crasher"));
  EXPECT_EQ(launcher.wait_for("crasher", 1s), 1);
}

TEST_F(LauncherTest, RespawnChildExitingZeroIsNotRestarted) {
  Launcher launcher(logs());
  launcher.add({"oneshot", {"/bin/sh", "-c", "echo once"}, true});
  launcher.start();
  EXPECT_EQ(launcher.wait_for("oneshot", 10s), 0);
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(launcher.restarts("oneshot"), 0);
  EXPECT_FALSE(launcher.alive("oneshot"));
  EXPECT_EQ(launcher.pid_of("oneshot"), 0);
  auto text = read_text(logs() + "/oneshot.log");
  EXPECT_EQ(text.find("once"), text.rfind("once"));
}

TEST_F(LauncherTest, StopAllEscalatesToSigkillAndKillsGrandchildren) {
  auto grandchild_file = path("grandchild.pid");
  Launcher launcher(logs());
  // The shell ignores SIGTERM; its background sleep is a grandchild.
  launcher.add({"ignores-sigterm",
                {"/bin/sh", "-c", "trap '' TERM; sleep 30 & echo $! > " + grandchild_file + "; while :; do wait; done"},
                true});
  launcher.start();
  ASSERT_TRUE(eventually([&] { return read_pid(grandchild_file) > 0; }));
  pid_t child = launcher.pid_of("ignores-sigterm");
  pid_t grandchild = read_pid(grandchild_file);
  auto t0 = std::chrono::steady_clock::now();
  launcher.stop_all(300ms);
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, 300ms);  // SIGTERM was ignored, so the grace period ran out
  EXPECT_LT(took, 5s);
  EXPECT_EQ(launcher.pid_of("ignores-sigterm"), 0);
  EXPECT_EQ(launcher.restarts("ignores-sigterm"), 0);  // no respawn while stopping
  EXPECT_TRUE(process_gone(child));
  EXPECT_TRUE(eventually([&] { return process_gone(grandchild); }));
  EXPECT_EQ(launcher.wait_for("ignores-sigterm", 1s), 128 + SIGKILL);
}

TEST_F(LauncherTest, StopAllTerminatesPoliteChildrenQuickly) {
  Launcher launcher(logs());
  launcher.add({"a", {"/bin/sh", "-c", "exec sleep 30"}, true});
  launcher.add({"b", {"/bin/sh", "-c", "exec sleep 30"}, false});
  launcher.start();
  pid_t a = launcher.pid_of("a");
  auto t0 = std::chrono::steady_clock::now();
  launcher.stop_all(5s);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_EQ(launcher.wait_for("a", 1s), 128 + SIGTERM);
  EXPECT_EQ(launcher.wait_for("b", 1s), 128 + SIGTERM);
  EXPECT_TRUE(process_gone(a));
}

TEST_F(LauncherTest, ChildrenDieWithAKilledLauncher) {
  auto pid_file = path("orphan.pid");
  pid_t supervisor = ::fork();
  ASSERT_GE(supervisor, 0);
  if (supervisor == 0) {
    try {
      Launcher launcher(logs());
      launcher.add({"node", {"/bin/sh", "-c", "echo $$ > " + pid_file + "; exec sleep 30"}, true});
      launcher.start();
      for (int i = 0; i < 500 && read_pid(pid_file) == 0; ++i) std::this_thread::sleep_for(10ms);
      ::kill(::getpid(), SIGKILL);  // no destructor, no stop_all
    } catch (...) {
    }
    ::_exit(2);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(supervisor, &status, 0), supervisor);
  ASSERT_TRUE(WIFSIGNALED(status));
  pid_t node = read_pid(pid_file);
  ASSERT_GT(node, 0);
  EXPECT_TRUE(eventually([&] { return process_gone(node); }));
}

TEST_F(LauncherTest, NoticesExitsWhenSigchldIsIgnored) {
  auto previous = ::signal(SIGCHLD, SIG_IGN);  // the kernel reaps: exit codes are lost
  {
    Launcher launcher(logs());
    launcher.add({"quick", {"/bin/sh", "-c", "sleep 0.1"}, false});
    launcher.start();
    EXPECT_EQ(launcher.wait_for("quick", 10s), 255);
    EXPECT_FALSE(launcher.alive("quick"));
  }
  ::signal(SIGCHLD, previous);
}

TEST_F(LauncherTest, BadInputIsRejected) {
  Launcher launcher(logs());
  EXPECT_THROW(launcher.add({"", {"/bin/true"}, false}), std::invalid_argument);
  EXPECT_THROW(launcher.add({"x", {}, false}), std::invalid_argument);
  launcher.add({"x", {"/bin/true"}, false});
  EXPECT_THROW(launcher.add({"x", {"/bin/true"}, false}), std::invalid_argument);
  EXPECT_THROW(launcher.pid_of("nope"), std::invalid_argument);

  Launcher missing(logs());
  missing.add({"ghost", {"/no/such/program"}, true});
  try {
    missing.start();
    FAIL() << "start() accepted a missing program";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/program"), std::string::npos) << e.what();
  }
  EXPECT_EQ(missing.pid_of("ghost"), 0);
}

}  // namespace
}  // namespace robocaf::deploy
