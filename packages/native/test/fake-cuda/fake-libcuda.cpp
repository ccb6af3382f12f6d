// A fake libcuda.so.1 for testing the cuda driver on machines without a GPU: one device whose
// "device memory" is host memory, streams that are worker threads running their work in order,
// events with host timestamps, and modules whose kernels are the driver's own .cu kernels compiled
// for the CPU (fake-kernels.cpp). It implements exactly the entry points the driver resolves; the
// virtual memory calls and host registration are in fake-vmm.cpp, graphs and stream capture in
// fake-graphs.cpp (work on a capturing stream becomes a node there instead of running).
// Build: scripts/build-fake-cuda.sh; use: KREPLAY_CUDA_LIBRARY=build/fake-cuda/libcuda.so.1.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
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
#include "fake-graphs.hpp"
#include "fake-kernels.hpp"
#include "fake-streams.hpp"

void fakeVmmNoteInitialization();  // fake-vmm.cpp

using CUresult = int;
using CUdeviceptr = unsigned long long;

namespace {

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kUnsupportedPtxVersion = 222;
constexpr CUresult kNotFound = 500;
constexpr CUresult kNotReady = 600;
constexpr CUresult kInvalidClusterSize = 912;
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
  if (kreplay_fake::isGraphAllocation(pointer)) return kSuccess;  // freed with its graph
  std::lock_guard<std::mutex> lock(memoryMutex);
  const auto found = deviceBlocks.find(pointer);
  if (found == deviceBlocks.end()) return kInvalidValue;
  deviceUsed -= found->second;
  deviceBlocks.erase(found);
  std::free(reinterpret_cast<void*>(pointer));
  return kSuccess;
}

}  // namespace

namespace kreplay_fake {

CUresult allocateDeviceMemory(CUdeviceptr* pointer, std::size_t bytes) {
  return allocateDevice(pointer, bytes);
}
CUresult freeDeviceMemory(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  const auto found = deviceBlocks.find(pointer);
  if (found == deviceBlocks.end()) return kInvalidValue;
  deviceUsed -= found->second;
  deviceBlocks.erase(found);
  std::free(reinterpret_cast<void*>(pointer));
  return kSuccess;
}

}  // namespace kreplay_fake

struct CUctx_st {
  int device = 0;
};

/** A loaded module: its own copy of the fixture globals (zeroed, 256-byte aligned). */
struct CUmod_st {
  std::map<std::string, std::pair<void*, std::size_t>> globals;
  CUmod_st() {
    for (const auto& global : kreplay_fake::moduleGlobals()) {
      void* storage = std::aligned_alloc(256, (global.bytes + 255) / 256 * 256);
      std::memset(storage, 0, global.bytes);
      globals[global.name] = {storage, global.bytes};
    }
  }
  ~CUmod_st() {
    for (auto& entry : globals) std::free(entry.second.first);
  }
};

