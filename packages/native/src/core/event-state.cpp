#include "core/event-state.hpp"

#include <chrono>

namespace kreplay {

void EventState::complete() {
  complete(std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
               .count());
}

void EventState::complete(std::int64_t timestampNanoseconds) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    timestamp_ = timestampNanoseconds;
    completed_.store(true, std::memory_order_release);
  }
  changed_.notify_all();
}

void EventState::wait() {
  if (completed()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return completed(); });
}

}  // namespace kreplay
