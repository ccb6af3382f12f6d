// Compares the driver API declarations of cuda-api.hpp with CUDA's own cuda.h: the structs of the
// virtual memory calls and of cuLaunchKernelEx (sizes and field offsets), the constants, and the
// entry points' types. Built by src/drivers/cuda/cuda-api-check.test.ts when cuda.h is installed.
// Ours first: cuda.h defines macros named like some of our constants, so those are taken before.
#include "drivers/cuda/cuda-api.hpp"

namespace k = kreplay::cuda;

namespace ours {
constexpr unsigned hostRegisterPortable = k::CU_MEMHOSTREGISTER_PORTABLE;
constexpr unsigned hostRegisterDeviceMap = k::CU_MEMHOSTREGISTER_DEVICEMAP;
const void* const launchParameterEnd = k::CU_LAUNCH_PARAM_END;
const void* const launchParameterBufferPointer = k::CU_LAUNCH_PARAM_BUFFER_POINTER;
const void* const launchParameterBufferSize = k::CU_LAUNCH_PARAM_BUFFER_SIZE;
// cuda.h maps these names to their _v2 versions with macros.
using HostRegister = decltype(k::CudaApi::cuMemHostRegister);
using HostGetDevicePointer = decltype(k::CudaApi::cuMemHostGetDevicePointer);
using ModuleGetGlobal = decltype(k::CudaApi::cuModuleGetGlobal);
}  // namespace ours

#include <cuda.h>

#include <cstddef>
#include <type_traits>

#define SAME_LAYOUT(ours, theirs) static_assert(sizeof(k::ours) == sizeof(theirs) && alignof(k::ours) == alignof(theirs), #ours)
#define SAME_OFFSET(ours, theirs, field) \
  static_assert(offsetof(k::ours, field) == offsetof(theirs, field), #ours "." #field)

SAME_LAYOUT(CUmemLocation, CUmemLocation);
SAME_OFFSET(CUmemLocation, CUmemLocation, type);
SAME_OFFSET(CUmemLocation, CUmemLocation, id);
SAME_LAYOUT(CUmemAllocationProp, CUmemAllocationProp);
SAME_OFFSET(CUmemAllocationProp, CUmemAllocationProp, type);
SAME_OFFSET(CUmemAllocationProp, CUmemAllocationProp, requestedHandleTypes);
SAME_OFFSET(CUmemAllocationProp, CUmemAllocationProp, location);
SAME_OFFSET(CUmemAllocationProp, CUmemAllocationProp, win32HandleMetaData);
SAME_OFFSET(CUmemAllocationProp, CUmemAllocationProp, allocFlags);
SAME_LAYOUT(CUmemAccessDesc, CUmemAccessDesc);
SAME_OFFSET(CUmemAccessDesc, CUmemAccessDesc, location);
SAME_OFFSET(CUmemAccessDesc, CUmemAccessDesc, flags);
SAME_LAYOUT(CUlaunchAttributeValue, CUlaunchAttributeValue);
static_assert(offsetof(k::CUlaunchAttributeValue, clusterDim) == offsetof(CUlaunchAttributeValue, clusterDim));
static_assert(sizeof(k::CUlaunchAttributeValue::clusterDim) == sizeof(CUlaunchAttributeValue::clusterDim));
SAME_LAYOUT(CUlaunchAttribute, CUlaunchAttribute);
SAME_OFFSET(CUlaunchAttribute, CUlaunchAttribute, id);
SAME_OFFSET(CUlaunchAttribute, CUlaunchAttribute, value);
SAME_LAYOUT(CUlaunchConfig, CUlaunchConfig);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, gridDimX);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, blockDimZ);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, sharedMemBytes);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, hStream);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, attrs);
SAME_OFFSET(CUlaunchConfig, CUlaunchConfig, numAttrs);

