#include "deploy/launcher.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace robocaf::deploy {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kPollInterval{20};
constexpr milliseconds kFirstBackoff{200};
constexpr milliseconds kMaxBackoff{5000};
// A process that ran this long before crashing was healthy: restart it quickly.
constexpr std::chrono::seconds kHealthyRun{10};

void append_line(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::string line = "[launcher] " + text + "\n";
  ssize_t ignored = ::write(fd, line.data(), line.size());
  (void)ignored;
  ::close(fd);
}

// Only async-signal-safe calls between fork() and exec: other threads may
// have held locks (malloc's included) at the moment of the fork.
[[noreturn]] void exec_child(pid_t parent, int log_fd, char* const argv[]) {
  ::setpgid(0, 0);
  // Dies with the thread that forked it: no orphans if the launcher is killed.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s = 1; s < NSIG; ++s)
    if (s != SIGKILL && s != SIGSTOP) ::signal(s, SIG_DFL);  // ignored signals survive exec otherwise
  int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::execv(argv[0], argv);
  static const char kMessage[] = "[launcher] execv failed for ";
  ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ignored = ::write(STDERR_FILENO, argv[0], std::strlen(argv[0]));
  ignored = ::write(STDERR_FILENO, "\n", 1);
  (void)ignored;
  ::_exit(127);
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::string describe(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                                  strsignal(WTERMSIG(status)) + ")";
  return "ended with wait status " + std::to_string(status);
}

void signal_group(pid_t pid, int sig) {
  // The group reaches grandchildren (e.g. a shell's children); the pid itself
  // covers the instant before the child's setpgid took effect.
  ::kill(-pid, sig);
  ::kill(pid, sig);
}

}  // namespace

Launcher::Launcher(std::string log_dir) : log_dir_(std::move(log_dir)) {
  std::filesystem::create_directories(log_dir_);
}

Launcher::~Launcher() {
  try {
    stop_all();
  } catch (...) {
  }
  if (supervisor_.joinable()) supervisor_.join();
}

void Launcher::add(Process process) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_) throw std::logic_error("Launcher::add after start()");
  if (process.name.empty()) throw std::invalid_argument("Launcher: a process needs a name");
  if (process.argv.empty()) throw std::invalid_argument("Launcher: process " + process.name + " has an empty argv");
  for (const auto& c : children_)
    if (c.spec.name == process.name) throw std::invalid_argument("Launcher: duplicate process name " + process.name);
  Child c;
  c.spec = std::move(process);
  children_.push_back(std::move(c));
}

void Launcher::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_) throw std::logic_error("Launcher::start called twice");
  for (const auto& c : children_)
    if (::access(c.spec.argv[0].c_str(), X_OK) != 0)
      throw std::runtime_error("launcher: " + c.spec.name + ": " + c.spec.argv[0] +
                               " is not executable: " + std::strerror(errno));
  // Spawn from the caller's thread: errors surface here. Respawns happen on
  // the supervisor thread; PR_SET_PDEATHSIG follows whichever thread forked,
  // and both live as long as the launcher.
  for (auto& c : children_) {
    try {
      spawn(c);
    } catch (...) {
      for (auto& started : children_)
        if (started.pid > 0) {
          signal_group(started.pid, SIGKILL);
          ::waitpid(started.pid, nullptr, 0);
          started.pid = 0;
        }
      throw;
    }
  }
  started_ = true;
  supervisor_ = std::thread([this] { supervise(); });
}

void Launcher::spawn(Child& c) {
  std::string path = log_path(c.spec.name);
  int log_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("launcher: cannot open " + path + ": " + std::strerror(errno));
  std::vector<char*> argv;
  for (auto& a : c.spec.argv) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) exec_child(parent, log_fd, argv.data());
  int fork_errno = errno;
  ::close(log_fd);
  if (pid < 0) throw std::runtime_error("launcher: cannot fork " + c.spec.name + ": " + std::strerror(fork_errno));
  ::setpgid(pid, pid);  // also from the parent, so a signal to the group cannot race the child's own call
  c.pid = pid;
  c.started = Clock::now();
  c.respawn_at.reset();
}

