// Reading an executable graph's clone into the GraphLaunchRequest of a graph launch (CudaGraphs::
// describe): each node's kind, dependencies and parameters as they are now, under the handle of the
// node of the graph the executable graph was instantiated from; a node disabled in the executable
// graph reads as an empty node, and an executable graph changed in a way the clone could not follow
// says so instead of its nodes.
#include <cstddef>
#include <map>
#include <vector>

#include "capture/inject/cuda-graph-types.hpp"
#include "capture/inject/cuda-graphs.hpp"
#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

using namespace cuda_graph;

namespace {

GraphNodeKind kindOfType(int type) {
  switch (type) {
    case 0: return GraphNodeKind::Kernel;
    case 1: return GraphNodeKind::Copy;
    case 2: return GraphNodeKind::Memset;
    case 3: return GraphNodeKind::Host;
    case 4: return GraphNodeKind::ChildGraph;
    case 5: return GraphNodeKind::Empty;
    case 6:
    case 7: return GraphNodeKind::Event;
    case 10: return GraphNodeKind::Allocation;
    case 11: return GraphNodeKind::Free;
    case 13: return GraphNodeKind::Conditional;
    default: return GraphNodeKind::Unsupported;  // external semaphores, batch memory operations
  }
}

std::uint64_t copyAddress(int memoryType, const void* host, std::uint64_t device, std::size_t x) {
  return (memoryType == kHostMemory ? reinterpret_cast<std::uint64_t>(host) : device) + x;
}

}  // namespace

std::optional<GraphLaunchRequest> CudaGraphs::describe(std::uintptr_t handle, std::uintptr_t stream,
                                                       std::uintptr_t context) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (!available_ || found == execs_.end()) return std::nullopt;
  const Exec& exec = found->second;
  const Calls& c = *calls_;
  GraphLaunchRequest request;
  request.graph = exec.graph;
  request.stream = stream;
  request.context = context;
  request.deviceLaunchable = exec.deviceLaunchable;
  request.notCloned = exec.notCloned;
  request.untrackedChange = exec.untrackedChange;
  if (!exec.notCloned.empty() || !exec.untrackedChange.empty()) return request;
  std::map<void*, std::size_t> indexOf;
  for (std::size_t index = 0; index < exec.cloneNodes.size(); ++index) indexOf[exec.cloneNodes[index]] = index;
  for (std::size_t index = 0; index < exec.cloneNodes.size(); ++index) {
    void* node = exec.cloneNodes[index];
    GraphNode described;
    described.handle = index < exec.originalNodes.size() ? reinterpret_cast<std::uint64_t>(exec.originalNodes[index]) : 0;
    std::size_t count = 0;
    std::vector<void*> dependencies;
    if (c.cuGraphNodeGetDependencies_v2 != nullptr) {
      check(c.cuGraphNodeGetDependencies_v2(node, nullptr, nullptr, &count), "cuGraphNodeGetDependencies");
      dependencies.resize(count);
      if (count > 0) check(c.cuGraphNodeGetDependencies_v2(node, dependencies.data(), nullptr, &count), "cuGraphNodeGetDependencies");
    } else {
      check(c.cuGraphNodeGetDependencies(node, nullptr, &count), "cuGraphNodeGetDependencies");
      dependencies.resize(count);
      if (count > 0) check(c.cuGraphNodeGetDependencies(node, dependencies.data(), &count), "cuGraphNodeGetDependencies");
    }
    for (void* dependency : dependencies) described.dependencies.push_back(indexOf.at(dependency));
    if (exec.disabled.at(index)) described.kind = GraphNodeKind::Empty;  // cuGraphNodeSetEnabled: runs as an empty node
    else describeNode(node, described);
    request.nodes.push_back(std::move(described));
  }
  return request;
}

void CudaGraphs::describeNode(void* node, GraphNode& described) const {
  const Calls& c = *calls_;
  int type = -1;
  check(c.cuGraphNodeGetType(node, &type), "cuGraphNodeGetType");
  described.kind = kindOfType(type);
  switch (described.kind) {
    case GraphNodeKind::Kernel: {
      KernelNodeParams params{};
      check(c.cuGraphKernelNodeGetParams(node, &params), "cuGraphKernelNodeGetParams");
      void* function = params.func;
      if (function == nullptr && params.kern != nullptr && c.cuKernelGetFunction != nullptr)
        check(c.cuKernelGetFunction(&function, params.kern), "cuKernelGetFunction");
      const char* name = nullptr;
      if (function == nullptr || c.cuFuncGetName(&name, function) != 0 || name == nullptr) {
        described.kind = GraphNodeKind::Unsupported;
        break;
      }
      LaunchRequest& launch = described.launch;
      launch.function = name;
      launch.functionHandle = reinterpret_cast<std::uintptr_t>(function);
      launch.shape.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
      launch.shape.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
      launch.shape.dynamicSharedBytes = params.sharedMemBytes;
      launch.kernelParams = params.kernelParams;
      launch.extra = params.extra;
      break;
    }
    case GraphNodeKind::Memset: {
      MemsetNodeParams params{};
      check(c.cuGraphMemsetNodeGetParams(node, &params), "cuGraphMemsetNodeGetParams");
      if (params.height > 1) {
        described.kind = GraphNodeKind::Unsupported;
        break;
      }
      described.work.kind = WorkKind::Memset;
      described.work.address = params.dst;
      described.work.bytes = params.width * params.elementSize;
      described.work.value = params.value;
      described.work.elementBytes = params.elementSize;
      break;
    }
    case GraphNodeKind::Copy: {
      Memcpy3D params{};
      check(c.cuGraphMemcpyNodeGetParams(node, &params), "cuGraphMemcpyNodeGetParams");
      if (params.srcMemoryType == kArrayMemory || params.dstMemoryType == kArrayMemory || params.Height > 1 ||
          params.Depth > 1) {
        described.kind = GraphNodeKind::Unsupported;
        break;
      }
      described.work.kind = WorkKind::Copy;
      described.work.address = copyAddress(params.dstMemoryType, params.dstHost, params.dstDevice, params.dstXInBytes);
      described.work.source = copyAddress(params.srcMemoryType, params.srcHost, params.srcDevice, params.srcXInBytes);
      described.work.bytes = params.WidthInBytes;
      break;
    }
    case GraphNodeKind::Allocation: {
      MemAllocNodeParams params{};
      check(c.cuGraphMemAllocNodeGetParams(node, &params), "cuGraphMemAllocNodeGetParams");
      described.work.kind = WorkKind::Allocation;
      described.work.address = params.dptr;
      described.work.bytes = params.bytesize;
      break;
    }
    case GraphNodeKind::Free: {
      std::uint64_t pointer = 0;
      check(c.cuGraphMemFreeNodeGetParams(node, &pointer), "cuGraphMemFreeNodeGetParams");
      described.work.kind = WorkKind::Free;
      described.work.address = pointer;
      break;
    }
    default:
      break;
  }
}

}  // namespace kreplay::capture
