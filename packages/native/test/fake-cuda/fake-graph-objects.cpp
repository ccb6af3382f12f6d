// The fake libcuda's graph objects (see fake-graph-objects.hpp): copying and cloning nodes and
// graphs, adding a node, and the memory of graph memory nodes, which cuMemFree* leaves alone.
#include "fake-graph-objects.hpp"

#include <mutex>
#include <set>

#include "fake-device-memory.hpp"
#include "fake-graphs.hpp"

namespace {

std::mutex graphAllocationsMutex;
std::set<kreplay_fake::CUdeviceptr> graphAllocations;

}  // namespace

namespace kreplay_fake {

GraphAllocation::~GraphAllocation() {
  {
    std::lock_guard<std::mutex> lock(graphAllocationsMutex);
    graphAllocations.erase(pointer);
  }
  freeDeviceMemory(pointer);
}

CUresult allocateGraphMemory(std::size_t bytes, std::shared_ptr<GraphAllocation>& owner) {
  owner = std::make_shared<GraphAllocation>();
  if (const CUresult result = allocateDeviceMemory(&owner->pointer, bytes); result != kSuccess) return result;
  std::lock_guard<std::mutex> lock(graphAllocationsMutex);
  graphAllocations.insert(owner->pointer);
  return kSuccess;
}

bool isGraphAllocation(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(graphAllocationsMutex);
  return graphAllocations.count(pointer) != 0;
}

void copyNode(CUgraphNode_st& to, const CUgraphNode_st& from) {
  to.type = from.type;
  to.function = from.function;
  to.grid = from.grid;
  to.block = from.block;
  to.sharedBytes = from.sharedBytes;
  to.values = from.values;
  to.memset = from.memset;
  to.copy = from.copy;
  to.host = from.host;
  to.allocation = from.allocation;
  to.allocationOwner = from.allocationOwner;
  to.freed = from.freed;
  to.event = from.event;
  to.child = from.child ? cloneGraph(*from.child) : nullptr;
}

std::unique_ptr<CUgraph_st> cloneGraph(const CUgraph_st& graph) {
  auto clone = std::make_unique<CUgraph_st>();
  for (const auto& node : graph.nodes) {
    auto copy = std::make_unique<CUgraphNode_st>();
    copyNode(*copy, *node);
    copy->index = node->index;
    copy->enabled = node->enabled;
    for (const CUgraphNode_st* dependency : node->dependencies)
      copy->dependencies.push_back(clone->nodes[dependency->index].get());
    clone->nodes.push_back(std::move(copy));
  }
  return clone;
}

CUgraphNode_st* addNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                        std::size_t count, int type) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->index = graph->nodes.size();
  node->dependencies.assign(dependencies, dependencies + count);
  *added = node.get();
  graph->nodes.push_back(std::move(node));
  return *added;
}

}  // namespace kreplay_fake
