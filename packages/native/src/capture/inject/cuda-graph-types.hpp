// cuda.h's structures and constants the capture library's graph calls take (cuda-graphs.cpp,
// cuda-graph-nodes.cpp), declared here so it builds without the CUDA toolkit;
// test/cupti-callback-api-check.cpp compares them with cuda.h, and the program in
// test/gpu/cuda-graphs-program/ runs them on a GPU. Also the libcuda graph calls CudaGraphs resolves.
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/inject/cuda-graphs.hpp"

namespace kreplay::capture::cuda_graph {

struct KernelNodeParams {  // CUDA_KERNEL_NODE_PARAMS_v2 (v1: the fields before kern; v3: the same as v2)
  void* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;  // v2 only
  void* ctx;   // v2 only
};
struct MemsetNodeParams {  // CUDA_MEMSET_NODE_PARAMS
  std::uint64_t dst;
  std::size_t pitch;
  unsigned value, elementSize;
  std::size_t width, height;
};
struct Memcpy3D {  // CUDA_MEMCPY3D
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  std::uint64_t srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  std::uint64_t dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct MemAllocNodeParams {  // CUDA_MEM_ALLOC_NODE_PARAMS
  unsigned char poolProps[88];
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  std::uint64_t dptr;
};
/** CUgraphNodeParams (cuGraphExecNodeSetParams, cuGraphNodeSetParams): a node type and a union, copied whole. */
struct NodeParams {
  unsigned char bytes[256];
};
constexpr unsigned long long kDeviceLaunchFlag = 4;  // CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH
constexpr int kHostMemory = 1, kArrayMemory = 3;      // CUmemorytype
constexpr int kNotSupported = 801;                    // CUDA_ERROR_NOT_SUPPORTED

}  // namespace kreplay::capture::cuda_graph

namespace kreplay::capture {

/** libcuda's graph calls, resolved by CudaGraphs' constructor (those marked optional may be null). */
struct CudaGraphs::Calls {
  using KernelNodeParams = cuda_graph::KernelNodeParams;
  int (*cuGraphClone)(void**, void*) = nullptr;
  int (*cuGraphDestroy)(void*) = nullptr;
  int (*cuGraphGetNodes)(void*, void**, std::size_t*) = nullptr;
  int (*cuGraphNodeGetType)(void*, int*) = nullptr;
  int (*cuGraphNodeGetDependencies)(void*, void**, std::size_t*) = nullptr;
  int (*cuGraphNodeGetDependencies_v2)(void*, void**, void*, std::size_t*) = nullptr;
  int (*cuGraphKernelNodeGetParams)(void*, KernelNodeParams*) = nullptr;  // _v2
  int (*cuGraphKernelNodeSetParams)(void*, const KernelNodeParams*) = nullptr;  // _v2
  int (*cuGraphMemsetNodeGetParams)(void*, cuda_graph::MemsetNodeParams*) = nullptr;
  int (*cuGraphMemsetNodeSetParams)(void*, const cuda_graph::MemsetNodeParams*) = nullptr;  // optional
  int (*cuGraphMemcpyNodeGetParams)(void*, cuda_graph::Memcpy3D*) = nullptr;
  int (*cuGraphMemcpyNodeSetParams)(void*, const cuda_graph::Memcpy3D*) = nullptr;  // optional
  int (*cuGraphNodeSetParams)(void*, cuda_graph::NodeParams*) = nullptr;  // optional (CUDA 12.2)
  int (*cuGraphMemAllocNodeGetParams)(void*, cuda_graph::MemAllocNodeParams*) = nullptr;
  int (*cuGraphMemFreeNodeGetParams)(void*, std::uint64_t*) = nullptr;
  int (*cuFuncGetName)(const char**, void*) = nullptr;
  int (*cuKernelGetFunction)(void**, void*) = nullptr;  // optional
  int (*cuLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                        void**) = nullptr;
  int (*cuMemsetD8Async)(std::uint64_t, unsigned char, std::size_t, void*) = nullptr;
  int (*cuMemsetD16Async)(std::uint64_t, unsigned short, std::size_t, void*) = nullptr;
  int (*cuMemsetD32Async)(std::uint64_t, unsigned, std::size_t, void*) = nullptr;
  int (*cuMemcpyAsync)(std::uint64_t, std::uint64_t, std::size_t, void*) = nullptr;
  int (*cuMemcpy)(std::uint64_t, std::uint64_t, std::size_t) = nullptr;
  int (*cuMemAlloc)(std::uint64_t*, std::size_t) = nullptr;
  int (*cuMemFree)(std::uint64_t) = nullptr;
  int (*cuCtxSynchronize)() = nullptr;
  int (*cuGetErrorName)(int, const char**) = nullptr;
};

}  // namespace kreplay::capture
