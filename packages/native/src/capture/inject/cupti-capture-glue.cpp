// The capture library's entry point (CUDA_INJECTION64_PATH calls InitializeInjection) and its CUPTI
// callbacks, which turn driver calls into CaptureSession calls. Kept thin: everything that decides
// is in the session, which the tests drive without a GPU.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/cuda-memory-access.hpp"
#include "capture/inject/cupti-callback-api.hpp"
#include "drivers/cuda/cupti-library.hpp"

namespace kreplay::capture {

namespace {

using namespace cupti;

// Never destroyed: other threads may still be in a callback while the program exits.
DynamicLibrary* cuptiLibrary = nullptr;
CudaMemoryAccess* device = nullptr;
CaptureSession* session = nullptr;

// The library's own driver calls (synchronize, copies) raise callbacks too: they are not the program's.
thread_local bool insideCallback = false;
thread_local PendingLaunchHandle pendingLaunch;

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

/** A launch attribute other than cooperative/cluster: its name and its value as 32-bit words, trailing zeros dropped. */
capture::LaunchAttribute describeAttribute(const cupti::LaunchAttribute& attribute) {
  capture::LaunchAttribute out;
  const int count = static_cast<int>(sizeof kAttributeNames / sizeof kAttributeNames[0]);
  out.name = attribute.id >= 0 && attribute.id < count ? kAttributeNames[attribute.id]
                                                       : "CU_LAUNCH_ATTRIBUTE_" + std::to_string(attribute.id);
  std::int32_t words[16];
  std::memcpy(words, attribute.value.bytes, sizeof words);
  int last = 0;
  for (int i = 0; i < 16; ++i)
    if (words[i] != 0) last = i;
  for (int i = 0; i <= last; ++i) out.values.push_back(words[i]);
  return out;
}

LaunchRequest kernelLaunch(LaunchKind kind, const char* symbol, CUfunction function, unsigned gx, unsigned gy,
                           unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream stream,
                           void** kernelParams, void** extra) {
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

LaunchRequest launchRequest(CallbackId id, const CallbackData& data) {
  const void* params = data.functionParams;
  switch (id) {
    case cbid::cuLaunchKernel:
    case cbid::cuLaunchKernel_ptsz: {
      const auto& p = *static_cast<const LaunchKernelParams*>(params);
      return kernelLaunch(LaunchKind::Kernel, data.symbolName, p.f, p.gridDimX, p.gridDimY, p.gridDimZ, p.blockDimX,
                          p.blockDimY, p.blockDimZ, p.sharedMemBytes, p.hStream, p.kernelParams, p.extra);
    }
    case cbid::cuLaunchKernelEx:
    case cbid::cuLaunchKernelEx_ptsz: {
      const auto& p = *static_cast<const LaunchKernelExParams*>(params);
      const LaunchConfig& c = *p.config;
      LaunchRequest request =
          kernelLaunch(LaunchKind::Kernel, data.symbolName, p.f, c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX,
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
      return kernelLaunch(LaunchKind::Cooperative, data.symbolName, p.f, p.gridDimX, p.gridDimY, p.gridDimZ,
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

std::uint64_t address(const void* pointer) {
  return reinterpret_cast<std::uint64_t>(pointer);
}

/** An allocation or free that returned CUDA_SUCCESS (API exit). */
void memoryCall(CallbackId id, const void* params) {
  switch (id) {
    case cbid::cuMemAlloc_v2: {
      const auto& p = *static_cast<const MemAllocParams*>(params);
      session->allocationAdded(*p.dptr, p.bytesize, MemoryKind::Device);
      break;
    }
    case cbid::cuMemAllocPitch_v2: {
      const auto& p = *static_cast<const MemAllocPitchParams*>(params);
      session->allocationAdded(*p.dptr, std::uint64_t{*p.pPitch} * p.Height, MemoryKind::Device);
      break;
    }
    case cbid::cuMemAllocAsync:
    case cbid::cuMemAllocAsync_ptsz: {
      const auto& p = *static_cast<const MemAllocAsyncParams*>(params);
      session->allocationAdded(*p.dptr, p.bytesize, MemoryKind::Pool);
      break;
    }
    case cbid::cuMemAllocFromPoolAsync:
    case cbid::cuMemAllocFromPoolAsync_ptsz: {
      const auto& p = *static_cast<const MemAllocFromPoolAsyncParams*>(params);
      session->allocationAdded(*p.dptr, p.bytesize, MemoryKind::Pool);
      break;
    }
    case cbid::cuMemHostAlloc: {
      const auto& p = *static_cast<const MemHostAllocParams*>(params);
      session->allocationAdded(address(*p.pp), p.bytesize, MemoryKind::HostPinned);
      break;
    }
    case cbid::cuMemAllocHost_v2: {
      const auto& p = *static_cast<const MemAllocHostParams*>(params);
      session->allocationAdded(address(*p.pp), p.bytesize, MemoryKind::HostPinned);
      break;
    }
    case cbid::cuMemHostRegister_v2: {
      const auto& p = *static_cast<const MemHostRegisterParams*>(params);
      session->allocationAdded(address(p.p), p.bytesize, MemoryKind::HostRegistered);
      break;
    }
    case cbid::cuMemAllocManaged: {
      const auto& p = *static_cast<const MemAllocManagedParams*>(params);
      session->managedAllocationAdded(*p.dptr, p.bytesize);
      break;
    }
    case cbid::cuMemMap: {
      const auto& p = *static_cast<const MemMapParams*>(params);
      session->allocationAdded(p.ptr, p.size, MemoryKind::Vmm);
      break;
    }
    case cbid::cuMemUnmap: {
      const auto& p = *static_cast<const MemUnmapParams*>(params);
      session->rangeUnmapped(p.ptr, p.size);
      break;
    }
    case cbid::cuMemFree_v2:
      session->allocationRemoved(static_cast<const MemFreeParams*>(params)->dptr);
      break;
    case cbid::cuMemFreeAsync:
    case cbid::cuMemFreeAsync_ptsz:
      session->allocationRemoved(static_cast<const MemFreeAsyncParams*>(params)->dptr);
      break;
    case cbid::cuMemFreeHost:
    case cbid::cuMemHostUnregister:
      session->allocationRemoved(address(static_cast<const HostPointerParams*>(params)->p));
      break;
    case cbid::cuTexObjectCreate:
    case cbid::cuSurfObjectCreate:
      session->opaqueObjectCreated(*static_cast<const ObjectCreateParams*>(params)->pObject);
      break;
    case cbid::cuTexObjectDestroy:
    case cbid::cuSurfObjectDestroy:
      session->opaqueObjectDestroyed(static_cast<const ObjectDestroyParams*>(params)->object);
      break;
    default:
      break;
  }
}

void onDriverCall(CallbackId id, const CallbackData& data) {
  if (isLaunch(id)) {
    if (data.callbackSite == kApiEnter) {
      pendingLaunch = session->beforeLaunch(launchRequest(id, data));
    } else if (pendingLaunch) {
      const bool launched = *static_cast<const CUresult*>(data.functionReturnValue) == 0;
      session->afterLaunch(std::move(pendingLaunch), launched);
    }
    return;
  }
  if (data.callbackSite != kApiExit || *static_cast<const CUresult*>(data.functionReturnValue) != 0) return;
  memoryCall(id, data.functionParams);
}

void onResource(CallbackId id, const ResourceData& data) {
  const auto* module = static_cast<const ModuleResourceData*>(data.resourceDescriptor);
  if (module == nullptr) return;
  if (id == kResourceModuleLoaded) {
    session->moduleLoaded(module->moduleId, reinterpret_cast<const std::uint8_t*>(module->pCubin), module->cubinSize);
  } else if (id == kResourceModuleUnloadStarting) {
    session->moduleUnloaded(module->moduleId);
  }
}

void callback(void*, CallbackDomain domain, CallbackId id, const void* data) {
  if (insideCallback || !session || data == nullptr) return;
  insideCallback = true;
  try {
    if (domain == kDomainDriverApi) onDriverCall(id, *static_cast<const CallbackData*>(data));
    else if (domain == kDomainResource) onResource(id, *static_cast<const ResourceData*>(data));
  } catch (const std::exception& error) {
    std::cerr << "[kreplay capture] a callback failed: " << error.what() << "\n";
  } catch (...) {
    std::cerr << "[kreplay capture] a callback failed\n";
  }
  insideCallback = false;
}

void finishAtExit() {
  insideCallback = true;  // nothing more is captured while the program ends
  if (session) session->finish();
}

template <class Function>
bool resolve(Function& function, const char* name) {
  function = reinterpret_cast<Function>(cuptiLibrary->symbol(name));
  return function != nullptr;
}

int initialize() {
  const char* fail = "[kreplay capture] ";
  try {
    const CaptureOptions options = readCaptureOptions([](const char* name) { return std::getenv(name); });
    cuda::CuptiLibraryLookup lookup = cuda::openCuptiLibrary({"libcupti.so", "libcupti.so.13", "libcupti.so.12"});
    if (!lookup.library) {
      std::cerr << fail << lookup.failure << "; nothing is captured. " << cuda::cuptiInstallFix() << ".\n";
      return 0;
    }
    cuptiLibrary = lookup.library.release();
    CuptiCallbackApi api{};
    if (!resolve(api.cuptiSubscribe, "cuptiSubscribe") || !resolve(api.cuptiEnableCallback, "cuptiEnableCallback")) {
      std::cerr << fail << lookup.path << " lacks cuptiSubscribe or cuptiEnableCallback; nothing is captured.\n";
      return 0;
    }
    device = new CudaMemoryAccess();
    session = new CaptureSession(options, *device, std::cerr);
    SubscriberHandle subscriber = nullptr;
    if (const CUptiResult result = api.cuptiSubscribe(&subscriber, callback, nullptr); result != kCuptiSuccess) {
      std::cerr << fail << "cuptiSubscribe failed (CUPTI error " << result
                << "): another tool may hold CUPTI's subscriber (one at a time); nothing is captured.\n";
      delete session;
      session = nullptr;
      return 0;
    }
    const CallbackId driverCalls[] = {
        cbid::cuLaunchKernel, cbid::cuLaunchKernel_ptsz, cbid::cuLaunchKernelEx, cbid::cuLaunchKernelEx_ptsz,
        cbid::cuLaunchCooperativeKernel, cbid::cuLaunchCooperativeKernel_ptsz,
        cbid::cuLaunchCooperativeKernelMultiDevice, cbid::cuGraphLaunch, cbid::cuGraphLaunch_ptsz,
        cbid::cuMemAlloc_v2, cbid::cuMemAllocPitch_v2, cbid::cuMemFree_v2, cbid::cuMemAllocAsync,
        cbid::cuMemAllocAsync_ptsz, cbid::cuMemAllocFromPoolAsync, cbid::cuMemAllocFromPoolAsync_ptsz,
        cbid::cuMemFreeAsync, cbid::cuMemFreeAsync_ptsz, cbid::cuMemHostAlloc, cbid::cuMemAllocHost_v2,
        cbid::cuMemFreeHost, cbid::cuMemHostRegister_v2, cbid::cuMemHostUnregister, cbid::cuMemAllocManaged,
        cbid::cuMemMap, cbid::cuMemUnmap, cbid::cuTexObjectCreate, cbid::cuTexObjectDestroy,
        cbid::cuSurfObjectCreate, cbid::cuSurfObjectDestroy};
    for (const CallbackId id : driverCalls) {
      if (const CUptiResult result = api.cuptiEnableCallback(1, subscriber, kDomainDriverApi, id); result != kCuptiSuccess)
        std::cerr << fail << "could not enable the driver callback " << id << " (CUPTI error " << result << ").\n";
    }
    for (const CallbackId id : {kResourceModuleLoaded, kResourceModuleUnloadStarting}) {
      if (const CUptiResult result = api.cuptiEnableCallback(1, subscriber, kDomainResource, id); result != kCuptiSuccess)
        std::cerr << fail << "could not enable the resource callback " << id << " (CUPTI error " << result << ").\n";
    }
    std::atexit(finishAtExit);
    std::cerr << fail << "capturing into " << session->directory() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << (std::strncmp(error.what(), fail, std::strlen(fail)) == 0 ? "" : fail) << error.what()
              << " Nothing is captured.\n";
    delete session;
    session = nullptr;
    return 0;
  }
}

}  // namespace

}  // namespace kreplay::capture

/** Called by libcuda when CUDA_INJECTION64_PATH names this library. Returns 1 when capturing. */
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  return kreplay::capture::initialize();
}
