// Changing a node's parameters in the fake libcuda, in a graph (cuGraph*NodeSetParams, taken by the
// capture library's clones) or in an executable graph (cuGraphExec*NodeSetParams, cuGraphNodeSetEnabled),
// which names its node by the node of the graph it was instantiated from (or of an update's graph).
#include "fake-graph-objects.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

namespace {


CUgraphNode_st* execNode(CUgraphExec_st* exec, CUgraphNode_st* node) {
  const auto found = exec->nodeFor.find(node);
  return found == exec->nodeFor.end() ? nullptr : found->second;
}

CUresult setMemset(CUgraphNode_st* node, const CUDA_MEMSET_NODE_PARAMS& params) {
  if (node == nullptr || node->type != kMemsetNode) return kInvalidValue;
  if (params.elementSize != 1 && params.elementSize != 2 && params.elementSize != 4) return kInvalidValue;
  node->memset = params;
  return kSuccess;
}

CUresult setMemcpy(CUgraphNode_st* node, const CUDA_MEMCPY3D& params) {
  if (node == nullptr || node->type != kMemcpyNode) return kInvalidValue;
  if (params.srcArray != nullptr || params.dstArray != nullptr) return kInvalidValue;  // no arrays
  node->copy = params;
  return kSuccess;
}

/** CUgraphNodeParams for the kinds the fake changes: kernel, memcpy and memset nodes. */
CUresult setNode(CUgraphNode_st* node, const CUgraphNodeParams& params) {
  if (node == nullptr || params.type != node->type) return kInvalidValue;
  switch (params.type) {
    case kKernelNode:
      return setKernelNode(*node, params.kernel);
    case kMemcpyNode:
      return setMemcpy(node, params.memcpy.copyParams);
    case kMemsetNode:
      return setMemset(node, params.memset.params);
    default:
      return kNotSupported;
  }
}

}  // namespace

extern "C" {

CUresult cuGraphMemsetNodeSetParams(CUgraphNode_st* node, const CUDA_MEMSET_NODE_PARAMS* params) {
  return setMemset(node, *params);
}
CUresult cuGraphMemcpyNodeSetParams(CUgraphNode_st* node, const CUDA_MEMCPY3D* params) {
  return setMemcpy(node, *params);
}
CUresult cuGraphNodeSetParams(CUgraphNode_st* node, CUgraphNodeParams* params) {
  return setNode(node, *params);
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node,
                                        const CUDA_MEMSET_NODE_PARAMS* params, void*) {
  return setMemset(execNode(exec, node), *params);
}
CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node, const CUDA_MEMCPY3D* params,
                                        void*) {
  return setMemcpy(execNode(exec, node), *params);
}
CUresult cuGraphExecNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node, CUgraphNodeParams* params) {
  return setNode(execNode(exec, node), *params);
}
CUresult cuGraphNodeSetEnabled(CUgraphExec_st* exec, CUgraphNode_st* node, unsigned enabled) {
  CUgraphNode_st* target = execNode(exec, node);
  if (target == nullptr ||
      (target->type != kKernelNode && target->type != kMemsetNode && target->type != kMemcpyNode))
    return kInvalidValue;
  target->enabled = enabled != 0;
  return kSuccess;
}
CUresult cuGraphNodeGetEnabled(CUgraphExec_st* exec, CUgraphNode_st* node, unsigned* enabled) {
  CUgraphNode_st* target = execNode(exec, node);
  if (target == nullptr) return kInvalidValue;
  *enabled = target->enabled ? 1 : 0;
  return kSuccess;
}

}  // extern "C"
