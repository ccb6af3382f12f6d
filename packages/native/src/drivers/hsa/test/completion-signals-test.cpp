// Completion-signal logic on signals in memory: decrement semantics, waiting, overrun, abandoning a
// broken queue, and signal reuse.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "drivers/hsa/completion-signals.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

namespace {

/** Signals as integers behind a mutex; `decrement` is what a packet processor does on completion. */
class FakeSignals : public SignalAccess {
 public:
  std::uint64_t create(std::int64_t initial) override {
    std::lock_guard<std::mutex> lock(mutex_);
    values_[next_] = initial;
    return next_++;
  }
  void destroy(std::uint64_t signal) override {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.erase(signal);
    destroyed += 1;
  }
  void store(std::uint64_t signal, std::int64_t value) override {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.at(signal) = value;
    changed_.notify_all();
  }
  std::int64_t load(std::uint64_t signal) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_.at(signal);
  }
  std::int64_t waitBelow(std::uint64_t signal, std::int64_t below,
                         std::uint64_t timeoutNanoseconds) override {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, std::chrono::nanoseconds(timeoutNanoseconds),
                      [&] { return values_.at(signal) < below; });
    waits += 1;
    return values_.at(signal);
  }
  void decrement(std::uint64_t signal) {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.at(signal) -= 1;
    changed_.notify_all();
  }

  int destroyed = 0;
  int waits = 0;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, std::int64_t> values_;
  std::uint64_t next_ = 1;
};

constexpr std::uint64_t kMillisecond = 1'000'000;

}  // namespace

TEST("signals: a completion signal counts producers down to 0") {
  CHECK(completionOf(3) == Completion::Pending);
  CHECK(completionOf(1) == Completion::Pending);
  CHECK(completionOf(0) == Completion::Complete);
  CHECK(completionOf(-1) == Completion::Overrun);
}

TEST("signals: waiting returns once the last of N async copies decremented the signal") {
  FakeSignals signals;
  const std::uint64_t signal = signals.create(3);
  std::atomic<int> done{0};
  std::atomic<bool> early{false};
  std::thread copies([&] {
    for (int copy = 0; copy < 3; ++copy) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (done.load() != 0) early = true;  // the wait must not end before the last decrement
      signals.decrement(signal);
    }
  });
  const CompletionWait wait = waitForCompletion(signals, signal, 2 * kMillisecond, [] { return false; });
  done = 1;
  copies.join();
  CHECK(!early.load());
  CHECK(wait.completion == Completion::Complete);
  CHECK_EQ(wait.value, 0);
  CHECK(!wait.abandoned);
  CHECK(signals.waits >= 1);
}

TEST("signals: more decrements than producers is reported as an overrun") {
  FakeSignals signals;
  const std::uint64_t signal = signals.create(1);
  signals.decrement(signal);
  signals.decrement(signal);
  const CompletionWait wait = waitForCompletion(signals, signal, kMillisecond, {});
  CHECK(wait.completion == Completion::Overrun);
  CHECK_EQ(wait.value, -1);
}

TEST("signals: a wait is abandoned between slices when the queue broke") {
  FakeSignals signals;
  const std::uint64_t signal = signals.create(1);
  int asked = 0;
  const CompletionWait wait = waitForCompletion(signals, signal, kMillisecond, [&] { return ++asked == 3; });
  CHECK(wait.abandoned);
  CHECK(wait.completion == Completion::Pending);
  CHECK_EQ(asked, 3);
  CHECK_EQ(signals.waits, 3);
}

TEST("signals: the pool reuses released signals with their new initial value") {
  FakeSignals signals;
  auto pool = std::make_shared<SignalPool>(signals);
  std::uint64_t first;
  {
    SignalReference signal = pool->acquire(2);
    first = signal->handle;
    CHECK_EQ(signals.load(first), 2);
    SignalReference shared = signal;  // e.g. the queue's tail dependency
    signal.reset();
    CHECK_EQ(pool->idle(), 0u);  // still referenced
  }
  CHECK_EQ(pool->idle(), 1u);
  SignalReference again = pool->acquire(5);
  CHECK_EQ(again->handle, first);
  CHECK_EQ(signals.load(first), 5);
  SignalReference second = pool->acquire(1);
  CHECK(second->handle != first);
  CHECK_EQ(pool->created(), 2u);
  again.reset();
  second.reset();
  pool.reset();
  CHECK_EQ(signals.destroyed, 2);
}
