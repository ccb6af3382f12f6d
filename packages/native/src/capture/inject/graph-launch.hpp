// A graph launch as the capture session sees it (capture-session-graph.cpp): the nodes of the graph
// the program's executable graph runs, with each kernel node's function, shape and parameters as they
// are at this launch, its memset and copy nodes as the work between launches, its memory nodes as
// allocations and frees, and the nodes the capture cannot run one at a time. The session runs the
// nodes one at a time, in topological order, through a GraphNodeRunner (libcuda in the program, host
// memory in the tests), after keeping the memory they can reach to put back for the program's own
// launch. No CUDA header inside.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/inject/capture-session.hpp"

namespace kreplay::capture {

enum class GraphNodeKind {
  Kernel,
  Memset,      ///< 1D: a memset between launches
  Copy,        ///< 1D linear: a copy between launches
  Allocation,  ///< a graph memory node (cuGraphAddMemAllocNode)
  Free,
  Empty,
  ChildGraph,
  Conditional,
  Host,
  Event,       ///< event record or wait
  Unsupported  ///< what the capture cannot run alone (2D/3D memsets and copies, arrays, semaphores, batch memory ops)
};

struct GraphNode {
  std::uint64_t handle = 0;  ///< the node in the graph the executable graph was instantiated from
  GraphNodeKind kind = GraphNodeKind::Empty;
  std::vector<std::size_t> dependencies;  ///< indices of the nodes it depends on
  LaunchRequest launch;                   ///< a kernel node (its stream and context: the graph launch's)
  RecordedWork work;                      ///< a memset, copy, allocation or free node
};

struct GraphLaunchRequest {
  std::uint64_t graph = 0;  ///< the graph the executable graph was instantiated from (0: unknown)
  std::uintptr_t stream = 0;
  std::uintptr_t context = 0;
  std::vector<GraphNode> nodes;
  bool deviceLaunchable = false;  ///< instantiated for device launch: its nodes may launch graphs
  /** The change to the executable graph the capture could not follow ("": none); `nodes` is then empty. */
  std::string untrackedChange;
  /** Why the capture holds no clone of the graph, as libcuda refused it for memory nodes ("": it does); `nodes` is then empty. */
  std::string notCloned;
};

/** Runs graph nodes on the program's stream, and keeps memory to put back. Each throws DeviceAccessError. */
class GraphNodeRunner {
 public:
  virtual ~GraphNodeRunner() = default;
  virtual void runKernel(const LaunchRequest& launch) = 0;
  /** A memset or copy (RecordedWork) on its stream. */
  virtual void runWork(const RecordedWork& work) = 0;
  /** Copies the spans [address, +bytes) aside on the device, until restore. */
  virtual void preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) = 0;
  /** Puts the preserved spans back (device to device), waits, and releases the copy. */
  virtual void restore() = 0;
};

/** Kahn's topological order of the nodes, ready nodes taken in index order (as the fake libcuda runs them). */
std::vector<std::size_t> graphTopologicalOrder(const std::vector<GraphNode>& nodes);

}  // namespace kreplay::capture
