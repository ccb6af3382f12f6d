#include "capture/inject/cuda-memory-access.hpp"

#include <cstdlib>

namespace kreplay::capture {

namespace {

constexpr int kSuccess = 0;
constexpr int kErrorStreamCaptureImplicit = 906;  // CUDA_ERROR_STREAM_CAPTURE_IMPLICIT
constexpr int kCaptureStatusNone = 0;             // CU_STREAM_CAPTURE_STATUS_NONE
constexpr std::uintptr_t kLegacyStream = 0x1;     // CU_STREAM_LEGACY
constexpr int kComputeCapabilityMajor = 75;       // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;

template <class Function>
void resolve(const DynamicLibrary& library, Function& function, const char* name) {
  function = reinterpret_cast<Function>(library.symbol(name));
  if (function == nullptr) {
    throw DeviceAccessError(std::string("[kreplay capture] libcuda has no ") + name +
                            ". Update the NVIDIA driver (the capture library needs CUDA 12 or newer).");
  }
}

}  // namespace

CudaMemoryAccess::CudaMemoryAccess() {
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  library_ = std::make_unique<DynamicLibrary>(path != nullptr && *path != '\0' ? path : "libcuda.so.1");
  if (!library_->loaded()) {
    throw DeviceAccessError("[kreplay capture] could not open libcuda (" + library_->error() +
                            "). The capture library runs inside a CUDA program; check the NVIDIA driver.");
  }
  resolve(*library_, cuCtxSynchronize_, "cuCtxSynchronize");
  resolve(*library_, cuMemcpy_, "cuMemcpy");
  resolve(*library_, cuStreamIsCapturing_, "cuStreamIsCapturing");
  resolve(*library_, cuFuncGetModule_, "cuFuncGetModule");
  resolve(*library_, cuModuleGetGlobal_, "cuModuleGetGlobal_v2");
  resolve(*library_, cuCtxGetDevice_, "cuCtxGetDevice");
  resolve(*library_, cuDeviceGetAttribute_, "cuDeviceGetAttribute");
  resolve(*library_, cuDeviceGetName_, "cuDeviceGetName");
  resolve(*library_, cuGetErrorName_, "cuGetErrorName");
  cuKernelGetFunction_ =
      reinterpret_cast<decltype(cuKernelGetFunction_)>(library_->symbol("cuKernelGetFunction"));
}

void CudaMemoryAccess::check(int result, const char* call) const {
  if (result == kSuccess) return;
  const char* name = nullptr;
  if (cuGetErrorName_(result, &name) != kSuccess || name == nullptr) name = "an unknown error";
  throw DeviceAccessError(std::string(call) + " failed: " + name + " (" + std::to_string(result) + ")");
}

void CudaMemoryAccess::synchronize() {
  check(cuCtxSynchronize_(), "cuCtxSynchronize");
}

void CudaMemoryAccess::copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) {
  // Unified addressing: cuMemcpy reads device, pool, VMM-mapped and device-mapped host memory alike.
  check(cuMemcpy_(reinterpret_cast<std::uint64_t>(destination), address, bytes), "cuMemcpy (device to host)");
}

bool CudaMemoryAccess::streamCapturing(std::uintptr_t stream) {
  for (const std::uintptr_t which : {stream, kLegacyStream}) {
    int status = kCaptureStatusNone;
    const int result = cuStreamIsCapturing_(reinterpret_cast<void*>(which), &status);
    if (result == kErrorStreamCaptureImplicit) return true;
    check(result, "cuStreamIsCapturing");
    if (status != kCaptureStatusNone) return true;
  }
  return false;
}

std::uintptr_t CudaMemoryAccess::functionModule(std::uintptr_t function) {
  void* module = nullptr;
  if (cuFuncGetModule_(&module, reinterpret_cast<void*>(function)) == kSuccess)
    return reinterpret_cast<std::uintptr_t>(module);
  // A CUkernel (cuLibrary*) passed as a CUfunction: its function in the current context has the module.
  void* contextFunction = nullptr;
  if (cuKernelGetFunction_ == nullptr ||
      cuKernelGetFunction_(&contextFunction, reinterpret_cast<void*>(function)) != kSuccess)
    return 0;
  if (cuFuncGetModule_(&module, contextFunction) != kSuccess) return 0;
  return reinterpret_cast<std::uintptr_t>(module);
}

std::optional<GlobalAddress> CudaMemoryAccess::moduleGlobal(std::uintptr_t module, const std::string& name) {
  GlobalAddress global;
  std::size_t bytes = 0;
  const int result =
      cuModuleGetGlobal_(&global.address, &bytes, reinterpret_cast<void*>(module), name.c_str());
  if (result != kSuccess) return std::nullopt;  // e.g. CUDA_ERROR_NOT_FOUND: the global is then not captured
  global.bytes = bytes;
  return global;
}

DeviceDescription CudaMemoryAccess::describeDevice() {
  int device = 0, major = 0, minor = 0;
  check(cuCtxGetDevice_(&device), "cuCtxGetDevice");
  check(cuDeviceGetAttribute_(&major, kComputeCapabilityMajor, device), "cuDeviceGetAttribute");
  check(cuDeviceGetAttribute_(&minor, kComputeCapabilityMinor, device), "cuDeviceGetAttribute");
  char name[256] = {};
  check(cuDeviceGetName_(name, sizeof name - 1, device), "cuDeviceGetName");
  return {name, "sm_" + std::to_string(major * 10 + minor)};
}

}  // namespace kreplay::capture
