// A fake libcuda.so.1 for testing the cuda driver on machines without a GPU: one device whose
// "device memory" is host memory, streams that are worker threads running their work in order,
// events with host timestamps, and modules whose kernels are the driver's own .cu kernels compiled
// for the CPU (fake-kernels.cpp). It implements exactly the entry points the driver resolves.
// Build: scripts/build-fake-cuda.sh; use: KREPLAY_CUDA_LIBRARY=build/fake-cuda/libcuda.so.1.
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fake-fibers.hpp"
#include "fake-kernels.hpp"
#include "fake-streams.hpp"

using CUresult = int;
using CUdeviceptr = unsigned long long;

namespace {

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kNotFound = 500;
constexpr CUresult kNotReady = 600;
constexpr CUresult kHostMemoryAlreadyRegistered = 712;
constexpr CUresult kHostMemoryNotRegistered = 713;
constexpr std::size_t kDeviceBytes = 1ull << 30;

std::mutex memoryMutex;
std::map<CUdeviceptr, std::size_t> deviceBlocks;
std::size_t deviceUsed = 0;

CUresult allocateDevice(CUdeviceptr* pointer, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  if (bytes == 0) return kInvalidValue;
  if (bytes > kDeviceBytes - deviceUsed) return kOutOfMemory;
  void* memory = std::aligned_alloc(512, (bytes + 511) / 512 * 512);
  if (!memory) return kOutOfMemory;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  deviceBlocks[*pointer] = bytes;
  deviceUsed += bytes;
  return kSuccess;
}

CUresult freeDevice(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  const auto found = deviceBlocks.find(pointer);
  if (found == deviceBlocks.end()) return kInvalidValue;
  deviceUsed -= found->second;
  deviceBlocks.erase(found);
  std::free(reinterpret_cast<void*>(pointer));
  return kSuccess;
}

}  // namespace

struct CUctx_st {
  int device = 0;
};

struct CUmod_st {};

struct CUfunc_st {
  const kreplay_fake::FakeKernel* kernel;
};

namespace {

CUctx_st theContext;
CUmod_st theModule;
std::mutex functionsMutex;
std::map<std::string, CUfunc_st> functions;

void runOn(CUstream_st* stream, std::function<void()> task) {
  if (stream) {
    stream->push(std::move(task));
  } else {
    task();
  }
}

/** Every stream not destroyed, for cuCtxSynchronize (one device, one context). */
std::mutex liveStreamsMutex;
std::set<CUstream_st*> liveStreams;

}  // namespace

extern "C" {

CUresult cuInit(unsigned) {
  return kSuccess;
}
CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return kSuccess;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  static const std::map<CUresult, const char*> names = {{0, "CUDA_SUCCESS"},
                                                        {1, "CUDA_ERROR_INVALID_VALUE"},
                                                        {2, "CUDA_ERROR_OUT_OF_MEMORY"},
                                                        {200, "CUDA_ERROR_INVALID_IMAGE"},
                                                        {201, "CUDA_ERROR_INVALID_CONTEXT"},
                                                        {500, "CUDA_ERROR_NOT_FOUND"},
                                                        {600, "CUDA_ERROR_NOT_READY"},
                                                        {999, "CUDA_ERROR_UNKNOWN"}};
  const auto found = names.find(error);
  if (found == names.end()) return kInvalidValue;
  *name = found->second;
  return kSuccess;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  const char* name = nullptr;
  if (cuGetErrorName(error, &name) != kSuccess) return kInvalidValue;
  *text = name;
  return kSuccess;
}

CUresult cuDeviceGetCount(int* count) {
  *count = 1;
  return kSuccess;
}
CUresult cuDeviceGet(int* device, int ordinal) {
  if (ordinal != 0) return kInvalidValue;
  *device = 0;
  return kSuccess;
}
CUresult cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "Fake CUDA device (CPU)", length);
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int* value, int attribute, int) {
  switch (attribute) {
    case 16:
      *value = 2;
      break;  // multiprocessors: grids of at most 16 blocks
    case 75:
      *value = 9;
      break;  // compute capability 9.0
    case 76:
      *value = 0;
      break;
    case 97:
      *value = 227 * 1024;
      break;  // shared memory opt-in
    case 19:
    case 41:
    case 115:
      *value = 1;
      break;  // map host memory, unified addressing, memory pools
    default:
      *value = 0;
  }
  return kSuccess;
}

