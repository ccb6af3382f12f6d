#include "drivers/cuda/cuda-user-kernels.hpp"

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

CudaUserKernel::CudaUserKernel(const std::vector<std::shared_ptr<CudaDevice>>& devices,
                               const std::vector<std::uint8_t>& image, const std::string& name,
                               std::vector<std::uint8_t> parameterBytes)
    : name_(name), parameterBytes_(std::move(parameterBytes)) {
  // PTX is text and must end with a NUL; a cubin or fatbin is unaffected by one more byte.
  std::vector<std::uint8_t> terminated(image);
  terminated.push_back(0);
  try {
    for (const auto& device : devices) {
      device->context()->makeCurrent();
      Loaded loaded{device};
      loaded.module = loadModule(device->api(), terminated.data(), ("the module of kernel " + name).c_str());
      loaded_.push_back(loaded);
      const CUresult result =
          device->api().cuModuleGetFunction(&loaded_.back().function, loaded.module, name.c_str());
      if (result != CUDA_SUCCESS) {
        throw OperationFailure(device->api().errorName(result),
                               "the module has no kernel named " + name +
                                   " (a C++ kernel needs extern \"C\" or its mangled name)");
      }
      int registers = -1;
      if (device->api().cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, loaded_.back().function) == CUDA_SUCCESS) {
        loaded_.back().registers = registers;
      }
    }
  } catch (...) {
    for (const auto& loaded : loaded_) {
      if (loaded.device->context()->tryMakeCurrent()) loaded.device->api().cuModuleUnload(loaded.module);
    }
    throw;
  }
}

CudaUserKernel::~CudaUserKernel() {
  for (const auto& loaded : loaded_) {
    if (loaded.device->context()->tryMakeCurrent()) loaded.device->api().cuModuleUnload(loaded.module);
  }
}

std::uint32_t CudaUserKernels::add(std::shared_ptr<CudaUserKernel> kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_.push_back(std::move(kernel));
  return static_cast<std::uint32_t>(kernels_.size() - 1);
}

std::shared_ptr<CudaUserKernel> CudaUserKernels::get(std::uint32_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id >= kernels_.size() || !kernels_[id]) {
    throw OperationFailure("unknown-kernel", "no user kernel has id " + std::to_string(id));
  }
  return kernels_[id];
}

void CudaUserKernels::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_.clear();
}

}  // namespace kreplay::cuda
