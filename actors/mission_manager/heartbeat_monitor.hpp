#pragma once
// Mission-manager core: liveness bookkeeping for its children and the restart
// budget. No CAF here; children are small ints the actor maps to its actors.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace robocaf::actors {

/// A child is overdue when no valid ack arrived for more than timeout_s since
/// it was watched, reset or last acked. Heartbeat sequence numbers are shared
/// by all children (one per polling round). An ack only counts for a heartbeat
/// sent after the child's last watch/reset: a restarted child's predecessor may
/// still answer old heartbeats, and must not vouch for the new one.
class HeartbeatMonitor {
 public:
  explicit HeartbeatMonitor(double timeout_s);

  /// Starts (or restarts) watching `child` as alive at `now`.
  void watch(int child, double now);
  /// Stops watching `child`.
  void unwatch(int child);
  /// The sequence number for the next heartbeat round (1, 2, ...).
  uint64_t next_sequence();
  /// Records an ack; unknown children, unsent or pre-reset sequences are ignored.
  void ack(int child, uint64_t seq, double now);
  /// Children overdue at `now`, ascending.
  std::vector<int> overdue(double now) const;
  /// After a restart: alive as of `now`, older acks no longer count. Watches
  /// `child` if it was not yet watched.
  void reset(int child, double now);

  bool watching(int child) const { return children_.count(child) > 0; }
  /// Time of the last sign of life (watch, reset or ack); empty if not watched.
  std::optional<double> last_alive(int child) const;

 private:
  struct Child {
    double last_alive = 0.0;
    uint64_t min_sequence = 1;  // acks below this answer heartbeats sent before the reset
  };
  double timeout_;
  uint64_t last_sequence_ = 0;
  std::map<int, Child> children_;
};

/// Restart budget per child: at most max_restarts within window_s, with an
/// exponential backoff (base, 2 base, 4 base, ... capped at max_backoff_s)
/// growing with the restarts inside the window.
class RestartPolicy {
 public:
  RestartPolicy(uint32_t max_restarts, double window_s, double base_backoff_s, double max_backoff_s);

  /// Records a restart of `child` at `now` and returns the delay to wait before
  /// starting it, or empty if the budget is exhausted (escalate instead; nothing is recorded).
  std::optional<double> on_failure(int child, double now);
  /// Restarts of `child` inside the window ending at `now`.
  uint32_t recent_restarts(int child, double now) const;
  /// All restarts of `child` ever granted.
  uint32_t total_restarts(int child) const;

 private:
  uint32_t max_restarts_;
  double window_;
  double base_backoff_;
  double max_backoff_;
  std::map<int, std::deque<double>> history_;
  std::map<int, uint32_t> totals_;
};

}  // namespace robocaf::actors