CUresult cuDeviceTotalMem_v2(std::size_t* bytes, int) {
  *bytes = kDeviceBytes;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(CUctx_st** context, int) {
  *context = &theContext;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) {
  return kSuccess;
}
CUresult cuCtxSetCurrent(CUctx_st*) {
  return kSuccess;
}

CUresult cuMemGetInfo_v2(std::size_t* freeBytes, std::size_t* totalBytes) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  *freeBytes = kDeviceBytes - deviceUsed;
  *totalBytes = kDeviceBytes;
  return kSuccess;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t bytes) {
  return allocateDevice(pointer, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  return freeDevice(pointer);
}
CUresult cuMemAllocAsync(CUdeviceptr* pointer, std::size_t bytes, CUstream_st*) {
  return allocateDevice(pointer, bytes);
}
CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream_st* stream) {
  runOn(stream, [pointer] { freeDevice(pointer); });
  return kSuccess;
}

CUresult cuMemHostAlloc(void** pointer, std::size_t bytes, unsigned) {
  *pointer = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  return *pointer ? kSuccess : kOutOfMemory;
}
CUresult cuMemFreeHost(void* pointer) {
  std::free(pointer);
  return kSuccess;
}

// Registered host memory: the ranges, so that a range registered twice, or unregistered without
// having been registered, is refused as the driver refuses it.
std::mutex registeredMutex;
std::map<void*, std::size_t> registeredHost;

CUresult cuMemHostRegister_v2(void* pointer, std::size_t bytes, unsigned) {
  std::lock_guard<std::mutex> lock(registeredMutex);
  if (!pointer || bytes == 0 || reinterpret_cast<std::uintptr_t>(pointer) % 4096 != 0) return kInvalidValue;
  const auto next = registeredHost.lower_bound(pointer);
  const auto* start = static_cast<const char*>(pointer);
  if (next != registeredHost.end() && static_cast<const char*>(next->first) < start + bytes) return kHostMemoryAlreadyRegistered;
  if (next != registeredHost.begin()) {
    const auto previous = std::prev(next);
    if (static_cast<const char*>(previous->first) + previous->second > start) return kHostMemoryAlreadyRegistered;
  }
  registeredHost[pointer] = bytes;
  return kSuccess;
}
CUresult cuMemHostUnregister(void* pointer) {
  std::lock_guard<std::mutex> lock(registeredMutex);
  return registeredHost.erase(pointer) == 1 ? kSuccess : kHostMemoryNotRegistered;
}
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* device, void* host, unsigned) {
  *device = reinterpret_cast<CUdeviceptr>(host);
  return kSuccess;
}
/** How many host ranges are registered now: read by the tests through dlsym. */
std::size_t kreplayFakeRegisteredHostRanges() {
  std::lock_guard<std::mutex> lock(registeredMutex);
  return registeredHost.size();
}

CUresult cuMemcpy(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  std::memmove(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return kSuccess;
}
CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes, CUstream_st* stream) {
  runOn(stream, [=] { cuMemcpy(destination, source, bytes); });
  return kSuccess;
}
CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value, std::size_t count,
                         CUstream_st* stream) {
  runOn(stream, [=] { std::memset(reinterpret_cast<void*>(destination), value, count); });
  return kSuccess;
}

