// A fake libcuda.so.1 for testing the cuda driver on machines without a GPU: one device whose
// "device memory" is host memory, streams that are worker threads running their work in order,
// events with host timestamps, and modules whose kernels are the driver's own .cu kernels compiled
// for the CPU (fake-kernels.cpp). It implements exactly the entry points the driver resolves. This
// file holds initialization, error names, the device and its one context; the other calls are by
// concept: fake-device-memory.cpp, fake-memory-transfers.cpp, fake-streams.cpp, fake-modules.cpp,
// fake-launches.cpp, the virtual memory calls and host registration in fake-vmm.cpp, graphs and
// stream capture in fake-graph-*.cpp and fake-stream-capture.cpp (see fake-graphs.hpp: work on a
// capturing stream becomes a node there instead of running).
// Build: scripts/build-fake-cuda.sh; use: KREPLAY_CUDA_LIBRARY=build/fake-cuda/libcuda.so.1.
#include <cstddef>
#include <cstring>
#include <map>

#include "fake-cuda-results.hpp"
#include "fake-device-memory.hpp"

void fakeVmmNoteInitialization();  // fake-vmm.cpp

using kreplay_fake::CUdeviceptr;
using kreplay_fake::CUresult;
using kreplay_fake::kInvalidValue;
using kreplay_fake::kSuccess;

struct CUctx_st {
  int device = 0;
};

namespace {

CUctx_st theContext;

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
                                                        {801, "CUDA_ERROR_NOT_SUPPORTED"},
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
  *bytes = kreplay_fake::kDeviceBytes;
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

}  // extern "C"
