// A point in a queue's work: completed (with a steady-clock timestamp) when the queue reaches it.
// Drivers whose events are device events derive from it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace kreplay {

class EventState {
 public:
  virtual ~EventState() = default;

  /** Marks the event completed now. */
  void complete();
  /** Marks the event completed at `timestampNanoseconds` (a device clock on the steady clock's scale). */
  void complete(std::int64_t timestampNanoseconds);
  bool completed() const { return completed_.load(std::memory_order_acquire); }
  /** Nanoseconds of the steady clock when it completed (0 before). */
  std::int64_t timestampNanoseconds() const { return timestamp_; }
  /** Blocks until completed. */
  void wait();

 private:
  std::atomic<bool> completed_{false};
  std::int64_t timestamp_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace kreplay
