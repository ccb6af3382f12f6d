// Launching an executable graph in the fake libcuda: the launch takes a clone of the graph (later
// updates do not change it) and runs its nodes in one topological order (Kahn's, ties broken by
// creation order) as one piece of work on the stream. A graph launched into a capture becomes a
// child graph node instead.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "fake-graph-objects.hpp"
#include "fake-graphs.hpp"
#include "fake-streams.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

namespace {

// CUmemorytype
constexpr int kHostMemory = 1;

/** The nodes in Kahn's topological order, ready nodes taken in creation order. */
std::vector<const CUgraphNode_st*> topologicalOrder(const CUgraph_st& graph) {
  std::vector<std::size_t> waiting(graph.nodes.size(), 0);
  std::vector<std::vector<std::size_t>> dependents(graph.nodes.size());
  for (const auto& node : graph.nodes) {
    waiting[node->index] = node->dependencies.size();
    for (const CUgraphNode_st* dependency : node->dependencies) dependents[dependency->index].push_back(node->index);
  }
  std::set<std::size_t> ready;
  for (std::size_t index = 0; index < waiting.size(); ++index)
    if (waiting[index] == 0) ready.insert(index);
  std::vector<const CUgraphNode_st*> order;
  while (!ready.empty()) {
    const std::size_t index = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(graph.nodes[index].get());
    for (const std::size_t dependent : dependents[index])
      if (--waiting[dependent] == 0) ready.insert(dependent);
  }
  return order;
}

unsigned char* copyAddress(int memoryType, const void* host, CUdeviceptr device, std::size_t x, std::size_t y,
                           std::size_t z, std::size_t pitch, std::size_t height) {
  auto* base = static_cast<unsigned char*>(memoryType == kHostMemory ? const_cast<void*>(host)
                                                                       : reinterpret_cast<void*>(device));
  return base + x + (y + z * height) * pitch;
}

void runCopy(const CUDA_MEMCPY3D& copy) {
  const std::size_t height = std::max<std::size_t>(copy.Height, 1), depth = std::max<std::size_t>(copy.Depth, 1);
  for (std::size_t z = 0; z < depth; ++z)
    for (std::size_t y = 0; y < height; ++y)
      std::memmove(copyAddress(copy.dstMemoryType, copy.dstHost, copy.dstDevice, copy.dstXInBytes, copy.dstY + y,
                               copy.dstZ + z, copy.dstPitch, copy.dstHeight),
                   copyAddress(copy.srcMemoryType, copy.srcHost, copy.srcDevice, copy.srcXInBytes, copy.srcY + y,
                               copy.srcZ + z, copy.srcPitch, copy.srcHeight),
                   copy.WidthInBytes);
}

void runMemset(const CUDA_MEMSET_NODE_PARAMS& memset) {
  for (std::size_t row = 0; row < std::max<std::size_t>(memset.height, 1); ++row) {
    auto* at = reinterpret_cast<unsigned char*>(memset.dst + row * memset.pitch);
    for (std::size_t element = 0; element < memset.width; ++element)
      std::memcpy(at + element * memset.elementSize, &memset.value, memset.elementSize);  // little-endian
  }
}

/** Work of one graph launch, taken when it is enqueued: later updates do not change it. */
struct LaunchedGraph {
  std::unique_ptr<CUgraph_st> graph;
  std::map<const CUgraphNode_st*, std::uint64_t> eventGenerations;
};

void noteEventGenerations(const CUgraph_st& graph, LaunchedGraph& launched) {
  for (const auto& node : graph.nodes) {
    if (node->type == kEventRecordNode) {
      std::lock_guard<std::mutex> lock(node->event->mutex);
      launched.eventGenerations[node.get()] = ++node->event->recorded;
    } else if (node->type == kEventWaitNode) {
      std::lock_guard<std::mutex> lock(node->event->mutex);
      launched.eventGenerations[node.get()] = node->event->recorded;
    } else if (node->type == kChildGraphNode) {
      noteEventGenerations(*node->child, launched);
    }
  }
}

void runGraph(const CUgraph_st& graph, const LaunchedGraph& launched) {
  for (const CUgraphNode_st* node : topologicalOrder(graph)) {
    if (!node->enabled) continue;
    switch (node->type) {
      case kKernelNode:
        runKernel(*node->function->kernel, node->values, node->grid, node->block);
        break;
      case kMemsetNode:
        runMemset(node->memset);
        break;
      case kMemcpyNode:
        runCopy(node->copy);
        break;
      case kHostNode:
        node->host.fn(node->host.userData);
        break;
      case kChildGraphNode:
        runGraph(*node->child, launched);
        break;
      case kEventRecordNode:
        node->event->complete(launched.eventGenerations.at(node));
        break;
      case kEventWaitNode:
        node->event->waitFor(launched.eventGenerations.at(node));
        break;
      default:  // empty nodes; graph memory stays allocated while its graph lives
        break;
    }
  }
}

}  // namespace

extern "C" {

CUresult cuGraphLaunch(CUgraphExec_st* exec, CUstream_st* stream) {
  if (captureGraphLaunch(stream, *exec->graph)) return kSuccess;  // a graph launched into a capture
  auto launched = std::make_shared<LaunchedGraph>();
  launched->graph = cloneGraph(*exec->graph);
  noteEventGenerations(*launched->graph, *launched);
  auto run = [launched] { runGraph(*launched->graph, *launched); };
  if (stream != nullptr) stream->push(run);
  else run();
  return kSuccess;
}

}  // extern "C"