void Launcher::reap(Child& c, int status, Clock::time_point now) {
  pid_t old = c.pid;
  c.pid = 0;
  ::kill(-old, SIGKILL);  // whatever the child left running in its group
  int code = exit_code_of(status);
  bool crashed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::string what = c.spec.name + " (pid " + std::to_string(old) + ") " + describe(status);
  if (c.spec.respawn && crashed && !stopping_) {
    if (now - c.started >= kHealthyRun || c.backoff.count() == 0)
      c.backoff = kFirstBackoff;
    else
      c.backoff = std::min(c.backoff * 2, kMaxBackoff);
    c.respawn_at = now + c.backoff;
    c.exit_code = code;
    append_line(log_path(c.spec.name), what + "; respawning in " + std::to_string(c.backoff.count()) + " ms");
  } else {
    c.finished = true;
    c.exit_code = code;
    append_line(log_path(c.spec.name), what);
  }
}

void Launcher::supervise() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!thread_stop_) {
    auto now = Clock::now();
    for (auto& c : children_) {
      if (c.pid <= 0) continue;
      int status = 0;
      pid_t r = ::waitpid(c.pid, &status, WNOHANG);
      if (r == c.pid) {
        reap(c, status, now);
      } else if (r < 0 && errno == ECHILD) {
        // SIGCHLD set to SIG_IGN makes the kernel reap for us: the status is
        // lost, so count it as a crash (respawn) with an unknown code.
        reap(c, W_EXITCODE(255, 0), now);
      }
    }
    for (auto& c : children_) {
      if (!c.respawn_at || stopping_ || now < *c.respawn_at) continue;
      try {
        spawn(c);
        ++c.restarts;
      } catch (const std::exception& e) {
        append_line(log_path(c.spec.name), e.what());
        c.backoff = std::min(std::max(c.backoff * 2, kFirstBackoff), kMaxBackoff);
        c.respawn_at = now + c.backoff;
      }
    }
    changed_.notify_all();
    changed_.wait_for(lock, kPollInterval);
  }
}

std::optional<int> Launcher::wait_for(const std::string& name, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  const Child& c = child(name);
  if (!changed_.wait_for(lock, timeout, [&] { return c.finished; })) return std::nullopt;
  return c.exit_code;
}

void Launcher::stop_all(std::chrono::milliseconds grace) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!started_ || thread_stop_) return;
  if (stopping_) {  // another thread is stopping: wait for it to finish
    changed_.wait(lock, [this] { return thread_stop_; });
    return;
  }
  stopping_ = true;
  for (auto& c : children_) {
    if (c.respawn_at) {  // crashed and waiting for its restart: it stays down
      c.respawn_at.reset();
      c.finished = true;
    }
    if (c.pid > 0) signal_group(c.pid, SIGTERM);
  }
  auto all_reaped = [this] {
    return std::all_of(children_.begin(), children_.end(), [](const Child& c) { return c.pid <= 0; });
  };
  if (!changed_.wait_for(lock, grace, all_reaped)) {
    for (auto& c : children_)
      if (c.pid > 0) signal_group(c.pid, SIGKILL);
    // SIGKILL cannot be caught; only a process stuck in the kernel survives it.
    changed_.wait_for(lock, std::chrono::seconds(10), all_reaped);
  }
  thread_stop_ = true;
  lock.unlock();
  changed_.notify_all();
  if (supervisor_.joinable()) supervisor_.join();
}

const Launcher::Child& Launcher::child(const std::string& name) const {
  for (const auto& c : children_)
    if (c.spec.name == name) return c;
  throw std::invalid_argument("Launcher: no process named " + name);
}

pid_t Launcher::pid_of(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return child(name).pid;
}

int Launcher::restarts(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return child(name).restarts;
}

bool Launcher::alive(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const Child& c = child(name);
  return c.pid > 0 || c.respawn_at.has_value();
}

std::string Launcher::log_path(const std::string& name) const { return log_dir_ + "/" + name + ".log"; }

}  // namespace robocaf::deploy
