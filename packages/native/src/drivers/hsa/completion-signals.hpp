// Completion signals: a signal starts at the number of producers that will decrement it (one per
// AQL packet or async copy that names it), and the work is complete when it reaches 0. The logic
// runs over SignalAccess so the tests drive it with signals in memory. Plain C++.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace kreplay::hsa {

/** The signal operations the driver uses (hsa_signal_* on HSA, atomics in the tests). */
class SignalAccess {
 public:
  virtual ~SignalAccess() = default;
  /** A new signal with `initial` as its value. @throws std::exception when none can be created. */
  virtual std::uint64_t create(std::int64_t initial) = 0;
  virtual void destroy(std::uint64_t signal) = 0;
  virtual void store(std::uint64_t signal, std::int64_t value) = 0;
  virtual std::int64_t load(std::uint64_t signal) = 0;
  /** Waits until the value is below `below`, or about `timeoutNanoseconds`; returns the value seen. */
  virtual std::int64_t waitBelow(std::uint64_t signal, std::int64_t below,
                                 std::uint64_t timeoutNanoseconds) = 0;
};

enum class Completion { Pending, Complete, Overrun };

/** 0: every producer completed; > 0: some are pending; < 0: more decrements than producers. */
Completion completionOf(std::int64_t value);

/** The outcome of waitForCompletion. */
struct CompletionWait {
  Completion completion;
  std::int64_t value;
  bool abandoned;  // `abandon` returned true before the signal dropped below 1
};

/**
 * Waits until the signal drops below 1, in slices of `sliceNanoseconds`, asking `abandon` between
 * slices (a broken queue never completes its packets).
 */
CompletionWait waitForCompletion(SignalAccess& access, std::uint64_t signal, std::uint64_t sliceNanoseconds,
                                 const std::function<bool()>& abandon);

/** A signal borrowed from a SignalPool; returned to it when the last reference goes. */
struct PooledSignal {
  std::uint64_t handle;
};
using SignalReference = std::shared_ptr<const PooledSignal>;

/** Reuses signals: creating one is a system call on HSA, storing a new value is not. Thread-safe. */
class SignalPool : public std::enable_shared_from_this<SignalPool> {
 public:
  explicit SignalPool(SignalAccess& access) : access_(access) {}
  ~SignalPool();
  SignalPool(const SignalPool&) = delete;
  SignalPool& operator=(const SignalPool&) = delete;

  /** A signal whose value is `initial`: a released one when there is one, else a new one. */
  SignalReference acquire(std::int64_t initial);
  /** Signals created so far, and how many wait in the pool. */
  std::size_t created() const;
  std::size_t idle() const;

 private:
  void release(std::uint64_t handle);

  SignalAccess& access_;
  mutable std::mutex mutex_;
  std::vector<std::uint64_t> idle_;
  std::size_t created_ = 0;
};

}  // namespace kreplay::hsa
