// A ROCr stand-in for the tests: the HSA entry points the driver declares, implemented in host
// memory. One CPU agent and one or more GPU agents; each HSA queue has a packet-processor thread that
// executes AQL packets in order (kernel dispatches through the kernel emulator, barrier-AND packets
// by waiting for their dependencies), async copies run on a DMA thread, and signals are atomics.
// It also checks what the driver hands it (packet geometry and segment sizes, kernarg alignment,
// the agents named in copies) and counts what is left allocated, so the driver's HSA code runs end
// to end here. It is no model of a GPU's timing or memory system.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/hsa/hsa-runtime.hpp"

namespace kreplay::hsa::test {

struct FakeHsaReport {
  std::vector<std::string> problems;  // what a real runtime or packet processor would refuse
  std::uint64_t dispatches = 0;
  std::uint64_t barrierPackets = 0;
  std::uint64_t asyncCopies = 0;
  std::int64_t liveSignals = 0;
  std::size_t liveQueues = 0;
  std::size_t liveAllocations = 0;  // pool allocations and locked host ranges
  std::size_t liveExecutables = 0;
  int initCount = 0;
};

class FakeHsa {
 public:
  /** Resets the fake (no driver may be using it) with `gpus` GPU agents of `processor`. */
  static void reset(const std::string& processor = "gfx90a", std::uint32_t queuePackets = 64,
                    std::uint32_t gpus = 1);
  /** A runtime whose entry points are the fake's. */
  static std::unique_ptr<HsaRuntime> runtime();
  /** Makes every queue fail its next packet with `status`, calling the queue's error callback. */
  static void breakQueues(hsa_status_t status);
  static FakeHsaReport report();
};

}  // namespace kreplay::hsa::test
