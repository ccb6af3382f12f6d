// Kernel nodes of graph launches, over the fake device: a graph's nodes run one at a time in
// topological order, kernel nodes captured as launches (graph fields, a `graph-launch` sequence break,
// the memset and copy nodes as workBefore), memory put back for the program's own launch, parameters
// as they are at each launch, nodes that keep a graph untouched counted by reason, collectives, and
// graph memory nodes as allocations (the selection of kernel nodes: capture-session-graph-selection-test.cpp).
#include <deque>

#include "capture/inject/graph-launch.hpp"
#include "capture/json-text.hpp"
#include "capture/test/graph-test-nodes.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

TEST("graph capture: kernel nodes are captured in topological order, with graph fields, a graph-launch break and memset/copy nodes as workBefore; memory is put back") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(2, 1), b = fixture.addRange(1, 2);
  KernelArguments first{a, 1}, second{a + kPage, 2}, third{b, 3};
  GraphLaunchRequest request;
  request.graph = 0x6000;
  request.stream = 0x51;
  request.nodes = {kernelNode(0x100, first, {}),                                         // 0: scale(a)
                   workNode(0x101, GraphNodeKind::Memset, memsetWork(b, kPage, 9), {}),  // 1: memset(b)
                   workNode(0x102, GraphNodeKind::Copy, copyWork(a + kPage, a, kPage), {0}),
                   kernelNode(0x103, second, {2}),  // 3: scale(a + page)
                   kernelNode(0x104, third, {1})};  // 4: scale(b)
  HostGraphRunner runner;
  const int values[] = {1, 5, 7};  // the first node's parameter, as cuGraphExecKernelNodeSetParams changes it
  for (int launch = 0; launch < 3; ++launch) {
    first.value = values[launch];
    const auto memoryBefore = bytesAt(a, 2 * kPage), otherBefore = bytesAt(b, kPage);
    fixture.session->graphLaunch(request, runner);
    CHECK(bytesAt(a, 2 * kPage) == memoryBefore);  // put back for the program's own launch
    CHECK(bytesAt(b, kPage) == otherBefore);
    runner.runGraph(request);  // the program's launch
  }
  CHECK_EQ(runner.restores, 3);
  CHECK_EQ(fixture.session->capturedLaunches(), 9u);
  for (int launch = 0; launch < 3; ++launch) {
    const std::string head = fixture.record(3 * launch), middle = fixture.record(3 * launch + 1),
                      last = fixture.record(3 * launch + 2);
    const std::string graph = "\"graph\":{\"graph\":\"0x6000\",\"node\":\"0x";
    const std::string launchIndex = ",\"graphLaunch\":" + std::to_string(launch) + "}";
    CHECK(contains(head, "\"follows\":null,\"sequenceBreak\":\"graph-launch\""));
    CHECK(contains(head, graph + "100\",\"nodeIndex\":0" + launchIndex));
    CHECK(contains(middle, "\"follows\":" + std::to_string(3 * launch) + ",\"sequenceBreak\":null"));
    CHECK(contains(middle, graph + "103\",\"nodeIndex\":3" + launchIndex));
    CHECK(contains(middle, "\"workBefore\":[{\"kind\":\"memset\",\"stream\":\"0x51\",\"address\":" + jsonAddress(b) +
                               ",\"bytes\":65536,\"value\":9,\"elementBytes\":1},{\"kind\":\"copy\",\"stream\":\"0x51\""));
    CHECK(contains(last, "\"follows\":" + std::to_string(3 * launch + 1) + ",\"sequenceBreak\":null"));
    CHECK(contains(last, graph + "104\",\"nodeIndex\":4" + launchIndex));
    // The parameters as they were at this launch: the value is the buffer's second word.
    char value[16];
    std::snprintf(value, sizeof value, "%02x000000", values[launch]);
    CHECK(contains(head, "\"buffer\":\"" + littleEndianHex(a) + value));
  }
  const std::string manifest = fixture.manifest();
  CHECK(contains(manifest, "\"graphLaunches\":3"));
  CHECK(contains(manifest, "\"graph-launch\":3"));
}

