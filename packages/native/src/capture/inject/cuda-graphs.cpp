// CudaGraphs (cuda-graphs.hpp): resolving libcuda's graph calls, following each executable graph's
// life and changes on its clone, and running a graph launch's nodes one at a time. Reading a clone
// into a GraphLaunchRequest is cuda-graph-nodes.cpp's.
#include "capture/inject/cuda-graphs.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "capture/inject/cuda-graph-types.hpp"
#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

using namespace cuda_graph;

CudaGraphs::CudaGraphs() : calls_(std::make_unique<Calls>()) {
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  library_ = std::make_unique<DynamicLibrary>(path != nullptr && *path != '\0' ? path : "libcuda.so.1");
  if (!library_->loaded()) return;
  Calls& c = *calls_;
  bool all = true;
  auto resolve = [&](auto& function, const char* name, bool required = true) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(library_->symbol(name));
    if (function == nullptr && required) all = false;
  };
  resolve(c.cuGraphClone, "cuGraphClone");
  resolve(c.cuGraphDestroy, "cuGraphDestroy");
  resolve(c.cuGraphGetNodes, "cuGraphGetNodes");
  resolve(c.cuGraphNodeGetType, "cuGraphNodeGetType");
  resolve(c.cuGraphNodeGetDependencies_v2, "cuGraphNodeGetDependencies_v2", false);
  resolve(c.cuGraphNodeGetDependencies, "cuGraphNodeGetDependencies", c.cuGraphNodeGetDependencies_v2 == nullptr);
  resolve(c.cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2");
  resolve(c.cuGraphKernelNodeSetParams, "cuGraphKernelNodeSetParams_v2");
  resolve(c.cuGraphMemsetNodeGetParams, "cuGraphMemsetNodeGetParams");
  resolve(c.cuGraphMemsetNodeSetParams, "cuGraphMemsetNodeSetParams", false);
  resolve(c.cuGraphMemcpyNodeGetParams, "cuGraphMemcpyNodeGetParams");
  resolve(c.cuGraphMemcpyNodeSetParams, "cuGraphMemcpyNodeSetParams", false);
  resolve(c.cuGraphNodeSetParams, "cuGraphNodeSetParams", false);
  resolve(c.cuGraphMemAllocNodeGetParams, "cuGraphMemAllocNodeGetParams");
  resolve(c.cuGraphMemFreeNodeGetParams, "cuGraphMemFreeNodeGetParams");
  resolve(c.cuFuncGetName, "cuFuncGetName");
  resolve(c.cuKernelGetFunction, "cuKernelGetFunction", false);
  resolve(c.cuLaunchKernel, "cuLaunchKernel");
  resolve(c.cuMemsetD8Async, "cuMemsetD8Async");
  resolve(c.cuMemsetD16Async, "cuMemsetD16Async");
  resolve(c.cuMemsetD32Async, "cuMemsetD32Async");
  resolve(c.cuMemcpyAsync, "cuMemcpyAsync");
  resolve(c.cuMemcpy, "cuMemcpy");
  resolve(c.cuMemAlloc, "cuMemAlloc_v2");
  resolve(c.cuMemFree, "cuMemFree_v2");
  resolve(c.cuCtxSynchronize, "cuCtxSynchronize");
  resolve(c.cuGetErrorName, "cuGetErrorName");
  available_ = all;
}

CudaGraphs::~CudaGraphs() = default;  // clones are left to the driver: the program may be exiting

void CudaGraphs::check(int result, const char* call) const {
  if (result == 0) return;
  const char* name = nullptr;
  if (calls_->cuGetErrorName(result, &name) != 0 || name == nullptr) name = "an unknown error";
  throw DeviceAccessError(std::string(call) + " failed: " + name + " (" + std::to_string(result) + ")");
}

std::vector<void*> CudaGraphs::nodesOf(void* graph) {
  std::size_t count = 0;
  check(calls_->cuGraphGetNodes(graph, nullptr, &count), "cuGraphGetNodes");
  std::vector<void*> nodes(count);
  if (count > 0) check(calls_->cuGraphGetNodes(graph, nodes.data(), &count), "cuGraphGetNodes");
  nodes.resize(count);
  return nodes;
}

void CudaGraphs::forget(Exec& exec) {
  if (exec.clone != nullptr) calls_->cuGraphDestroy(exec.clone);
  exec.clone = nullptr;
}

