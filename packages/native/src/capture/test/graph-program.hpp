// What the graph injection driver (drive-graph-injection.cpp) shares with the scenarios it runs
// (drive-graph-exec-changes.cpp, drive-graph-memory-nodes.cpp): the fake libcuda to resolve calls in,
// the callbacks a driver would raise, the program's stream, kernel `scale` and buffers A and B (one
// page of floats each), and what A and B should hold (the host computes what each launch does).
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "capture/inject/cuda-graph-types.hpp"

namespace kreplay::capture::test {

// cuda.h's CUDA_KERNEL_NODE_PARAMS_v2, CUDA_MEMSET_NODE_PARAMS, CUDA_MEMCPY3D, as the capture library
// declares them (checked against cuda.h by cupti-callback-api-check.cpp).
using KernelNodeParams = cuda_graph::KernelNodeParams;
using MemsetNodeParams = cuda_graph::MemsetNodeParams;
using Memcpy3D = cuda_graph::Memcpy3D;

constexpr int kCount = 16384;  // one 64 KiB page of floats
constexpr std::size_t kBytes = kCount * sizeof(float);

/** A node launching kernel `scale` over a whole buffer with `arguments` (data, count). */
inline KernelNodeParams scaleNodeParams(void* scale, void** arguments) {
  return KernelNodeParams{scale, kCount / 256, 1, 1, 256, 1, 1, 0, arguments, nullptr, nullptr, nullptr};
}

/** What `scale` does to the first `count` floats. */
inline void scaleOnHost(std::vector<float>& data, int count) {
  for (int index = 0; index < count; ++index) data[index] = data[index] * 2.0f + 1.0f;
}

struct GraphProgram {
  void* cuda = nullptr;  ///< the fake libcuda
  bool missing = false;  ///< a call `resolve` did not find
  std::function<void(std::uint32_t cbid, int site, const void* params)> raise;  ///< a driver callback
  std::function<void(int result)> check;                                         ///< notes a failed call
  std::function<void*(void* graph)> instantiate;  ///< cuGraphInstantiateWithFlags and its callback
  std::function<void(void* exec)> launch;         ///< cuGraphLaunch on `stream`, its callbacks, a synchronize
  void* context = nullptr;
  void* stream = nullptr;
  void* scale = nullptr;  ///< scale(float* data, int count)
  std::uint64_t a = 0, b = 0;
  std::vector<float>* hostA = nullptr;
  std::vector<float>* hostB = nullptr;

  template <class Function>
  Function resolve(const char* name) {
    auto* found = reinterpret_cast<Function>(::dlsym(cuda, name));
    missing = missing || found == nullptr;
    return found;
  }
  /** A node launching `scale` over the whole buffer with `arguments` (data, count). */
  KernelNodeParams scaleNode(void** arguments) const { return scaleNodeParams(scale, arguments); }
};

}  // namespace kreplay::capture::test