TEST("graph capture: a graph holding a node the capture cannot run alone runs untouched, its nodes counted by reason") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(1, 1);
  KernelArguments arguments{a, 1}, nccl{a, 1};
  HostGraphRunner runner;
  const GraphNodeKind kinds[] = {GraphNodeKind::ChildGraph, GraphNodeKind::Conditional, GraphNodeKind::Host,
                                 GraphNodeKind::Event};
  for (const GraphNodeKind kind : kinds) {
    GraphLaunchRequest request;
    request.nodes = {kernelNode(0x100, arguments, {}), workNode(0x101, kind, {}, {0})};
    fixture.session->graphLaunch(request, runner);
  }
  GraphLaunchRequest collective;
  collective.nodes = {kernelNode(0x100, arguments, {}), kernelNode(0x101, nccl, {0}, "ncclDevKernel_AllReduce_Sum_f32")};
  fixture.session->graphLaunch(collective, runner);
  GraphLaunchRequest deviceLaunch;
  deviceLaunch.deviceLaunchable = true;
  deviceLaunch.nodes = {kernelNode(0x100, arguments, {})};
  fixture.session->graphLaunch(deviceLaunch, runner);
  GraphLaunchRequest untracked;  // changed by a call the capture could not follow: its nodes are not read
  untracked.untrackedChange = "cuGraphExecNodeSetParams (libcuda lacks cuGraphNodeSetParams)";
  fixture.session->graphLaunch(untracked, runner);
  GraphLaunchRequest notCloned;  // libcuda refused to clone its graph (memory nodes): there are no nodes to read
  notCloned.notCloned = "cuGraphClone refused the graph (CUDA_ERROR_NOT_SUPPORTED)";
  fixture.session->graphLaunch(notCloned, runner);
  CHECK_EQ(runner.kernels, 0);
  CHECK_EQ(runner.restores, 0);
  CHECK_EQ(fixture.session->capturedLaunches(), 0u);
  const std::string manifest = fixture.manifest();
  for (const char* reason : {"\"graph-child-graph\":1", "\"graph-conditional-node\":1", "\"graph-host-node\":1",
                             "\"graph-event-node\":1", "\"collective\":1", "\"device-graph-launch\":1",
                             "\"graph-untracked-change\":1", "\"graph-not-cloned\":1"})
    CHECK(contains(manifest, reason));
  // An ordinary launch after them starts a sequence: the graphs' launches ran unseen.
  fixture.launch();
  CHECK(contains(fixture.record(0), "\"sequenceBreak\":\"first-launch\""));
}

TEST("graph capture: a collective kernel launched alone is counted, not recorded, and breaks the sequence") {
  SessionFixture fixture;
  fixture.addRange(1, 1);
  CHECK(fixture.launch());
  CHECK(!fixture.launch({}, 0, 0, "ncclKernel_AllGather_RING_LL_Sum_int8_t"));
  CHECK(fixture.launch());
  CHECK(contains(fixture.manifest(), "\"collective\":1"));
  CHECK(contains(fixture.record(1), "\"follows\":null,\"sequenceBreak\":\"uncaptured-launch\""));
}

