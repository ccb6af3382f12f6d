// Compares the declarations of cupti-callback-api.hpp with CUDA's own headers: callback ids,
// domains, struct layouts of the callback data and of each driver call's `*_params`. Compiled by
// cupti-callback-api-check.test.ts when the CUPTI headers are installed. Ours first: cuda.h defines
// macros named like several driver functions.
#include "capture/inject/cupti-callback-api.hpp"

#include <cstddef>

#include "capture/inject/cuda-driver-calls.hpp"
#include "capture/inject/cuda-graph-types.hpp"

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
SAME_CBID(cuProfilerStart);
SAME_CBID(cuProfilerStop);
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
SAME_CBID(cuGraphInstantiate);
SAME_CBID(cuGraphInstantiate_v2);
SAME_CBID(cuGraphInstantiateWithFlags);
SAME_CBID(cuGraphInstantiateWithParams);
SAME_CBID(cuGraphInstantiateWithParams_ptsz);
SAME_CBID(cuGraphExecDestroy);
SAME_CBID(cuGraphExecKernelNodeSetParams);
SAME_CBID(cuGraphExecKernelNodeSetParams_v2);
SAME_CBID(cuGraphExecMemsetNodeSetParams);
SAME_CBID(cuGraphExecMemcpyNodeSetParams);
SAME_CBID(cuGraphExecNodeSetParams);
SAME_CBID(cuGraphNodeSetEnabled);
SAME_CBID(cuGraphExecUpdate);
SAME_CBID(cuGraphExecUpdate_v2);
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
SAME_CBID(cuLibraryLoadData);
SAME_CBID(cuStreamBeginCapture);
SAME_CBID(cuStreamBeginCapture_ptsz);
SAME_CBID(cuStreamEndCapture);
SAME_CBID(cuStreamEndCapture_ptsz);
SAME_CBID(cuStreamBeginCapture_v2);
SAME_CBID(cuStreamBeginCapture_v2_ptsz);
SAME_CBID(cuStreamBeginCaptureToGraph);
SAME_CBID(cuStreamBeginCaptureToGraph_ptsz);
SAME_CBID(cuMemsetD8_v2);
SAME_CBID(cuMemsetD16_v2);
SAME_CBID(cuMemsetD32_v2);
SAME_CBID(cuMemsetD8_v2_ptds);
SAME_CBID(cuMemsetD16_v2_ptds);
SAME_CBID(cuMemsetD32_v2_ptds);
SAME_CBID(cuMemsetD8Async);
SAME_CBID(cuMemsetD16Async);
SAME_CBID(cuMemsetD32Async);
SAME_CBID(cuMemsetD8Async_ptsz);
SAME_CBID(cuMemsetD16Async_ptsz);
SAME_CBID(cuMemsetD32Async_ptsz);
SAME_CBID(cuMemsetD2D8_v2);
SAME_CBID(cuMemsetD2D16_v2);
SAME_CBID(cuMemsetD2D32_v2);
SAME_CBID(cuMemsetD2D8_v2_ptds);
SAME_CBID(cuMemsetD2D16_v2_ptds);
SAME_CBID(cuMemsetD2D32_v2_ptds);
SAME_CBID(cuMemsetD2D8Async);
SAME_CBID(cuMemsetD2D16Async);
SAME_CBID(cuMemsetD2D32Async);
SAME_CBID(cuMemsetD2D8Async_ptsz);
SAME_CBID(cuMemsetD2D16Async_ptsz);
SAME_CBID(cuMemsetD2D32Async_ptsz);
SAME_CBID(cuMemcpy);
SAME_CBID(cuMemcpyAsync);
SAME_CBID(cuMemcpy_ptds);
SAME_CBID(cuMemcpyAsync_ptsz);
SAME_CBID(cuMemcpyHtoD_v2);
SAME_CBID(cuMemcpyHtoDAsync_v2);
SAME_CBID(cuMemcpyDtoH_v2);
SAME_CBID(cuMemcpyDtoHAsync_v2);
SAME_CBID(cuMemcpyDtoD_v2);
SAME_CBID(cuMemcpyDtoDAsync_v2);
SAME_CBID(cuMemcpyHtoD_v2_ptds);
SAME_CBID(cuMemcpyDtoH_v2_ptds);
SAME_CBID(cuMemcpyDtoD_v2_ptds);
SAME_CBID(cuMemcpyHtoDAsync_v2_ptsz);
SAME_CBID(cuMemcpyDtoHAsync_v2_ptsz);
SAME_CBID(cuMemcpyDtoDAsync_v2_ptsz);
SAME_CBID(cuMemcpyAtoD_v2);
SAME_CBID(cuMemcpyAtoD_v2_ptds);
SAME_CBID(cuMemcpyPeer);
SAME_CBID(cuMemcpyPeerAsync);
SAME_CBID(cuMemcpy3DPeer);
SAME_CBID(cuMemcpy3DPeerAsync);
SAME_CBID(cuMemcpyPeer_ptds);
SAME_CBID(cuMemcpy3DPeer_ptds);
SAME_CBID(cuMemcpyPeerAsync_ptsz);
SAME_CBID(cuMemcpy3DPeerAsync_ptsz);
SAME_CBID(cuMemcpy2D_v2);
SAME_CBID(cuMemcpy2DUnaligned_v2);
SAME_CBID(cuMemcpy2DAsync_v2);
SAME_CBID(cuMemcpy3D_v2);
SAME_CBID(cuMemcpy3DAsync_v2);
SAME_CBID(cuMemcpy2D_v2_ptds);
SAME_CBID(cuMemcpy2DUnaligned_v2_ptds);
SAME_CBID(cuMemcpy3D_v2_ptds);
SAME_CBID(cuMemcpy2DAsync_v2_ptsz);
SAME_CBID(cuMemcpy3DAsync_v2_ptsz);
SAME_CBID(cuMemcpyBatchAsync);
SAME_CBID(cuMemcpyBatchAsync_ptsz);
SAME_CBID(cuMemcpy3DBatchAsync);
SAME_CBID(cuMemcpy3DBatchAsync_ptsz);
SAME_CBID(cuMemcpyBatchAsync_v2);
SAME_CBID(cuMemcpyBatchAsync_v2_ptsz);
SAME_CBID(cuMemcpy3DBatchAsync_v2);
SAME_CBID(cuMemcpy3DBatchAsync_v2_ptsz);
SAME_CBID(cuStreamWriteValue32);
SAME_CBID(cuStreamWriteValue32_ptsz);
SAME_CBID(cuStreamWriteValue64);
SAME_CBID(cuStreamWriteValue64_ptsz);
SAME_CBID(cuStreamWriteValue32_v2);
SAME_CBID(cuStreamWriteValue32_v2_ptsz);
SAME_CBID(cuStreamWriteValue64_v2);
SAME_CBID(cuStreamWriteValue64_v2_ptsz);
SAME_CBID(cuStreamBatchMemOp);
SAME_CBID(cuStreamBatchMemOp_ptsz);
SAME_CBID(cuStreamBatchMemOp_v2);
SAME_CBID(cuStreamBatchMemOp_v2_ptsz);
SAME_CBID(cuLaunchHostFunc);
SAME_CBID(cuLaunchHostFunc_ptsz);
SAME_CBID(cuStreamAddCallback);
SAME_CBID(cuStreamAddCallback_ptsz);
SAME_CBID(cuEventRecord);
SAME_CBID(cuEventRecord_ptsz);
SAME_CBID(cuEventRecordWithFlags);
SAME_CBID(cuEventRecordWithFlags_ptsz);
SAME_CBID(cuStreamWaitEvent);
SAME_CBID(cuStreamWaitEvent_ptsz);

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
static_assert(offsetof(cuModuleLoadData_params, image) == offsetof(k::ModuleImageParams, image) &&
                  offsetof(cuModuleLoadDataEx_params, image) == offsetof(k::ModuleImageParams, image) &&
                  offsetof(cuModuleLoadFatBinary_params, fatCubin) == offsetof(k::ModuleImageParams, image) &&
                  offsetof(cuLibraryLoadData_params, code) == offsetof(k::ModuleImageParams, image),
              "module and library loads from memory: the image second");
