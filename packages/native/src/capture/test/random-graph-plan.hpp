// Random CUDA graphs for the capture's end-to-end test (drive-random-graphs.cpp), as plain data made
// from a seed: DAGs of kernel nodes (`scale` of the synthetic cubin, data[i] = data[i] * 2 + 1 over a
// range of floats), memset nodes and device-to-device copy nodes over a few buffers of one arena,
// whose ranges overlap so that the order of the nodes matters. Every two nodes that touch the same
// bytes (one of them writing) are ordered by an edge, so that every topological order leaves the same
// memory; other edges are added at random. Some graphs are built node by node, others captured from
// streams (each node on a random stream, joined through events). Between launches the program uploads
// new inputs, may update the executable graph from a graph of the same shape with other memset values
// (cuGraphExecUpdate), set a memset node's value or shrink a copy node (cuGraphExec{Memset,Memcpy}-
// NodeSetParams), and shrink a kernel node's count (cuGraphExecKernelNodeSetParams), each with the
// node of the graph it was instantiated from.
//
// Also the reference: the graph's nodes run on the host in Kahn's topological order (ready nodes in
// creation order), the order the capture runs them in, with the page hashes after each kernel node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace kreplay::capture::test {

constexpr std::size_t kRandomGraphBuffers = 8;
constexpr std::size_t kRandomGraphBufferBytes = 16384;  // 4096 floats
constexpr std::size_t kRandomGraphArenaBytes =
    kRandomGraphBuffers * kRandomGraphBufferBytes;    // two 64 KiB pages
constexpr std::size_t kRandomGraphPageBytes = 65536;  // the capture's page

enum class RandomNodeKind { Kernel, Memset, Copy };

struct RandomNode {
  RandomNodeKind kind = RandomNodeKind::Kernel;
  std::size_t destination =
      0;                   ///< byte offset in the arena: what a kernel scales, a memset fills, a copy writes
  std::size_t source = 0;  ///< a copy's source
  std::size_t bytes = 0;   ///< a kernel's count * 4, a memset's width * elementBytes, a copy's bytes
  unsigned value = 0;      ///< a memset's
  unsigned elementBytes = 4;              ///< a memset's: 1, 2 or 4
  std::size_t stream = 0;                 ///< the stream it is issued on, when its graph is captured
  std::vector<std::size_t> dependencies;  ///< earlier nodes (the plan's edges)
};

/** An upload of new input before a launch: bytes at an arena offset. */
struct RandomUpload {
  std::size_t offset = 0;
  std::vector<unsigned char> bytes;
};

/** What changes before one launch of a graph, in this order. */
struct RandomLaunch {
  std::vector<RandomUpload> uploads;
  /** The executable graph updated (cuGraphExecUpdate) from a graph of these nodes: new memset values
   * (node-by-node graphs). */
  bool updates = false;
  std::vector<RandomNode> updatedNodes;
  /** Memset and copy nodes set on the executable graph (cuGraphExec{Memset,Memcpy}NodeSetParams): node, new
   * node. */
  std::vector<std::pair<std::size_t, RandomNode>> nodeSets;
  bool shrinks = false;  ///< a kernel node's count set smaller on the executable graph (node-by-node graphs)
  std::size_t shrunkNode = 0;
  std::size_t shrunkBytes = 0;
};

struct RandomGraph {
  bool captured = false;  ///< by stream capture over `streams` streams, else node by node
  std::size_t streams = 1;
  std::vector<RandomNode> nodes;
  std::vector<RandomLaunch> launches;
};

struct RandomGraphPlan {
  std::vector<unsigned char> initial;  ///< the arena before the first graph
  std::vector<RandomGraph> graphs;
};

/** The plan of seed `seed`: three graphs of three to eight nodes, each launched two or three times. */
RandomGraphPlan randomGraphPlan(std::uint64_t seed);

/** The graph's edges as the driver makes them: the plan's, and for a captured graph, each node's stream
 * predecessor's. */
std::vector<std::vector<std::size_t>> graphEdges(const RandomGraph& graph);

/**
 * The nodes in Kahn's topological order of `edges`, ready nodes in creation order: written apart from
 * the capture's graphTopologicalOrder (inject/graph-launch.cpp), so that the reference shares no code
 * with what it checks.
 */
std::vector<std::size_t> kahnOrder(const std::vector<std::vector<std::size_t>>& edges);

/** A kernel node as the reference ran it: its place in the order, and the arena's page hashes around it. */
struct ReferenceKernel {
  std::size_t node = 0;
  std::size_t position = 0;  ///< in Kahn's order, counting every node
  std::vector<std::uint64_t> before, after;
};

/** Runs `nodes` (with `edges`) on `arena` in Kahn's order; each kernel node's hashes. */
std::vector<ReferenceKernel> runOnHost(const std::vector<RandomNode>& nodes,
                                       const std::vector<std::vector<std::size_t>>& edges,
                                       std::vector<unsigned char>& arena);

/** The page hash of each capture page of `arena`. */
std::vector<std::uint64_t> arenaPageHashes(const std::vector<unsigned char>& arena);

}  // namespace kreplay::capture::test
