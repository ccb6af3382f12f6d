// One CUDA device as an agent: its primary context, its built-in kernels, its clock and how it is
// described.
#pragma once

#include <memory>

#include "core/driver.hpp"
#include "drivers/cuda/cuda-builtin-module.hpp"
#include "drivers/cuda/cuda-context.hpp"
#include "drivers/cuda/cuda-device-clock.hpp"

namespace kreplay::cuda {

class CudaDevice {
 public:
  /** @throws OperationFailure when the context cannot be had or the kernels do not load. */
  CudaDevice(std::shared_ptr<const CudaLibrary> library, int ordinal);
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  const std::shared_ptr<const CudaContext>& context() const { return context_; }
  const CudaApi& api() const { return context_->api(); }
  const BuiltinFunctions& functions() const { return module_->functions(); }
  CudaDeviceClock& clock() { return *clock_; }
  const AgentDescription& description() const { return description_; }
  /** e.g. 90 for compute capability 9.0. */
  int computeCapability() const { return computeCapability_; }
  int multiprocessors() const { return multiprocessors_; }
  bool memoryPools() const { return memoryPools_; }
  int maxSharedBytesOptin() const { return maxSharedBytesOptin_; }

 private:
  int attribute(int attribute) const;

  std::shared_ptr<const CudaContext> context_;
  int computeCapability_ = 0;
  int multiprocessors_ = 1;
  bool memoryPools_ = false;
  int maxSharedBytesOptin_ = 48 * 1024;
  std::unique_ptr<CudaBuiltinModule> module_;
  std::unique_ptr<CudaDeviceClock> clock_;
  AgentDescription description_;
};

/** "NVIDIA H200", "sm_90", memory, and the PCIe link read from sysfs when it is there. */
AgentDescription describeCudaDevice(const CudaApi& api, CUdevice device, int computeCapability);

}  // namespace kreplay::cuda
