// Building graphs node by node in the fake libcuda: creating, destroying and cloning a graph (refused,
// as CUDA refuses it, for a graph holding memory allocation or free nodes), and adding each kind of
// node (a kernel node copies its parameter values, a child graph node clones the child, a memory
// allocation node allocates at once).
#include <memory>
#include <utility>

#include "fake-graph-objects.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

namespace {

/** Whether `graph` or a child graph of it holds a node cuGraphClone refuses (CUDA clones no graph with memory nodes). */
bool holdsMemoryNodes(const CUgraph_st& graph) {
  for (const auto& node : graph.nodes) {
    if (node->type == kMemAllocNode || node->type == kMemFreeNode) return true;
    if (node->child != nullptr && holdsMemoryNodes(*node->child)) return true;
  }
  return false;
}

}  // namespace

extern "C" {

CUresult cuGraphCreate(CUgraph_st** graph, unsigned) {
  *graph = new CUgraph_st();
  return kSuccess;
}
CUresult cuGraphDestroy(CUgraph_st* graph) {
  delete graph;
  return kSuccess;
}
CUresult cuGraphClone(CUgraph_st** clone, CUgraph_st* graph) {
  if (holdsMemoryNodes(*graph)) return kNotSupported;
  *clone = cloneGraph(*graph).release();
  return kSuccess;
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                 std::size_t count, const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  CUgraphNode_st node;
  node.type = kKernelNode;
  if (const CUresult result = setKernelNode(node, *params); result != kSuccess) return result;
  copyNode(*addNode(added, graph, dependencies, count, kKernelNode), node);
  return kSuccess;
}
CUresult cuGraphAddKernelNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_KERNEL_NODE_PARAMS_v1* params) {
  CUgraphNode_st node;
  node.type = kKernelNode;
  if (const CUresult result = setKernelNode(node, *params); result != kSuccess) return result;
  copyNode(*addNode(added, graph, dependencies, count, kKernelNode), node);
  return kSuccess;
}
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode_st* node, const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*node, *params);
}
CUresult cuGraphAddMemsetNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_MEMSET_NODE_PARAMS* params, void*) {
  if (params->elementSize != 1 && params->elementSize != 2 && params->elementSize != 4) return kInvalidValue;
  addNode(added, graph, dependencies, count, kMemsetNode)->memset = *params;
  return kSuccess;
}
CUresult cuGraphAddMemcpyNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_MEMCPY3D* params, void*) {
  if (params->srcArray != nullptr || params->dstArray != nullptr) return kInvalidValue;  // no arrays
  addNode(added, graph, dependencies, count, kMemcpyNode)->copy = *params;
  return kSuccess;
}
CUresult cuGraphAddHostNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                            std::size_t count, const CUDA_HOST_NODE_PARAMS* params) {
  addNode(added, graph, dependencies, count, kHostNode)->host = *params;
  return kSuccess;
}
CUresult cuGraphAddChildGraphNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                  std::size_t count, CUgraph_st* child) {
  addNode(added, graph, dependencies, count, kChildGraphNode)->child = cloneGraph(*child);
  return kSuccess;
}
CUresult cuGraphAddEventRecordNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                   std::size_t count, CUevent_st* event) {
  addNode(added, graph, dependencies, count, kEventRecordNode)->event = event;
  return kSuccess;
}
CUresult cuGraphAddEventWaitNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                 std::size_t count, CUevent_st* event) {
  addNode(added, graph, dependencies, count, kEventWaitNode)->event = event;
  return kSuccess;
}
CUresult cuGraphAddEmptyNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                             std::size_t count) {
  addNode(added, graph, dependencies, count, kEmptyNode);
  return kSuccess;
}
CUresult cuGraphAddMemAllocNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                std::size_t count, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  std::shared_ptr<GraphAllocation> owner;
  if (const CUresult result = allocateGraphMemory(params->bytesize, owner); result != kSuccess)
    return result;
  params->dptr = owner->pointer;
  CUgraphNode_st* node = addNode(added, graph, dependencies, count, kMemAllocNode);
  node->allocation = *params;
  node->allocationOwner = std::move(owner);
  return kSuccess;
}
CUresult cuGraphAddMemFreeNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                               std::size_t count, CUdeviceptr pointer) {
  addNode(added, graph, dependencies, count, kMemFreeNode)->freed = pointer;
  return kSuccess;
}

}  // extern "C"
