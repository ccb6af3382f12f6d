#include "capture/inject/driver-call-translation.hpp"

#include <cstring>
#include <string>

#include "capture/inject/work-call-translation.hpp"

namespace kreplay::capture {

using namespace cupti;

namespace {

const char* kAttributeNames[] = {"CU_LAUNCH_ATTRIBUTE_IGNORE",
                                 "CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW",
                                 "CU_LAUNCH_ATTRIBUTE_COOPERATIVE",
                                 "CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY",
                                 "CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION",
                                 "CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE",
                                 "CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION",
                                 "CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT",
                                 "CU_LAUNCH_ATTRIBUTE_PRIORITY",
                                 "CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP",
                                 "CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN",
                                 "CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION",
                                 "CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT",
                                 "CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE",
                                 "CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT"};

/**
 * The 32-bit words of each known attribute's value, in the order of kAttributeNames (cuda.h's
 * CUlaunchAttributeValue members): the rest of the 64-byte union is whatever the program left there.
 */
const int kAttributeWords[] = {
    0,  // IGNORE
    7,  // ACCESS_POLICY_WINDOW: base pointer, bytes (64-bit each), hit ratio, hit and miss properties
    1,  // COOPERATIVE
    1,  // SYNCHRONIZATION_POLICY
    3,  // CLUSTER_DIMENSION
    1,  // CLUSTER_SCHEDULING_POLICY_PREFERENCE
    1,  // PROGRAMMATIC_STREAM_SERIALIZATION
    4,  // PROGRAMMATIC_EVENT: event (64-bit), flags, trigger at block start
    1,  // PRIORITY
    1,  // MEM_SYNC_DOMAIN_MAP: two bytes
    1,  // MEM_SYNC_DOMAIN
    3,  // PREFERRED_CLUSTER_DIMENSION
    3,  // LAUNCH_COMPLETION_EVENT: event (64-bit), flags
    4,  // DEVICE_UPDATABLE_KERNEL_NODE: flag, padding, node (64-bit)
    1,  // PREFERRED_SHARED_MEMORY_CARVEOUT
};
static_assert(sizeof kAttributeWords / sizeof kAttributeWords[0] == sizeof kAttributeNames / sizeof kAttributeNames[0],
              "a value width for every attribute name");

/**
 * A launch attribute other than cooperative/cluster: its name and its value as 32-bit words (for a
 * known attribute as many as its value has; for another, trailing zero words dropped).
 */
capture::LaunchAttribute describeAttribute(const cupti::LaunchAttribute& attribute) {
  capture::LaunchAttribute out;
  const int count = static_cast<int>(sizeof kAttributeNames / sizeof kAttributeNames[0]);
  const bool known = attribute.id >= 0 && attribute.id < count;
  out.name = known ? kAttributeNames[attribute.id] : "CU_LAUNCH_ATTRIBUTE_" + std::to_string(attribute.id);
  std::int32_t words[16];
  std::memcpy(words, attribute.value.bytes, sizeof words);
  int length = known ? kAttributeWords[attribute.id] : 0;
  if (!known) {
    for (int i = 0; i < 16; ++i)
      if (words[i] != 0) length = i + 1;
    length = length == 0 ? 1 : length;
  }
  for (int i = 0; i < length; ++i) out.values.push_back(words[i]);
  return out;
}

LaunchRequest kernelLaunch(LaunchKind kind, const char* symbol, CUfunction function, unsigned gx, unsigned gy,
                           unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
                           CUstream stream, void** kernelParams, void** extra) {
  LaunchRequest request;
  request.kind = kind;
  request.function = symbol != nullptr ? symbol : "";
  request.functionHandle = reinterpret_cast<std::uintptr_t>(function);
  request.shape.grid = {gx, gy, gz};
  request.shape.block = {bx, by, bz};
  request.shape.dynamicSharedBytes = shared;
  request.stream = reinterpret_cast<std::uintptr_t>(stream);
  request.kernelParams = kernelParams;
  request.extra = extra;
  return request;
}

std::uint64_t address(const void* pointer) {
  return reinterpret_cast<std::uint64_t>(pointer);
}

}  // namespace

LaunchRequest launchRequest(CallbackId id, const void* params, const char* symbolName) {
  switch (id) {
    case cbid::cuLaunchKernel:
    case cbid::cuLaunchKernel_ptsz: {
      const auto& p = *static_cast<const LaunchKernelParams*>(params);
      return kernelLaunch(LaunchKind::Kernel, symbolName, p.f, p.gridDimX, p.gridDimY, p.gridDimZ,
                          p.blockDimX, p.blockDimY, p.blockDimZ, p.sharedMemBytes, p.hStream, p.kernelParams,
                          p.extra);
    }
    case cbid::cuLaunchKernelEx:
    case cbid::cuLaunchKernelEx_ptsz: {
      const auto& p = *static_cast<const LaunchKernelExParams*>(params);
      const LaunchConfig& c = *p.config;
      LaunchRequest request =
          kernelLaunch(LaunchKind::Kernel, symbolName, p.f, c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX,
                       c.blockDimY, c.blockDimZ, c.sharedMemBytes, c.hStream, p.kernelParams, p.extra);
      for (unsigned i = 0; i < c.numAttrs && c.attrs != nullptr; ++i) {
        const cupti::LaunchAttribute& attribute = c.attrs[i];
        if (attribute.id == kLaunchAttributeCooperative) {
          if (attribute.value.cooperative != 0) request.kind = LaunchKind::Cooperative;
        } else if (attribute.id == kLaunchAttributeClusterDimension) {
          const auto& d = attribute.value.clusterDim;
          request.shape.clusterDims = std::array<std::uint32_t, 3>{d.x, d.y, d.z};
        } else if (attribute.id != 0) {
          request.shape.attributes.push_back(describeAttribute(attribute));
        }
      }
      return request;
    }
    case cbid::cuLaunchCooperativeKernel:
    case cbid::cuLaunchCooperativeKernel_ptsz: {
      const auto& p = *static_cast<const LaunchCooperativeKernelParams*>(params);
      return kernelLaunch(LaunchKind::Cooperative, symbolName, p.f, p.gridDimX, p.gridDimY, p.gridDimZ,
                          p.blockDimX, p.blockDimY, p.blockDimZ, p.sharedMemBytes, p.hStream, p.kernelParams,
                          nullptr);
    }
    case cbid::cuLaunchCooperativeKernelMultiDevice: {
      LaunchRequest request;
      request.kind = LaunchKind::MultiDevice;
      return request;
    }
    default: {
      LaunchRequest request;
      request.kind = LaunchKind::Graph;
      return request;
    }
  }
}

bool isLaunch(CallbackId id) {
  switch (id) {
    case cbid::cuLaunchKernel:
    case cbid::cuLaunchKernel_ptsz:
    case cbid::cuLaunchKernelEx:
    case cbid::cuLaunchKernelEx_ptsz:
    case cbid::cuLaunchCooperativeKernel:
    case cbid::cuLaunchCooperativeKernel_ptsz:
    case cbid::cuLaunchCooperativeKernelMultiDevice:
    case cbid::cuGraphLaunch:
    case cbid::cuGraphLaunch_ptsz:
      return true;
    default:
      return false;
  }
}

void applyMemoryCall(CaptureSession& session, CallbackId id, const void* params) {
  switch (id) {
    case cbid::cuMemAlloc_v2: {
      const auto& p = *static_cast<const MemAllocParams*>(params);
      session.allocationAdded(*p.dptr, p.bytesize, MemoryKind::Device);
      break;
    }
    case cbid::cuMemAllocPitch_v2: {
      const auto& p = *static_cast<const MemAllocPitchParams*>(params);
      session.allocationAdded(*p.dptr, std::uint64_t{*p.pPitch} * p.Height, MemoryKind::Device);
      break;
    }
    case cbid::cuMemAllocAsync:
    case cbid::cuMemAllocAsync_ptsz: {
      const auto& p = *static_cast<const MemAllocAsyncParams*>(params);
      session.allocationAdded(*p.dptr, p.bytesize, MemoryKind::Pool);
      break;
    }
    case cbid::cuMemAllocFromPoolAsync:
    case cbid::cuMemAllocFromPoolAsync_ptsz: {
      const auto& p = *static_cast<const MemAllocFromPoolAsyncParams*>(params);
      session.allocationAdded(*p.dptr, p.bytesize, MemoryKind::Pool);
      break;
    }
    case cbid::cuMemHostAlloc: {
      const auto& p = *static_cast<const MemHostAllocParams*>(params);
      session.allocationAdded(address(*p.pp), p.bytesize, MemoryKind::HostPinned);
      break;
    }
    case cbid::cuMemAllocHost_v2: {
      const auto& p = *static_cast<const MemAllocHostParams*>(params);
      session.allocationAdded(address(*p.pp), p.bytesize, MemoryKind::HostPinned);
      break;
    }
    case cbid::cuMemHostRegister_v2: {
      const auto& p = *static_cast<const MemHostRegisterParams*>(params);
      session.allocationAdded(address(p.p), p.bytesize, MemoryKind::HostRegistered);
      break;
    }
    case cbid::cuMemAllocManaged: {
      const auto& p = *static_cast<const MemAllocManagedParams*>(params);
      session.managedAllocationAdded(*p.dptr, p.bytesize);
      break;
    }
    case cbid::cuMemMap: {
      const auto& p = *static_cast<const MemMapParams*>(params);
      session.allocationAdded(p.ptr, p.size, MemoryKind::Vmm);
      break;
    }
    case cbid::cuMemUnmap: {
      const auto& p = *static_cast<const MemUnmapParams*>(params);
      session.rangeUnmapped(p.ptr, p.size);
      break;
    }
    case cbid::cuMemFree_v2:
      session.allocationRemoved(static_cast<const MemFreeParams*>(params)->dptr);
      break;
    case cbid::cuMemFreeAsync:
    case cbid::cuMemFreeAsync_ptsz:
      session.allocationRemoved(static_cast<const MemFreeAsyncParams*>(params)->dptr);
      break;
    case cbid::cuMemFreeHost:
    case cbid::cuMemHostUnregister:
      session.allocationRemoved(address(static_cast<const HostPointerParams*>(params)->p));
      break;
    case cbid::cuProfilerStart:
      session.profilerStarted();
      break;
    case cbid::cuProfilerStop:
      session.profilerStopped();
      break;
    case cbid::cuTexObjectCreate:
    case cbid::cuSurfObjectCreate:
      session.opaqueObjectCreated(*static_cast<const ObjectCreateParams*>(params)->pObject);
      break;
    case cbid::cuTexObjectDestroy:
    case cbid::cuSurfObjectDestroy:
      session.opaqueObjectDestroyed(static_cast<const ObjectDestroyParams*>(params)->object);
      break;
    case cbid::cuStreamBeginCapture:
    case cbid::cuStreamBeginCapture_ptsz:
    case cbid::cuStreamBeginCapture_v2:
    case cbid::cuStreamBeginCapture_v2_ptsz:
    case cbid::cuStreamBeginCaptureToGraph:
    case cbid::cuStreamBeginCaptureToGraph_ptsz:
      session.streamCaptureBegan(
          reinterpret_cast<std::uintptr_t>(static_cast<const StreamCaptureParams*>(params)->hStream));
      break;
    case cbid::cuStreamEndCapture:
    case cbid::cuStreamEndCapture_ptsz:
      session.streamCaptureEnded(
          reinterpret_cast<std::uintptr_t>(static_cast<const StreamCaptureParams*>(params)->hStream));
      break;
    default:
      applyWorkCall(session, id, params);  // memsets, copies, host functions, events
      break;
  }
}

bool isModuleLoad(CallbackId id) {
  return id == cbid::cuModuleLoad || id == cbid::cuModuleLoadData || id == cbid::cuModuleLoadDataEx ||
         id == cbid::cuModuleLoadFatBinary;
}

std::uintptr_t loadedModuleHandle(const void* params) {
  const auto& p = *static_cast<const ModuleLoadParams*>(params);
  return p.module == nullptr ? 0 : reinterpret_cast<std::uintptr_t>(*p.module);
}

const void* loadedModuleImage(CallbackId id, const void* params) {
  if (id != cbid::cuModuleLoadData && id != cbid::cuModuleLoadDataEx && id != cbid::cuModuleLoadFatBinary &&
      id != cbid::cuLibraryLoadData)
    return nullptr;
  return static_cast<const ModuleImageParams*>(params)->image;
}

bool isStreamCaptureEnd(CallbackId id) {
  return id == cbid::cuStreamEndCapture || id == cbid::cuStreamEndCapture_ptsz;
}

}  // namespace kreplay::capture
