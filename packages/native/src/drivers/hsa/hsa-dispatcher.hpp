// One HSA queue of a GPU agent and the order of the work on it: operation plans become AQL kernel
// dispatch packets (barrier bit set, system-scope fences, so they run one after the other), copy
// plans become hsa_amd_memory_async_copy calls, and a barrier-AND packet makes later packets wait for
// earlier copies. Every submission ends in one completion signal.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "drivers/hsa/hsa-context.hpp"
#include "drivers/hsa/operation-plans.hpp"

namespace kreplay::hsa {

/** The signal that completes a submission, and the signals its pending work may still read. */
struct Submitted {
  SignalReference signal;  // null when nothing was submitted
  std::vector<SignalReference> dependencies;
};

class HsaDispatcher {
 public:
  /** Creates the queue with profiling enabled. @throws HsaError. */
  HsaDispatcher(std::shared_ptr<HsaContext> context, std::uint32_t agent);
  ~HsaDispatcher();
  HsaDispatcher(const HsaDispatcher&) = delete;
  HsaDispatcher& operator=(const HsaDispatcher&) = delete;

  /** Submits the plan's dispatches (kernargs laid out in `memory`). @throws HsaError, KernargError. */
  Submitted submitPlan(const OperationPlan& plan, OperationMemory& memory);
  /** Submits one async copy per non-empty segment (addresses as the user gave them). @throws HsaError. */
  Submitted submitCopies(const std::vector<Segment>& segments);

  /** HSA_STATUS_SUCCESS, or why the queue stopped (its error callback, or a failed submission). */
  hsa_status_t broken() const { return static_cast<hsa_status_t>(broken_.load()); }
  std::uint64_t queueAddress() const { return addressOf(queue_); }

 private:
  static void onQueueError(hsa_status_t status, hsa_queue_t* queue, void* data);
  void submit(const PacketBytes& packet);
  /** Marks the queue broken when `status` failed after part of a submission went out. */
  void checkSubmission(hsa_status_t status, const char* what);

  std::shared_ptr<HsaContext> context_;
  std::uint32_t agent_;
  hsa_queue_t* queue_ = nullptr;
  std::unique_ptr<HsaRing> ring_;
  std::atomic<int> broken_{HSA_STATUS_SUCCESS};
  SignalReference lastPacket_;  // completes when every packet so far completed
  SignalReference lastCopy_;    // set while copies were submitted after the last packet
  /** Signals of submissions that failed half way: work may still decrement them, so never reuse them. */
  std::vector<SignalReference> quarantine_;
};

}  // namespace kreplay::hsa
