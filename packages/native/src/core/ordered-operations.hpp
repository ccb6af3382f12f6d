// The skeleton of a queue run by its own thread: operations are taken in the order they were pushed,
// work is numbered as it is pushed (the index an error reports), and completed operations are
// counted, which is what a fence waits for. The host and hsa queues build on it; what running an
// operation means, and which thread counts it complete, is theirs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace kreplay {

/** `Operation` has `bool work` (numbered, skipped after a failure) and `std::int64_t workIndex`. */
template <typename Operation>
class OrderedOperations {
 public:
  /** Appends `operation`, numbering it when it is work; false once the queue is stopped. */
  bool push(Operation operation) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return false;
      if (operation.work) operation.workIndex = submittedWork_++;
      operations_.push_back(std::move(operation));
      submitted_ += 1;
    }
    wake_.notify_one();
    return true;
  }

  /** The next operation, waiting for one; nullopt once the queue is stopped and every operation taken. */
  std::optional<Operation> take() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return stopping_ || !operations_.empty(); });
    if (operations_.empty()) return std::nullopt;
    std::optional<Operation> operation(std::move(operations_.front()));
    operations_.pop_front();
    return operation;
  }

  /** Counts one taken operation complete and wakes the fences waiting for it. */
  void completeOne() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      completed_ += 1;
    }
    progressed_.notify_all();
  }

  /**
   * Runs `run` and returns true when every pushed operation has completed; false, without running
   * it, otherwise. `run` holds the lock that take() needs, so no operation starts while it runs.
   */
  template <typename Run>
  bool runIfIdle(Run&& run) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (completed_ != submitted_) return false;
    run();
    return true;
  }

  /** A fence's ticket: how many operations have been pushed so far. */
  std::uint64_t ticket() {
    std::lock_guard<std::mutex> lock(mutex_);
    return submitted_;
  }

  /** Blocks until the first `ticket` operations have completed (a stopped queue still drains). */
  void waitForCompleted(std::uint64_t ticket) {
    std::unique_lock<std::mutex> lock(mutex_);
    progressed_.wait(lock, [&] { return completed_ >= ticket; });
  }

  /**
   * A function that blocks until what was pushed so far has completed (Queue::fence); it keeps
   * `owner`, the queue that holds these operations, alive while it is held.
   */
  std::function<void()> fence(std::shared_ptr<void> owner) {
    const std::uint64_t until = ticket();
    return [this, owner = std::move(owner), until] { waitForCompleted(until); };
  }

  /** Refuses later pushes; take() hands out what is queued, then nullopt. */
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable progressed_;
  std::deque<Operation> operations_;
  std::uint64_t submitted_ = 0;
  std::int64_t submittedWork_ = 0;
  std::uint64_t completed_ = 0;
  bool stopping_ = false;
};

}  // namespace kreplay