void CudaGraphs::cloneInto(Exec& exec, std::uintptr_t graph) {
  const int result = calls_->cuGraphClone(&exec.clone, reinterpret_cast<void*>(graph));
  if (result == kNotSupported) {
    exec.clone = nullptr;
    throw DeviceAccessError("cuGraphClone refused the graph (CUDA_ERROR_NOT_SUPPORTED): CUDA clones no graph "
                            "holding memory allocation, memory free or conditional nodes");
  }
  check(result, "cuGraphClone");
  try {
    exec.cloneNodes = nodesOf(exec.clone);
  } catch (...) {
    forget(exec);
    throw;
  }
}

void CudaGraphs::instantiated(std::uintptr_t handle, std::uintptr_t graph, unsigned long long flags) {
  if (!available_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = execs_.find(handle); found != execs_.end()) {
    forget(found->second);
    execs_.erase(found);  // until it is known again: a launch of it is then only counted
  }
  Exec exec;
  exec.graph = graph;
  exec.deviceLaunchable = (flags & kDeviceLaunchFlag) != 0;
  try {
    exec.originalNodes = nodesOf(reinterpret_cast<void*>(graph));
    cloneInto(exec, graph);
  } catch (const DeviceAccessError& error) {
    // Its launches are counted, not captured; the program's own calls go on as they would.
    exec.notCloned = error.what();
    exec.originalNodes.clear();
    execs_[handle] = std::move(exec);
    return;
  }
  for (std::size_t index = 0; index < exec.originalNodes.size(); ++index)
    exec.nodeIndex[reinterpret_cast<std::uintptr_t>(exec.originalNodes[index])] = index;
  exec.disabled.assign(exec.cloneNodes.size(), false);
  execs_[handle] = std::move(exec);
}

void CudaGraphs::changeNode(std::uintptr_t handle, std::uintptr_t node, const char* call,
                            const std::function<void(const Calls& calls, void* cloneNode)>& change) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end() || !found->second.notCloned.empty() || !found->second.untrackedChange.empty()) return;
  Exec& exec = found->second;
  const auto place = exec.nodeIndex.find(node);
  try {
    if (place == exec.nodeIndex.end() || place->second >= exec.cloneNodes.size())
      throw DeviceAccessError("it named a node the capture did not see in the graph");
    change(*calls_, exec.cloneNodes[place->second]);
  } catch (const DeviceAccessError& error) {
    exec.untrackedChange = std::string(call) + " (" + error.what() + ")";
  }
}

void CudaGraphs::kernelNodeSet(std::uintptr_t handle, std::uintptr_t node, const void* params, bool version2) {
  changeNode(handle, node, "cuGraphExecKernelNodeSetParams", [&](const Calls& c, void* cloneNode) {
    KernelNodeParams copy{};
    std::memcpy(&copy, params, version2 ? sizeof(KernelNodeParams) : offsetof(KernelNodeParams, kern));
    check(c.cuGraphKernelNodeSetParams(cloneNode, &copy), "cuGraphKernelNodeSetParams");
  });
}

void CudaGraphs::memsetNodeSet(std::uintptr_t handle, std::uintptr_t node, const void* params) {
  changeNode(handle, node, "cuGraphExecMemsetNodeSetParams", [&](const Calls& c, void* cloneNode) {
    if (c.cuGraphMemsetNodeSetParams == nullptr) throw DeviceAccessError("libcuda lacks cuGraphMemsetNodeSetParams");
    check(c.cuGraphMemsetNodeSetParams(cloneNode, static_cast<const MemsetNodeParams*>(params)),
          "cuGraphMemsetNodeSetParams");
  });
}

void CudaGraphs::memcpyNodeSet(std::uintptr_t handle, std::uintptr_t node, const void* params) {
  changeNode(handle, node, "cuGraphExecMemcpyNodeSetParams", [&](const Calls& c, void* cloneNode) {
    if (c.cuGraphMemcpyNodeSetParams == nullptr) throw DeviceAccessError("libcuda lacks cuGraphMemcpyNodeSetParams");
    check(c.cuGraphMemcpyNodeSetParams(cloneNode, static_cast<const Memcpy3D*>(params)), "cuGraphMemcpyNodeSetParams");
  });
}

void CudaGraphs::nodeSet(std::uintptr_t handle, std::uintptr_t node, const void* params) {
  changeNode(handle, node, "cuGraphExecNodeSetParams", [&](const Calls& c, void* cloneNode) {
    if (c.cuGraphNodeSetParams == nullptr) throw DeviceAccessError("libcuda lacks cuGraphNodeSetParams");
    NodeParams copy{};
    std::memcpy(&copy, params, sizeof(copy));
    check(c.cuGraphNodeSetParams(cloneNode, &copy), "cuGraphNodeSetParams");
  });
}