static_assert(offsetof(cuStreamBeginCaptureToGraph_params, hStream) == 0, "begin to graph");
// Graph calls (cupti-graph-callback-api.hpp): the executable graph, then the node, graph or stream.
#define GRAPH_EXEC(theirs, theirSecond, theirThird)                                                        \
  static_assert(offsetof(theirs, hGraphExec) == offsetof(k::GraphExecParams, hGraphExec) &&                 \
                    offsetof(theirs, theirSecond) == offsetof(k::GraphExecParams, second) &&                \
                    offsetof(theirs, theirThird) == offsetof(k::GraphExecParams, third), #theirs)
GRAPH_EXEC(cuGraphExecKernelNodeSetParams_params, hNode, nodeParams);
GRAPH_EXEC(cuGraphExecKernelNodeSetParams_v2_params, hNode, nodeParams);
GRAPH_EXEC(cuGraphExecMemsetNodeSetParams_params, hNode, memsetParams);
GRAPH_EXEC(cuGraphExecMemcpyNodeSetParams_params, hNode, copyParams);
GRAPH_EXEC(cuGraphExecNodeSetParams_params, hNode, nodeParams);
GRAPH_EXEC(cuGraphExecUpdate_v2_params, hGraph, resultInfo);
static_assert(offsetof(cuGraphLaunch_params, hStream) == offsetof(k::GraphExecParams, second), "graph launch");
static_assert(offsetof(cuGraphExecDestroy_params, hGraphExec) == 0, "exec destroy");
SAME_LAYOUT(GraphNodeSetEnabledParams, cuGraphNodeSetEnabled_params);
SAME_FIELD(GraphNodeSetEnabledParams, cuGraphNodeSetEnabled_params, isEnabled);
SAME_FIELD(GraphInstantiateParams, cuGraphInstantiateWithFlags_params, hGraph);
static_assert(offsetof(cuGraphInstantiateWithFlags_params, flags) == offsetof(k::GraphInstantiateParams, third) &&
                  offsetof(cuGraphInstantiateWithParams_params, instantiateParams) ==
                      offsetof(k::GraphInstantiateParams, third),
              "instantiate: flags or parameters third");
// The cuda.h structures the graph calls take (cuda-graph-types.hpp).
namespace g = kreplay::capture::cuda_graph;
static_assert(sizeof(g::KernelNodeParams) == sizeof(CUDA_KERNEL_NODE_PARAMS_v2) &&
                  offsetof(g::KernelNodeParams, kern) == sizeof(CUDA_KERNEL_NODE_PARAMS_v1) &&
                  offsetof(g::KernelNodeParams, kernelParams) == offsetof(CUDA_KERNEL_NODE_PARAMS_v2, kernelParams) &&
                  sizeof(CUDA_KERNEL_NODE_PARAMS_v3) == sizeof(CUDA_KERNEL_NODE_PARAMS_v2),
              "kernel node parameters");
static_assert(sizeof(g::MemsetNodeParams) == sizeof(CUDA_MEMSET_NODE_PARAMS) &&
                  offsetof(g::MemsetNodeParams, width) == offsetof(CUDA_MEMSET_NODE_PARAMS, width),
              "memset node parameters");
static_assert(sizeof(g::Memcpy3D) == sizeof(CUDA_MEMCPY3D) &&
                  offsetof(g::Memcpy3D, dstDevice) == offsetof(CUDA_MEMCPY3D, dstDevice) &&
                  offsetof(g::Memcpy3D, WidthInBytes) == offsetof(CUDA_MEMCPY3D, WidthInBytes),
              "memcpy node parameters");
static_assert(sizeof(g::MemAllocNodeParams) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) &&
                  offsetof(g::MemAllocNodeParams, dptr) == offsetof(CUDA_MEM_ALLOC_NODE_PARAMS, dptr),
              "memory allocation node parameters");
