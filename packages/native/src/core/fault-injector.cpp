#include "core/fault-injector.hpp"

#include <chrono>
#include <thread>

namespace kreplay {

void FaultInjector::add(const FaultSpec& spec) {
  std::lock_guard<std::mutex> lock(mutex_);
  faults_.push_back({spec, 0});
  armed_.store(true);
}

void FaultInjector::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  faults_.clear();
  armed_.store(false);
}

FaultDecision FaultInjector::check(OperationKind operation, std::uint32_t agentId) {
  FaultDecision decision;
  if (!armed_.load(std::memory_order_relaxed)) return decision;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& fault : faults_) {
    const FaultSpec& spec = fault.spec;
    // `any` means any queue operation: allocations fail only through an `allocate` fault.
    const bool matches = spec.operation == OperationKind::Any ? operation != OperationKind::Allocate
                                                              : spec.operation == operation;
    if (!matches) continue;
    if (spec.agentId >= 0 && static_cast<std::uint64_t>(spec.agentId) != agentId) continue;
    fault.seen += 1;
    if (fault.seen <= spec.after || fault.seen - spec.after > spec.count) continue;
    if (spec.delayMilliseconds >= 0) {
      decision.delayMilliseconds += spec.delayMilliseconds;
    } else {
      decision.fail = true;
    }
  }
  return decision;
}

bool applyFaultDecision(const FaultDecision& decision) {
  if (decision.delayMilliseconds > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(decision.delayMilliseconds));
  }
  return decision.fail;
}

}  // namespace kreplay
