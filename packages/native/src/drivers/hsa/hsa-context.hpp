// What the hsa driver's queues share: the runtime, the agents and pools, each GPU agent's loaded
// code object, memory, signals, staging chunks and the fault injector.
#pragma once

#include <memory>
#include <vector>

#include "core/fault-injector.hpp"
#include "drivers/hsa/hsa-executable.hpp"
#include "drivers/hsa/hsa-memory.hpp"
#include "drivers/hsa/hsa-primitives.hpp"
#include "drivers/hsa/hsa-system.hpp"
#include "drivers/hsa/staging-memory.hpp"

namespace kreplay::hsa {

struct HsaContext {
  /** Loads the code object of every GPU agent of `system`. @throws HsaError, CodeObjectError. */
  HsaContext(const HsaRuntime& runtime, HsaSystem system);

  /** Frees memory (memory becomes null), unloads the executables and destroys the idle signals; queues must
   * be stopped. */
  void release();

  /** Kernarg-pool chunks, accessible to every GPU agent. */
  ChunkSource stagingSource() const;

  /** Nanoseconds of the HSA system clock (profiling timestamps), or of the steady clock on failure. */
  std::int64_t dispatchEndNanoseconds(std::uint32_t agent, const SignalReference& signal) const;

  const HsaRuntime& runtime;
  HsaSystem system;
  std::vector<std::unique_ptr<HsaExecutable>> executables;  // per GPU agent
  std::unique_ptr<HsaMemory> memory;
  HsaSignals signalAccess;
  std::shared_ptr<SignalPool> signals;
  FaultInjector faults;
};

}  // namespace kreplay::hsa
