// The part of CUPTI's callback API (cupti_callbacks.h, cupti_driver_cbid.h) and of the driver's
// `*_params` structs (generated_cuda_meta.h) the capture library uses, declared here so it builds
// without the CUDA toolkit. test/cupti-callback-api-check.cpp compares them with the real headers.
// Names are our own: cuda.h defines macros named like several driver functions.
#pragma once

#include <cstddef>
#include <cstdint>

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
constexpr CallbackId cuGraphLaunch = 514;
constexpr CallbackId cuGraphLaunch_ptsz = 515;
constexpr CallbackId cuModuleLoad = 18;
constexpr CallbackId cuModuleLoadData = 19;
constexpr CallbackId cuModuleLoadDataEx = 20;
constexpr CallbackId cuModuleLoadFatBinary = 21;
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
struct StreamCaptureParams {  // cuStreamBeginCapture*, cuStreamEndCapture* (the first field)
  CUstream hStream;
};
struct ObjectDestroyParams {  // cuTexObjectDestroy, cuSurfObjectDestroy
  unsigned long long object;
};

/** The CUPTI entry points, resolved from libcupti with dlsym. */
struct CuptiCallbackApi {
  CUptiResult (*cuptiSubscribe)(SubscriberHandle* subscriber, CallbackFunction callback, void* userdata);
  CUptiResult (*cuptiEnableCallback)(std::uint32_t enable, SubscriberHandle subscriber, CallbackDomain domain,
                                     CallbackId cbid);
  CUptiResult (*cuptiGetResultString)(CUptiResult result, const char** text);
};

}  // namespace kreplay::capture::cupti
