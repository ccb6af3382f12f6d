// The cuda.h structures the fake libcuda's graph calls take, field for field (sizes checked against
// cuda.h's), for the graph files (fake-graph-*.cpp, fake-stream-capture.cpp).
#pragma once

#include <cstddef>

#include "fake-cuda-results.hpp"
#include "fake-launches.hpp"

struct CUstream_st;
struct CUgraphNode_st;

extern "C" {

struct CUDA_KERNEL_NODE_PARAMS_v1 {
  CUfunc_st* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct CUDA_KERNEL_NODE_PARAMS_v2 {
  CUfunc_st* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;  // CUkernel: the fake takes functions only
  void* ctx;
};
struct CUDA_MEMSET_NODE_PARAMS {
  kreplay_fake::CUdeviceptr dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};
struct CUDA_MEMCPY3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  kreplay_fake::CUdeviceptr srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  kreplay_fake::CUdeviceptr dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct CUDA_HOST_NODE_PARAMS {
  void (*fn)(void*);
  void* userData;
};
struct CUDA_MEM_ALLOC_NODE_PARAMS {
  unsigned char poolProps[88];  // CUmemPoolProps
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  kreplay_fake::CUdeviceptr dptr;
};
/** CUgraphNodeParams: the fake reads its kernel, memcpy and memset members. */
struct CUgraphNodeParams {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    CUDA_KERNEL_NODE_PARAMS_v2 kernel;  // CUDA_KERNEL_NODE_PARAMS_v3: the same fields
    struct {
      int flags, reserved;
      void* copyCtx;
      CUDA_MEMCPY3D copyParams;
    } memcpy;  // CUDA_MEMCPY_NODE_PARAMS
    struct {
      CUDA_MEMSET_NODE_PARAMS params;
      void* ctx;
    } memset;  // CUDA_MEMSET_NODE_PARAMS_v2
  };
  long long reserved2;
};
struct CUDA_GRAPH_INSTANTIATE_PARAMS {
  unsigned long long flags;
  CUstream_st* hUploadStream;
  struct CUgraphNode_st* hErrNode_out;
  int result_out;
};
struct CUgraphExecUpdateResultInfo {
  int result;
  struct CUgraphNode_st* errorNode;
  struct CUgraphNode_st* errorFromNode;
};

}  // extern "C"

static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS_v2) == 72, "cuda.h's CUDA_KERNEL_NODE_PARAMS_v2");
static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == 40, "cuda.h's CUDA_MEMSET_NODE_PARAMS");
static_assert(sizeof(CUDA_MEMCPY3D) == 200, "cuda.h's CUDA_MEMCPY3D");
static_assert(sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == 120, "cuda.h's CUDA_MEM_ALLOC_NODE_PARAMS");
static_assert(sizeof(CUgraphNodeParams) == 256, "cuda.h's CUgraphNodeParams");
