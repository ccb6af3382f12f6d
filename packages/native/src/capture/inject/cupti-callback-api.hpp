// The part of CUPTI's callback API (cupti_callbacks.h, cupti_driver_cbid.h) and of the driver's
// `*_params` structs (generated_cuda_meta.h) the capture library uses, declared here so it builds
// without the CUDA toolkit (the graph calls: cupti-graph-callback-api.hpp, included here).
// test/cupti-callback-api-check.cpp compares them with the real headers.
// Names are our own: cuda.h defines macros named like several driver functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/inject/cupti-graph-callback-api.hpp"  // the graph calls' ids and `*_params`

namespace kreplay::capture::cupti {

using CUresult = int;
using CUptiResult = int;
using CUdeviceptr = std::uint64_t;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUfunction = struct CUfunc_st*;
using CUmodule = struct CUmod_st*;
using CallbackDomain = int;
using CallbackId = std::uint32_t;
using SubscriberHandle = struct CuptiSubscriber_st*;
using CallbackFunction = void (*)(void* userdata, CallbackDomain domain, CallbackId cbid, const void* data);

constexpr CUptiResult kCuptiSuccess = 0;
constexpr int kApiEnter = 0;                             // CUPTI_API_ENTER
constexpr int kApiExit = 1;                              // CUPTI_API_EXIT
constexpr CallbackDomain kDomainDriverApi = 1;           // CUPTI_CB_DOMAIN_DRIVER_API
constexpr CallbackDomain kDomainResource = 3;            // CUPTI_CB_DOMAIN_RESOURCE
constexpr CallbackId kResourceModuleLoaded = 6;          // CUPTI_CBID_RESOURCE_MODULE_LOADED
constexpr CallbackId kResourceModuleUnloadStarting = 7;  // CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING

/** CUPTI_DRIVER_TRACE_CBID_<name> of cupti_driver_cbid.h. */
namespace cbid {
constexpr CallbackId cuMemAlloc_v2 = 243;
constexpr CallbackId cuMemAllocPitch_v2 = 244;
constexpr CallbackId cuMemFree_v2 = 245;
constexpr CallbackId cuMemAllocHost_v2 = 294;
constexpr CallbackId cuMemFreeHost = 38;
constexpr CallbackId cuMemHostAlloc = 39;
constexpr CallbackId cuMemHostUnregister = 302;
constexpr CallbackId cuLaunchKernel = 307;
constexpr CallbackId cuProfilerStart = 308;
constexpr CallbackId cuProfilerStop = 309;
constexpr CallbackId cuTexObjectCreate = 339;
constexpr CallbackId cuTexObjectDestroy = 340;
constexpr CallbackId cuSurfObjectCreate = 343;
constexpr CallbackId cuSurfObjectDestroy = 344;
constexpr CallbackId cuMemAllocManaged = 371;
constexpr CallbackId cuMemHostRegister_v2 = 379;
constexpr CallbackId cuLaunchKernel_ptsz = 442;
constexpr CallbackId cuLaunchCooperativeKernel = 477;
constexpr CallbackId cuLaunchCooperativeKernel_ptsz = 478;
constexpr CallbackId cuLaunchCooperativeKernelMultiDevice = 480;
constexpr CallbackId cuModuleLoad = 18;
constexpr CallbackId cuModuleLoadData = 19;
constexpr CallbackId cuModuleLoadDataEx = 20;
constexpr CallbackId cuModuleLoadFatBinary = 21;
constexpr CallbackId cuLibraryLoadData = 678;
constexpr CallbackId cuMemMap = 551;
constexpr CallbackId cuMemUnmap = 552;
constexpr CallbackId cuMemAllocAsync = 598;
constexpr CallbackId cuMemAllocAsync_ptsz = 599;
constexpr CallbackId cuMemFreeAsync = 600;
constexpr CallbackId cuMemFreeAsync_ptsz = 601;
constexpr CallbackId cuMemAllocFromPoolAsync = 611;
constexpr CallbackId cuMemAllocFromPoolAsync_ptsz = 612;
constexpr CallbackId cuLaunchKernelEx = 652;
constexpr CallbackId cuLaunchKernelEx_ptsz = 653;
constexpr CallbackId cuStreamBeginCapture = 495;
constexpr CallbackId cuStreamBeginCapture_ptsz = 496;
constexpr CallbackId cuStreamEndCapture = 497;
constexpr CallbackId cuStreamEndCapture_ptsz = 498;
constexpr CallbackId cuStreamBeginCapture_v2 = 539;
constexpr CallbackId cuStreamBeginCapture_v2_ptsz = 540;
constexpr CallbackId cuStreamBeginCaptureToGraph = 720;
constexpr CallbackId cuStreamBeginCaptureToGraph_ptsz = 721;
// Memsets: linear (recorded), 2D (a write the capture does not bound).
constexpr CallbackId cuMemsetD8_v2 = 249;
constexpr CallbackId cuMemsetD16_v2 = 250;
constexpr CallbackId cuMemsetD32_v2 = 251;
constexpr CallbackId cuMemsetD8_v2_ptds = 411;
constexpr CallbackId cuMemsetD16_v2_ptds = 412;
constexpr CallbackId cuMemsetD32_v2_ptds = 413;
constexpr CallbackId cuMemsetD8Async = 216;
constexpr CallbackId cuMemsetD16Async = 218;
constexpr CallbackId cuMemsetD32Async = 220;
constexpr CallbackId cuMemsetD8Async_ptsz = 428;
constexpr CallbackId cuMemsetD16Async_ptsz = 429;
constexpr CallbackId cuMemsetD32Async_ptsz = 430;
constexpr CallbackId cuMemsetD2D8_v2 = 252;
constexpr CallbackId cuMemsetD2D16_v2 = 253;
constexpr CallbackId cuMemsetD2D32_v2 = 254;
constexpr CallbackId cuMemsetD2D8_v2_ptds = 414;
constexpr CallbackId cuMemsetD2D16_v2_ptds = 415;
constexpr CallbackId cuMemsetD2D32_v2_ptds = 416;
constexpr CallbackId cuMemsetD2D8Async = 222;
constexpr CallbackId cuMemsetD2D16Async = 224;
constexpr CallbackId cuMemsetD2D32Async = 226;
constexpr CallbackId cuMemsetD2D8Async_ptsz = 431;
constexpr CallbackId cuMemsetD2D16Async_ptsz = 432;
constexpr CallbackId cuMemsetD2D32Async_ptsz = 433;
// Linear copies (recorded).
constexpr CallbackId cuMemcpy = 305;
constexpr CallbackId cuMemcpyAsync = 306;
constexpr CallbackId cuMemcpy_ptds = 408;
constexpr CallbackId cuMemcpyAsync_ptsz = 418;
constexpr CallbackId cuMemcpyHtoD_v2 = 276;
constexpr CallbackId cuMemcpyHtoDAsync_v2 = 277;
constexpr CallbackId cuMemcpyDtoH_v2 = 278;
constexpr CallbackId cuMemcpyDtoHAsync_v2 = 279;
constexpr CallbackId cuMemcpyDtoD_v2 = 280;
constexpr CallbackId cuMemcpyDtoDAsync_v2 = 281;
constexpr CallbackId cuMemcpyHtoD_v2_ptds = 397;
constexpr CallbackId cuMemcpyDtoH_v2_ptds = 398;
constexpr CallbackId cuMemcpyDtoD_v2_ptds = 399;
constexpr CallbackId cuMemcpyHtoDAsync_v2_ptsz = 421;
constexpr CallbackId cuMemcpyDtoHAsync_v2_ptsz = 422;
constexpr CallbackId cuMemcpyDtoDAsync_v2_ptsz = 423;
constexpr CallbackId cuMemcpyAtoD_v2 = 284;
constexpr CallbackId cuMemcpyAtoD_v2_ptds = 401;
// Writes the capture does not bound: peer, 2D/3D and batch copies, stream memory operations.
constexpr CallbackId cuMemcpyPeer = 318;
constexpr CallbackId cuMemcpyPeerAsync = 319;
constexpr CallbackId cuMemcpy3DPeer = 320;
constexpr CallbackId cuMemcpy3DPeerAsync = 321;
constexpr CallbackId cuMemcpyPeer_ptds = 409;
constexpr CallbackId cuMemcpy3DPeer_ptds = 410;
constexpr CallbackId cuMemcpyPeerAsync_ptsz = 426;
constexpr CallbackId cuMemcpy3DPeerAsync_ptsz = 427;
constexpr CallbackId cuMemcpy2D_v2 = 287;
constexpr CallbackId cuMemcpy2DUnaligned_v2 = 288;
constexpr CallbackId cuMemcpy2DAsync_v2 = 289;
constexpr CallbackId cuMemcpy3D_v2 = 290;
constexpr CallbackId cuMemcpy3DAsync_v2 = 291;
constexpr CallbackId cuMemcpy2D_v2_ptds = 405;
constexpr CallbackId cuMemcpy2DUnaligned_v2_ptds = 406;
constexpr CallbackId cuMemcpy3D_v2_ptds = 407;
constexpr CallbackId cuMemcpy2DAsync_v2_ptsz = 424;
constexpr CallbackId cuMemcpy3DAsync_v2_ptsz = 425;
constexpr CallbackId cuMemcpyBatchAsync = 776;
constexpr CallbackId cuMemcpyBatchAsync_ptsz = 777;
constexpr CallbackId cuMemcpy3DBatchAsync = 778;
constexpr CallbackId cuMemcpy3DBatchAsync_ptsz = 779;
constexpr CallbackId cuMemcpyBatchAsync_v2 = 796;
constexpr CallbackId cuMemcpyBatchAsync_v2_ptsz = 797;
constexpr CallbackId cuMemcpy3DBatchAsync_v2 = 798;
constexpr CallbackId cuMemcpy3DBatchAsync_v2_ptsz = 799;
constexpr CallbackId cuStreamWriteValue32 = 460;
constexpr CallbackId cuStreamWriteValue32_ptsz = 461;
constexpr CallbackId cuStreamWriteValue64 = 475;
constexpr CallbackId cuStreamWriteValue64_ptsz = 476;
constexpr CallbackId cuStreamWriteValue32_v2 = 663;
constexpr CallbackId cuStreamWriteValue32_v2_ptsz = 664;
constexpr CallbackId cuStreamWriteValue64_v2 = 665;
constexpr CallbackId cuStreamWriteValue64_v2_ptsz = 666;
constexpr CallbackId cuStreamBatchMemOp = 462;
constexpr CallbackId cuStreamBatchMemOp_ptsz = 463;
constexpr CallbackId cuStreamBatchMemOp_v2 = 667;
constexpr CallbackId cuStreamBatchMemOp_v2_ptsz = 668;
// Host functions, events.
constexpr CallbackId cuLaunchHostFunc = 527;
constexpr CallbackId cuLaunchHostFunc_ptsz = 528;
constexpr CallbackId cuStreamAddCallback = 346;
constexpr CallbackId cuStreamAddCallback_ptsz = 437;
constexpr CallbackId cuEventRecord = 119;
constexpr CallbackId cuEventRecord_ptsz = 441;
constexpr CallbackId cuEventRecordWithFlags = 587;
constexpr CallbackId cuEventRecordWithFlags_ptsz = 588;
constexpr CallbackId cuStreamWaitEvent = 295;
constexpr CallbackId cuStreamWaitEvent_ptsz = 436;
}  // namespace cbid

/** CUpti_CallbackData. */
struct CallbackData {
  int callbackSite;
  const char* functionName;
  const void* functionParams;
  void* functionReturnValue;
  const char* symbolName;
  CUcontext context;
  std::uint32_t contextUid;
  std::uint64_t* correlationData;
  std::uint32_t correlationId;
};

/** CUpti_ResourceData. */
struct ResourceData {
  CUcontext context;
  void* resourceHandle;  // a union of CUstream
  void* resourceDescriptor;
};

/** CUpti_ModuleResourceData. */
struct ModuleResourceData {
  std::uint32_t moduleId;
  std::size_t cubinSize;
  const char* pCubin;
};

// CUlaunchAttribute / CUlaunchConfig (cuda.h).
constexpr int kLaunchAttributeCooperative = 2;       // CU_LAUNCH_ATTRIBUTE_COOPERATIVE
constexpr int kLaunchAttributeClusterDimension = 4;  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int cooperative;
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};

