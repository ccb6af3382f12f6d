#include "capture/test/drive-graph-exec-changes.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/json-text.hpp"

namespace kreplay::capture::test {

namespace cu = cupti;

namespace {

/** cuda.h's CUgraphNodeParams, for a kernel node. */
struct NodeParams {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    KernelNodeParams kernel;
  };
  long long reserved2;
};
static_assert(sizeof(NodeParams) == 256, "cuda.h's CUgraphNodeParams");

std::string hex(const void* handle) { return jsonAddress(reinterpret_cast<std::uint64_t>(handle)); }

}  // namespace

std::string driveGraphExecUpdate(GraphProgram& program) {
  auto cuGraphCreate = program.resolve<int (*)(void**, unsigned)>("cuGraphCreate");
  auto cuGraphAddKernelNode = program.resolve<int (*)(void**, void*, void* const*, std::size_t, const KernelNodeParams*)>(
      "cuGraphAddKernelNode_v2");
  auto cuGraphExecUpdate = program.resolve<int (*)(void*, void*, void*)>("cuGraphExecUpdate_v2");
  auto cuGraphExecKernelNodeSetParams =
      program.resolve<int (*)(void*, void*, const KernelNodeParams*)>("cuGraphExecKernelNodeSetParams_v2");
  if (program.missing) return "null";
  std::uint64_t pointer = program.a;
  int count = kCount;
  void* arguments[] = {&pointer, &count};
  void *graph = nullptr, *node = nullptr, *updateGraph = nullptr, *updateNode = nullptr;
  KernelNodeParams params = program.scaleNode(arguments);
  program.check(cuGraphCreate(&graph, 0));
  program.check(cuGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  void* exec = program.instantiate(graph);
  count = kCount / 2;
  params = program.scaleNode(arguments);
  program.check(cuGraphCreate(&updateGraph, 0));
  program.check(cuGraphAddKernelNode(&updateNode, updateGraph, nullptr, 0, &params));
  struct {
    int result;
    void* errorNode;
    void* errorFromNode;
  } info{};
  program.check(cuGraphExecUpdate(exec, updateGraph, &info));
  const cu::GraphExecParams update{exec, updateGraph, &info};
  program.raise(cu::cbid::cuGraphExecUpdate_v2, cu::kApiExit, &update);
  program.launch(exec);
  scaleOnHost(*program.hostA, count);
  std::string counts = std::to_string(count);
  // Through the node of the graph it was instantiated from, then through the update's.
  for (const auto& [named, changed] : {std::pair{node, kCount / 4}, std::pair{updateNode, kCount / 8}}) {
    count = changed;
    params = program.scaleNode(arguments);
    program.check(cuGraphExecKernelNodeSetParams(exec, named, &params));
    const cu::GraphExecParams set{exec, named, &params};
    program.raise(cu::cbid::cuGraphExecKernelNodeSetParams_v2, cu::kApiExit, &set);
    program.launch(exec);
    scaleOnHost(*program.hostA, count);
    counts += "," + std::to_string(count);
  }
  return "{\"graph\":" + hex(graph) + ",\"node\":" + hex(node) + ",\"updateGraph\":" + hex(updateGraph) +
         ",\"updateNode\":" + hex(updateNode) + ",\"counts\":[" + counts + "]}";
}

std::string driveGraphExecSetters(GraphProgram& program) {
  auto cuGraphCreate = program.resolve<int (*)(void**, unsigned)>("cuGraphCreate");
  auto cuGraphAddKernelNode = program.resolve<int (*)(void**, void*, void* const*, std::size_t, const KernelNodeParams*)>(
      "cuGraphAddKernelNode_v2");
  auto cuGraphAddMemsetNode =
      program.resolve<int (*)(void**, void*, void* const*, std::size_t, const MemsetNodeParams*, void*)>(
          "cuGraphAddMemsetNode");
  auto cuGraphExecMemsetNodeSetParams =
      program.resolve<int (*)(void*, void*, const MemsetNodeParams*, void*)>("cuGraphExecMemsetNodeSetParams");
  auto cuGraphNodeSetEnabled = program.resolve<int (*)(void*, void*, unsigned)>("cuGraphNodeSetEnabled");
  auto cuGraphExecNodeSetParams = program.resolve<int (*)(void*, void*, NodeParams*)>("cuGraphExecNodeSetParams");
  if (program.missing) return "null";
  std::uint64_t pointerA = program.a, pointerB = program.b;
  int countA = kCount, countB = kCount;
  void* argumentsA[] = {&pointerA, &countA};
  void* argumentsB[] = {&pointerB, &countB};
  auto bitsOf = [](float value) {
    unsigned bits = 0;
    std::memcpy(&bits, &value, 4);
    return bits;
  };
  void *graph = nullptr, *memsetNode = nullptr, *scaleA = nullptr, *scaleB = nullptr;
  program.check(cuGraphCreate(&graph, 0));
  MemsetNodeParams memset{program.b, kBytes, bitsOf(3.0f), 4, kCount, 1};
  program.check(cuGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memset, program.context));
  const KernelNodeParams scaleAParams = program.scaleNode(argumentsA), scaleBParams = program.scaleNode(argumentsB);
  program.check(cuGraphAddKernelNode(&scaleA, graph, nullptr, 0, &scaleAParams));
  void* const both[] = {memsetNode, scaleA};
  program.check(cuGraphAddKernelNode(&scaleB, graph, both, 2, &scaleBParams));
  void* exec = program.instantiate(graph);
  auto setEnabled = [&](unsigned enabled) {
    program.check(cuGraphNodeSetEnabled(exec, scaleA, enabled));
    const cu::GraphNodeSetEnabledParams params{exec, scaleA, enabled};
    program.raise(cu::cbid::cuGraphNodeSetEnabled, cu::kApiExit, &params);
  };
  auto launch = [&](bool withA) {
    program.launch(exec);
    std::fill(program.hostB->begin(), program.hostB->end(), 5.0f);
    if (withA) scaleOnHost(*program.hostA, countA);
    scaleOnHost(*program.hostB, kCount);
  };
  // The memset now writes 5.0f.
  memset.value = bitsOf(5.0f);
  program.check(cuGraphExecMemsetNodeSetParams(exec, memsetNode, &memset, program.context));
  const cu::GraphExecParams setMemset{exec, memsetNode, &memset};
  program.raise(cu::cbid::cuGraphExecMemsetNodeSetParams, cu::kApiExit, &setMemset);
  launch(true);
  // scale(A) disabled: it runs as an empty node.
  setEnabled(0);
  launch(false);
  // Enabled again, with half the count through the generic setter.
  setEnabled(1);
  countA = kCount / 2;
  NodeParams changed{};
  changed.type = 0;  // CU_GRAPH_NODE_TYPE_KERNEL
  changed.kernel = program.scaleNode(argumentsA);
  program.check(cuGraphExecNodeSetParams(exec, scaleA, &changed));
  const cu::GraphExecParams setNode{exec, scaleA, &changed};
  program.raise(cu::cbid::cuGraphExecNodeSetParams, cu::kApiExit, &setNode);
  launch(true);
  return "{\"graph\":" + hex(graph) + ",\"memsetNode\":" + hex(memsetNode) + ",\"scaleA\":" + hex(scaleA) +
         ",\"scaleB\":" + hex(scaleB) + ",\"value\":" + std::to_string(bitsOf(5.0f)) +
         ",\"count\":" + std::to_string(countA) + "}";
}

}  // namespace kreplay::capture::test
