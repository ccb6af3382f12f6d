// The libcuda entry points the capture library calls, resolved with dlsym from the copy the program
// already loaded (libcuda.so.1, or $KREPLAY_CUDA_LIBRARY), and the few cuda.h constants they take
// (cupti-callback-api-check.cpp compares the constants with cuda.h). Used only inside the program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/dynamic-library.hpp"

namespace kreplay::capture {

namespace cuda_constants {
constexpr int kSuccess = 0;
constexpr int kErrorStreamCaptureImplicit = 906;  // CUDA_ERROR_STREAM_CAPTURE_IMPLICIT
constexpr int kCaptureStatusNone = 0;             // CU_STREAM_CAPTURE_STATUS_NONE
constexpr std::uintptr_t kLegacyStream = 0x1;     // CU_STREAM_LEGACY
constexpr int kComputeCapabilityMajor = 75;       // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;       // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kMultiprocessorCount = 16;          // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int kPointerAttributeContext = 1;       // CU_POINTER_ATTRIBUTE_CONTEXT
constexpr unsigned kStreamNonBlocking = 0x1;      // CU_STREAM_NON_BLOCKING
constexpr unsigned kHostAllocPortable = 0x1;      // CU_MEMHOSTALLOC_PORTABLE
constexpr int kJitErrorLogBuffer = 5;             // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSizeBytes = 6;    // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
}  // namespace cuda_constants

struct CudaDriverCalls {
  /** Opens libcuda and resolves every entry point. Throws DeviceAccessError naming what is missing. */
  CudaDriverCalls();
  /** Throws DeviceAccessError "<call> failed: <CUDA error name> (<code>)" unless `result` is success. */
  void check(int result, const char* call) const;

  std::unique_ptr<DynamicLibrary> library;
  int (*cuCtxSynchronize)() = nullptr;
  int (*cuCtxGetCurrent)(void** context) = nullptr;
  int (*cuCtxGetDevice)(int* device) = nullptr;
  int (*cuDeviceGetAttribute)(int* value, int attribute, int device) = nullptr;
  int (*cuDeviceGetName)(char* name, int length, int device) = nullptr;
  int (*cuGetErrorName)(int error, const char** name) = nullptr;
  int (*cuMemcpy)(std::uint64_t destination, std::uint64_t source, std::size_t bytes) = nullptr;
  int (*cuMemcpyAsync)(std::uint64_t destination, std::uint64_t source, std::size_t bytes, void* stream) = nullptr;
  int (*cuMemcpyHtoDAsync)(std::uint64_t destination, const void* source, std::size_t bytes, void* stream) = nullptr;
  int (*cuMemcpyDtoHAsync)(void* destination, std::uint64_t source, std::size_t bytes, void* stream) = nullptr;
  int (*cuMemsetD8Async)(std::uint64_t destination, unsigned char value, std::size_t bytes, void* stream) = nullptr;
  int (*cuMemAlloc)(std::uint64_t* address, std::size_t bytes) = nullptr;
  int (*cuMemFree)(std::uint64_t address) = nullptr;
  int (*cuMemHostAlloc)(void** pointer, std::size_t bytes, unsigned flags) = nullptr;
  int (*cuMemFreeHost)(void* pointer) = nullptr;
  int (*cuPointerGetAttribute)(void* data, int attribute, std::uint64_t pointer) = nullptr;
  int (*cuStreamCreate)(void** stream, unsigned flags) = nullptr;
  int (*cuStreamSynchronize)(void* stream) = nullptr;
  int (*cuStreamIsCapturing)(void* stream, int* status) = nullptr;
  int (*cuModuleLoadDataEx)(void** module, const void* image, unsigned count, int* options, void** values) = nullptr;
  int (*cuModuleGetFunction)(void** function, void* module, const char* name) = nullptr;
  int (*cuModuleGetGlobal)(std::uint64_t* address, std::size_t* bytes, void* module, const char* name) = nullptr;
  int (*cuFuncGetModule)(void** module, void* function) = nullptr;
  int (*cuLaunchKernel)(void* function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                        unsigned blockY, unsigned blockZ, unsigned sharedBytes, void* stream, void** parameters,
                        void** extra) = nullptr;
  int (*cuKernelGetFunction)(void** function, void* kernel) = nullptr;  // CUDA 12+, optional
};

}  // namespace kreplay::capture