// The `*_params` structs of generated_cuda_meta.h.
struct LaunchKernelParams {  // cuLaunchKernel, cuLaunchKernel_ptsz
  CUfunction f;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  void** kernelParams;
  void** extra;
};
struct LaunchKernelExParams {  // cuLaunchKernelEx, cuLaunchKernelEx_ptsz
  const LaunchConfig* config;
  CUfunction f;
  void** kernelParams;
  void** extra;
};
struct LaunchCooperativeKernelParams {  // cuLaunchCooperativeKernel, _ptsz
  CUfunction f;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  void** kernelParams;
};
struct MemAllocParams {  // cuMemAlloc_v2
  CUdeviceptr* dptr;
  std::size_t bytesize;
};
struct MemAllocPitchParams {  // cuMemAllocPitch_v2
  CUdeviceptr* dptr;
  std::size_t* pPitch;
  std::size_t WidthInBytes;
  std::size_t Height;
  unsigned ElementSizeBytes;
};
struct MemFreeParams {  // cuMemFree_v2
  CUdeviceptr dptr;
};
struct MemAllocAsyncParams {  // cuMemAllocAsync, _ptsz
  CUdeviceptr* dptr;
  std::size_t bytesize;
  CUstream hStream;
};
struct MemAllocFromPoolAsyncParams {  // cuMemAllocFromPoolAsync, _ptsz
  CUdeviceptr* dptr;
  std::size_t bytesize;
  void* pool;
  CUstream hStream;
};
struct MemFreeAsyncParams {  // cuMemFreeAsync, _ptsz
  CUdeviceptr dptr;
  CUstream hStream;
};
struct MemHostAllocParams {  // cuMemHostAlloc
  void** pp;
  std::size_t bytesize;
  unsigned Flags;
};
struct MemAllocHostParams {  // cuMemAllocHost_v2
  void** pp;
  std::size_t bytesize;
};
struct HostPointerParams {  // cuMemFreeHost, cuMemHostUnregister
  void* p;
};
struct MemHostRegisterParams {  // cuMemHostRegister_v2
  void* p;
  std::size_t bytesize;
  unsigned Flags;
};
struct MemAllocManagedParams {  // cuMemAllocManaged
  CUdeviceptr* dptr;
  std::size_t bytesize;
  unsigned flags;
};
struct MemMapParams {  // cuMemMap
  CUdeviceptr ptr;
  std::size_t size;
  std::size_t offset;
  unsigned long long handle;
  unsigned long long flags;
};
struct MemUnmapParams {  // cuMemUnmap
  CUdeviceptr ptr;
  std::size_t size;
};
struct ObjectCreateParams {  // cuTexObjectCreate, cuSurfObjectCreate (the first field)
  unsigned long long* pObject;
};
struct ModuleLoadParams {  // cuModuleLoad, cuModuleLoadData, cuModuleLoadDataEx, cuModuleLoadFatBinary (the
                           // first field)
  CUmodule* module;
};
struct ModuleImageParams {  // cuModuleLoadData, cuModuleLoadDataEx, cuModuleLoadFatBinary, cuLibraryLoadData
                            // (the first fields: the handle made, the image)
  void* handle;
  const void* image;
};
struct StreamCaptureParams {  // cuStreamBeginCapture*, cuStreamEndCapture* (the first field)
  CUstream hStream;
};
struct ObjectDestroyParams {  // cuTexObjectDestroy, cuSurfObjectDestroy
  unsigned long long object;
};
template <class Value>
struct MemsetParams {  // cuMemsetD8_v2 (Value unsigned char), D16 (unsigned short), D32 (unsigned), and _ptds
  CUdeviceptr dstDevice;
  Value value;
  std::size_t N;
};
template <class Value>
struct MemsetAsyncParams {  // cuMemsetD8Async, D16Async, D32Async, and _ptsz
  CUdeviceptr dstDevice;
  Value value;
  std::size_t N;
  CUstream hStream;
};
struct LinearCopyParams {  // cuMemcpy, cuMemcpy{HtoD,DtoH,DtoD}_v2, and _ptds: destination, source, bytes
  std::uint64_t destination;
  std::uint64_t source;
  std::size_t ByteCount;
};
struct LinearCopyAsyncParams {  // cuMemcpyAsync, cuMemcpy{HtoD,DtoH,DtoD}Async_v2, and _ptsz
  std::uint64_t destination;
  std::uint64_t source;
  std::size_t ByteCount;
  CUstream hStream;
};
struct MemcpyAtoDParams {  // cuMemcpyAtoD_v2, _ptds
  CUdeviceptr dstDevice;
  void* srcArray;
  std::size_t srcOffset;
  std::size_t ByteCount;
};
struct StreamFirstParams {  // cuLaunchHostFunc, cuStreamAddCallback, cuStreamWaitEvent (the first field)
  CUstream hStream;
};
struct EventRecordParams {  // cuEventRecord, cuEventRecordWithFlags, and _ptsz (the first two fields)
  void* hEvent;
  CUstream hStream;
};
struct StreamWaitEventParams {  // cuStreamWaitEvent, _ptsz
  CUstream hStream;
  void* hEvent;
  unsigned Flags;
};

/** The CUPTI entry points, resolved from libcupti with dlsym. */
struct CuptiCallbackApi {
  CUptiResult (*cuptiSubscribe)(SubscriberHandle* subscriber, CallbackFunction callback, void* userdata);
  CUptiResult (*cuptiEnableCallback)(std::uint32_t enable, SubscriberHandle subscriber, CallbackDomain domain,
                                     CallbackId cbid);
  CUptiResult (*cuptiGetResultString)(CUptiResult result, const char** text);
};

}  // namespace kreplay::capture::cupti
