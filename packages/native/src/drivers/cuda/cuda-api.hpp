// The part of the CUDA driver API (libcuda.so.1) the cuda driver uses, declared here so the addon
// builds without the CUDA toolkit: handle types, the constants we pass, and one function pointer
// per entry point, resolved with dlsym (the versioned `_v2` names where the ABI has them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/dynamic-library.hpp"

namespace kreplay::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = std::uint64_t;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUhostFn = void (*)(void* userData);
using CUmemGenericAllocationHandle = unsigned long long;
using CUgraph = struct CUgraph_st*;
using CUgraphNode = struct CUgraphNode_st*;
using CUgraphExec = struct CUgraphExec_st*;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;

constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_BLOCKING_SYNC = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x2;

// CUdevice_attribute values.
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19;
constexpr int CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33;
constexpr int CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34;
constexpr int CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41;
constexpr int CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;

// CUjit_option values.
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// Virtual memory management (cuMemCreate and friends).
constexpr int CU_MEM_ALLOCATION_TYPE_PINNED = 0x1;
constexpr int CU_MEM_HANDLE_TYPE_NONE = 0x0;
constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 0x1;
constexpr int CU_MEM_LOCATION_TYPE_HOST = 0x2;
constexpr int CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3;
constexpr int CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0x0;
constexpr unsigned CU_MEMHOSTREGISTER_PORTABLE = 0x01;
constexpr unsigned CU_MEMHOSTREGISTER_DEVICEMAP = 0x02;

struct CUmemLocation {
  int type;  // CUmemLocationType
  int id;
};

struct CUmemAllocationProp {
  int type;                  // CUmemAllocationType
  int requestedHandleTypes;  // CUmemAllocationHandleType
  CUmemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};

struct CUmemAccessDesc {
  CUmemLocation location;
  int flags;  // CUmemAccess_flags
};

/** Properties of pinned memory at `location` (a device, or the host), with no shareable handle. */
inline CUmemAllocationProp pinnedAllocation(CUmemLocation location) {
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
  properties.location = location;
  return properties;
}

// Launches: an opaque parameter buffer in `extra`, and cuLaunchKernelEx's configuration.
inline void* const CU_LAUNCH_PARAM_END = reinterpret_cast<void*>(0x00);
inline void* const CU_LAUNCH_PARAM_BUFFER_POINTER = reinterpret_cast<void*>(0x01);
inline void* const CU_LAUNCH_PARAM_BUFFER_SIZE = reinterpret_cast<void*>(0x02);
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;

union alignas(8) CUlaunchAttributeValue {  // cuda.h's holds pointers
  char pad[64];
  struct {
    unsigned x;
    unsigned y;
    unsigned z;
  } clusterDim;
};

struct CUlaunchAttribute {
  int id;  // CUlaunchAttributeID
  char pad[8 - sizeof(int)];
  CUlaunchAttributeValue value;
};

struct CUlaunchConfig {
  unsigned gridDimX;
  unsigned gridDimY;
  unsigned gridDimZ;
  unsigned blockDimX;
  unsigned blockDimY;
  unsigned blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned numAttrs;
};

// Graphs (cuda.h's layouts of the _v1 structures the unsuffixed entry points take).
struct CUDA_KERNEL_NODE_PARAMS {
  CUfunction func;
  unsigned gridDimX;
  unsigned gridDimY;
  unsigned gridDimZ;
  unsigned blockDimX;
  unsigned blockDimY;
  unsigned blockDimZ;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
};

struct CUDA_MEMSET_NODE_PARAMS {
  CUdeviceptr dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};

constexpr int CU_MEMORYTYPE_UNIFIED = 4;

struct CUDA_MEMCPY3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;  // CUmemorytype
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;  // CUmemorytype
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};

