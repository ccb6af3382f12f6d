// A stand-in for libcupti.so and the libcuda calls the capture library makes, over host memory, so
// that the CUPTI glue runs end to end without a GPU (kreplay-capture-test --drive-injection,
// capture-injection.test.ts). Device addresses are host addresses. Test hooks: fakeCuptiInvoke calls
// the subscribed callback; fakeCuptiEnabled says whether a callback was enabled; fakeCuda* counters
// say what the library asked of the "device". As a driver raises callbacks for the library's own
// calls, its cuMemcpy raises a cuMemAlloc_v2 callback for an address nobody can read, its
// cuModuleLoadDataEx the module-loaded resource callback, and its cuLaunchKernel of the page-hash
// kernel a cuLaunchKernel callback: the library must ignore them all. That launch computes the hashes
// with core's pageHash, over the span table the library uploaded. Its cuLaunchKernel of a function
// fakeCuptiNameKernel named raises the program's launch callbacks (entry and exit) and runs nothing.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "capture/inject/cupti-callback-api.hpp"
#include "core/page-hash.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace cu = kreplay::capture::cupti;

namespace {

cu::CallbackFunction subscribed = nullptr;
void* subscribedData = nullptr;
std::set<std::pair<int, std::uint32_t>> enabled;
std::uint8_t counter[4] = {5, 5, 5, 5};
bool raising = false;

void raiseOwnAllocation() {
  if (subscribed == nullptr || raising) return;
  raising = true;
  static cu::CUdeviceptr unreadable = 0xdead0000;
  static cu::MemAllocParams params{&unreadable, 4096};
  static cu::CUresult success = 0;
  cu::CallbackData data{};
  data.callbackSite = cu::kApiExit;
  data.functionName = "cuMemAlloc_v2";
  data.functionParams = &params;
  data.functionReturnValue = &success;
  subscribed(subscribedData, cu::kDomainDriverApi, cu::cbid::cuMemAlloc_v2, &data);
  raising = false;
}

void* const kHashBlock = reinterpret_cast<void*>(0xb10c);
void* const kHashWarp = reinterpret_cast<void*>(0xba52);
void* const kHashModule = reinterpret_cast<void*>(0x4a54);
std::uint64_t hashModuleLoads = 0;
std::uint64_t hashLaunches = 0;
std::uint64_t hashedBytes = 0;
std::uint64_t stagedBytes = 0;
std::uint64_t pinnedAllocations = 0;

void raiseOwnModuleLoaded(const void* image) {
  if (subscribed == nullptr) return;
  cu::ModuleResourceData module{999, std::strlen(static_cast<const char*>(image)), static_cast<const char*>(image)};
  cu::ResourceData resource{nullptr, nullptr, &module};
  subscribed(subscribedData, cu::kDomainResource, cu::kResourceModuleLoaded, &resource);
}

void raiseLaunch(cu::LaunchKernelParams& params, int site, const char* symbol) {
  if (subscribed == nullptr) return;
  static cu::CUresult success = 0;
  cu::CallbackData data{};
  data.callbackSite = site;
  data.functionName = "cuLaunchKernel";
  data.functionParams = &params;
  data.functionReturnValue = &success;
  data.symbolName = symbol;
  subscribed(subscribedData, cu::kDomainDriverApi, cu::cbid::cuLaunchKernel, &data);
}

// The program's kernels that cuLaunchKernel knows (fakeCuptiNameKernel): their launches raise the
// launch callbacks and run nothing.
std::map<void*, std::string> programKernels;

/** The page-hash kernel (kernels-cuda/hash-pages.cu) on the host. */
void hashPages(void** parameters) {
  const auto* spans = *static_cast<const KreplaySpan* const*>(parameters[0]);
  const std::uint32_t count = *static_cast<const std::uint32_t*>(parameters[1]);
  const std::uint64_t pageBytes = *static_cast<const std::uint64_t*>(parameters[2]);
  auto* hashes = *static_cast<std::uint64_t* const*>(parameters[4]);
  for (std::uint32_t s = 0; s < count; ++s) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(spans[s].source);
    for (std::uint64_t at = 0, page = spans[s].firstPage; at < spans[s].bytes; at += pageBytes, ++page)
      hashes[page] = kreplay::pageHash(bytes + at, std::min(pageBytes, spans[s].bytes - at));
    hashedBytes += spans[s].bytes;
  }
}

}  // namespace

#define FAKE extern "C" __attribute__((visibility("default")))

FAKE int cuptiSubscribe(cu::SubscriberHandle* subscriber, cu::CallbackFunction callback, void* userdata) {
  subscribed = callback;
  subscribedData = userdata;
  *subscriber = reinterpret_cast<cu::SubscriberHandle>(0x1);
  return 0;
}
FAKE int cuptiEnableCallback(std::uint32_t enable, cu::SubscriberHandle, int domain, std::uint32_t cbid) {
  if (enable) enabled.insert({domain, cbid});
  return 0;
}
FAKE int fakeCuptiInvoke(int domain, std::uint32_t cbid, const void* data) {
  if (subscribed == nullptr || enabled.count({domain, cbid}) == 0) return 0;
  subscribed(subscribedData, domain, cbid, data);
  return 1;
}
/** Test hook: cuLaunchKernel of `function` is a launch of the program's kernel `name` (callbacks, nothing run). */
FAKE void fakeCuptiNameKernel(void* function, const char* name) {
  programKernels[function] = name;
}
FAKE int fakeCuptiEnabled(int domain, std::uint32_t cbid) {
  return enabled.count({domain, cbid}) != 0 ? 1 : 0;
}
FAKE std::uint64_t fakeCudaCounterAddress() {
  return reinterpret_cast<std::uint64_t>(counter);
}