void CudaGraphs::enabledSet(std::uintptr_t handle, std::uintptr_t node, bool enabled) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end() || !found->second.notCloned.empty()) return;
  Exec& exec = found->second;
  const auto place = exec.nodeIndex.find(node);
  if (place != exec.nodeIndex.end() && place->second < exec.disabled.size())
    exec.disabled[place->second] = !enabled;
  else if (exec.untrackedChange.empty())
    exec.untrackedChange = "cuGraphNodeSetEnabled (it named a node the capture did not see in the graph)";
}

void CudaGraphs::updated(std::uintptr_t handle, std::uintptr_t graph) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end() || !found->second.notCloned.empty()) return;  // its launches stay uncaptured
  Exec& exec = found->second;
  // The update's graph, cloned: the nodes keep their places (and the first graph's handles), the
  // update's own handles name them too.
  Exec next;
  try {
    const std::vector<void*> updateNodes = nodesOf(reinterpret_cast<void*>(graph));
    if (updateNodes.size() != exec.cloneNodes.size())
      throw DeviceAccessError("its graph has " + std::to_string(updateNodes.size()) + " nodes, the executable graph " +
                              std::to_string(exec.cloneNodes.size()));
    cloneInto(next, graph);
    for (std::size_t index = 0; index < updateNodes.size(); ++index)
      exec.nodeIndex.emplace(reinterpret_cast<std::uintptr_t>(updateNodes[index]), index);
  } catch (const DeviceAccessError& error) {
    if (exec.untrackedChange.empty()) exec.untrackedChange = std::string("cuGraphExecUpdate (") + error.what() + ")";
    return;
  }
  forget(exec);
  exec.clone = next.clone;
  exec.cloneNodes = std::move(next.cloneNodes);
}

void CudaGraphs::destroyed(std::uintptr_t handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end()) return;
  forget(found->second);
  execs_.erase(found);
}

void CudaGraphs::runKernel(const LaunchRequest& launch) {
  const LaunchShape& shape = launch.shape;
  check(calls_->cuLaunchKernel(reinterpret_cast<void*>(launch.functionHandle), shape.grid[0], shape.grid[1],
                               shape.grid[2], shape.block[0], shape.block[1], shape.block[2],
                               shape.dynamicSharedBytes, reinterpret_cast<void*>(launch.stream),
                               const_cast<void**>(launch.kernelParams), const_cast<void**>(launch.extra)),
        "cuLaunchKernel (a graph's kernel node)");
}

void CudaGraphs::runWork(const RecordedWork& work) {
  void* stream = reinterpret_cast<void*>(work.stream);
  if (work.kind == WorkKind::Copy) {
    check(calls_->cuMemcpyAsync(work.address, work.source, work.bytes, stream), "cuMemcpyAsync (a graph's memcpy node)");
  } else if (work.elementBytes == 4) {
    check(calls_->cuMemsetD32Async(work.address, work.value, work.bytes / 4, stream), "cuMemsetD32Async (a graph's memset node)");
  } else if (work.elementBytes == 2) {
    check(calls_->cuMemsetD16Async(work.address, static_cast<unsigned short>(work.value), work.bytes / 2, stream),
          "cuMemsetD16Async (a graph's memset node)");
  } else {
    check(calls_->cuMemsetD8Async(work.address, static_cast<unsigned char>(work.value), work.bytes, stream),
          "cuMemsetD8Async (a graph's memset node)");
  }
}

void CudaGraphs::preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) {
  std::uint64_t total = 0;
  for (const auto& span : spans) total += span.second;
  preserved_ = spans;
  scratch_ = 0;
  if (total == 0) return;
  check(calls_->cuMemAlloc(&scratch_, total), "cuMemAlloc (memory kept aside during a graph launch)");
  std::uint64_t offset = 0;
  for (const auto& [address, bytes] : spans) {
    check(calls_->cuMemcpy(scratch_ + offset, address, bytes), "cuMemcpy (keeping a graph's memory aside)");
    offset += bytes;
  }
}

void CudaGraphs::restore() {
  check(calls_->cuCtxSynchronize(), "cuCtxSynchronize (after a graph's nodes)");
  std::uint64_t offset = 0;
  for (const auto& [address, bytes] : preserved_) {
    check(calls_->cuMemcpy(address, scratch_ + offset, bytes), "cuMemcpy (putting a graph's memory back)");
    offset += bytes;
  }
  check(calls_->cuCtxSynchronize(), "cuCtxSynchronize (after putting a graph's memory back)");
  if (scratch_ != 0) calls_->cuMemFree(scratch_);
  scratch_ = 0;
  preserved_.clear();
}

}  // namespace kreplay::capture
