#include "drivers/cuda/cuda-api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace kreplay::cuda {

namespace {

/** The first of `names` the library exports, cast to the entry point's type. */
template <typename Function>
void resolve(const DynamicLibrary& library, Function& function, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* symbol = library.symbol(name)) {
      function = reinterpret_cast<Function>(symbol);
      return;
    }
  }
  throw std::runtime_error(std::string("the CUDA driver library does not export ") + *names.begin() +
                           "; the NVIDIA driver is too old for this addon");
}

/** The first of `names` the library exports, or nullptr. */
template <typename Function>
void resolveOptional(const DynamicLibrary& library, Function& function, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* symbol = library.symbol(name)) {
      function = reinterpret_cast<Function>(symbol);
      return;
    }
  }
  function = nullptr;
}

}  // namespace

std::string CudaApi::errorName(CUresult result) const {
  const char* name = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) == CUDA_SUCCESS && name) return name;
  return "CUDA error " + std::to_string(result);
}

std::string CudaApi::errorText(CUresult result) const {
  const char* text = nullptr;
  if (cuGetErrorString && cuGetErrorString(result, &text) == CUDA_SUCCESS && text) return text;
  return "unknown CUDA error " + std::to_string(result);
}

namespace {

std::shared_ptr<const CudaLibrary> openCudaLibrary() {
  auto loaded = std::make_shared<CudaLibrary>();
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  loaded->library = std::make_unique<DynamicLibrary>(path && *path ? path : "libcuda.so.1");
  if (!loaded->library->loaded()) {
    throw std::runtime_error(path && *path ? std::string(path) + " (KREPLAY_CUDA_LIBRARY) was not found: " +
                                                 loaded->library->error()
                                           : "libcuda.so.1 was not found: " + loaded->library->error());
  }
  const DynamicLibrary& library = *loaded->library;
  CudaApi& api = loaded->api;
  resolve(library, api.cuInit, {"cuInit"});
  resolve(library, api.cuDriverGetVersion, {"cuDriverGetVersion"});
  resolve(library, api.cuGetErrorName, {"cuGetErrorName"});
  resolve(library, api.cuGetErrorString, {"cuGetErrorString"});
  resolve(library, api.cuDeviceGetCount, {"cuDeviceGetCount"});
  resolve(library, api.cuDeviceGet, {"cuDeviceGet"});
  resolve(library, api.cuDeviceGetName, {"cuDeviceGetName"});
  resolve(library, api.cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  resolve(library, api.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"});
  resolve(library, api.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  resolve(library, api.cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"});
  resolve(library, api.cuCtxSetCurrent, {"cuCtxSetCurrent"});
  resolve(library, api.cuCtxSynchronize, {"cuCtxSynchronize"});
  resolve(library, api.cuMemGetInfo, {"cuMemGetInfo_v2"});
  resolve(library, api.cuMemAlloc, {"cuMemAlloc_v2"});
  resolve(library, api.cuMemFree, {"cuMemFree_v2"});
  resolve(library, api.cuMemHostAlloc, {"cuMemHostAlloc"});
  resolve(library, api.cuMemFreeHost, {"cuMemFreeHost"});
  resolve(library, api.cuMemAllocAsync, {"cuMemAllocAsync"});
  resolve(library, api.cuMemFreeAsync, {"cuMemFreeAsync"});
  resolve(library, api.cuMemcpy, {"cuMemcpy"});
  resolve(library, api.cuMemcpyAsync, {"cuMemcpyAsync"});
  resolve(library, api.cuMemsetD8Async, {"cuMemsetD8Async"});
  resolve(library, api.cuStreamCreate, {"cuStreamCreate"});
  resolve(library, api.cuStreamDestroy, {"cuStreamDestroy_v2"});
  resolve(library, api.cuStreamSynchronize, {"cuStreamSynchronize"});
  resolve(library, api.cuStreamWaitEvent, {"cuStreamWaitEvent"});
  resolve(library, api.cuEventCreate, {"cuEventCreate"});
  resolve(library, api.cuEventDestroy, {"cuEventDestroy_v2"});
  resolve(library, api.cuEventRecord, {"cuEventRecord"});
  resolve(library, api.cuEventQuery, {"cuEventQuery"});
  resolve(library, api.cuEventSynchronize, {"cuEventSynchronize"});
  resolve(library, api.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  resolve(library, api.cuModuleLoadDataEx, {"cuModuleLoadDataEx"});
  resolve(library, api.cuModuleUnload, {"cuModuleUnload"});
  resolve(library, api.cuModuleGetFunction, {"cuModuleGetFunction"});
  resolve(library, api.cuFuncSetAttribute, {"cuFuncSetAttribute"});
  resolve(library, api.cuFuncGetAttribute, {"cuFuncGetAttribute"});
  resolve(library, api.cuLaunchKernel, {"cuLaunchKernel"});
  resolveOptional(library, api.cuLaunchKernelEx, {"cuLaunchKernelEx"});
  resolveOptional(library, api.cuModuleGetGlobal, {"cuModuleGetGlobal_v2"});
  resolveOptional(library, api.cuMemAddressReserve, {"cuMemAddressReserve"});
  resolveOptional(library, api.cuMemAddressFree, {"cuMemAddressFree"});
  resolveOptional(library, api.cuMemCreate, {"cuMemCreate"});
  resolveOptional(library, api.cuMemRelease, {"cuMemRelease"});
  resolveOptional(library, api.cuMemMap, {"cuMemMap"});
  resolveOptional(library, api.cuMemUnmap, {"cuMemUnmap"});
  resolveOptional(library, api.cuMemSetAccess, {"cuMemSetAccess"});
  resolveOptional(library, api.cuMemGetAllocationGranularity, {"cuMemGetAllocationGranularity"});
  resolveOptional(library, api.cuMemHostRegister, {"cuMemHostRegister_v2", "cuMemHostRegister"});
  resolveOptional(library, api.cuMemHostUnregister, {"cuMemHostUnregister"});
  resolveOptional(library, api.cuMemHostGetDevicePointer, {"cuMemHostGetDevicePointer_v2"});
  resolveOptional(library, api.cuGraphCreate, {"cuGraphCreate"});
  resolveOptional(library, api.cuGraphDestroy, {"cuGraphDestroy"});
  resolveOptional(library, api.cuGraphAddKernelNode, {"cuGraphAddKernelNode"});
  resolveOptional(library, api.cuGraphAddMemsetNode, {"cuGraphAddMemsetNode"});
  resolveOptional(library, api.cuGraphAddMemcpyNode, {"cuGraphAddMemcpyNode"});
  resolveOptional(library, api.cuGraphInstantiateWithFlags, {"cuGraphInstantiateWithFlags"});
  resolveOptional(library, api.cuGraphExecDestroy, {"cuGraphExecDestroy"});
  resolveOptional(library, api.cuGraphLaunch, {"cuGraphLaunch"});
  return loaded;
}

}  // namespace

namespace {

std::mutex loadMutex;
std::shared_ptr<const CudaLibrary>* loadedLibrary = new std::shared_ptr<const CudaLibrary>();

}  // namespace

bool cudaLibraryLoaded() {
  {
    std::lock_guard<std::mutex> lock(loadMutex);
    if (*loadedLibrary) return true;
  }
  // Loaded by something else in the process (another addon, a library linked against it).
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  void* handle = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (handle) dlclose(handle);
  return handle != nullptr;
}

std::shared_ptr<const CudaLibrary> loadCudaLibrary() {
  // Loaded once and never closed: libcuda runs threads of its own once initialized, and unloading
  // it under them (or at exit, after them) can crash the process.
  std::lock_guard<std::mutex> lock(loadMutex);
  if (!*loadedLibrary) *loadedLibrary = openCudaLibrary();
  return *loadedLibrary;
}

}  // namespace kreplay::cuda