/** The entry points, resolved once per driver. */
struct CudaApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemGetInfo)(std::size_t* freeBytes, std::size_t* totalBytes);
  CUresult (*cuMemAlloc)(CUdeviceptr* pointer, std::size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemHostAlloc)(void** pointer, std::size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void* pointer);
  CUresult (*cuMemAllocAsync)(CUdeviceptr* pointer, std::size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
  CUresult (*cuMemcpy)(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes);
  CUresult (*cuMemcpyAsync)(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes, CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, std::size_t count,
                              CUstream stream);
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end);
  CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned optionCount, int* options,
                                 void** optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction function);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                             CUstream stream, void** parameters, void** extra);

  // Optional: nullptr when the library does not export them (the features using them say so).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig* config, CUfunction function, void** parameters,
                               void** extra) = nullptr;
  CUresult (*cuModuleGetGlobal)(CUdeviceptr* pointer, std::size_t* bytes, CUmodule module,
                                const char* name) = nullptr;
  CUresult (*cuMemAddressReserve)(CUdeviceptr* pointer, std::size_t bytes, std::size_t alignment,
                                  CUdeviceptr address, unsigned long long flags) = nullptr;
  CUresult (*cuMemAddressFree)(CUdeviceptr pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemCreate)(CUmemGenericAllocationHandle* handle, std::size_t bytes,
                          const CUmemAllocationProp* properties, unsigned long long flags) = nullptr;
  CUresult (*cuMemRelease)(CUmemGenericAllocationHandle handle) = nullptr;
  CUresult (*cuMemMap)(CUdeviceptr pointer, std::size_t bytes, std::size_t offset,
                       CUmemGenericAllocationHandle handle, unsigned long long flags) = nullptr;
  CUresult (*cuMemUnmap)(CUdeviceptr pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemSetAccess)(CUdeviceptr pointer, std::size_t bytes, const CUmemAccessDesc* descriptions,
                             std::size_t count) = nullptr;
  CUresult (*cuMemGetAllocationGranularity)(std::size_t* granularity, const CUmemAllocationProp* properties,
                                            int option) = nullptr;
  CUresult (*cuMemHostRegister)(void* pointer, std::size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemHostUnregister)(void* pointer) = nullptr;
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr* devicePointer, void* pointer, unsigned flags) = nullptr;
  // Graphs (CudaDriver::createGraph): all of them, or the driver runs no graphs.
  CUresult (*cuGraphCreate)(CUgraph* graph, unsigned flags) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph graph) = nullptr;
  CUresult (*cuGraphAddKernelNode)(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                   std::size_t dependencyCount, const CUDA_KERNEL_NODE_PARAMS* parameters) = nullptr;
  CUresult (*cuGraphAddMemsetNode)(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                   std::size_t dependencyCount, const CUDA_MEMSET_NODE_PARAMS* parameters,
                                   CUcontext context) = nullptr;
  CUresult (*cuGraphAddMemcpyNode)(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                   std::size_t dependencyCount, const CUDA_MEMCPY3D* parameters,
                                   CUcontext context) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec* exec, CUgraph graph, unsigned long long flags) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream) = nullptr;

  /** Whether every graph entry point was found. */
  bool hasGraphs() const {
    return cuGraphCreate && cuGraphDestroy && cuGraphAddKernelNode && cuGraphAddMemsetNode && cuGraphAddMemcpyNode &&
           cuGraphInstantiateWithFlags && cuGraphExecDestroy && cuGraphLaunch;
  }

  /** "CUDA_ERROR_OUT_OF_MEMORY" for 2, or "CUDA error 2" when the library does not know the code. */
  std::string errorName(CUresult result) const;
  /** The library's description of a code. */
  std::string errorText(CUresult result) const;
};

/** libcuda.so.1 opened and its entry points resolved; kept alive by everything that calls it. */
struct CudaLibrary {
  std::unique_ptr<DynamicLibrary> library;
  CudaApi api{};
};

/** Whether this process has loaded libcuda (by this addon or by anything else) so far. */
bool cudaLibraryLoaded();

/**
 * libcuda.so.1 (or the file KREPLAY_CUDA_LIBRARY names) with every entry point resolved, loaded once
 * for the process.
 * @throws std::runtime_error naming the library (not found) or the missing entry point.
 */
std::shared_ptr<const CudaLibrary> loadCudaLibrary();

}  // namespace kreplay::cuda
