// What every check of the CUDA graphs check program shares (the context, two streams, the scale kernel
// of scale-floats.ptx and three buffers of n floats, with helpers to fill and read them and to make
// kernel node parameters), and the checks, each printing "ok <check>" when it passes: graphs built node
// by node (node-by-node-checks.cpp) and by stream capture (stream-capture-checks.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "libcuda-calls.hpp"

struct GraphFixture {
  static constexpr std::uint32_t n = 256;
  static constexpr std::size_t bytes = n * sizeof(float);

  int device = 0;
  Handle context = nullptr, module = nullptr, scale = nullptr, stream = nullptr, other = nullptr;
  Ptr a = 0, b = 0, c = 0;
  /** The bits of 1.0f, for memsets of floats. */
  unsigned oneBits = 0;
  /** Executable graphs and graphs the checks made, destroyed at the end in this order. */
  std::vector<Handle> execs, graphs;

  /** Makes the context, the streams, loads `ptx` and allocates a, b and c. */
  explicit GraphFixture(const std::string& ptx);
  /** Destroys `execs`, then `graphs`. */
  void destroyGraphs();

  /** Writes (i + 1) * scaleBy to item i of `to`. */
  void upload(Ptr to, float scaleBy);
  /** Whether item i of `from` holds (i + 1) * scaleBy. */
  bool holds(Ptr from, float scaleBy);
  /** Whether every item of `from` holds `value`. */
  bool holdsEvery(Ptr from, float value);
  /** Kernel node parameters that scale the n floats at `data` by `factor` (values the driver copies). */
  KernelNodeParams scaleNode(Ptr data, float factor);
  /** The factor a scale kernel node holds. */
  float factorOf(Handle node);

 private:
  std::vector<float> host = std::vector<float>(n);
};

/** A graph built node by node, and its first kernel node. */
struct NodeByNodeGraph {
  Handle graph = nullptr, k1 = nullptr;
};

// node-by-node-checks.cpp
NodeByNodeGraph checkNodesEdgesTypesAndParameters(GraphFixture& fixture);
void checkLaunchesAndExecUpdate(GraphFixture& fixture, const NodeByNodeGraph& built);
void checkChildGraphAndEventRecord(GraphFixture& fixture);
void checkGraphMemoryNodes(GraphFixture& fixture);

// stream-capture-checks.cpp
void checkCaptureOnOneStream(GraphFixture& fixture);
void checkCaptureAcrossTwoStreams(GraphFixture& fixture);
void checkSynchronizationInvalidatesCapture(GraphFixture& fixture);