FAKE int cuCtxSynchronize() {
  return 0;
}
FAKE int cuMemcpy(std::uint64_t destination, std::uint64_t source, std::size_t bytes) {
  raiseOwnAllocation();
  std::memcpy(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return 0;
}
FAKE int cuStreamIsCapturing(void*, int* status) {
  *status = 0;
  return 0;
}
FAKE int cuFuncGetModule(void** module, void*) {
  *module = reinterpret_cast<void*>(0x5000);
  return 0;
}
FAKE int cuModuleGetGlobal_v2(std::uint64_t* address, std::size_t* bytes, void*, const char* name) {
  if (std::strcmp(name, "counter") != 0) return 500;  // CUDA_ERROR_NOT_FOUND
  *address = reinterpret_cast<std::uint64_t>(counter);
  *bytes = sizeof counter;
  return 0;
}
FAKE int cuCtxGetDevice(int* device) {
  *device = 0;
  return 0;
}
FAKE int cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0;  // compute capability 9.0
  return 0;
}
FAKE int cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "Fake CUPTI device", static_cast<std::size_t>(length));
  return 0;
}
FAKE int cuGetErrorName(int, const char** name) {
  *name = "CUDA_ERROR_FAKE";
  return 0;
}
FAKE std::uint64_t fakeCudaHashModuleLoads() {
  return hashModuleLoads;
}
FAKE std::uint64_t fakeCudaHashLaunches() {
  return hashLaunches;
}
FAKE std::uint64_t fakeCudaHashedBytes() {
  return hashedBytes;
}
FAKE std::uint64_t fakeCudaStagedBytes() {
  return stagedBytes;
}
FAKE std::uint64_t fakeCudaPinnedAllocations() {
  return pinnedAllocations;
}

FAKE int cuCtxGetCurrent(void** context) {
  *context = reinterpret_cast<void*>(0xc0);
  return 0;
}
FAKE int cuModuleLoadDataEx(void** module, const void* image, unsigned, int*, void**) {
  hashModuleLoads += 1;
  raiseOwnModuleLoaded(image);
  *module = kHashModule;
  return 0;
}
FAKE int cuModuleGetFunction(void** function, void* module, const char* name) {
  if (module != kHashModule) return 400;  // CUDA_ERROR_INVALID_HANDLE
  if (std::strcmp(name, "kreplay_hash_pages_block") == 0) *function = kHashBlock;
  else if (std::strcmp(name, "kreplay_hash_pages_warp") == 0) *function = kHashWarp;
  else return 500;  // CUDA_ERROR_NOT_FOUND
  return 0;
}
FAKE int cuLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void* stream, void** parameters, void** extra) {
  cu::LaunchKernelParams params{static_cast<cu::CUfunction>(function), gx, gy, gz, bx, by, bz, shared,
                                static_cast<cu::CUstream>(stream), parameters, extra};
  if (const auto program = programKernels.find(function); program != programKernels.end()) {
    raiseLaunch(params, cu::kApiEnter, program->second.c_str());
    raiseLaunch(params, cu::kApiExit, program->second.c_str());
    return 0;
  }
  if (function != kHashBlock && function != kHashWarp) return 400;
  raiseLaunch(params, cu::kApiEnter, "kreplay_hash_pages_block");
  hashLaunches += 1;
  hashPages(parameters);
  raiseLaunch(params, cu::kApiExit, "kreplay_hash_pages_block");
  return 0;
}
FAKE int cuStreamCreate(void** stream, unsigned) {
  *stream = reinterpret_cast<void*>(0x5eed);
  return 0;
}
FAKE int cuStreamSynchronize(void*) {
  return 0;
}
FAKE int cuMemAlloc_v2(std::uint64_t* address, std::size_t bytes) {
  *address = reinterpret_cast<std::uint64_t>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  return 0;
}
FAKE int cuMemFree_v2(std::uint64_t address) {
  std::free(reinterpret_cast<void*>(address));
  return 0;
}
FAKE int cuMemsetD8Async(std::uint64_t destination, unsigned char value, std::size_t bytes, void*) {
  std::memset(reinterpret_cast<void*>(destination), value, bytes);
  return 0;
}
FAKE int cuMemcpyHtoDAsync_v2(std::uint64_t destination, const void* source, std::size_t bytes, void*) {
  std::memcpy(reinterpret_cast<void*>(destination), source, bytes);
  return 0;
}
FAKE int cuMemcpyDtoHAsync_v2(void* destination, std::uint64_t source, std::size_t bytes, void*) {
  std::memcpy(destination, reinterpret_cast<const void*>(source), bytes);
  return 0;
}
FAKE int cuMemcpyAsync(std::uint64_t destination, std::uint64_t source, std::size_t bytes, void*) {
  stagedBytes += bytes;
  std::memcpy(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return 0;
}
FAKE int cuMemHostAlloc(void** pointer, std::size_t bytes, unsigned) {
  pinnedAllocations += 1;
  *pointer = std::malloc(bytes);
  return 0;
}
FAKE int cuMemFreeHost(void* pointer) {
  std::free(pointer);
  return 0;
}
FAKE int cuPointerGetAttribute(void*, int, std::uint64_t) {
  return 1;  // CUDA_ERROR_INVALID_VALUE: the context cannot be told
}