namespace {

CUctx_st theContext;
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
  fakeVmmNoteInitialization();
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
                                                        {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
                                                        {201, "CUDA_ERROR_INVALID_CONTEXT"},
                                                        {500, "CUDA_ERROR_NOT_FOUND"},
                                                        {600, "CUDA_ERROR_NOT_READY"},
                                                        {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
                                                        {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
                                                        {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
                                                        {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
                                                        {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
                                                        {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
                                                        {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
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
CUresult cuMemAllocAsync(CUdeviceptr* pointer, std::size_t bytes, CUstream_st* stream) {
  CUresult result = kSuccess;
  if (kreplay_fake::captureAllocation(stream, pointer, bytes, result)) return result;
  return allocateDevice(pointer, bytes);
}
CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream_st* stream) {
  if (kreplay_fake::captureFree(stream, pointer)) return kSuccess;
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


CUresult cuMemcpy(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  std::memmove(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  return kSuccess;
}
CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes, CUstream_st* stream) {
  if (kreplay_fake::captureCopy(stream, destination, source, bytes)) return kSuccess;
  runOn(stream, [=] { cuMemcpy(destination, source, bytes); });
  return kSuccess;
}
CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value, std::size_t count,
                         CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 1, count)) return kSuccess;
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
  if (kreplay_fake::invalidateCaptureOnSynchronize(stream)) return 900;  // CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
  if (stream) stream->drain();
  return kSuccess;
}
CUresult cuStreamWaitEvent(CUstream_st* stream, CUevent_st* event, unsigned) {
  if (kreplay_fake::captureEventWait(stream, event)) return kSuccess;
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
  if (kreplay_fake::captureEventRecord(stream, event)) return kSuccess;
  event->capture = 0;
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
  // PTX text or an ELF cubin alike: the fake finds kernels by name, whatever the image holds.
  if (!image || *static_cast<const unsigned char*>(image) == 0) return kInvalidImage;
  // Except PTX of an ISA newer than the 9.0 a CUDA 13.0 driver takes, which a real driver refuses.
  const char* text = static_cast<const char*>(image);
  if (text[0] == '/' || text[0] == '.' || text[0] == ' ' || text[0] == '\n' || text[0] == '\t') {
    const char* version = std::strstr(text, ".version ");
    if (version && std::atof(version + 9) > 9.0 + 1e-9) return kUnsupportedPtxVersion;
  }
  *module = new CUmod_st();
  return kSuccess;
}
CUresult cuModuleUnload(CUmod_st* module) {
  delete module;
  return kSuccess;
}
CUresult cuModuleGetGlobal_v2(CUdeviceptr* pointer, std::size_t* bytes, CUmod_st* module, const char* name) {
  const auto found = module->globals.find(name);
  if (found == module->globals.end()) return kNotFound;
  if (pointer) *pointer = reinterpret_cast<CUdeviceptr>(found->second.first);
  if (bytes) *bytes = found->second.second;
  return kSuccess;
}
CUresult cuModuleGetFunction(CUfunc_st** function, CUmod_st*, const char* name) {
  const kreplay_fake::FakeKernel* kernel = kreplay_fake::findKernel(name);
  if (!kernel) return kNotFound;
  std::lock_guard<std::mutex> lock(functionsMutex);
  const auto made = functions.try_emplace(name).first;
  CUfunc_st& entry = made->second;
  entry.kernel = kernel;
  entry.name = made->first.c_str();
  *function = &entry;
  return kSuccess;
}
CUresult cuFuncSetAttribute(CUfunc_st*, int, int) {
  return kSuccess;
}
CUresult cuFuncGetName(const char** name, CUfunc_st* function) {
  *name = function->name;
  return kSuccess;
}
CUresult cuFuncGetModule(CUmod_st** module, CUfunc_st*) {
  static CUmod_st* const unknown = nullptr;  // the fake does not keep which module a function came from
  *module = unknown;
  return kNotFound;
}

// What the capture library (src/capture/inject) asks of libcuda beyond the driver's calls.
CUresult cuCtxGetCurrent(CUctx_st** context) {
  *context = &theContext;
  return kSuccess;
}
CUresult cuCtxGetDevice(int* device) {
  *device = 0;
  return kSuccess;
}
CUresult cuPointerGetAttribute(void*, int, CUdeviceptr) {
  return kInvalidValue;  // the context of memory cannot be told
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void* source, std::size_t bytes, CUstream_st* stream) {
  return cuMemcpyAsync(destination, reinterpret_cast<CUdeviceptr>(source), bytes, stream);
}
CUresult cuMemcpyDtoHAsync_v2(void* destination, CUdeviceptr source, std::size_t bytes, CUstream_st* stream) {
  return cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination), source, bytes, stream);
}
CUresult cuMemsetD16Async(CUdeviceptr destination, unsigned short value, std::size_t count, CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 2, count)) return kSuccess;
  runOn(stream, [=] {
    for (std::size_t index = 0; index < count; ++index) std::memcpy(reinterpret_cast<void*>(destination + 2 * index), &value, 2);
  });
  return kSuccess;
}
CUresult cuMemsetD32Async(CUdeviceptr destination, unsigned value, std::size_t count, CUstream_st* stream) {
  if (kreplay_fake::captureMemset(stream, destination, value, 4, count)) return kSuccess;
  runOn(stream, [=] {
    for (std::size_t index = 0; index < count; ++index) std::memcpy(reinterpret_cast<void*>(destination + 4 * index), &value, 4);
  });
  return kSuccess;
}

}  // extern "C"

namespace kreplay_fake {

/**
 * The parameter values of a launch: from `parameters` (one pointer per parameter), or from the
 * buffer `extra` passes (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE), laid out as the C ABI lays out the
 * kernel's parameters. Empty (with `valid` false) when the buffer has the wrong size.
 */
ParameterValues launchValues(const FakeKernel& kernel, void** parameters, void** extra, bool& valid) {
  std::vector<std::vector<unsigned char>> values;
  valid = true;
  const unsigned char* buffer = nullptr;
  std::size_t bufferBytes = 0;
  bool hasSize = false;
  for (std::size_t index = 0; extra && extra[index]; index += 2) {
    const auto key = reinterpret_cast<std::uintptr_t>(extra[index]);
    if (key == 1) buffer = static_cast<const unsigned char*>(extra[index + 1]);
    if (key == 2) {
      bufferBytes = *static_cast<const std::size_t*>(extra[index + 1]);
      hasSize = true;
    }
  }
  if (!buffer) {
    if (!parameters && !kernel.parameterBytes.empty()) valid = false;
    for (std::size_t index = 0; valid && index < kernel.parameterBytes.size(); ++index) {
      const auto* bytes = static_cast<const unsigned char*>(parameters[index]);
      values.emplace_back(bytes, bytes + kernel.parameterBytes[index]);
    }
    return values;
  }
  std::size_t offset = 0;
  std::size_t largest = 1;
  for (std::size_t index = 0; index < kernel.parameterBytes.size(); ++index) {
    const std::size_t alignment = kernel.parameterAlignments[index];
    largest = std::max(largest, alignment);
    offset = (offset + alignment - 1) / alignment * alignment;
    if (offset + kernel.parameterBytes[index] > bufferBytes) break;
    values.emplace_back(buffer + offset, buffer + offset + kernel.parameterBytes[index]);
    offset += kernel.parameterBytes[index];
  }
  const std::size_t expected = (offset + largest - 1) / largest * largest;
  valid = hasSize && values.size() == kernel.parameterBytes.size() && (bufferBytes == expected || bufferBytes == offset);
  return values;
}

void runKernel(const FakeKernel& kernel, const ParameterValues& values, Dim3 grid, Dim3 block) {
  const std::function<void()> body = [&] { kernel.run(values); };
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) runBlock(body, {x, y, z}, block, grid);
}

}  // namespace kreplay_fake

