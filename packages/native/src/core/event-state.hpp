// A point in a queue's work: completed (with a steady-clock timestamp) when the queue reaches it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace kreplay {

class EventState {
 public:
  /** Marks the event completed now. */
  void complete();
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
