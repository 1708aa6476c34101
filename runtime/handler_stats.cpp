#include "runtime/handler_stats.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace robocaf::runtime {

// ---------------------------------------------------------- HandlerStats ----

void HandlerStats::record(const std::string& message_type, std::chrono::nanoseconds duration) {
  int64_t ns = duration.count();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(message_type);
  if (it == entries_.end()) it = entries_.emplace(message_type, Entry{0, ns, ns, 0, 0.0}).first;
  Entry& e = it->second;
  ++e.calls;
  e.min_ns = std::min(e.min_ns, ns);
  e.max_ns = std::max(e.max_ns, ns);
  e.total_ns += ns;
  const double us = static_cast<double>(ns) / 1e3;
  e.sum_squares_us2 += us * us;
  ++total_calls_;
}

std::vector<msg::HandlerStats> HandlerStats::snapshot(const std::string& actor) const {
  std::vector<msg::HandlerStats> out;
  std::lock_guard<std::mutex> lock(mutex_);
  out.reserve(entries_.size());
  for (const auto& [type, e] : entries_) {
    msg::HandlerStats s;
    s.set_actor(actor);
    s.set_message_type(type);
    s.set_calls(e.calls);
    s.set_min_us(static_cast<double>(e.min_ns) / 1e3);
    s.set_avg_us(static_cast<double>(e.total_ns) / 1e3 / static_cast<double>(e.calls));
    s.set_max_us(static_cast<double>(e.max_ns) / 1e3);
    const double variance = e.sum_squares_us2 / static_cast<double>(e.calls) - s.avg_us() * s.avg_us();
    s.set_sd_us(std::sqrt(std::max(0.0, variance)));
    out.push_back(std::move(s));
  }
  return out;
}

uint64_t HandlerStats::total_calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_calls_;
}

void HandlerStats::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  total_calls_ = 0;
}

// -------------------------------------------------------------- Watchdog ----

namespace {

double to_ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

msg::WatchdogAlert make_alert(const std::string& actor, const std::string& type, double ms) {
  msg::WatchdogAlert alert;
  alert.set_actor(actor);
  alert.set_message_type(type);
  alert.set_duration_ms(ms);
  return alert;
}

}  // namespace

Watchdog::Watchdog(Callback on_alert, std::chrono::milliseconds threshold, std::chrono::milliseconds check_interval)
    : on_alert_(std::move(on_alert)), threshold_(threshold), check_interval_(check_interval) {
  if (!on_alert_) {
    on_alert_ = [limit = threshold_.count()](const msg::WatchdogAlert& a) {
      std::cerr << "watchdog: " << a.actor() << " handling " << a.message_type() << " ran "
                << static_cast<long long>(a.duration_ms()) << " ms (limit " << limit << " ms)\n";
    };
  }
  thread_ = std::thread([this] { run(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

Watchdog::Token Watchdog::enter(const std::string& actor, const std::string& message_type) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  uint32_t index;
  if (free_slots_.empty()) {
    index = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    index = free_slots_.back();
    free_slots_.pop_back();
  }
  Slot& s = slots_[index];
  // assign() reuses the slot's string capacity: no allocation once warm.
  s.actor.assign(actor);
  s.message_type.assign(message_type);
  s.start = now;
  s.active = true;
  s.reported = false;
  return Token{index, s.generation};
}

void Watchdog::leave(Token token) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (token.slot >= slots_.size()) return;
  Slot& s = slots_[token.slot];
  if (!s.active || s.generation != token.generation) return;  // stale token: ignore, never crash
  auto elapsed = now - s.start;
  if (!s.reported && elapsed > threshold_) {
    // Ended between two checks: still an overrun, so report it (on the watchdog thread).
    pending_.push_back(make_alert(s.actor, s.message_type, to_ms(elapsed)));
  }
  s.active = false;
  ++s.generation;
  free_slots_.push_back(token.slot);
}

uint64_t Watchdog::alerts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return alerts_;
}

void Watchdog::run() {
  std::vector<msg::WatchdogAlert> batch;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, check_interval_, [this] { return stop_; });
    auto now = std::chrono::steady_clock::now();
    batch.swap(pending_);
    for (Slot& s : slots_) {
      if (s.active && !s.reported && now - s.start > threshold_) {
        s.reported = true;
        batch.push_back(make_alert(s.actor, s.message_type, to_ms(now - s.start)));
      }
    }
    bool stopping = stop_;
    if (!batch.empty()) {
      lock.unlock();  // a slow callback must not block enter()/leave()
      deliver(batch);
      lock.lock();
    }
    if (stopping) return;
  }
}

void Watchdog::deliver(std::vector<msg::WatchdogAlert>& alerts) {
  for (const auto& alert : alerts) {
    try {
      on_alert_(alert);
    } catch (...) {
      // The watchdog must outlive a faulty callback.
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    alerts_ += alerts.size();
  }
  alerts.clear();
}

}  // namespace robocaf::runtime