namespace {

CUresult launch(CUfunc_st* function, kreplay_fake::Dim3 grid, kreplay_fake::Dim3 block, unsigned sharedBytes,
                CUstream_st* stream, void** parameters, void** extra) {
  const kreplay_fake::FakeKernel* kernel = function->kernel;
  bool valid = false;
  kreplay_fake::ParameterValues values = kreplay_fake::launchValues(*kernel, parameters, extra, valid);
  if (!valid) return kInvalidValue;
  if (kreplay_fake::captureKernel(stream, function, grid, block, sharedBytes, values)) return kSuccess;
  runOn(stream, [kernel, values = std::move(values), grid, block] {
    kreplay_fake::runKernel(*kernel, values, grid, block);
  });
  return kSuccess;
}

/** The part of CUlaunchConfig and CUlaunchAttribute the fake reads (cuda.h's layout). */
struct LaunchAttribute {
  int id;
  char pad[4];
  union alignas(8) {  // cuda.h's holds pointers
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream_st* hStream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};

}  // namespace

extern "C" {

CUresult cuLaunchKernel(CUfunc_st* function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                        unsigned blockY, unsigned blockZ, unsigned sharedBytes, CUstream_st* stream, void** parameters,
                        void** extra) {
  return launch(function, {gridX, gridY, gridZ}, {blockX, blockY, blockZ}, sharedBytes, stream, parameters, extra);
}

// Clusters, as CUDA checks them: each dimension divides the grid's, at most 8 blocks in all. The
// blocks of a cluster run one after another like any others (no distributed shared memory).
CUresult cuLaunchKernelEx(const LaunchConfig* config, CUfunc_st* function, void** parameters, void** extra) {
  for (unsigned index = 0; index < config->numAttrs; ++index) {
    const LaunchAttribute& attribute = config->attrs[index];
    if (attribute.id != 4) continue;  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    const auto& cluster = attribute.value.clusterDim;
    if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || config->gridDimX % cluster.x != 0 ||
        config->gridDimY % cluster.y != 0 || config->gridDimZ % cluster.z != 0 ||
        cluster.x * cluster.y * cluster.z > 8)
      return kInvalidClusterSize;
  }
  return launch(function, {config->gridDimX, config->gridDimY, config->gridDimZ},
                {config->blockDimX, config->blockDimY, config->blockDimZ}, config->sharedMemBytes, config->hStream,
                parameters, extra);
}

}  // extern "C"