static_assert(sizeof(g::NodeParams) == sizeof(CUgraphNodeParams), "generic node parameters");
static_assert(g::kDeviceLaunchFlag == CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH && g::kHostMemory == CU_MEMORYTYPE_HOST &&
                  g::kArrayMemory == CU_MEMORYTYPE_ARRAY,
              "graph constants");
static_assert(offsetof(cuStreamEndCapture_params, hStream) == 0, "end");
SAME_LAYOUT(ObjectDestroyParams, cuTexObjectDestroy_params);
SAME_LAYOUT(ObjectDestroyParams, cuSurfObjectDestroy_params);

// The calls between launches.
using MemsetD8 = k::MemsetParams<unsigned char>;
using MemsetD16 = k::MemsetParams<unsigned short>;
using MemsetD32 = k::MemsetParams<unsigned>;
using MemsetD8Async = k::MemsetAsyncParams<unsigned char>;
using MemsetD16Async = k::MemsetAsyncParams<unsigned short>;
using MemsetD32Async = k::MemsetAsyncParams<unsigned>;
#define SAME_VALUE(ours, theirs, field)                                                     \
  static_assert(sizeof(ours) == sizeof(theirs), #theirs " size");                          \
  static_assert(offsetof(ours, value) == offsetof(theirs, field), #theirs " value");       \
  static_assert(sizeof(ours{}.value) == sizeof(theirs{}.field), #theirs " value size");    \
  static_assert(offsetof(ours, N) == offsetof(theirs, N), #theirs " N")
SAME_VALUE(MemsetD8, cuMemsetD8_v2_params, uc);
SAME_VALUE(MemsetD8, cuMemsetD8_v2_ptds_params, uc);
SAME_VALUE(MemsetD16, cuMemsetD16_v2_params, us);
SAME_VALUE(MemsetD16, cuMemsetD16_v2_ptds_params, us);
SAME_VALUE(MemsetD32, cuMemsetD32_v2_params, ui);
SAME_VALUE(MemsetD32, cuMemsetD32_v2_ptds_params, ui);
SAME_VALUE(MemsetD8Async, cuMemsetD8Async_params, uc);
SAME_VALUE(MemsetD8Async, cuMemsetD8Async_ptsz_params, uc);
SAME_VALUE(MemsetD16Async, cuMemsetD16Async_params, us);
SAME_VALUE(MemsetD16Async, cuMemsetD16Async_ptsz_params, us);
SAME_VALUE(MemsetD32Async, cuMemsetD32Async_params, ui);
SAME_VALUE(MemsetD32Async, cuMemsetD32Async_ptsz_params, ui);
static_assert(offsetof(MemsetD8Async, hStream) == offsetof(cuMemsetD8Async_params, hStream), "memset stream");
static_assert(offsetof(MemsetD32Async, hStream) == offsetof(cuMemsetD32Async_ptsz_params, hStream), "memset stream");
#define LINEAR(theirs, destinationField, sourceField)                                                      \
  static_assert(sizeof(k::LinearCopyParams) == sizeof(theirs), #theirs " size");                          \
  static_assert(offsetof(k::LinearCopyParams, destination) == offsetof(theirs, destinationField), #theirs); \
  static_assert(offsetof(k::LinearCopyParams, source) == offsetof(theirs, sourceField), #theirs);          \
  static_assert(offsetof(k::LinearCopyParams, ByteCount) == offsetof(theirs, ByteCount), #theirs)
#define LINEAR_ASYNC(theirs, destinationField, sourceField)                                                     \
  static_assert(sizeof(k::LinearCopyAsyncParams) == sizeof(theirs), #theirs " size");                         \
  static_assert(offsetof(k::LinearCopyAsyncParams, destination) == offsetof(theirs, destinationField), #theirs); \
  static_assert(offsetof(k::LinearCopyAsyncParams, source) == offsetof(theirs, sourceField), #theirs);          \
  static_assert(offsetof(k::LinearCopyAsyncParams, ByteCount) == offsetof(theirs, ByteCount), #theirs);         \
  static_assert(offsetof(k::LinearCopyAsyncParams, hStream) == offsetof(theirs, hStream), #theirs)
LINEAR(cuMemcpy_params, dst, src);
LINEAR(cuMemcpy_ptds_params, dst, src);
LINEAR(cuMemcpyHtoD_v2_params, dstDevice, srcHost);
LINEAR(cuMemcpyHtoD_v2_ptds_params, dstDevice, srcHost);
LINEAR(cuMemcpyDtoH_v2_params, dstHost, srcDevice);
LINEAR(cuMemcpyDtoH_v2_ptds_params, dstHost, srcDevice);
LINEAR(cuMemcpyDtoD_v2_params, dstDevice, srcDevice);
LINEAR(cuMemcpyDtoD_v2_ptds_params, dstDevice, srcDevice);
LINEAR_ASYNC(cuMemcpyAsync_params, dst, src);
LINEAR_ASYNC(cuMemcpyAsync_ptsz_params, dst, src);
LINEAR_ASYNC(cuMemcpyHtoDAsync_v2_params, dstDevice, srcHost);
LINEAR_ASYNC(cuMemcpyHtoDAsync_v2_ptsz_params, dstDevice, srcHost);
LINEAR_ASYNC(cuMemcpyDtoHAsync_v2_params, dstHost, srcDevice);
LINEAR_ASYNC(cuMemcpyDtoHAsync_v2_ptsz_params, dstHost, srcDevice);
LINEAR_ASYNC(cuMemcpyDtoDAsync_v2_params, dstDevice, srcDevice);
LINEAR_ASYNC(cuMemcpyDtoDAsync_v2_ptsz_params, dstDevice, srcDevice);
SAME_LAYOUT(MemcpyAtoDParams, cuMemcpyAtoD_v2_params);
SAME_LAYOUT(MemcpyAtoDParams, cuMemcpyAtoD_v2_ptds_params);
SAME_FIELD(MemcpyAtoDParams, cuMemcpyAtoD_v2_params, ByteCount);
static_assert(offsetof(cuLaunchHostFunc_params, hStream) == 0 && offsetof(cuLaunchHostFunc_ptsz_params, hStream) == 0 &&
                  offsetof(cuStreamAddCallback_params, hStream) == 0 &&
                  offsetof(cuStreamAddCallback_ptsz_params, hStream) == 0,
              "host functions: the stream first");
SAME_FIELD(EventRecordParams, cuEventRecord_params, hEvent);
SAME_FIELD(EventRecordParams, cuEventRecord_params, hStream);
SAME_FIELD(EventRecordParams, cuEventRecord_ptsz_params, hStream);
SAME_FIELD(EventRecordParams, cuEventRecordWithFlags_params, hStream);
SAME_FIELD(EventRecordParams, cuEventRecordWithFlags_ptsz_params, hStream);
SAME_LAYOUT(StreamWaitEventParams, cuStreamWaitEvent_params);
SAME_LAYOUT(StreamWaitEventParams, cuStreamWaitEvent_ptsz_params);
SAME_FIELD(StreamWaitEventParams, cuStreamWaitEvent_params, hEvent);

// The cuda.h constants the capture library passes to libcuda (cuda-driver-calls.hpp).
namespace c = kreplay::capture::cuda_constants;
static_assert(c::kErrorStreamCaptureImplicit == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "capture implicit");
static_assert(c::kCaptureStatusNone == CU_STREAM_CAPTURE_STATUS_NONE, "capture status");
static_assert(c::kComputeCapabilityMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "major");
static_assert(c::kComputeCapabilityMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "minor");
static_assert(c::kMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessors");
static_assert(c::kPointerAttributeContext == CU_POINTER_ATTRIBUTE_CONTEXT, "pointer context");
static_assert(c::kStreamNonBlocking == CU_STREAM_NON_BLOCKING, "non-blocking stream");
static_assert(c::kHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE, "portable host memory");
static_assert(c::kJitErrorLogBuffer == CU_JIT_ERROR_LOG_BUFFER, "JIT error log");
static_assert(c::kJitErrorLogBufferSizeBytes == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, "JIT error log size");

int main() {
  return 0;
}
