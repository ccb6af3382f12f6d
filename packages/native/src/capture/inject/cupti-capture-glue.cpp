// The capture library's entry point (CUDA_INJECTION64_PATH calls InitializeInjection) and its CUPTI
// callbacks, which turn driver calls into CaptureSession calls. Kept thin: everything that decides
// is in the session, which the tests drive without a GPU.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/collective-caller.hpp"
#include "capture/inject/collective-library.hpp"
#include "capture/inject/cuda-graphs.hpp"
#include "capture/inject/cuda-memory-access.hpp"
#include "capture/inject/cupti-callback-api.hpp"
#include "capture/inject/driver-call-translation.hpp"
#include "capture/inject/process-capture-folder.hpp"
#include "capture/inject/work-call-translation.hpp"
#include "drivers/cuda/cupti-library.hpp"

namespace kreplay::capture {

namespace {

using namespace cupti;

// Never destroyed: other threads may still be in a callback while the program exits.
DynamicLibrary* cuptiLibrary = nullptr;
CudaMemoryAccess* device = nullptr;
CaptureSession* session = nullptr;
CudaGraphs* graphs = nullptr;

// The library's own driver calls (synchronize, copies) raise driver callbacks too: they are not the
// program's. Resource callbacks (a module loaded lazily because the session asked about a function)
// still reach the session.
thread_local bool insideCallback = false;
thread_local PendingLaunchHandle pendingLaunch;
// Modules the driver loaded on this thread during the current cuModuleLoad* call.
thread_local std::vector<std::uint32_t> modulesLoadedHere;
// The collective library (libnccl*, librccl*) whose file holds the image that the current module or
// library load on this thread loads from, or empty.
thread_local std::string loadingFromCollectiveLibrary;

/** Executable graphs as the program makes, changes and launches them (cuda-graphs.hpp). True when it was one. */
bool onGraphCall(CallbackId id, const CallbackData& data) {
  const auto* exec = static_cast<const GraphExecParams*>(data.functionParams);
  const auto handle = [](const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); };
  const bool succeeded = data.callbackSite == kApiExit && *static_cast<const CUresult*>(data.functionReturnValue) == 0;
  switch (id) {
    case cbid::cuGraphLaunch:
    case cbid::cuGraphLaunch_ptsz: {
      if (data.callbackSite != kApiEnter) return true;
      std::optional<GraphLaunchRequest> request;
      try {
        request = graphs->describe(handle(exec->hGraphExec), handle(exec->second),
                                   reinterpret_cast<std::uintptr_t>(data.context));
      } catch (const std::exception& error) {
        std::cerr << "[kreplay capture] a graph launch could not be read (" << error.what() << "); it is counted, not captured\n";
      }
      if (request) {
        // Launched by a collective library's code: so is each of its kernel nodes.
        if (const auto caller = collectiveCaller())
          for (GraphNode& node : request->nodes) node.launch.launchedFrom = *caller;
        session->graphLaunch(*request, *graphs);
      }
      else session->beforeLaunch(launchRequest(id, data.functionParams, data.symbolName));  // counted
      return true;
    }
    case cbid::cuGraphInstantiate:
    case cbid::cuGraphInstantiate_v2:
    case cbid::cuGraphInstantiateWithFlags:
    case cbid::cuGraphInstantiateWithParams:
    case cbid::cuGraphInstantiateWithParams_ptsz: {
      if (!succeeded) return true;
      const auto* p = static_cast<const GraphInstantiateParams*>(data.functionParams);
      unsigned long long flags = 0;
      if (id == cbid::cuGraphInstantiateWithFlags) flags = reinterpret_cast<unsigned long long>(p->third);
      if (id == cbid::cuGraphInstantiateWithParams || id == cbid::cuGraphInstantiateWithParams_ptsz)
        flags = *static_cast<const unsigned long long*>(p->third);
      graphs->instantiated(handle(*p->phGraphExec), handle(p->hGraph), flags);
      return true;
    }
    case cbid::cuGraphExecKernelNodeSetParams:
    case cbid::cuGraphExecKernelNodeSetParams_v2:
      if (succeeded)
        graphs->kernelNodeSet(handle(exec->hGraphExec), handle(exec->second), exec->third,
                              id == cbid::cuGraphExecKernelNodeSetParams_v2);
      return true;
    case cbid::cuGraphExecMemsetNodeSetParams:
      if (succeeded) graphs->memsetNodeSet(handle(exec->hGraphExec), handle(exec->second), exec->third);
      return true;
    case cbid::cuGraphExecMemcpyNodeSetParams:
      if (succeeded) graphs->memcpyNodeSet(handle(exec->hGraphExec), handle(exec->second), exec->third);
      return true;
    case cbid::cuGraphExecNodeSetParams:
      if (succeeded) graphs->nodeSet(handle(exec->hGraphExec), handle(exec->second), exec->third);
      return true;
    case cbid::cuGraphNodeSetEnabled: {
      const auto* p = static_cast<const GraphNodeSetEnabledParams*>(data.functionParams);
      if (succeeded) graphs->enabledSet(handle(p->hGraphExec), handle(p->hNode), p->isEnabled != 0);
      return true;
    }
    case cbid::cuGraphExecUpdate:
    case cbid::cuGraphExecUpdate_v2:
      if (succeeded) graphs->updated(handle(exec->hGraphExec), handle(exec->second));
      return true;
    case cbid::cuGraphExecDestroy:
      if (data.callbackSite == kApiEnter) graphs->destroyed(handle(exec->hGraphExec));
      return true;
    default:
      return false;
  }
}

void onDriverCall(CallbackId id, const CallbackData& data) {
  if (graphs != nullptr && graphs->available() && onGraphCall(id, data)) return;
  if (isLaunch(id)) {
    if (data.callbackSite == kApiEnter) {
      LaunchRequest request = launchRequest(id, data.functionParams, data.symbolName);
      request.context = reinterpret_cast<std::uintptr_t>(data.context);
      request.launchedFrom = collectiveCaller().value_or("");  // a backtrace only while one is loaded
      pendingLaunch = session->beforeLaunch(request);
    } else if (pendingLaunch) {
      const bool launched = *static_cast<const CUresult*>(data.functionReturnValue) == 0;
      session->afterLaunch(std::move(pendingLaunch), launched);
    }
    return;
  }
  if (isModuleLoad(id) || id == cbid::cuLibraryLoadData) {
    if (data.callbackSite == kApiEnter) {
      modulesLoadedHere.clear();
      loadingFromCollectiveLibrary =
          collectiveLibraryHolding(loadedModuleImage(id, data.functionParams)).value_or("");
      return;
    }
    loadingFromCollectiveLibrary.clear();
    if (isModuleLoad(id) && *static_cast<const CUresult*>(data.functionReturnValue) == 0 &&
        modulesLoadedHere.size() == 1)
      session->moduleHandle(loadedModuleHandle(data.functionParams), modulesLoadedHere[0]);
    return;
  }
  if (data.callbackSite != kApiExit) return;
  if (*static_cast<const CUresult*>(data.functionReturnValue) != 0 && !isStreamCaptureEnd(id)) return;
  applyMemoryCall(*session, id, data.functionParams);
}

void onResource(CallbackId id, const ResourceData& data) {
  const auto* module = static_cast<const ModuleResourceData*>(data.resourceDescriptor);
  if (module == nullptr) return;
  if (id == kResourceModuleLoaded) {
    if (CudaMemoryAccess::loadingOwnModule()) return;  // the capture's own page-hash kernel
    modulesLoadedHere.push_back(module->moduleId);
    // Loaded from an image in a collective library's file: the load call's image, or (a module a
    // library or the runtime loads lazily, later) the image the callback gives, when it lies there.
    const std::string library = !loadingFromCollectiveLibrary.empty()
                                    ? loadingFromCollectiveLibrary
                                    : collectiveLibraryHolding(module->pCubin).value_or("");
    session->moduleLoaded(module->moduleId, reinterpret_cast<const std::uint8_t*>(module->pCubin),
                          module->cubinSize, library);
  } else if (id == kResourceModuleUnloadStarting) {
    session->moduleUnloaded(module->moduleId);
  }
}

void callback(void*, CallbackDomain domain, CallbackId id, const void* data) {
  if (!session || data == nullptr) return;
  if (domain == kDomainResource) {
    try {
      onResource(id, *static_cast<const ResourceData*>(data));
    } catch (...) {
      std::cerr << "[kreplay capture] a module callback failed\n";
    }
    return;
  }
  if (insideCallback) return;
  insideCallback = true;
  try {
    if (domain == kDomainDriverApi) onDriverCall(id, *static_cast<const CallbackData*>(data));
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

/**
 * Whether this process is one to capture: a process that initializes CUDA claims a capture of its
 * own (KREPLAY_CAPTURE_OWNER_PID, inherited by the processes it starts afterwards); a child (a
 * compiler worker, a data loader) that initializes CUDA too captures nothing. Processes no captured
 * process started (a launcher's ranks) each capture, into their own folder (claimProcessFolder).
 */
bool claimCapture(const char* fail) {
  const std::string self = std::to_string(getpid());
  const char* owner = std::getenv("KREPLAY_CAPTURE_OWNER_PID");
  if (owner != nullptr && *owner != '\0' && self != owner) {
    std::cerr << fail << "process " << self << " was started by the captured process " << owner
              << "; its launches are not captured.\n";
    return false;
  }
  setenv("KREPLAY_CAPTURE_OWNER_PID", self.c_str(), 1);
  return true;
}

int initialize() {
  const char* fail = "[kreplay capture] ";
  std::string folder;  // this process's capture folder, once claimed
  try {
    if (!claimCapture(fail)) return 0;
    CaptureOptions options = readCaptureOptions([](const char* name) { return std::getenv(name); });
    cuda::CuptiLibraryLookup lookup =
        cuda::openCuptiLibrary({"libcupti.so", "libcupti.so.13", "libcupti.so.12"});
    if (!lookup.library) {
      std::cerr << fail << lookup.failure << "; nothing is captured. " << cuda::cuptiInstallFix() << ".\n";
      return 0;
    }
    cuptiLibrary = lookup.library.release();
    CuptiCallbackApi api{};
    if (!resolve(api.cuptiSubscribe, "cuptiSubscribe") ||
        !resolve(api.cuptiEnableCallback, "cuptiEnableCallback")) {
      std::cerr << fail << lookup.path
                << " lacks cuptiSubscribe or cuptiEnableCallback; nothing is captured.\n";
      return 0;
    }
    device = new CudaMemoryAccess();
    graphs = new CudaGraphs();
    // Claimed only now that the capture can run, so that a library that cannot start leaves no folder.
    folder = claimProcessFolder(options.directory, getpid());
    options.directory = folder;
    options.process = CapturedProcess{getpid(), getppid()};
    session = new CaptureSession(options, *device, std::cerr);
    SubscriberHandle subscriber = nullptr;
    if (const CUptiResult result = api.cuptiSubscribe(&subscriber, callback, nullptr);
        result != kCuptiSuccess) {
      std::cerr << fail << "cuptiSubscribe failed (CUPTI error " << result
                << "): another tool may hold CUPTI's subscriber (one at a time); nothing is captured.\n";
      delete session;
      session = nullptr;
      return 0;
    }
    const CallbackId driverCalls[] = {cbid::cuLaunchKernel,
                                      cbid::cuLaunchKernel_ptsz,
                                      cbid::cuLaunchKernelEx,
                                      cbid::cuLaunchKernelEx_ptsz,
                                      cbid::cuLaunchCooperativeKernel,
                                      cbid::cuLaunchCooperativeKernel_ptsz,
                                      cbid::cuLaunchCooperativeKernelMultiDevice,
                                      cbid::cuGraphLaunch,
                                      cbid::cuGraphLaunch_ptsz,
                                      cbid::cuGraphInstantiate,
                                      cbid::cuGraphInstantiate_v2,
                                      cbid::cuGraphInstantiateWithFlags,
                                      cbid::cuGraphInstantiateWithParams,
                                      cbid::cuGraphInstantiateWithParams_ptsz,
                                      cbid::cuGraphExecKernelNodeSetParams,
                                      cbid::cuGraphExecKernelNodeSetParams_v2,
                                      cbid::cuGraphExecMemsetNodeSetParams,
                                      cbid::cuGraphExecMemcpyNodeSetParams,
                                      cbid::cuGraphExecNodeSetParams,
                                      cbid::cuGraphNodeSetEnabled,
                                      cbid::cuGraphExecUpdate,
                                      cbid::cuGraphExecUpdate_v2,
                                      cbid::cuGraphExecDestroy,
                                      cbid::cuMemAlloc_v2,
                                      cbid::cuMemAllocPitch_v2,
                                      cbid::cuMemFree_v2,
                                      cbid::cuMemAllocAsync,
                                      cbid::cuMemAllocAsync_ptsz,
                                      cbid::cuMemAllocFromPoolAsync,
                                      cbid::cuMemAllocFromPoolAsync_ptsz,
                                      cbid::cuMemFreeAsync,
                                      cbid::cuMemFreeAsync_ptsz,
                                      cbid::cuMemHostAlloc,
                                      cbid::cuMemAllocHost_v2,
                                      cbid::cuMemFreeHost,
                                      cbid::cuMemHostRegister_v2,
                                      cbid::cuMemHostUnregister,
                                      cbid::cuMemAllocManaged,
                                      cbid::cuMemMap,
                                      cbid::cuMemUnmap,
                                      cbid::cuProfilerStart,
                                      cbid::cuProfilerStop,
                                      cbid::cuTexObjectCreate,
                                      cbid::cuTexObjectDestroy,
                                      cbid::cuSurfObjectCreate,
                                      cbid::cuSurfObjectDestroy,
                                      cbid::cuStreamBeginCapture,
                                      cbid::cuStreamBeginCapture_ptsz,
                                      cbid::cuStreamBeginCapture_v2,
                                      cbid::cuStreamBeginCapture_v2_ptsz,
                                      cbid::cuStreamBeginCaptureToGraph,
                                      cbid::cuStreamBeginCaptureToGraph_ptsz,
                                      cbid::cuStreamEndCapture,
                                      cbid::cuStreamEndCapture_ptsz,
                                      cbid::cuModuleLoad,
                                      cbid::cuModuleLoadData,
                                      cbid::cuModuleLoadDataEx,
                                      cbid::cuModuleLoadFatBinary,
                                      cbid::cuLibraryLoadData};
    std::vector<CallbackId> enabled(std::begin(driverCalls), std::end(driverCalls));
    enabled.insert(enabled.end(), workCallbackIds().begin(), workCallbackIds().end());
    for (const CallbackId id : enabled) {
      if (const CUptiResult result = api.cuptiEnableCallback(1, subscriber, kDomainDriverApi, id);
          result != kCuptiSuccess)
        std::cerr << fail << "could not enable the driver callback " << id << " (CUPTI error " << result
                  << ").\n";
    }
    for (const CallbackId id : {kResourceModuleLoaded, kResourceModuleUnloadStarting}) {
      if (const CUptiResult result = api.cuptiEnableCallback(1, subscriber, kDomainResource, id);
          result != kCuptiSuccess)
        std::cerr << fail << "could not enable the resource callback " << id << " (CUPTI error " << result
                  << ").\n";
    }
    std::atexit(finishAtExit);
    std::cerr << fail << "capturing into " << session->directory() << "\n";
    return 1;
  } catch (const CaptureOptionsError& error) {
    // A variable that is wrong, or (once the folder is claimed) a selection the session could not
    // make, which its manifest records.
    std::cerr << error.what() << " Nothing is captured"
              << (folder.empty() ? std::string(".")
                                 : "; " + folder + "/manifest.json records why (selectionError).")
              << "\n";
    return 0;
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
