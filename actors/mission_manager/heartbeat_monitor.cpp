#include "actors/mission_manager/heartbeat_monitor.hpp"

#include <algorithm>
#include <cmath>

namespace robocaf::actors {

HeartbeatMonitor::HeartbeatMonitor(double timeout_s) : timeout_(timeout_s) {}

void HeartbeatMonitor::watch(int child, double now) { reset(child, now); }

void HeartbeatMonitor::unwatch(int child) { children_.erase(child); }

uint64_t HeartbeatMonitor::next_sequence() { return ++last_sequence_; }

void HeartbeatMonitor::ack(int child, uint64_t seq, double now) {
  auto it = children_.find(child);
  if (it == children_.end() || seq < it->second.min_sequence || seq > last_sequence_) return;
  it->second.last_alive = std::max(it->second.last_alive, now);
}

std::vector<int> HeartbeatMonitor::overdue(double now) const {
  std::vector<int> late;
  for (const auto& [child, state] : children_)
    if (now - state.last_alive > timeout_) late.push_back(child);
  return late;  // std::map iterates in ascending order
}

void HeartbeatMonitor::reset(int child, double now) {
  Child& c = children_[child];
  c.last_alive = now;
  c.min_sequence = last_sequence_ + 1;
}

std::optional<double> HeartbeatMonitor::last_alive(int child) const {
  auto it = children_.find(child);
  if (it == children_.end()) return std::nullopt;
  return it->second.last_alive;
}

RestartPolicy::RestartPolicy(uint32_t max_restarts, double window_s, double base_backoff_s, double max_backoff_s)
    : max_restarts_(max_restarts), window_(window_s), base_backoff_(base_backoff_s), max_backoff_(max_backoff_s) {}

uint32_t RestartPolicy::recent_restarts(int child, double now) const {
  auto it = history_.find(child);
  if (it == history_.end()) return 0;
  return static_cast<uint32_t>(
      std::count_if(it->second.begin(), it->second.end(), [&](double t) { return now - t < window_; }));
}

uint32_t RestartPolicy::total_restarts(int child) const {
  auto it = totals_.find(child);
  return it == totals_.end() ? 0 : it->second;
}

std::optional<double> RestartPolicy::on_failure(int child, double now) {
  auto& h = history_[child];
  while (!h.empty() && now - h.front() >= window_) h.pop_front();
  if (h.size() >= max_restarts_) return std::nullopt;
  const double delay = std::min(max_backoff_, base_backoff_ * std::ldexp(1.0, static_cast<int>(h.size())));
  h.push_back(now);
  ++totals_[child];
  return delay;
}

}  // namespace robocaf::actors
