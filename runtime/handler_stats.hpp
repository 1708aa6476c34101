#pragma once
// Built-in runtime diagnostics from MI20: per-handler timing statistics for
// every actor, and a watchdog that flags a handler running too long (a hung
// listener stalls its whole actor, and with it everything waiting on it).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "messages/telemetry.pb.h"

namespace robocaf::runtime {

/// Timing of one actor's message handlers, per message type. Thread-safe, so
/// a telemetry thread may snapshot while the actor records.
class HandlerStats {
 public:
  /// Adds one handler run of `message_type` that took `duration`.
  void record(const std::string& message_type, std::chrono::nanoseconds duration);

  /// One entry per message type seen, sorted by type, labelled `actor`.
  std::vector<msg::HandlerStats> snapshot(const std::string& actor) const;

  /// Handler runs recorded, over all message types.
  uint64_t total_calls() const;

  void reset();

  /// Times its own lifetime into `stats` (one handler run).
  class Scope {
   public:
    Scope(HandlerStats& stats, std::string message_type)
        : stats_(stats), type_(std::move(message_type)), start_(std::chrono::steady_clock::now()) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { stats_.record(type_, std::chrono::steady_clock::now() - start_); }

   private:
    HandlerStats& stats_;
    std::string type_;
    std::chrono::steady_clock::time_point start_;
  };

 private:
  struct Entry {
    uint64_t calls = 0;
    int64_t min_ns = 0;
    int64_t max_ns = 0;
    int64_t total_ns = 0;
    double sum_squares_us2 = 0;  // for the standard deviation (MI20's timing statistics)
  };
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
  uint64_t total_calls_ = 0;
};

/// One background thread per process that watches every running handler and
/// reports each one that runs longer than the threshold exactly once: while
/// it is still running (so hangs are seen) or, if it ends between two checks,
/// when it ends. Callbacks run on the watchdog thread, never in an actor.
class Watchdog {
 public:
  using Callback = std::function<void(const msg::WatchdogAlert&)>;
  /// Identifies one enter(); pass it to leave().
  struct Token {
    uint32_t slot = 0;
    uint32_t generation = 0;
  };

  /// `on_alert` empty: print to stderr. `check_interval` bounds how late a
  /// hung handler is reported after crossing `threshold`.
  explicit Watchdog(Callback on_alert = {},
                    std::chrono::milliseconds threshold = std::chrono::milliseconds(500),
                    std::chrono::milliseconds check_interval = std::chrono::milliseconds(50));
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  /// Stops and joins the thread; alerts not yet delivered are delivered first.
  ~Watchdog();

  /// A handler of `actor` for `message_type` starts. Cheap: one uncontended
  /// lock and no allocation once slots are warm.
  Token enter(const std::string& actor, const std::string& message_type);
  /// The handler of `token` ended.
  void leave(Token token);

  std::chrono::milliseconds threshold() const { return threshold_; }
  /// Alerts delivered so far.
  uint64_t alerts() const;

  /// enter() on construction, leave() on destruction.
  class Scope {
   public:
    Scope(Watchdog& watchdog, const std::string& actor, const std::string& message_type)
        : watchdog_(watchdog), token_(watchdog.enter(actor, message_type)) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { watchdog_.leave(token_); }

   private:
    Watchdog& watchdog_;
    Token token_;
  };

 private:
  struct Slot {
    std::string actor;
    std::string message_type;
    std::chrono::steady_clock::time_point start;
    uint32_t generation = 0;
    bool active = false;
    bool reported = false;
  };

  void run();
  void deliver(std::vector<msg::WatchdogAlert>& alerts);

  Callback on_alert_;
  std::chrono::milliseconds threshold_;
  std::chrono::milliseconds check_interval_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  std::vector<msg::WatchdogAlert> pending_;  // overruns seen by leave(), not yet delivered
  uint64_t alerts_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace robocaf::runtime
