// The program's executable graphs as libcuda holds them, for the capture session's graph launches:
// each executable graph's own clone of the graph it was instantiated from (cuGraphClone at
// instantiation), kept as the executable graph is (cuGraphExecKernelNodeSetParams sets the clone's
// node, cuGraphExecUpdate clones the new graph), read into a GraphLaunchRequest at cuGraphLaunch, and
// the GraphNodeRunner that runs its nodes on the program's stream and keeps memory aside on the device.
// Used only inside the program (the CUPTI glue); libcuda's graph calls are resolved when present.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

  /** cuGraphInstantiate* returned `exec` for `graph` (flags: CUDA_GRAPH_INSTANTIATE_FLAG_*). */
  void instantiated(std::uintptr_t exec, std::uintptr_t graph, unsigned long long flags);
  /** cuGraphExecKernelNodeSetParams*: `params` is a CUDA_KERNEL_NODE_PARAMS (v1 or v2 by `version2`). */
  void kernelNodeSet(std::uintptr_t exec, std::uintptr_t node, const void* params, bool version2);
  /** cuGraphExecUpdate* succeeded: `exec` now runs `graph`'s parameters. */
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
    bool deviceLaunchable = false;
  };
  std::vector<void*> nodesOf(void* graph);
  void check(int result, const char* call) const;
  void forget(Exec& exec);

  std::unique_ptr<DynamicLibrary> library_;
  bool available_ = false;
  std::mutex mutex_;
  std::map<std::uintptr_t, Exec> execs_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> preserved_;
  std::uint64_t scratch_ = 0;
  struct Calls;
  std::unique_ptr<Calls> calls_;
};

}  // namespace kreplay::capture
