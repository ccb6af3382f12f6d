#include "capture/inject/cuda-driver-calls.hpp"

#include <cstdlib>

#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

namespace {

template <class Function>
void resolve(const DynamicLibrary& library, Function& function, const char* name) {
  function = reinterpret_cast<Function>(library.symbol(name));
  if (function == nullptr) {
    throw DeviceAccessError(std::string("[kreplay capture] libcuda has no ") + name +
                            ". Update the NVIDIA driver (the capture library needs CUDA 12 or newer).");
  }
}

}  // namespace

CudaDriverCalls::CudaDriverCalls() {
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  library = std::make_unique<DynamicLibrary>(path != nullptr && *path != '\0' ? path : "libcuda.so.1");
  if (!library->loaded()) {
    throw DeviceAccessError("[kreplay capture] could not open libcuda (" + library->error() +
                            "). The capture library runs inside a CUDA program; check the NVIDIA driver.");
  }
  const DynamicLibrary& cuda = *library;
  resolve(cuda, cuCtxSynchronize, "cuCtxSynchronize");
  resolve(cuda, cuCtxGetCurrent, "cuCtxGetCurrent");
  resolve(cuda, cuCtxGetDevice, "cuCtxGetDevice");
  resolve(cuda, cuDeviceGetAttribute, "cuDeviceGetAttribute");
  resolve(cuda, cuDeviceGetName, "cuDeviceGetName");
  resolve(cuda, cuGetErrorName, "cuGetErrorName");
  resolve(cuda, cuMemcpy, "cuMemcpy");
  resolve(cuda, cuMemcpyAsync, "cuMemcpyAsync");
  resolve(cuda, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  resolve(cuda, cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  resolve(cuda, cuMemsetD8Async, "cuMemsetD8Async");
  resolve(cuda, cuMemAlloc, "cuMemAlloc_v2");
  resolve(cuda, cuMemFree, "cuMemFree_v2");
  resolve(cuda, cuMemHostAlloc, "cuMemHostAlloc");
  resolve(cuda, cuMemFreeHost, "cuMemFreeHost");
  resolve(cuda, cuPointerGetAttribute, "cuPointerGetAttribute");
  resolve(cuda, cuStreamCreate, "cuStreamCreate");
  resolve(cuda, cuStreamSynchronize, "cuStreamSynchronize");
  resolve(cuda, cuStreamIsCapturing, "cuStreamIsCapturing");
  resolve(cuda, cuModuleLoadDataEx, "cuModuleLoadDataEx");
  resolve(cuda, cuModuleGetFunction, "cuModuleGetFunction");
  resolve(cuda, cuModuleGetGlobal, "cuModuleGetGlobal_v2");
  resolve(cuda, cuFuncGetModule, "cuFuncGetModule");
  resolve(cuda, cuLaunchKernel, "cuLaunchKernel");
  cuKernelGetFunction = reinterpret_cast<decltype(cuKernelGetFunction)>(cuda.symbol("cuKernelGetFunction"));
}

void CudaDriverCalls::check(int result, const char* call) const {
  if (result == cuda_constants::kSuccess) return;
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != cuda_constants::kSuccess || name == nullptr) name = "an unknown error";
  throw DeviceAccessError(std::string(call) + " failed: " + name + " (" + std::to_string(result) + ")");
}

}  // namespace kreplay::capture
