// The program's executable graphs as libcuda holds them, for the capture session's graph launches:
// each executable graph's own clone of the graph it was instantiated from (cuGraphClone at
// instantiation), kept as the executable graph is (cuGraphExec*NodeSetParams* and
// cuGraphNodeSetEnabled change the clone's node, cuGraphExecUpdate clones the new graph, its nodes
// paired with the first graph's in order), read into a GraphLaunchRequest at cuGraphLaunch
// (cuda-graph-nodes.cpp), and the GraphNodeRunner that runs its nodes on the program's stream and
// keeps memory aside on the device. Nodes keep the handles of the graph the executable graph was
// instantiated from, whatever updates follow. Used only inside the program (the CUPTI glue); libcuda's
// graph calls are resolved when present.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "capture/inject/graph-launch.hpp"
#include "core/dynamic-library.hpp"

namespace kreplay::capture {

class CudaGraphs : public GraphNodeRunner {
 public:
  /** Resolves libcuda's graph calls; `available()` is false without them (graph launches are then only counted). */
  CudaGraphs();
  ~CudaGraphs() override;
  bool available() const { return available_; }

  /**
   * cuGraphInstantiate* returned `exec` for `graph` (flags: CUDA_GRAPH_INSTANTIATE_FLAG_*). A graph
   * libcuda will not clone (CUDA clones none with memory allocation, memory free or conditional nodes)
   * leaves `exec`'s launches uncaptured (GraphLaunchRequest::notCloned); nothing is thrown.
   */
  void instantiated(std::uintptr_t exec, std::uintptr_t graph, unsigned long long flags);
  // A change to `exec` that libcuda accepted. `node` is the instantiated-from graph's node, or the
  // node an update's graph paired with it. A change the clone cannot follow leaves `exec`'s launches
  // uncaptured (GraphLaunchRequest::untrackedChange).
  /** cuGraphExecKernelNodeSetParams*: `params` is a CUDA_KERNEL_NODE_PARAMS (v1 or v2 by `version2`). */
  void kernelNodeSet(std::uintptr_t exec, std::uintptr_t node, const void* params, bool version2);
  /** cuGraphExecMemsetNodeSetParams: `params` is a CUDA_MEMSET_NODE_PARAMS. */
  void memsetNodeSet(std::uintptr_t exec, std::uintptr_t node, const void* params);
  /** cuGraphExecMemcpyNodeSetParams: `params` is a CUDA_MEMCPY3D. */
  void memcpyNodeSet(std::uintptr_t exec, std::uintptr_t node, const void* params);
  /** cuGraphExecNodeSetParams: `params` is a CUgraphNodeParams. */
  void nodeSet(std::uintptr_t exec, std::uintptr_t node, const void* params);
  /** cuGraphNodeSetEnabled: a disabled node runs as an empty node. */
  void enabledSet(std::uintptr_t exec, std::uintptr_t node, bool enabled);
  /** cuGraphExecUpdate* succeeded: `exec` now runs `graph`'s parameters, its nodes paired with exec's in order. */
  void updated(std::uintptr_t exec, std::uintptr_t graph);
  void destroyed(std::uintptr_t exec);
  /** The graph `exec` runs, as it is now; nothing for an executable graph instantiated before the capture. */
  std::optional<GraphLaunchRequest> describe(std::uintptr_t exec, std::uintptr_t stream, std::uintptr_t context);

  void runKernel(const LaunchRequest& launch) override;
  void runWork(const RecordedWork& work) override;
  void preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) override;
  void restore() override;

 private:
  struct Exec {
    std::uintptr_t graph = 0;  ///< instantiated from (its nodes' handles are recorded)
    void* clone = nullptr;
    std::vector<void*> originalNodes;  ///< the graph's nodes, in its order
    std::vector<void*> cloneNodes;     ///< the clone's, in the same order
    /** The place of each node handle that names a node of the clone: the graph's, then updates'. */
    std::map<std::uintptr_t, std::size_t> nodeIndex;
    std::vector<bool> disabled;    ///< by cuGraphNodeSetEnabled, by place
    std::string untrackedChange;   ///< why the clone no longer stands for the executable graph ("": it does)
    std::string notCloned;         ///< why there is no clone (libcuda refused the graph; "": there is one)
    bool deviceLaunchable = false;
  };
  struct Calls;
  std::vector<void*> nodesOf(void* graph);
  void check(int result, const char* call) const;
  void forget(Exec& exec);
  /** Makes the clone of `exec` (by handle) and lists its nodes; the exec's other fields are the caller's. */
  void cloneInto(Exec& exec, std::uintptr_t graph);
  /** Applies a change to the clone's node that `node` names in `handle`, or marks the exec untracked. */
  void changeNode(std::uintptr_t handle, std::uintptr_t node, const char* call,
                  const std::function<void(const Calls& calls, void* cloneNode)>& change);
  void describeNode(void* node, GraphNode& described) const;

  std::unique_ptr<DynamicLibrary> library_;
  bool available_ = false;
  std::mutex mutex_;
  std::map<std::uintptr_t, Exec> execs_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> preserved_;
  std::uint64_t scratch_ = 0;
  std::unique_ptr<Calls> calls_;
};

}  // namespace kreplay::capture
