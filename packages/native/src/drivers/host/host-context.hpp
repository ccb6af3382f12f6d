// What the host driver's queues share: the thread pool, the fault injector and each agent's arena.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/arena.hpp"
#include "core/fault-injector.hpp"
#include "core/thread-pool.hpp"

namespace kreplay {

struct HostContext {
  HostContext(std::uint32_t agents, std::uint64_t deviceMemoryBytes, std::uint32_t threads) {
    pool = std::make_unique<ThreadPool>(threads);
    for (std::uint32_t agent = 0; agent < agents; ++agent)
      arenas.push_back(std::make_unique<Arena>(deviceMemoryBytes));
  }

  /** Joins the pool and unmaps the arenas; only once no queue runs work any more. */
  void release() {
    pool.reset();
    arenas.clear();
  }

  std::unique_ptr<ThreadPool> pool;
  FaultInjector faults;
  std::vector<std::unique_ptr<Arena>> arenas;
};

}  // namespace kreplay
