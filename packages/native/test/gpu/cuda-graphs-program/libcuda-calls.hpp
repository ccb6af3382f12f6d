// The libcuda calls the CUDA graphs check program makes, opened with dlopen (no CUDA SDK): cuda.h's
// graph structures (CUDA 12 and 13), one pointer per entry point, and CALL, which stops the program with
// "FAILED <call> returned <result>" when a call does not return CUDA_SUCCESS.
#pragma once

#include <cstddef>

using CUresult = int;
using Ptr = unsigned long long;
using Handle = void*;

// cuda.h's structures (CUDA 12 and 13).
struct KernelNodeParams {
  Handle func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  Handle kern;
  Handle ctx;
};
struct MemsetNodeParams {
  Ptr dst;
  std::size_t pitch;
  unsigned value, elementSize;
  std::size_t width, height;
};
struct Memcpy3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  Ptr srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  Ptr dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct HostNodeParams {
  void (*fn)(void*);
  void* userData;
};
struct MemAllocNodeParams {
  struct {
    int allocType, handleTypes, locationType, locationId;
    void* win32SecurityAttributes;
    unsigned char rest[64];
  } poolProps;
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  Ptr dptr;
};
struct ExecUpdateResultInfo {
  int result;
  Handle errorNode, errorFromNode;
};

/** The entry points the checks call, each named as libcuda names it. */
struct Libcuda {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(int*, int);
  CUresult (*cuDevicePrimaryCtxRetain)(Handle*, int);
  CUresult (*cuCtxSetCurrent)(Handle);
  CUresult (*cuModuleLoadDataEx)(Handle*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleGetFunction)(Handle*, Handle, const char*);
  CUresult (*cuMemAlloc_v2)(Ptr*, std::size_t);
  CUresult (*cuMemcpy)(Ptr, Ptr, std::size_t);
  CUresult (*cuStreamCreate)(Handle*, unsigned);
  CUresult (*cuStreamSynchronize)(Handle);
  CUresult (*cuEventCreate)(Handle*, unsigned);
  CUresult (*cuEventRecord)(Handle, Handle);
  CUresult (*cuEventSynchronize)(Handle);
  CUresult (*cuStreamWaitEvent)(Handle, Handle, unsigned);
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             Handle, void**, void**);
  CUresult (*cuMemsetD8Async)(Ptr, unsigned char, std::size_t, Handle);
  CUresult (*cuMemcpyAsync)(Ptr, Ptr, std::size_t, Handle);
  CUresult (*cuMemAllocAsync)(Ptr*, std::size_t, Handle);
  CUresult (*cuMemFreeAsync)(Ptr, Handle);
  CUresult (*cuGraphCreate)(Handle*, unsigned);
  CUresult (*cuGraphDestroy)(Handle);
  CUresult (*cuGraphClone)(Handle*, Handle);
  CUresult (*cuGraphAddKernelNode_v2)(Handle*, Handle, const Handle*, std::size_t, const KernelNodeParams*);
  CUresult (*cuGraphAddMemsetNode)(Handle*, Handle, const Handle*, std::size_t, const MemsetNodeParams*,
                                   Handle);
  CUresult (*cuGraphAddMemcpyNode)(Handle*, Handle, const Handle*, std::size_t, const Memcpy3D*, Handle);
  CUresult (*cuGraphAddHostNode)(Handle*, Handle, const Handle*, std::size_t, const HostNodeParams*);
  CUresult (*cuGraphAddEmptyNode)(Handle*, Handle, const Handle*, std::size_t);
  CUresult (*cuGraphAddChildGraphNode)(Handle*, Handle, const Handle*, std::size_t, Handle);
  CUresult (*cuGraphAddEventRecordNode)(Handle*, Handle, const Handle*, std::size_t, Handle);
  CUresult (*cuGraphAddMemAllocNode)(Handle*, Handle, const Handle*, std::size_t, MemAllocNodeParams*);
  CUresult (*cuGraphAddMemFreeNode)(Handle*, Handle, const Handle*, std::size_t, Ptr);
  CUresult (*cuGraphGetNodes)(Handle, Handle*, std::size_t*);
  CUresult (*cuGraphGetEdges_v2)(Handle, Handle*, Handle*, void*, std::size_t*);
  CUresult (*cuGraphNodeGetType)(Handle, int*);
  CUresult (*cuGraphNodeGetDependencies_v2)(Handle, Handle*, void*, std::size_t*);
  CUresult (*cuGraphKernelNodeGetParams_v2)(Handle, KernelNodeParams*);
  CUresult (*cuGraphKernelNodeSetParams_v2)(Handle, const KernelNodeParams*);
  CUresult (*cuGraphMemsetNodeGetParams)(Handle, MemsetNodeParams*);
  CUresult (*cuGraphMemcpyNodeGetParams)(Handle, Memcpy3D*);
  CUresult (*cuGraphMemAllocNodeGetParams)(Handle, MemAllocNodeParams*);
  CUresult (*cuGraphInstantiateWithFlags)(Handle*, Handle, unsigned long long);
  CUresult (*cuGraphExecDestroy)(Handle);
  CUresult (*cuGraphLaunch)(Handle, Handle);
  CUresult (*cuGraphExecKernelNodeSetParams_v2)(Handle, Handle, const KernelNodeParams*);
  CUresult (*cuGraphExecUpdate_v2)(Handle, Handle, ExecUpdateResultInfo*);
  CUresult (*cuStreamBeginCapture_v2)(Handle, int);
  CUresult (*cuStreamEndCapture)(Handle, Handle*);
  CUresult (*cuStreamIsCapturing)(Handle, int*);
};

/** The entry points, once openLibcuda has found them all. */
extern Libcuda cuda;

/**
 * Opens `path` (libcuda.so.1 when null or empty) and finds every entry point of Libcuda; false, with
 * the reason printed as "FAILED ...", when the library does not open. Exits 1 when an entry point is
 * missing.
 */
bool openLibcuda(const char* path);

/** Stops the program ("FAILED <call> returned <result> (line <line>)", exit 1) unless `result` is 0. */
void check(CUresult result, const char* call, int line);
/** Stops the program ("FAILED <what>", exit 1) unless `condition` holds. */
void expect(bool condition, const char* what);

#define CALL(name, ...) check(cuda.name(__VA_ARGS__), #name, __LINE__)
