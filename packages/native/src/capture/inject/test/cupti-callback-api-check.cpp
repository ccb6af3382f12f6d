// Compares the declarations of cupti-callback-api.hpp with CUDA's own headers: callback ids,
// domains, struct layouts of the callback data and of each driver call's `*_params`. Compiled by
// cupti-callback-api-check.test.ts when the CUPTI headers are installed. Ours first: cuda.h defines
// macros named like several driver functions.
#include "capture/inject/cupti-callback-api.hpp"

#include <cstddef>

// generated_cuda_meta.h names the driver's version-1 types, which cuda.h declares only for its own build.
#define __CUDA_API_VERSION_INTERNAL 1
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

namespace k = kreplay::capture::cupti;

#define SAME_CBID(name) static_assert(k::cbid::name == CUPTI_DRIVER_TRACE_CBID_##name, #name)
SAME_CBID(cuMemAlloc_v2);
SAME_CBID(cuMemAllocPitch_v2);
SAME_CBID(cuMemFree_v2);
SAME_CBID(cuMemAllocHost_v2);
SAME_CBID(cuMemFreeHost);
SAME_CBID(cuMemHostAlloc);
SAME_CBID(cuMemHostUnregister);
SAME_CBID(cuLaunchKernel);
SAME_CBID(cuTexObjectCreate);
SAME_CBID(cuTexObjectDestroy);
SAME_CBID(cuSurfObjectCreate);
SAME_CBID(cuSurfObjectDestroy);
SAME_CBID(cuMemAllocManaged);
SAME_CBID(cuMemHostRegister_v2);
SAME_CBID(cuLaunchKernel_ptsz);
SAME_CBID(cuLaunchCooperativeKernel);
SAME_CBID(cuLaunchCooperativeKernel_ptsz);
SAME_CBID(cuLaunchCooperativeKernelMultiDevice);
SAME_CBID(cuGraphLaunch);
SAME_CBID(cuGraphLaunch_ptsz);
SAME_CBID(cuMemMap);
SAME_CBID(cuMemUnmap);
SAME_CBID(cuMemAllocAsync);
SAME_CBID(cuMemAllocAsync_ptsz);
SAME_CBID(cuMemFreeAsync);
SAME_CBID(cuMemFreeAsync_ptsz);
SAME_CBID(cuMemAllocFromPoolAsync);
SAME_CBID(cuMemAllocFromPoolAsync_ptsz);
SAME_CBID(cuLaunchKernelEx);
SAME_CBID(cuLaunchKernelEx_ptsz);
SAME_CBID(cuModuleLoad);
SAME_CBID(cuModuleLoadData);
SAME_CBID(cuModuleLoadDataEx);
SAME_CBID(cuModuleLoadFatBinary);
SAME_CBID(cuStreamBeginCapture);
SAME_CBID(cuStreamBeginCapture_ptsz);
SAME_CBID(cuStreamEndCapture);
SAME_CBID(cuStreamEndCapture_ptsz);
SAME_CBID(cuStreamBeginCapture_v2);
SAME_CBID(cuStreamBeginCapture_v2_ptsz);
SAME_CBID(cuStreamBeginCaptureToGraph);
SAME_CBID(cuStreamBeginCaptureToGraph_ptsz);

static_assert(k::kCuptiSuccess == CUPTI_SUCCESS, "CUPTI_SUCCESS");
static_assert(k::kApiEnter == CUPTI_API_ENTER && k::kApiExit == CUPTI_API_EXIT, "callback sites");
static_assert(k::kDomainDriverApi == CUPTI_CB_DOMAIN_DRIVER_API, "driver domain");
static_assert(k::kDomainResource == CUPTI_CB_DOMAIN_RESOURCE, "resource domain");
static_assert(k::kResourceModuleLoaded == CUPTI_CBID_RESOURCE_MODULE_LOADED, "module loaded");
static_assert(k::kResourceModuleUnloadStarting == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
              "module unload");
