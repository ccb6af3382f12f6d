// The cuda driver: every CUDA device is an agent (its primary context), device memory from
// cuMemAlloc (aligned to 4096 bytes), stream-ordered memory from the device's memory pool, pinned
// host memory mapped for every device, pageable host memory from malloc, and queues on CUDA
// streams (cuda-queue.hpp). libcuda.so.1 is loaded with dlopen; nothing of the CUDA toolkit is
// needed to build it.
#pragma once

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "core/driver.hpp"
#include "core/queue-registry.hpp"
#include "drivers/cuda/cuda-checkpoint.hpp"
#include "drivers/cuda/cuda-driver-context.hpp"
#include "drivers/cuda/cuda-profiler-session.hpp"
#include "drivers/cuda/cuda-queue.hpp"
#include "drivers/cuda/cuda-release-worker.hpp"

namespace kreplay::cuda {

class CudaDriver : public Driver {
 public:
  /** @throws OperationFailure when CUDA cannot be initialized or has no device. */
  explicit CudaDriver(std::shared_ptr<const CudaLibrary> library);
  ~CudaDriver() override;

  const char* name() const override { return "cuda"; }
  std::string version() const override { return version_; }
  const std::vector<AgentDescription>& agents() const override { return agents_; }

  AllocationResult allocate(std::uint32_t agent, std::uint64_t bytes) override;
  MemoryInfo memoryInfo(std::uint32_t agent) override;
  void free(std::uint32_t agent, std::uint64_t address) override;
  std::uint64_t allocateHost(std::uint64_t bytes, bool pinned) override;
  void freeHost(std::uint64_t address) override;

  void read(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes,
            std::uint8_t* destination) override;
  void write(std::uint32_t agent, std::uint64_t address, const std::uint8_t* source,
             std::uint64_t bytes) override;
  std::function<void()> agentFence(std::uint32_t agent) override;

  std::shared_ptr<Queue> createQueue(std::uint32_t agent) override;
  FaultInjector& faults() override { return context_->faults; }
  bool runsUserKernels() const override { return true; }
  int userKernelRegisters(std::uint32_t kernel, std::uint32_t agent) const override;
  std::uint32_t loadUserKernel(const std::vector<std::uint8_t>& image, const std::string& name,
                               const std::vector<std::uint8_t>& parameterBytes) override;
  /** Whether libcuda exports the graph entry points. */
  bool runsGraphs() const override;
  /** A CudaKernelGraph of user kernels, memsets and copies, instantiated. */
  std::shared_ptr<KernelGraph> createGraph(std::uint32_t agent, std::vector<GraphStep> steps) override;
  bool offersFixedAddresses() const override { return true; }
  void allocateAt(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes) override;
  void allocateHostAt(std::uint64_t address, std::uint64_t bytes) override;
  Range kernelGlobal(std::uint32_t kernel, std::uint32_t agent, const std::string& name) override;
  bool offersCheckpoints() const override { return true; }
  std::string checkpointUnavailableReason() override;
  std::shared_ptr<CheckpointSession> openCheckpoint(const std::shared_ptr<Queue>& queue) override;
  bool offersProfiler() const override { return true; }
  std::string profilerUnavailableReason() override;
  std::string profilerChipName(std::uint32_t agent) override;
  std::shared_ptr<ProfilerSession> createProfilerSession(std::uint32_t agent,
                                                         const std::vector<std::string>& metrics,
                                                         ProfilerRange range, ProfilerConditions conditions) override;
  void shutdown() override;

 private:
  CudaDevice& device(std::uint32_t agent) const { return *context_->devices.at(agent); }
  std::uint64_t freeBytes(std::uint32_t agent);
  /** Runs `release` once every live queue of `agent` (-1: all) has run the work enqueued so far. */
  void releaseAfterQueues(std::int64_t agent, std::function<void()> release);
  void releaseBlock(const CudaMemoryBlock& block);
  /** cuMemAlloc, tried again after the pending releases when it fails first. */
  bool allocateAfterReleases(const CudaApi& api, CUdeviceptr& base, std::uint64_t bytes);

  std::shared_ptr<CudaDriverContext> context_;
  std::vector<AgentDescription> agents_;
  std::string version_;
  std::mutex mutex_;
  QueueRegistry<CudaQueue> queues_;
  std::vector<std::weak_ptr<CudaCheckpointSession>> checkpoints_;
  std::vector<std::weak_ptr<CudaProfilerSession>> profilers_;
  /** Shared with checkpoint sessions, which wait for earlier frees before saving or restoring. */
  std::shared_ptr<CudaReleaseWorker> releases_ = std::make_shared<CudaReleaseWorker>();
  std::atomic<bool> shutDown_{false};
  std::shared_mutex memoryGuard_;  // read/write hold it shared; shutdown takes it before freeing memory
};

}  // namespace kreplay::cuda
