// DeviceMemoryAccess over libcuda, whose entry points are resolved with dlsym from the copy the
// program already loaded (libcuda.so.1, or $KREPLAY_CUDA_LIBRARY). Used only inside the program.
#pragma once

#include <memory>
#include <string>

#include "capture/inject/device-memory-access.hpp"
#include "core/dynamic-library.hpp"

namespace kreplay::capture {

class CudaMemoryAccess : public DeviceMemoryAccess {
 public:
  /** Throws DeviceAccessError naming what is missing. */
  CudaMemoryAccess();

  void synchronize() override;
  void copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) override;
  bool streamCapturing(std::uintptr_t stream) override;
  std::uintptr_t functionModule(std::uintptr_t function) override;
  std::optional<GlobalAddress> moduleGlobal(std::uintptr_t module, const std::string& name) override;
  DeviceDescription describeDevice() override;

 private:
  void check(int result, const char* call) const;

  std::unique_ptr<DynamicLibrary> library_;
  int (*cuCtxSynchronize_)() = nullptr;
  int (*cuMemcpy_)(std::uint64_t destination, std::uint64_t source, std::size_t bytes) = nullptr;
  int (*cuStreamIsCapturing_)(void* stream, int* status) = nullptr;
  int (*cuFuncGetModule_)(void** module, void* function) = nullptr;
  int (*cuModuleGetGlobal_)(std::uint64_t* address, std::size_t* bytes, void* module,
                            const char* name) = nullptr;
  int (*cuCtxGetDevice_)(int* device) = nullptr;
  int (*cuDeviceGetAttribute_)(int* value, int attribute, int device) = nullptr;
  int (*cuDeviceGetName_)(char* name, int length, int device) = nullptr;
  int (*cuGetErrorName_)(int error, const char** name) = nullptr;
  int (*cuKernelGetFunction_)(void** function, void* kernel) = nullptr;  // CUDA 12+, optional
};

}  // namespace kreplay::capture
