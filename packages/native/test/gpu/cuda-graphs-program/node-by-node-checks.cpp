// Checks of graphs built node by node: kernel, memset, 1D memcpy, host and empty nodes with their
// edges, types and parameters read back; launches, exec kernel-node parameters and exec update; a
// child graph and an event record node; graph memory nodes.
#include <cstdio>
#include <vector>

#include "graph-checks.hpp"

namespace {

constexpr std::uint32_t n = GraphFixture::n;
constexpr std::size_t bytes = GraphFixture::bytes;

/** How many times the host node of the node-by-node graph ran. */
int hostRuns = 0;

}  // namespace

NodeByNodeGraph checkNodesEdgesTypesAndParameters(GraphFixture& fixture) {
  const Ptr a = fixture.a, b = fixture.b, c = fixture.c;
  fixture.upload(a, 1);
  Handle graph = nullptr, k1 = nullptr, m1 = nullptr, c1 = nullptr, k2 = nullptr, k3 = nullptr, h1 = nullptr,
         e1 = nullptr;
  CALL(cuGraphCreate, &graph, 0);
  fixture.graphs.push_back(graph);
  KernelNodeParams p1 = fixture.scaleNode(a, 2);
  CALL(cuGraphAddKernelNode_v2, &k1, graph, nullptr, 0, &p1);
  const MemsetNodeParams memset{b, bytes, fixture.oneBits, 4, n, 1};
  CALL(cuGraphAddMemsetNode, &m1, graph, nullptr, 0, &memset, fixture.context);
  Memcpy3D copy{};
  copy.srcMemoryType = copy.dstMemoryType = 2;  // CU_MEMORYTYPE_DEVICE
  copy.srcDevice = a;
  copy.dstDevice = c;
  copy.srcPitch = copy.dstPitch = bytes;
  copy.WidthInBytes = bytes;
  copy.Height = copy.Depth = 1;
  CALL(cuGraphAddMemcpyNode, &c1, graph, &k1, 1, &copy, fixture.context);
  KernelNodeParams p2 = fixture.scaleNode(c, 3), p3 = fixture.scaleNode(b, 5);
  CALL(cuGraphAddKernelNode_v2, &k2, graph, &c1, 1, &p2);
  CALL(cuGraphAddKernelNode_v2, &k3, graph, &m1, 1, &p3);
  const HostNodeParams hostNode{[](void* count) { ++*static_cast<int*>(count); }, &hostRuns};
  const Handle joined[] = {k2, k3};
  CALL(cuGraphAddHostNode, &h1, graph, joined, 2, &hostNode);
  CALL(cuGraphAddEmptyNode, &e1, graph, &h1, 1);
  std::size_t count = 0;
  CALL(cuGraphGetNodes, graph, nullptr, &count);
  expect(count == 7, "the graph has its 7 nodes");
  std::vector<Handle> nodes(count);
  CALL(cuGraphGetNodes, graph, nodes.data(), &count);
  int type = -1;
  const int types[] = {0, 2, 1, 0, 0, 3, 5};
  for (std::size_t index = 0; index < count; ++index) {
    CALL(cuGraphNodeGetType, nodes[index], &type);
    expect(type == types[index], "each node has its type (kernel 0, memcpy 1, memset 2, host 3, empty 5)");
  }
  CALL(cuGraphGetEdges_v2, graph, nullptr, nullptr, nullptr, &count);
  expect(count == 6, "the graph has its 6 edges");
  CALL(cuGraphNodeGetDependencies_v2, h1, nullptr, nullptr, &count);
  expect(count == 2, "the host node depends on two nodes");
  expect(fixture.factorOf(k1) == 2, "a kernel node's parameters read back");
  MemsetNodeParams memsetRead{};
  CALL(cuGraphMemsetNodeGetParams, m1, &memsetRead);
  expect(memsetRead.dst == b && memsetRead.value == fixture.oneBits && memsetRead.elementSize == 4 &&
             memsetRead.width == n,
         "a memset node's parameters read back");
  Memcpy3D copyRead{};
  CALL(cuGraphMemcpyNodeGetParams, c1, &copyRead);
  expect(copyRead.srcDevice == a && copyRead.dstDevice == c && copyRead.WidthInBytes == bytes,
         "a memcpy node's parameters read back");
  std::printf("ok nodes, edges, types and parameters of a graph built node by node\n");
  return {graph, k1};
}

