// Opening libcuda for the CUDA graphs check program: every entry point of Libcuda found by name, and
// the two ways a check stops the program.
#include "libcuda-calls.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

Libcuda cuda;

namespace {

void* library = nullptr;

template <class Function>
void find(Function& function, const char* name) {
  function = reinterpret_cast<Function>(::dlsym(library, name));
  if (function == nullptr) {
    std::printf("FAILED libcuda has no %s\n", name);
    std::exit(1);
  }
}

}  // namespace

bool openLibcuda(const char* path) {
  library = ::dlopen(path != nullptr && *path != '\0' ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return false;
#define FIND(name) find(cuda.name, #name)
  FIND(cuInit);
  FIND(cuDeviceGet);
  FIND(cuDevicePrimaryCtxRetain);
  FIND(cuCtxSetCurrent);
  FIND(cuModuleLoadDataEx);
  FIND(cuModuleGetFunction);
  FIND(cuMemAlloc_v2);
  FIND(cuMemcpy);
  FIND(cuStreamCreate);
  FIND(cuStreamSynchronize);
  FIND(cuEventCreate);
  FIND(cuEventRecord);
  FIND(cuEventSynchronize);
  FIND(cuStreamWaitEvent);
  FIND(cuLaunchKernel);
  FIND(cuMemsetD8Async);
  FIND(cuMemcpyAsync);
  FIND(cuMemAllocAsync);
  FIND(cuMemFreeAsync);
  FIND(cuGraphCreate);
  FIND(cuGraphDestroy);
  FIND(cuGraphClone);
  FIND(cuGraphAddKernelNode_v2);
  FIND(cuGraphAddMemsetNode);
  FIND(cuGraphAddMemcpyNode);
  FIND(cuGraphAddHostNode);
  FIND(cuGraphAddEmptyNode);
  FIND(cuGraphAddChildGraphNode);
  FIND(cuGraphAddEventRecordNode);
  FIND(cuGraphAddMemAllocNode);
  FIND(cuGraphAddMemFreeNode);
  FIND(cuGraphGetNodes);
  FIND(cuGraphGetEdges_v2);
  FIND(cuGraphNodeGetType);
  FIND(cuGraphNodeGetDependencies_v2);
  FIND(cuGraphKernelNodeGetParams_v2);
  FIND(cuGraphKernelNodeSetParams_v2);
  FIND(cuGraphMemsetNodeGetParams);
  FIND(cuGraphMemcpyNodeGetParams);
  FIND(cuGraphMemAllocNodeGetParams);
  FIND(cuGraphInstantiateWithFlags);
  FIND(cuGraphExecDestroy);
  FIND(cuGraphLaunch);
  FIND(cuGraphExecKernelNodeSetParams_v2);
  FIND(cuGraphExecUpdate_v2);
  FIND(cuStreamBeginCapture_v2);
  FIND(cuStreamEndCapture);
  FIND(cuStreamIsCapturing);
#undef FIND
  return true;
}

void check(CUresult result, const char* call, int line) {
  if (result == 0) return;
  std::printf("FAILED %s returned %d (line %d)\n", call, result, line);
  std::exit(1);
}

void expect(bool condition, const char* what) {
  if (!condition) {
    std::printf("FAILED %s\n", what);
    std::exit(1);
  }
}
