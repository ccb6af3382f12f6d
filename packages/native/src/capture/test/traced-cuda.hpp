// A program's view of the fake libcuda (test/fake-cuda) for the drive modes: the driver calls it
// makes, each raising through fake-cupti the CUPTI callbacks a driver would (entry and exit), so that
// an injected capture library sees them; with no fake-cupti (a plain run) no callback is raised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/test/graph-program.hpp"  // the graph calls' parameter structures

namespace kreplay::capture::test {

#define KREPLAY_TRACED_CUDA_CALLS(X)                                                                    \
  X(cuInit, unsigned)                                                                                   \
  X(cuDevicePrimaryCtxRetain, void**, int)                                                              \
  X(cuCtxSetCurrent, void*)                                                                             \
  X(cuModuleLoadDataEx, void**, const void*, unsigned, int*, void**)                                    \
  X(cuModuleGetFunction, void**, void*, const char*)                                                    \
  X(cuMemAddressReserve, std::uint64_t*, std::size_t, std::size_t, std::uint64_t, unsigned long long)   \
  X(cuMemCreate, unsigned long long*, std::size_t, const void*, unsigned long long)                     \
  X(cuMemMap, std::uint64_t, std::size_t, std::size_t, unsigned long long, unsigned long long)          \
  X(cuMemSetAccess, std::uint64_t, std::size_t, const void*, std::size_t)                               \
  X(cuMemcpy, std::uint64_t, std::uint64_t, std::size_t)                                                \
  X(cuMemcpyAsync, std::uint64_t, std::uint64_t, std::size_t, void*)                                    \
  X(cuMemsetD8Async, std::uint64_t, unsigned char, std::size_t, void*)                                  \
  X(cuMemsetD16Async, std::uint64_t, unsigned short, std::size_t, void*)                                \
  X(cuMemsetD32Async, std::uint64_t, unsigned, std::size_t, void*)                                      \
  X(cuStreamCreate, void**, unsigned)                                                                   \
  X(cuStreamSynchronize, void*)                                                                         \
  X(cuStreamWaitEvent, void*, void*, unsigned)                                                          \
  X(cuEventCreate, void**, unsigned)                                                                    \
  X(cuEventRecord, void*, void*)                                                                        \
  X(cuLaunchKernel, void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, \
    void**, void**)                                                                                     \
  X(cuGraphCreate, void**, unsigned)                                                                    \
  X(cuGraphAddKernelNode_v2, void**, void*, void* const*, std::size_t, const KernelNodeParams*)         \
  X(cuGraphAddMemsetNode, void**, void*, void* const*, std::size_t, const MemsetNodeParams*, void*)     \
  X(cuGraphAddMemcpyNode, void**, void*, void* const*, std::size_t, const Memcpy3D*, void*)             \
  X(cuGraphInstantiateWithFlags, void**, void*, unsigned long long)                                     \
  X(cuGraphExecKernelNodeSetParams_v2, void*, void*, const KernelNodeParams*)                           \
  X(cuGraphExecUpdate_v2, void*, void*, void*)                                                          \
  X(cuGraphExecMemsetNodeSetParams, void*, void*, const MemsetNodeParams*, void*)                       \
  X(cuGraphExecMemcpyNodeSetParams, void*, void*, const Memcpy3D*, void*)                               \
  X(cuGraphLaunch, void*, void*)                                                                        \
  X(cuStreamBeginCapture_v2, void*, int)                                                                \
  X(cuStreamEndCapture, void*, void**)

/** The fake libcuda's calls, each raising its callbacks. `ok` turns false when one fails. */
class TracedCuda {
 public:
  /** Opens the fake libcuda (and, unless null, fake-cupti and the capture library, then InitializeInjection).
   */
  TracedCuda(const char* fakeCuda, const char* fakeCupti, const char* captureLibrary, std::ostream& out);

  bool opened() const { return opened_; }
  /** InitializeInjection's result (0 in a plain run). */
  int initialized() const { return initialized_; }
  bool ok() const { return ok_; }

  /** The raw calls (no callbacks), by name. */
#define KREPLAY_TRACED_CUDA_MEMBER(name, ...) int (*name)(__VA_ARGS__) = nullptr;
  KREPLAY_TRACED_CUDA_CALLS(KREPLAY_TRACED_CUDA_MEMBER)
#undef KREPLAY_TRACED_CUDA_MEMBER

  /** Checks a call's result. */
  void check(int result) { ok_ = ok_ && result == 0; }
  /** Raises the callback `id` at `site` with the call's parameters. */
  void callback(std::uint32_t id, int site, const void* params, const char* symbol = nullptr);
  /** Raises a module's loaded resource callback. */
  void moduleLoaded(std::uint32_t moduleId, const void* image, std::size_t bytes);

  // Calls with their callbacks.
  void* loadModule(const void* image, std::size_t bytes);
  void mapped(std::uint64_t address, std::size_t bytes, unsigned long long handle);
  void copy(std::uint64_t destination, std::uint64_t source, std::size_t bytes);
  void copyAsync(std::uint64_t destination, std::uint64_t source, std::size_t bytes, void* stream);
  void memsetAsync(std::uint64_t destination, unsigned value, unsigned elementBytes, std::size_t count,
                   void* stream);
  void launch(void* function, const char* name, unsigned grid, unsigned block, void* stream,
              void** arguments);
  void recordEvent(void* event, void* stream);
  void waitEvent(void* stream, void* event);
  void beginCapture(void* stream);
  void* endCapture(void* stream);
  void* instantiate(void* graph);
  void setKernelNode(void* exec, void* node, const KernelNodeParams& params);
  void updateExec(void* exec, void* graph);
  void setMemsetNode(void* exec, void* node, const MemsetNodeParams& params);
  void setMemcpyNode(void* exec, void* node, const Memcpy3D& params);
  void launchGraph(void* exec, void* stream);

 private:
  bool opened_ = false;
  int initialized_ = 0;
  bool ok_ = true;
  int (*invoke_)(int, std::uint32_t, const void*) = nullptr;
  cupti::CUresult result_ = 0;
};

}  // namespace kreplay::capture::test
