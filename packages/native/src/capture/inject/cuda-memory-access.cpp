#include "capture/inject/cuda-memory-access.hpp"

namespace kreplay::capture {

using namespace cuda_constants;

CudaMemoryAccess::CudaMemoryAccess() : hasher_(cuda_) {}

void CudaMemoryAccess::synchronize() {
  cuda_.check(cuda_.cuCtxSynchronize(), "cuCtxSynchronize");
}

void CudaMemoryAccess::copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) {
  // Unified addressing: cuMemcpy reads device, pool, VMM-mapped and device-mapped host memory alike.
  cuda_.check(cuda_.cuMemcpy(reinterpret_cast<std::uint64_t>(destination), address, bytes),
              "cuMemcpy (device to host)");
}

void CudaMemoryAccess::hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes) {
  hasher_.hashPages(spans, pageBytes, hashes);
}

void CudaMemoryAccess::copyToHost(const std::vector<HostCopy>& copies) {
  if (copies.empty()) return;
  void* stream = hasher_.stream();
  for (const HostCopy& copy : copies) {
    cuda_.check(cuda_.cuMemcpyAsync(reinterpret_cast<std::uint64_t>(copy.destination), copy.source, copy.bytes, stream),
                "cuMemcpyAsync (changed pages to the capture's staging)");
  }
  cuda_.check(cuda_.cuStreamSynchronize(stream), "cuStreamSynchronize (changed pages)");
}

std::uint8_t* CudaMemoryAccess::allocateHostStaging(std::uint64_t bytes) {
  void* pointer = nullptr;
  const int result = cuda_.cuMemHostAlloc(&pointer, bytes, kHostAllocPortable);
  if (result != kSuccess) {
    try {
      cuda_.check(result, "cuMemHostAlloc");
    } catch (const DeviceAccessError& error) {
      throw DeviceAccessError(std::string(error.what()) + " allocating " + std::to_string(bytes >> 20) +
                              " MiB of pinned staging; pass a smaller --staging-bytes to kreplay capture");
    }
  }
  return static_cast<std::uint8_t*>(pointer);
}

void CudaMemoryAccess::freeHostStaging(std::uint8_t* memory) {
  cuda_.cuMemFreeHost(memory);  // at exit the driver may be gone already: nothing to report
}

std::uintptr_t CudaMemoryAccess::memoryContext(std::uint64_t address) {
  void* context = nullptr;
  if (cuda_.cuPointerGetAttribute(&context, kPointerAttributeContext, address) != kSuccess) return 0;
  return reinterpret_cast<std::uintptr_t>(context);
}

bool CudaMemoryAccess::streamCapturing(std::uintptr_t stream) {
  for (const std::uintptr_t which : {stream, kLegacyStream}) {
    int status = kCaptureStatusNone;
    const int result = cuda_.cuStreamIsCapturing(reinterpret_cast<void*>(which), &status);
    if (result == kErrorStreamCaptureImplicit) return true;
    cuda_.check(result, "cuStreamIsCapturing");
    if (status != kCaptureStatusNone) return true;
  }
  return false;
}

std::uintptr_t CudaMemoryAccess::functionModule(std::uintptr_t function) {
  void* module = nullptr;
  if (cuda_.cuFuncGetModule(&module, reinterpret_cast<void*>(function)) == kSuccess)
    return reinterpret_cast<std::uintptr_t>(module);
  // A CUkernel (cuLibrary*) passed as a CUfunction: its function in the current context has the module.
  void* contextFunction = nullptr;
  if (cuda_.cuKernelGetFunction == nullptr ||
      cuda_.cuKernelGetFunction(&contextFunction, reinterpret_cast<void*>(function)) != kSuccess)
    return 0;
  if (cuda_.cuFuncGetModule(&module, contextFunction) != kSuccess) return 0;
  return reinterpret_cast<std::uintptr_t>(module);
}

std::optional<GlobalAddress> CudaMemoryAccess::moduleGlobal(std::uintptr_t module, const std::string& name) {
  GlobalAddress global;
  std::size_t bytes = 0;
  const int result = cuda_.cuModuleGetGlobal(&global.address, &bytes, reinterpret_cast<void*>(module), name.c_str());
  if (result != kSuccess) return std::nullopt;  // e.g. CUDA_ERROR_NOT_FOUND: the global is then not captured
  global.bytes = bytes;
  return global;
}

DeviceDescription CudaMemoryAccess::describeDevice() {
  int device = 0, major = 0, minor = 0;
  cuda_.check(cuda_.cuCtxGetDevice(&device), "cuCtxGetDevice");
  cuda_.check(cuda_.cuDeviceGetAttribute(&major, kComputeCapabilityMajor, device), "cuDeviceGetAttribute");
  cuda_.check(cuda_.cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, device), "cuDeviceGetAttribute");
  char name[256] = {};
  cuda_.check(cuda_.cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
  return {name, "sm_" + std::to_string(major * 10 + minor)};
}

}  // namespace kreplay::capture
