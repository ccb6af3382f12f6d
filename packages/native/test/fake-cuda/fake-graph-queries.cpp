// What the fake libcuda tells of a graph: its nodes and edges (every edge a default edge), each node's
// type and dependencies, and each kind of node's parameters (a kernel node's values point into the node).
#include <algorithm>
#include <cstring>
#include <vector>

#include "fake-graph-objects.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

namespace {

template <class Params>
void getKernelNode(CUgraphNode_st& node, Params& params) {
  node.valuePointers.clear();
  for (auto& value : node.values) node.valuePointers.push_back(value.data());
  params.func = node.function;
  params.gridDimX = node.grid.x;
  params.gridDimY = node.grid.y;
  params.gridDimZ = node.grid.z;
  params.blockDimX = node.block.x;
  params.blockDimY = node.block.y;
  params.blockDimZ = node.block.z;
  params.sharedMemBytes = node.sharedBytes;
  params.kernelParams = node.valuePointers.data();
  params.extra = nullptr;
}

/** Fills a "how many, and which" answer: the count when `into` is null, else up to `*count` entries. */
template <class Item>
void listInto(const std::vector<Item>& items, Item* into, std::size_t* count) {
  if (into != nullptr) {
    for (std::size_t index = 0; index < *count; ++index) into[index] = index < items.size() ? items[index] : Item{};
    *count = std::min(*count, items.size());
  } else {
    *count = items.size();
  }
}

}  // namespace

extern "C" {

CUresult cuGraphGetNodes(CUgraph_st* graph, CUgraphNode_st** nodes, std::size_t* count) {
  std::vector<CUgraphNode_st*> all;
  for (const auto& node : graph->nodes) all.push_back(node.get());
  listInto(all, nodes, count);
  return kSuccess;
}
CUresult cuGraphGetEdges(CUgraph_st* graph, CUgraphNode_st** from, CUgraphNode_st** to, std::size_t* count) {
  std::vector<CUgraphNode_st*> sources, destinations;
  for (const auto& node : graph->nodes) {
    for (CUgraphNode_st* dependency : node->dependencies) {
      sources.push_back(dependency);
      destinations.push_back(node.get());
    }
  }
  if ((from == nullptr) != (to == nullptr)) return kInvalidValue;
  std::size_t requested = *count;
  listInto(sources, from, count);
  listInto(destinations, to, &requested);
  return kSuccess;
}
CUresult cuGraphGetEdges_v2(CUgraph_st* graph, CUgraphNode_st** from, CUgraphNode_st** to, void* edgeData,
                            std::size_t* count) {
  if (edgeData != nullptr) std::memset(edgeData, 0, 8 * (from != nullptr ? *count : 0));  // default edges
  return cuGraphGetEdges(graph, from, to, count);
}
CUresult cuGraphNodeGetType(CUgraphNode_st* node, int* type) {
  *type = node->type;
  return kSuccess;
}
CUresult cuGraphNodeGetDependencies(CUgraphNode_st* node, CUgraphNode_st** dependencies, std::size_t* count) {
  listInto(node->dependencies, dependencies, count);
  return kSuccess;
}
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode_st* node, CUgraphNode_st** dependencies, void* edgeData,
                                       std::size_t* count) {
  if (edgeData != nullptr && dependencies != nullptr) std::memset(edgeData, 0, 8 * *count);
  return cuGraphNodeGetDependencies(node, dependencies, count);
}
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode_st* node, CUDA_KERNEL_NODE_PARAMS_v2* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  getKernelNode(*node, *params);
  params->kern = nullptr;
  params->ctx = nullptr;
  return kSuccess;
}
CUresult cuGraphKernelNodeGetParams(CUgraphNode_st* node, CUDA_KERNEL_NODE_PARAMS_v1* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  getKernelNode(*node, *params);
  return kSuccess;
}
CUresult cuGraphMemsetNodeGetParams(CUgraphNode_st* node, CUDA_MEMSET_NODE_PARAMS* params) {
  if (node->type != kMemsetNode) return kInvalidValue;
  *params = node->memset;
  return kSuccess;
}
CUresult cuGraphMemcpyNodeGetParams(CUgraphNode_st* node, CUDA_MEMCPY3D* params) {
  if (node->type != kMemcpyNode) return kInvalidValue;
  *params = node->copy;
  return kSuccess;
}
CUresult cuGraphHostNodeGetParams(CUgraphNode_st* node, CUDA_HOST_NODE_PARAMS* params) {
  if (node->type != kHostNode) return kInvalidValue;
  *params = node->host;
  return kSuccess;
}
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode_st* node, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  if (node->type != kMemAllocNode) return kInvalidValue;
  *params = node->allocation;
  return kSuccess;
}
CUresult cuGraphMemFreeNodeGetParams(CUgraphNode_st* node, CUdeviceptr* pointer) {
  if (node->type != kMemFreeNode) return kInvalidValue;
  *pointer = node->freed;
  return kSuccess;
}
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode_st* node, CUgraph_st** graph) {
  if (node->type != kChildGraphNode) return kInvalidValue;
  *graph = node->child.get();
  return kSuccess;
}

}  // extern "C"
