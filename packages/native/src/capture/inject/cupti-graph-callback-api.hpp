// The CUDA graph calls of CUPTI's callback API the capture library follows (cupti_driver_cbid.h) and
// their `*_params` (generated_cuda_meta.h): the executable graphs a program instantiates, changes and
// launches (cuda-graphs.hpp). Part of cupti-callback-api.hpp, which includes it;
// test/cupti-callback-api-check.cpp compares them with the real headers.
#pragma once

#include <cstdint>

namespace kreplay::capture::cupti {

/** CUPTI_DRIVER_TRACE_CBID_<name> of cupti_driver_cbid.h. */
namespace cbid {
constexpr std::uint32_t cuGraphLaunch = 514;
constexpr std::uint32_t cuGraphLaunch_ptsz = 515;
constexpr std::uint32_t cuGraphInstantiate = 513;
constexpr std::uint32_t cuGraphExecDestroy = 516;
constexpr std::uint32_t cuGraphExecKernelNodeSetParams = 538;
constexpr std::uint32_t cuGraphExecUpdate = 561;
constexpr std::uint32_t cuGraphExecMemcpyNodeSetParams = 562;
constexpr std::uint32_t cuGraphExecMemsetNodeSetParams = 563;
constexpr std::uint32_t cuGraphInstantiate_v2 = 578;
constexpr std::uint32_t cuGraphInstantiateWithFlags = 643;
constexpr std::uint32_t cuGraphNodeSetEnabled = 650;  ///< enables or disables a node of an executable graph
constexpr std::uint32_t cuGraphInstantiateWithParams = 656;
constexpr std::uint32_t cuGraphInstantiateWithParams_ptsz = 657;
constexpr std::uint32_t cuGraphExecKernelNodeSetParams_v2 = 692;
constexpr std::uint32_t cuGraphExecUpdate_v2 = 696;
constexpr std::uint32_t cuGraphExecNodeSetParams = 714;
}  // namespace cbid

struct GraphInstantiateParams {  // cuGraphInstantiate* (the first fields; WithFlags adds flags, WithParams a struct)
  void** phGraphExec;
  void* hGraph;
  const void* third;
};
/**
 * cuGraphExec{Kernel,Memset,Memcpy}NodeSetParams*, cuGraphExecNodeSetParams, cuGraphExecUpdate*,
 * cuGraphExecDestroy, cuGraphLaunch* (the first fields).
 */
struct GraphExecParams {
  void* hGraphExec;
  void* second;       ///< the node, the graph, or the stream
  const void* third;  ///< the node's parameters (cuGraphExec*SetParams*)
};
struct GraphNodeSetEnabledParams {  // cuGraphNodeSetEnabled
  void* hGraphExec;
  void* hNode;
  unsigned isEnabled;
};

}  // namespace kreplay::capture::cupti
