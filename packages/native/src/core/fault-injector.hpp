// Injected faults for tests: matching operations are counted when they execute, and the
// (after+1)-th to (after+count)-th fail (or are delayed, then succeed).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/types.hpp"

namespace kreplay {

struct FaultSpec {
  OperationKind operation;
  std::uint64_t after;
  std::uint64_t count;
  std::int64_t agentId;      // < 0: any agent
  double delayMilliseconds;  // < 0: fail instead of delaying
};

struct FaultDecision {
  bool fail = false;
  double delayMilliseconds = 0;
};

class FaultInjector {
 public:
  void add(const FaultSpec& spec);
  void clear();
  /** Counts one executing operation against every matching fault and says what to do with it. */
  FaultDecision check(OperationKind operation, std::uint32_t agentId);
  /** Whether any fault is injected (cheap; no lock). */
  bool armed() const { return armed_.load(std::memory_order_relaxed); }

 private:
  struct Armed {
    FaultSpec spec;
    std::uint64_t seen;
  };
  std::mutex mutex_;
  std::vector<Armed> faults_;
  std::atomic<bool> armed_{false};
};

/** Applies a decision's delay (sleeping the calling thread); returns whether the operation must fail. */
bool applyFaultDecision(const FaultDecision& decision);

}  // namespace kreplay