static_assert(k::kLaunchAttributeCooperative == CU_LAUNCH_ATTRIBUTE_COOPERATIVE, "cooperative attribute");
static_assert(k::kLaunchAttributeClusterDimension == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
              "cluster attribute");
static_assert(sizeof(CUpti_CallbackDomain) == sizeof(k::CallbackDomain), "domain size");
static_assert(sizeof(CUpti_ApiCallbackSite) == sizeof(int), "site size");

#define SAME_LAYOUT(ours, theirs) static_assert(sizeof(k::ours) == sizeof(theirs), #ours " size")
#define SAME_FIELD(ours, theirs, field) \
  static_assert(offsetof(k::ours, field) == offsetof(theirs, field), #ours "." #field)

SAME_LAYOUT(CallbackData, CUpti_CallbackData);
SAME_FIELD(CallbackData, CUpti_CallbackData, callbackSite);
SAME_FIELD(CallbackData, CUpti_CallbackData, functionParams);
SAME_FIELD(CallbackData, CUpti_CallbackData, functionReturnValue);
SAME_FIELD(CallbackData, CUpti_CallbackData, symbolName);
SAME_FIELD(CallbackData, CUpti_CallbackData, correlationId);
SAME_LAYOUT(ResourceData, CUpti_ResourceData);
SAME_FIELD(ResourceData, CUpti_ResourceData, resourceDescriptor);
SAME_LAYOUT(ModuleResourceData, CUpti_ModuleResourceData);
SAME_FIELD(ModuleResourceData, CUpti_ModuleResourceData, cubinSize);
SAME_FIELD(ModuleResourceData, CUpti_ModuleResourceData, pCubin);

SAME_LAYOUT(LaunchAttribute, CUlaunchAttribute);
SAME_FIELD(LaunchAttribute, CUlaunchAttribute, value);
SAME_LAYOUT(LaunchConfig, CUlaunchConfig);
SAME_FIELD(LaunchConfig, CUlaunchConfig, sharedMemBytes);
SAME_FIELD(LaunchConfig, CUlaunchConfig, hStream);
SAME_FIELD(LaunchConfig, CUlaunchConfig, attrs);
SAME_FIELD(LaunchConfig, CUlaunchConfig, numAttrs);

SAME_LAYOUT(LaunchKernelParams, cuLaunchKernel_params);
SAME_LAYOUT(LaunchKernelParams, cuLaunchKernel_ptsz_params);
SAME_FIELD(LaunchKernelParams, cuLaunchKernel_params, sharedMemBytes);
SAME_FIELD(LaunchKernelParams, cuLaunchKernel_params, hStream);
SAME_FIELD(LaunchKernelParams, cuLaunchKernel_params, kernelParams);
SAME_FIELD(LaunchKernelParams, cuLaunchKernel_params, extra);
SAME_FIELD(LaunchKernelParams, cuLaunchKernel_ptsz_params, extra);
SAME_LAYOUT(LaunchKernelExParams, cuLaunchKernelEx_params);
SAME_LAYOUT(LaunchKernelExParams, cuLaunchKernelEx_ptsz_params);
SAME_FIELD(LaunchKernelExParams, cuLaunchKernelEx_params, f);
SAME_FIELD(LaunchKernelExParams, cuLaunchKernelEx_params, kernelParams);
SAME_FIELD(LaunchKernelExParams, cuLaunchKernelEx_params, extra);
SAME_LAYOUT(LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_params);
SAME_LAYOUT(LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_ptsz_params);
SAME_FIELD(LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_params, kernelParams);
SAME_LAYOUT(MemAllocParams, cuMemAlloc_v2_params);
SAME_FIELD(MemAllocParams, cuMemAlloc_v2_params, bytesize);
SAME_LAYOUT(MemAllocPitchParams, cuMemAllocPitch_v2_params);
SAME_FIELD(MemAllocPitchParams, cuMemAllocPitch_v2_params, pPitch);
SAME_FIELD(MemAllocPitchParams, cuMemAllocPitch_v2_params, Height);
SAME_LAYOUT(MemFreeParams, cuMemFree_v2_params);
SAME_LAYOUT(MemAllocAsyncParams, cuMemAllocAsync_params);
SAME_LAYOUT(MemAllocAsyncParams, cuMemAllocAsync_ptsz_params);
SAME_FIELD(MemAllocAsyncParams, cuMemAllocAsync_params, bytesize);
SAME_LAYOUT(MemAllocFromPoolAsyncParams, cuMemAllocFromPoolAsync_params);
SAME_LAYOUT(MemAllocFromPoolAsyncParams, cuMemAllocFromPoolAsync_ptsz_params);
SAME_FIELD(MemAllocFromPoolAsyncParams, cuMemAllocFromPoolAsync_params, bytesize);
SAME_LAYOUT(MemFreeAsyncParams, cuMemFreeAsync_params);
SAME_LAYOUT(MemFreeAsyncParams, cuMemFreeAsync_ptsz_params);
SAME_LAYOUT(MemHostAllocParams, cuMemHostAlloc_params);
SAME_FIELD(MemHostAllocParams, cuMemHostAlloc_params, bytesize);
SAME_LAYOUT(MemAllocHostParams, cuMemAllocHost_v2_params);
SAME_FIELD(MemAllocHostParams, cuMemAllocHost_v2_params, bytesize);
SAME_LAYOUT(HostPointerParams, cuMemFreeHost_params);
SAME_LAYOUT(HostPointerParams, cuMemHostUnregister_params);
SAME_LAYOUT(MemHostRegisterParams, cuMemHostRegister_v2_params);
SAME_FIELD(MemHostRegisterParams, cuMemHostRegister_v2_params, bytesize);
SAME_LAYOUT(MemAllocManagedParams, cuMemAllocManaged_params);
SAME_FIELD(MemAllocManagedParams, cuMemAllocManaged_params, bytesize);
SAME_LAYOUT(MemMapParams, cuMemMap_params);
SAME_FIELD(MemMapParams, cuMemMap_params, size);
SAME_LAYOUT(MemUnmapParams, cuMemUnmap_params);
SAME_FIELD(MemUnmapParams, cuMemUnmap_params, size);
static_assert(offsetof(cuTexObjectCreate_params, pTexObject) == 0, "tex create: the object pointer first");
static_assert(offsetof(cuSurfObjectCreate_params, pSurfObject) == 0, "surf create: the object pointer first");
static_assert(sizeof(*cuTexObjectCreate_params{}.pTexObject) == sizeof(*k::ObjectCreateParams{}.pObject),
              "tex object");
static_assert(offsetof(cuStreamBeginCapture_v2_params, hStream) == offsetof(k::StreamCaptureParams, hStream),
              "begin");
static_assert(offsetof(cuStreamBeginCapture_params, hStream) == 0, "begin (v1)");
static_assert(offsetof(cuModuleLoad_params, module) == offsetof(k::ModuleLoadParams, module), "module load");
static_assert(offsetof(cuModuleLoadData_params, module) == 0 &&
                  offsetof(cuModuleLoadDataEx_params, module) == 0 &&
                  offsetof(cuModuleLoadFatBinary_params, module) == 0,
              "module loads: the module first");
static_assert(offsetof(cuStreamBeginCaptureToGraph_params, hStream) == 0, "begin to graph");
static_assert(offsetof(cuStreamEndCapture_params, hStream) == 0, "end");
SAME_LAYOUT(ObjectDestroyParams, cuTexObjectDestroy_params);
SAME_LAYOUT(ObjectDestroyParams, cuSurfObjectDestroy_params);

int main() {
  return 0;
}