static_assert(k::CU_MEM_ALLOCATION_TYPE_PINNED == CU_MEM_ALLOCATION_TYPE_PINNED);
static_assert(k::CU_MEM_HANDLE_TYPE_NONE == CU_MEM_HANDLE_TYPE_NONE);
static_assert(k::CU_MEM_LOCATION_TYPE_DEVICE == CU_MEM_LOCATION_TYPE_DEVICE);
static_assert(k::CU_MEM_LOCATION_TYPE_HOST == CU_MEM_LOCATION_TYPE_HOST);
static_assert(k::CU_MEM_ACCESS_FLAGS_PROT_READWRITE == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
static_assert(k::CU_MEM_ALLOC_GRANULARITY_MINIMUM == CU_MEM_ALLOC_GRANULARITY_MINIMUM);
static_assert(k::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
static_assert(ours::hostRegisterPortable == CU_MEMHOSTREGISTER_PORTABLE);
static_assert(ours::hostRegisterDeviceMap == CU_MEMHOSTREGISTER_DEVICEMAP);
static_assert(sizeof(k::CUmemGenericAllocationHandle) == sizeof(CUmemGenericAllocationHandle));
static_assert(sizeof(k::CUdeviceptr) == sizeof(CUdeviceptr));

// The entry points: as many parameters, each of the same size (our enums are ints, our
// CUdeviceptr a std::uint64_t: the same ABI as cuda.h's types).
template <typename Ours, typename Theirs>
struct SameAbi : std::false_type {};
template <typename R1, typename... A1, typename R2, typename... A2>
struct SameAbi<R1 (*)(A1...), R2 (*)(A2...)>
    : std::bool_constant<sizeof...(A1) == sizeof...(A2) && sizeof(R1) == sizeof(R2) &&
                         ((sizeof(A1) == sizeof(A2)) && ...)> {};
#define SAME_ENTRY(field, theirs) static_assert(SameAbi<decltype(k::CudaApi::field), decltype(&theirs)>::value, #field)
#define SAME_ENTRY_TYPE(ours, theirs) static_assert(SameAbi<ours, decltype(&theirs)>::value, #theirs)

SAME_ENTRY(cuMemAddressReserve, cuMemAddressReserve);
SAME_ENTRY(cuMemAddressFree, cuMemAddressFree);
SAME_ENTRY(cuMemCreate, cuMemCreate);
SAME_ENTRY(cuMemRelease, cuMemRelease);
SAME_ENTRY(cuMemMap, cuMemMap);
SAME_ENTRY(cuMemUnmap, cuMemUnmap);
SAME_ENTRY(cuMemSetAccess, cuMemSetAccess);
SAME_ENTRY(cuMemGetAllocationGranularity, cuMemGetAllocationGranularity);
SAME_ENTRY_TYPE(ours::HostRegister, cuMemHostRegister_v2);
SAME_ENTRY(cuMemHostUnregister, cuMemHostUnregister);
SAME_ENTRY_TYPE(ours::HostGetDevicePointer, cuMemHostGetDevicePointer_v2);
SAME_ENTRY_TYPE(ours::ModuleGetGlobal, cuModuleGetGlobal_v2);
SAME_ENTRY(cuLaunchKernelEx, cuLaunchKernelEx);
SAME_ENTRY(cuLaunchKernel, cuLaunchKernel);
SAME_ENTRY(cuFuncGetAttribute, cuFuncGetAttribute);
static_assert(k::CU_FUNC_ATTRIBUTE_NUM_REGS == CU_FUNC_ATTRIBUTE_NUM_REGS);

// Graphs: the unsuffixed entry points take the _v1 structures.
SAME_LAYOUT(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1);
SAME_OFFSET(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1, func);
SAME_OFFSET(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1, blockDimZ);
SAME_OFFSET(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1, sharedMemBytes);
SAME_OFFSET(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1, kernelParams);
SAME_OFFSET(CUDA_KERNEL_NODE_PARAMS, CUDA_KERNEL_NODE_PARAMS_v1, extra);
SAME_LAYOUT(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1);
SAME_OFFSET(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1, dst);
SAME_OFFSET(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1, value);
SAME_OFFSET(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1, elementSize);
SAME_OFFSET(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1, width);
SAME_OFFSET(CUDA_MEMSET_NODE_PARAMS, CUDA_MEMSET_NODE_PARAMS_v1, height);
SAME_LAYOUT(CUDA_MEMCPY3D, CUDA_MEMCPY3D);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, srcMemoryType);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, srcDevice);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, dstMemoryType);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, dstDevice);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, WidthInBytes);
SAME_OFFSET(CUDA_MEMCPY3D, CUDA_MEMCPY3D, Depth);
static_assert(k::CU_MEMORYTYPE_UNIFIED == CU_MEMORYTYPE_UNIFIED);
SAME_ENTRY(cuGraphCreate, cuGraphCreate);
SAME_ENTRY(cuGraphDestroy, cuGraphDestroy);
SAME_ENTRY(cuGraphAddMemsetNode, cuGraphAddMemsetNode);
SAME_ENTRY(cuGraphAddMemcpyNode, cuGraphAddMemcpyNode);
SAME_ENTRY(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags);
SAME_ENTRY(cuGraphExecDestroy, cuGraphExecDestroy);
SAME_ENTRY(cuGraphLaunch, cuGraphLaunch);

// Our launch-parameter keys are cuda.h's.
static_assert(CU_LAUNCH_PARAM_END_AS_INT == 0x00 && CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT == 0x01 &&
              CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT == 0x02);

int main() {
  return ours::launchParameterEnd == CU_LAUNCH_PARAM_END && ours::launchParameterBufferPointer == CU_LAUNCH_PARAM_BUFFER_POINTER &&
                 ours::launchParameterBufferSize == CU_LAUNCH_PARAM_BUFFER_SIZE
             ? 0
             : 1;
}
