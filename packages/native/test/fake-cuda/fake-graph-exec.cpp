// Executable graphs in the fake libcuda: instantiating clones the graph (and remembers which of its
// nodes each of the graph's node handles stands for), kernel node parameters are set on the executable
// graph, and an exec update takes a graph's parameters when its nodes pair with the executable graph's.
#include <cstddef>

#include "fake-graph-objects.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

extern "C" {

CUresult cuGraphInstantiateWithFlags(CUgraphExec_st** exec, CUgraph_st* graph, unsigned long long) {
  auto* made = new CUgraphExec_st();
  made->graph = cloneGraph(*graph);
  for (std::size_t index = 0; index < graph->nodes.size(); ++index)
    made->nodeFor[graph->nodes[index].get()] = made->graph->nodes[index].get();
  *exec = made;
  return kSuccess;
}
CUresult cuGraphInstantiate_v2(CUgraphExec_st** exec, CUgraph_st* graph, CUgraphNode_st** errorNode, char* log,
                               std::size_t logBytes) {
  if (errorNode != nullptr) *errorNode = nullptr;
  if (log != nullptr && logBytes > 0) log[0] = '\0';
  return cuGraphInstantiateWithFlags(exec, graph, 0);
}
CUresult cuGraphInstantiateWithParams(CUgraphExec_st** exec, CUgraph_st* graph, CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  params->hErrNode_out = nullptr;
  params->result_out = 0;  // CUDA_GRAPH_INSTANTIATE_SUCCESS
  return cuGraphInstantiateWithFlags(exec, graph, params->flags);
}
CUresult cuGraphExecDestroy(CUgraphExec_st* exec) {
  delete exec;
  return kSuccess;
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec_st* exec, CUgraphNode_st* node,
                                           const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  const auto found = exec->nodeFor.find(node);
  if (found == exec->nodeFor.end() || found->second->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*found->second, *params);
}
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node,
                                        const CUDA_KERNEL_NODE_PARAMS_v1* params) {
  const auto found = exec->nodeFor.find(node);
  if (found == exec->nodeFor.end() || found->second->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*found->second, *params);
}

/** Takes `graph`'s node parameters into `exec` when its nodes pair with exec's (same types and edges, in order). */
CUresult cuGraphExecUpdate_v2(CUgraphExec_st* exec, CUgraph_st* graph, CUgraphExecUpdateResultInfo* info) {
  auto fail = [&](int result, CUgraphNode_st* node) {
    if (info != nullptr) *info = {result, node, nullptr};
    return kGraphExecUpdateFailure;
  };
  const CUgraph_st& current = *exec->graph;
  if (graph->nodes.size() != current.nodes.size()) return fail(2, nullptr);  // TOPOLOGY_CHANGED
  for (std::size_t index = 0; index < graph->nodes.size(); ++index) {
    const CUgraphNode_st& next = *graph->nodes[index];
    const CUgraphNode_st& now = *current.nodes[index];
    if (next.type != now.type) return fail(3, graph->nodes[index].get());  // NODE_TYPE_CHANGED
    if (next.dependencies.size() != now.dependencies.size()) return fail(2, graph->nodes[index].get());
    for (std::size_t edge = 0; edge < next.dependencies.size(); ++edge)
      if (next.dependencies[edge]->index != now.dependencies[edge]->index) return fail(2, graph->nodes[index].get());
    if (next.type == kChildGraphNode || next.type == kMemAllocNode || next.type == kMemFreeNode)
      return fail(6, graph->nodes[index].get());  // NOT_SUPPORTED by the fake
  }
  for (std::size_t index = 0; index < graph->nodes.size(); ++index) {
    copyNode(*exec->graph->nodes[index], *graph->nodes[index]);
    exec->nodeFor[graph->nodes[index].get()] = exec->graph->nodes[index].get();
  }
  if (info != nullptr) *info = {0, nullptr, nullptr};
  return kSuccess;
}
CUresult cuGraphExecUpdate(CUgraphExec_st* exec, CUgraph_st* graph, CUgraphNode_st** errorNode, int* result) {
  CUgraphExecUpdateResultInfo info{};
  const CUresult returned = cuGraphExecUpdate_v2(exec, graph, &info);
  if (errorNode != nullptr) *errorNode = info.errorNode;
  if (result != nullptr) *result = info.result;
  return returned;
}

}  // extern "C"