void checkLaunchesAndExecUpdate(GraphFixture& fixture, const NodeByNodeGraph& built) {
  const Ptr a = fixture.a, b = fixture.b, c = fixture.c;
  const Handle stream = fixture.stream;
  Handle exec = nullptr;
  CALL(cuGraphInstantiateWithFlags, &exec, built.graph, 0);
  fixture.execs.push_back(exec);
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(fixture.holds(a, 2) && fixture.holds(c, 6) && fixture.holdsEvery(b, 5) && hostRuns == 1,
         "the graph's launch ran every node in order");
  KernelNodeParams p4 = fixture.scaleNode(a, 10);
  CALL(cuGraphExecKernelNodeSetParams_v2, exec, built.k1, &p4);
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(fixture.holds(a, 20) && fixture.holds(c, 60) && hostRuns == 2,
         "an exec kernel node's new parameters apply to the next launch");
  expect(fixture.factorOf(built.k1) == 2,
         "setting an exec node's parameters leaves the graph's node as it was");
  Handle clone = nullptr;
  CALL(cuGraphClone, &clone, built.graph);
  fixture.graphs.push_back(clone);
  std::vector<Handle> cloned(7);
  std::size_t count = 7;
  CALL(cuGraphGetNodes, clone, cloned.data(), &count);
  KernelNodeParams p5 = fixture.scaleNode(a, 0.5f);
  CALL(cuGraphKernelNodeSetParams_v2, cloned[0], &p5);
  ExecUpdateResultInfo info{};
  CALL(cuGraphExecUpdate_v2, exec, clone, &info);
  expect(info.result == 0, "an exec update from a clone succeeds");
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(fixture.holds(a, 10) && fixture.holds(c, 30) && hostRuns == 3,
         "an exec update's parameters apply to the next launch");
  std::printf("ok launches, exec kernel-node parameters and exec update\n");
}

void checkChildGraphAndEventRecord(GraphFixture& fixture) {
  Handle parent = nullptr, child = nullptr, childKernel = nullptr, childNode = nullptr, recordNode = nullptr,
         event = nullptr, parentExec = nullptr;
  CALL(cuEventCreate, &event, 0);
  CALL(cuGraphCreate, &child, 0);
  KernelNodeParams p6 = fixture.scaleNode(fixture.a, 0.5f);
  CALL(cuGraphAddKernelNode_v2, &childKernel, child, nullptr, 0, &p6);
  CALL(cuGraphCreate, &parent, 0);
  fixture.graphs.push_back(parent);
  fixture.graphs.push_back(child);
  CALL(cuGraphAddChildGraphNode, &childNode, parent, nullptr, 0, child);
  CALL(cuGraphAddEventRecordNode, &recordNode, parent, &childNode, 1, event);
  int type = -1;
  CALL(cuGraphNodeGetType, childNode, &type);
  expect(type == 4, "a child graph node has type 4");
  CALL(cuGraphNodeGetType, recordNode, &type);
  expect(type == 7, "an event record node has type 7");
  CALL(cuGraphInstantiateWithFlags, &parentExec, parent, 0);
  fixture.execs.push_back(parentExec);
  CALL(cuGraphLaunch, parentExec, fixture.stream);
  CALL(cuEventSynchronize, event);
  expect(fixture.holds(fixture.a, 5),
         "a child graph's nodes run, and the event record node completes after them");
  std::printf("ok child graph and event record nodes\n");
}

void checkGraphMemoryNodes(GraphFixture& fixture) {
  Handle memoryGraph = nullptr, allocNode = nullptr, setNode = nullptr, freeNode = nullptr,
         memoryExec = nullptr;
  CALL(cuGraphCreate, &memoryGraph, 0);
  fixture.graphs.push_back(memoryGraph);
  MemAllocNodeParams allocation{};
  allocation.poolProps.allocType = 1;     // CU_MEM_ALLOCATION_TYPE_PINNED
  allocation.poolProps.locationType = 1;  // CU_MEM_LOCATION_TYPE_DEVICE
  allocation.poolProps.locationId = fixture.device;
  allocation.bytesize = bytes;
  CALL(cuGraphAddMemAllocNode, &allocNode, memoryGraph, nullptr, 0, &allocation);
  expect(allocation.dptr != 0, "a memory allocation node gives its address when it is added");
  const MemsetNodeParams zero{allocation.dptr, bytes, 0, 1, bytes, 1};
  CALL(cuGraphAddMemsetNode, &setNode, memoryGraph, &allocNode, 1, &zero, fixture.context);
  CALL(cuGraphAddMemFreeNode, &freeNode, memoryGraph, &setNode, 1, allocation.dptr);
  MemAllocNodeParams allocationRead{};
  CALL(cuGraphMemAllocNodeGetParams, allocNode, &allocationRead);
  expect(allocationRead.dptr == allocation.dptr && allocationRead.bytesize == bytes,
         "a memory allocation node's parameters read back");
  int type = -1;
  CALL(cuGraphNodeGetType, freeNode, &type);
  expect(type == 11, "a memory free node has type 11");
  Handle refusedClone = nullptr;
  expect(cuda.cuGraphClone(&refusedClone, memoryGraph) == 801,
         "cuGraphClone refuses a graph with memory nodes (801, CUDA_ERROR_NOT_SUPPORTED)");
  CALL(cuGraphInstantiateWithFlags, &memoryExec, memoryGraph, 0);
  fixture.execs.push_back(memoryExec);
  CALL(cuGraphLaunch, memoryExec, fixture.stream);
  CALL(cuStreamSynchronize, fixture.stream);
  std::printf("ok graph memory nodes\n");
}
