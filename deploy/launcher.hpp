#pragma once
// A plain process supervisor, like a ROS launch file with respawn: starts the
// node processes of one machine, restarts the ones marked respawn when they
// crash, and leaves no orphans behind.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace robocaf::deploy {

class Launcher {
 public:
  struct Process {
    std::string name;               // unique; also names the log file
    std::vector<std::string> argv;  // argv[0] is the program's path (execv: no PATH lookup)
    bool respawn = false;           // restart after a crash (non-zero exit or signal)
  };

  /// Each child's stdout and stderr go to `<log_dir>/<name>.log` (appended,
  /// so a respawned process continues its log). Creates `log_dir` if needed.
  explicit Launcher(std::string log_dir);
  Launcher(const Launcher&) = delete;
  Launcher& operator=(const Launcher&) = delete;
  /// stop_all().
  ~Launcher();

  /// Registers a process; before start() only. Throws std::invalid_argument
  /// on an empty or duplicate name, or an empty argv.
  void add(Process process);

  /// Starts every process and the supervisor thread. Throws
  /// std::runtime_error (and starts nothing) when a program is not executable.
  /// Call it from a thread that outlives the launcher (e.g. main): children
  /// get SIGKILL when the thread that forked them ends (PR_SET_PDEATHSIG).
  void start();

  /// Waits until `name` has exited for good (not about to be respawned) and
  /// returns its exit code: the exit status, or 128 + signal number when a
  /// signal killed it (shell convention). nullopt on timeout.
  std::optional<int> wait_for(const std::string& name, std::chrono::milliseconds timeout);

  /// Stops respawning, sends SIGTERM to every child's process group, waits up
  /// to `grace`, then SIGKILLs what is left and reaps everything.
  void stop_all(std::chrono::milliseconds grace = std::chrono::seconds(3));

  /// The running child's pid, or 0 when it is not running.
  pid_t pid_of(const std::string& name) const;
  /// How many times `name` was restarted after a crash.
  int restarts(const std::string& name) const;
  /// True while the process runs or waits to be respawned.
  bool alive(const std::string& name) const;
  std::string log_path(const std::string& name) const;

 private:
  struct Child {
    Process spec;
    pid_t pid = 0;
    int restarts = 0;
    bool finished = false;  // exited for good
    int exit_code = 0;
    std::chrono::steady_clock::time_point started;
    std::optional<std::chrono::steady_clock::time_point> respawn_at;
    std::chrono::milliseconds backoff{0};
  };

  void spawn(Child& child);  // with mutex_ held
  void supervise();
  void reap(Child& child, int status, std::chrono::steady_clock::time_point now);
  const Child& child(const std::string& name) const;

  std::string log_dir_;
  std::vector<Child> children_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool started_ = false;
  bool stopping_ = false;
  bool thread_stop_ = false;
  std::thread supervisor_;
};

}  // namespace robocaf::deploy
