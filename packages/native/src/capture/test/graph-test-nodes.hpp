// Graph launches over host memory for the session's graph tests (capture-session-graph-test.cpp,
// capture-session-graph-selection-test.cpp, the collective tests): a node runner whose `scale` kernel
// adds to a page, one that only counts, kernel, memset and copy nodes, and the bytes of a span.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "capture/inject/graph-launch.hpp"

namespace kreplay::capture::test {

inline constexpr std::uint64_t kPage = kCapturePageBytes;

/**
 * Runs nodes over host memory. The kernel `scale(pointer, value)` adds `value` to each byte of the
 * page at `pointer`: its result depends on the memory before it, so a node run twice shows.
 */
class HostGraphRunner : public GraphNodeRunner {
 public:
  void runKernel(const LaunchRequest& launch) override {
    kernels += 1;
    const auto pointer = *static_cast<const std::uint64_t*>(launch.kernelParams[0]);
    const int value = *static_cast<const int*>(launch.kernelParams[1]);
    auto* bytes = reinterpret_cast<std::uint8_t*>(pointer);
    for (std::uint64_t at = 0; at < kPage; ++at) bytes[at] = static_cast<std::uint8_t>(bytes[at] + value);
  }
  void runWork(const RecordedWork& work) override {
    if (work.kind == WorkKind::Memset) std::memset(reinterpret_cast<void*>(work.address), static_cast<int>(work.value), work.bytes);
    else std::memmove(reinterpret_cast<void*>(work.address), reinterpret_cast<const void*>(work.source), work.bytes);
  }
  void preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) override {
    for (const auto& [address, bytes] : spans) {
      const auto* from = reinterpret_cast<const std::uint8_t*>(address);
      kept[address].assign(from, from + bytes);
    }
  }
  void restore() override {
    for (const auto& [address, bytes] : kept) std::memcpy(reinterpret_cast<void*>(address), bytes.data(), bytes.size());
    kept.clear();
    restores += 1;
  }
  /** The program's own graph launch: every node, in order. */
  void runGraph(const GraphLaunchRequest& request) {
    for (const std::size_t index : graphTopologicalOrder(request.nodes)) {
      const GraphNode& node = request.nodes[index];
      if (node.kind == GraphNodeKind::Kernel) runKernel(node.launch);
      if (node.kind == GraphNodeKind::Memset || node.kind == GraphNodeKind::Copy) runWork(node.work);
    }
  }

  std::map<std::uint64_t, std::vector<std::uint8_t>> kept;
  int kernels = 0;
  int restores = 0;
};

/** Runs nothing; counts the kernels it was asked to run (a graph the session must leave untouched). */
class CountingGraphRunner : public GraphNodeRunner {
 public:
  void runKernel(const LaunchRequest&) override { kernels += 1; }
  void runWork(const RecordedWork&) override {}
  void preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>&) override {}
  void restore() override {}
  int kernels = 0;
};

/** A kernel node's parameters, kept where its LaunchRequest points. */
struct KernelArguments {
  std::uint64_t pointer = 0;
  int value = 0;
  void* params[2] = {&pointer, &value};
};

inline GraphNode kernelNode(std::uint64_t handle, KernelArguments& arguments, std::vector<std::size_t> dependencies,
                     const char* function = "scale") {
  GraphNode node;
  node.handle = handle;
  node.kind = GraphNodeKind::Kernel;
  node.dependencies = std::move(dependencies);
  node.launch.function = function;
  node.launch.functionHandle = 0x77;
  node.launch.kernelParams = arguments.params;
  return node;
}

inline GraphNode workNode(std::uint64_t handle, GraphNodeKind kind, RecordedWork work, std::vector<std::size_t> dependencies) {
  GraphNode node;
  node.handle = handle;
  node.kind = kind;
  node.work = work;
  node.dependencies = std::move(dependencies);
  return node;
}

inline RecordedWork memsetWork(std::uint64_t address, std::uint64_t bytes, std::uint32_t value) {
  RecordedWork work;
  work.kind = WorkKind::Memset;
  work.address = address;
  work.bytes = bytes;
  work.value = value;
  return work;
}

inline RecordedWork copyWork(std::uint64_t destination, std::uint64_t source, std::uint64_t bytes) {
  RecordedWork work;
  work.kind = WorkKind::Copy;
  work.address = destination;
  work.source = source;
  work.bytes = bytes;
  return work;
}

inline std::string littleEndianHex(std::uint64_t value) {
  std::string out;
  char byte[3];
  for (int index = 0; index < 8; ++index, value >>= 8) {
    std::snprintf(byte, sizeof byte, "%02x", static_cast<unsigned>(value & 0xff));
    out += byte;
  }
  return out;
}

inline std::vector<std::uint8_t> bytesAt(std::uint64_t address, std::uint64_t bytes) {
  const auto* from = reinterpret_cast<const std::uint8_t*>(address);
  return {from, from + bytes};
}


}  // namespace kreplay::capture::test