CUresult cuStreamCreate(CUstream_st** stream, unsigned) {
  *stream = new CUstream_st();
  std::lock_guard<std::mutex> lock(liveStreamsMutex);
  liveStreams.insert(*stream);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(CUstream_st* stream) {
  {
    std::lock_guard<std::mutex> lock(liveStreamsMutex);
    liveStreams.erase(stream);
  }
  stream->drain();
  delete stream;
  return kSuccess;
}
CUresult cuCtxSynchronize() {
  std::lock_guard<std::mutex> lock(liveStreamsMutex);
  for (CUstream_st* stream : liveStreams) stream->drain();
  return kSuccess;
}
CUresult cuStreamSynchronize(CUstream_st* stream) {
  if (stream) stream->drain();
  return kSuccess;
}
CUresult cuStreamWaitEvent(CUstream_st* stream, CUevent_st* event, unsigned) {
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = event->recorded;
  }
  runOn(stream, [event, generation] { event->waitFor(generation); });
  return kSuccess;
}

CUresult cuEventCreate(CUevent_st** event, unsigned) {
  *event = new CUevent_st();
  return kSuccess;
}
CUresult cuEventDestroy_v2(CUevent_st* event) {
  delete event;
  return kSuccess;
}
CUresult cuEventRecord(CUevent_st* event, CUstream_st* stream) {
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = ++event->recorded;
  }
  runOn(stream, [event, generation] { event->complete(generation); });
  return kSuccess;
}
CUresult cuEventQuery(CUevent_st* event) {
  std::lock_guard<std::mutex> lock(event->mutex);
  return event->completed >= event->recorded ? kSuccess : kNotReady;
}
CUresult cuEventSynchronize(CUevent_st* event) {
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = event->recorded;
  }
  event->waitFor(generation);
  return kSuccess;
}
CUresult cuEventElapsedTime_v2(float* milliseconds, CUevent_st* start, CUevent_st* end) {
  std::lock_guard<std::mutex> first(start->mutex);
  if (start == end) {
    *milliseconds = 0;
    return kSuccess;
  }
  std::lock_guard<std::mutex> second(end->mutex);
  if (start->completed < start->recorded || end->completed < end->recorded || start->recorded == 0)
    return kNotReady;
  *milliseconds =
      static_cast<float>((static_cast<double>(end->time) - static_cast<double>(start->time)) / 1e6);
  return kSuccess;
}

CUresult cuModuleLoadDataEx(CUmod_st** module, const void* image, unsigned, int*, void**) {
  const char* text = static_cast<const char*>(image);
  if (std::strstr(text, ".version") == nullptr) return kInvalidImage;
  *module = &theModule;
  return kSuccess;
}
CUresult cuModuleUnload(CUmod_st*) {
  return kSuccess;
}
CUresult cuModuleGetFunction(CUfunc_st** function, CUmod_st*, const char* name) {
  const kreplay_fake::FakeKernel* kernel = kreplay_fake::findKernel(name);
  if (!kernel) return kNotFound;
  std::lock_guard<std::mutex> lock(functionsMutex);
  CUfunc_st& entry = functions[name];
  entry.kernel = kernel;
  *function = &entry;
  return kSuccess;
}
CUresult cuFuncSetAttribute(CUfunc_st*, int, int) {
  return kSuccess;
}

CUresult cuLaunchKernel(CUfunc_st* function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                        unsigned blockY, unsigned blockZ, unsigned, CUstream_st* stream, void** parameters,
                        void**) {
  const kreplay_fake::FakeKernel* kernel = function->kernel;
  std::vector<std::vector<unsigned char>> values;
  for (std::size_t index = 0; index < kernel->parameterBytes.size(); ++index) {
    const auto* bytes = static_cast<const unsigned char*>(parameters[index]);
    values.emplace_back(bytes, bytes + kernel->parameterBytes[index]);
  }
  const kreplay_fake::Dim3 grid{gridX, gridY, gridZ};
  const kreplay_fake::Dim3 block{blockX, blockY, blockZ};
  runOn(stream, [kernel, values, grid, block] {
    const std::function<void()> body = [&] { kernel->run(values); };
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x) kreplay_fake::runBlock(body, {x, y, z}, block, grid);
  });
  return kSuccess;
}

}  // extern "C"
