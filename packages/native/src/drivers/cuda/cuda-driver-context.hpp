// What the cuda driver's queues share: the devices, the registry of memory, staging, faults, the
// copy policy, user kernels, and a CPU thread pool for work on pageable host memory.
#pragma once

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/fault-injector.hpp"
#include "core/thread-pool.hpp"
#include "drivers/cuda/cuda-copy-policy.hpp"
#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cuda-fixed-memory.hpp"
#include "drivers/cuda/cuda-memory-registry.hpp"
#include "drivers/cuda/cuda-pinned-pool.hpp"
#include "drivers/cuda/cuda-user-kernels.hpp"

namespace kreplay::cuda {

struct CudaDriverContext {
  std::shared_ptr<const CudaLibrary> library;
  std::vector<std::shared_ptr<CudaDevice>> devices;
  CudaMemoryRegistry memory;
  std::unique_ptr<CudaPinnedPool> pinned;
  std::unique_ptr<CudaFixedMemory> fixed;
  FaultInjector faults;
  CudaCopyPolicy copyPolicy;
  CudaUserKernels userKernels;

  /** The CPU pool for pageable host memory, started on first use. */
  ThreadPool& cpuPool() {
    std::call_once(cpuPoolStarted_,
                   [this] { cpuPool_ = std::make_unique<ThreadPool>(std::thread::hardware_concurrency()); });
    return *cpuPool_;
  }

 private:
  std::once_flag cpuPoolStarted_;
  std::unique_ptr<ThreadPool> cpuPool_;
};

}  // namespace kreplay::cuda
