// User kernels of one cuda driver: each loaded into every device's context, found by id.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

/** One loaded kernel: its function in each device's context, and its parameters' sizes. */
class CudaUserKernel {
 public:
  /** @throws OperationFailure when a device cannot load the image or it has no kernel `name`. */
  CudaUserKernel(const std::vector<std::shared_ptr<CudaDevice>>& devices,
                 const std::vector<std::uint8_t>& image, const std::string& name,
                 std::vector<std::uint8_t> parameterBytes);
  ~CudaUserKernel();
  CudaUserKernel(const CudaUserKernel&) = delete;
  CudaUserKernel& operator=(const CudaUserKernel&) = delete;

  const std::string& name() const { return name_; }
  CUfunction function(std::uint32_t agent) const { return loaded_.at(agent).function; }
  CUmodule module(std::uint32_t agent) const { return loaded_.at(agent).module; }
  /** Registers per thread of the function the driver loaded on `agent` (CU_FUNC_ATTRIBUTE_NUM_REGS), or -1 when it did not say. */
  int registers(std::uint32_t agent) const { return loaded_.at(agent).registers; }
  const std::vector<std::uint8_t>& parameterBytes() const { return parameterBytes_; }

 private:
  struct Loaded {
    std::shared_ptr<CudaDevice> device;
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    int registers = -1;
  };
  std::string name_;
  std::vector<std::uint8_t> parameterBytes_;
  std::vector<Loaded> loaded_;
};

class CudaUserKernels {
 public:
  std::uint32_t add(std::shared_ptr<CudaUserKernel> kernel);
  /** @throws OperationFailure `unknown-kernel` for an id that was never returned by add. */
  std::shared_ptr<CudaUserKernel> get(std::uint32_t id) const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<CudaUserKernel>> kernels_;
};

}  // namespace kreplay::cuda