// CUDA clones no graph with memory nodes, so CudaGraphs describes none of their launches (they count as
// graph-not-cloned); the session still records such nodes when a request holds them.
TEST("graph capture: graph memory nodes are tracked as device allocations, freed at the free node") {
  SessionFixture fixture;
  std::vector<std::uint8_t> graphMemory(kPage, 4);
  const auto address = reinterpret_cast<std::uint64_t>(graphMemory.data());
  KernelArguments arguments{address, 1};
  RecordedWork allocation;
  allocation.kind = WorkKind::Allocation;
  allocation.address = address;
  allocation.bytes = kPage;
  RecordedWork freed;
  freed.kind = WorkKind::Free;
  freed.address = address;
  GraphLaunchRequest request;
  request.nodes = {workNode(0x100, GraphNodeKind::Allocation, allocation, {}), kernelNode(0x101, arguments, {0}),
                   workNode(0x102, GraphNodeKind::Free, freed, {1})};
  HostGraphRunner runner;
  fixture.session->graphLaunch(request, runner);
  CHECK(graphMemory == std::vector<std::uint8_t>(kPage, 4));  // put back
  const std::string record = fixture.record(0);
  CHECK(contains(record, "\"memory\":[{\"base\":" + jsonAddress(address) + ",\"bytes\":65536,\"kind\":\"device\""));
  CHECK(contains(record, "{\"kind\":\"allocation\",\"address\":" + jsonAddress(address)));
  fixture.launch();  // the free node removed it
  CHECK(!contains(fixture.record(1), "\"memory\":[{\"base\":" + jsonAddress(address)));
}

TEST("graph capture: random graphs of kernel, memset and copy nodes are captured node by node, each node following the one before, and memory is put back") {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto random = [&](std::uint64_t below) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % below;
  };
  for (int round = 0; round < 6; ++round) {
    SessionFixture fixture;
    const std::uint64_t pages = 4, base = fixture.addRange(pages, static_cast<std::uint8_t>(round));
    for (std::uint64_t page = 0; page < pages; ++page) SessionFixture::fillPage(base, page, static_cast<std::uint8_t>(page * 11 + round));
    const std::size_t count = 3 + random(10);
    std::deque<KernelArguments> arguments;
    GraphLaunchRequest request;
    request.graph = 0x6000 + static_cast<std::uint64_t>(round);
    request.stream = 0x51;
    std::size_t kernels = 0;
    for (std::size_t index = 0; index < count; ++index) {
      std::vector<std::size_t> dependencies;
      for (std::size_t earlier = 0; earlier < index; ++earlier)
        if (random(3) == 0) dependencies.push_back(earlier);
      const std::uint64_t page = base + random(pages) * kPage;
      const std::uint64_t kind = index == 0 ? 0 : random(3);
      if (kind == 0) {
        arguments.emplace_back();  // in place: its params point at its own fields
        arguments.back().pointer = page;
        arguments.back().value = static_cast<int>(1 + random(50));
        request.nodes.push_back(kernelNode(0x100 + index, arguments.back(), dependencies));
        kernels += 1;
      } else if (kind == 1) {
        request.nodes.push_back(workNode(0x100 + index, GraphNodeKind::Memset,
                                         memsetWork(page, kPage, static_cast<std::uint32_t>(random(256))), dependencies));
      } else {
        request.nodes.push_back(workNode(0x100 + index, GraphNodeKind::Copy, copyWork(page, base + random(pages) * kPage, kPage),
                                         dependencies));
      }
    }
    HostGraphRunner runner;
    const auto before = bytesAt(base, pages * kPage);
    fixture.session->graphLaunch(request, runner);
    CHECK(bytesAt(base, pages * kPage) == before);
    CHECK_EQ(fixture.session->capturedLaunches(), kernels);
    CHECK_EQ(runner.kernels, static_cast<int>(kernels));
    const std::vector<std::size_t> order = graphTopologicalOrder(request.nodes);
    CHECK_EQ(order.size(), count);
    std::size_t sequence = 0;
    for (std::size_t position = 0; position < order.size(); ++position) {
      if (request.nodes[order[position]].kind != GraphNodeKind::Kernel) continue;
      const std::string record = fixture.record(static_cast<int>(sequence));
      CHECK(contains(record, ",\"nodeIndex\":" + std::to_string(position) + ",\"graphLaunch\":0}"));
      CHECK(contains(record, sequence == 0 ? std::string("\"follows\":null,\"sequenceBreak\":\"graph-launch\"")
                                           : "\"follows\":" + std::to_string(sequence - 1) + ",\"sequenceBreak\":null"));
      sequence += 1;
    }
  }
}
