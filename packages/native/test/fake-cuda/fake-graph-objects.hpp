// The objects of the fake libcuda's graphs, shared by its graph files: a graph owns its nodes in
// creation order, a node holds copies of its parameters (kernel parameter values included, as
// CUDA's do), and an executable graph holds its own clone of the graph it was made from. Graph memory
// nodes allocate when they are added and free with the last graph that holds them.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "fake-graph-params.hpp"
#include "fake-launches.hpp"

struct CUevent_st;

namespace kreplay_fake {

// CUgraphNodeType
constexpr int kKernelNode = 0, kMemcpyNode = 1, kMemsetNode = 2, kHostNode = 3, kChildGraphNode = 4,
              kEmptyNode = 5, kEventWaitNode = 6, kEventRecordNode = 7, kMemAllocNode = 10, kMemFreeNode = 11;

/** Memory of a graph memory node: freed when the last graph (or clone, or executable graph) drops it. */
struct GraphAllocation {
  CUdeviceptr pointer = 0;
  ~GraphAllocation();
};

}  // namespace kreplay_fake

struct CUgraph_st;

struct CUgraphNode_st {
  int type = kreplay_fake::kEmptyNode;
  std::size_t index = 0;  // in its graph's creation order
  std::vector<CUgraphNode_st*> dependencies;
  // kernel
  CUfunc_st* function = nullptr;
  kreplay_fake::Dim3 grid, block;
  unsigned sharedBytes = 0;
  kreplay_fake::ParameterValues values;
  std::vector<void*> valuePointers;  // what cuGraphKernelNodeGetParams hands out
  // memset, memcpy, host, memory nodes, events
  CUDA_MEMSET_NODE_PARAMS memset{};
  CUDA_MEMCPY3D copy{};
  CUDA_HOST_NODE_PARAMS host{};
  CUDA_MEM_ALLOC_NODE_PARAMS allocation{};
  std::shared_ptr<kreplay_fake::GraphAllocation> allocationOwner;
  kreplay_fake::CUdeviceptr freed = 0;
  CUevent_st* event = nullptr;
  std::unique_ptr<CUgraph_st> child;
  bool enabled = true;  // an executable graph's node (cuGraphNodeSetEnabled): disabled runs as an empty node
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;
  /** The node of `graph` each node handle the program may pass stands for (its graph's, and updates'). */
  std::map<const CUgraphNode_st*, CUgraphNode_st*> nodeFor;
};

namespace kreplay_fake {

/** Copies every parameter of `from` into `to` (a child graph is cloned), not its place in a graph. */
void copyNode(CUgraphNode_st& to, const CUgraphNode_st& from);
/** A copy of `graph` with nodes and edges of its own. */
std::unique_ptr<CUgraph_st> cloneGraph(const CUgraph_st& graph);
/** Appends a node of `type` after `dependencies` to `graph`; sets and returns `*added`. */
CUgraphNode_st* addNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                        std::size_t count, int type);
/** Allocates device memory for a graph memory node, freed when the last `owner` goes. */
CUresult allocateGraphMemory(std::size_t bytes, std::shared_ptr<GraphAllocation>& owner);

/** Sets a kernel node from CUDA_KERNEL_NODE_PARAMS (v1 or v2); kInvalidValue when the values do not fit (a buffer short or long). */
template <class Params>
CUresult setKernelNode(CUgraphNode_st& node, const Params& params) {
  if (params.func == nullptr) return kInvalidValue;
  bool valid = false;
  bool tooLong = false;
  ParameterValues values = launchValues(*params.func->kernel, params.kernelParams, params.extra, valid, tooLong);
  if (!valid || tooLong) return kInvalidValue;
  node.function = params.func;
  node.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
  node.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
  node.sharedBytes = params.sharedMemBytes;
  node.values = std::move(values);
  return kSuccess;
}

}  // namespace kreplay_fake
