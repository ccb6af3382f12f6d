// Which kernel nodes of graph launches the capture selects, over the fake device: each node counted
// as a launch in the topological order the nodes run in (ncu's node mode), so that a graph selects
// what the same kernels launched one by one would: the first node of each kernel in the default mode
// (a node not captured leaving its kernel wanted), --launch-skip / --launch-count over the nodes, and
// the kernel nodes of graphs the capture leaves untouched counted as launches seen but not captured.
#include <vector>

#include "capture/inject/graph-launch.hpp"
#include "capture/test/graph-test-nodes.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

/** Options selecting by the default mode (the first launch of each kernel), or by skip and count. */
CaptureOptions selectionOptions(std::optional<std::uint64_t> skip = std::nullopt,
                                std::optional<std::uint64_t> count = std::nullopt) {
  CaptureOptions options = everyLaunchOptions();
  options.everyLaunch = false;
  options.launchSkip = skip;
  options.launchCount = count;
  return options;
}

}  // namespace

TEST("graph selection: in the default mode a graph with two nodes of one kernel captures the first only, as launches one by one would") {
  SessionFixture fixture(selectionOptions());
  const std::uint64_t a = fixture.addRange(2, 1);
  KernelArguments first{a, 1}, second{a + kPage, 2};
  GraphLaunchRequest request;
  request.graph = 0x6000;
  request.nodes = {kernelNode(0x100, first, {}), kernelNode(0x101, second, {0})};
  HostGraphRunner runner;
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 2);  // both nodes ran, the first was captured
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
  CHECK(contains(fixture.record(0), "\"node\":\"0x100\",\"nodeIndex\":0,\"graphLaunch\":0"));
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 2);  // scale was captured: the graph runs untouched
  CHECK_EQ(runner.restores, 1);
  CHECK(!fixture.launch());
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
}

TEST("graph selection: in the default mode a node not captured, or a graph left untouched, leaves its kernel wanted for the next node") {
  SessionFixture fixture(selectionOptions());
  const std::uint64_t a = fixture.addRange(1, 1);
  std::vector<std::uint8_t> managed(kPage, 3);
  const auto managedBase = reinterpret_cast<std::uint64_t>(managed.data());
  fixture.session->managedAllocationAdded(managedBase, kPage);
  KernelArguments inManaged{managedBase, 1}, inDevice{a, 2};
  HostGraphRunner runner;
  GraphLaunchRequest untouched;  // a host node keeps it from running node by node
  untouched.nodes = {kernelNode(0x100, inDevice, {}), workNode(0x101, GraphNodeKind::Host, {}, {0})};
  fixture.session->graphLaunch(untouched, runner);
  CHECK_EQ(fixture.session->capturedLaunches(), 0u);
  GraphLaunchRequest request;
  request.graph = 0x6000;
  request.nodes = {kernelNode(0x200, inManaged, {}), kernelNode(0x201, inDevice, {0})};
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 2);
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
  CHECK(contains(fixture.record(0), "\"node\":\"0x201\",\"nodeIndex\":1,\"graphLaunch\":1"));
  CHECK(contains(fixture.manifest(), "\"managed-memory\":1"));
}

TEST("graph selection: the kernel nodes of graphs left untouched count toward --launch-skip and --launch-count, as ncu counts every kernel") {
  CaptureOptions options = selectionOptions(3, 1);
  options.kernelName = "scale";
  SessionFixture fixture(options);
  const std::uint64_t a = fixture.addRange(1, 1);
  KernelArguments arguments{a, 1};
  HostGraphRunner runner;
  GraphLaunchRequest hostNode;  // scale, a host node, another kernel (not matched), scale: two counted
  hostNode.nodes = {kernelNode(0x100, arguments, {}), workNode(0x101, GraphNodeKind::Host, {}, {0}),
                    kernelNode(0x102, arguments, {1}, "other"), kernelNode(0x103, arguments, {2})};
  fixture.session->graphLaunch(hostNode, runner);
  GraphLaunchRequest deviceLaunch;  // made for launches from the device: one counted
  deviceLaunch.deviceLaunchable = true;
  deviceLaunch.nodes = {kernelNode(0x100, arguments, {})};
  fixture.session->graphLaunch(deviceLaunch, runner);
  CHECK_EQ(runner.kernels, 0);
  CHECK_EQ(fixture.session->capturedLaunches(), 0u);
  // ncu's fourth launch of scale (--launch-skip 3 --launch-count 1) is the first launched alone.
  CHECK(fixture.launch());
  CHECK(!fixture.launch());
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
  const std::string manifest = fixture.manifest();
  CHECK(contains(manifest, "\"graph-host-node\":1"));
  CHECK(contains(manifest, "\"device-graph-launch\":1"));
}

TEST("graph selection: a graph left untouched while a stream is being captured counts its kernel nodes") {
  SessionFixture fixture(selectionOptions(1, 1));
  const std::uint64_t a = fixture.addRange(1, 1);
  KernelArguments arguments{a, 1};
  GraphLaunchRequest request;
  request.nodes = {kernelNode(0x100, arguments, {}), kernelNode(0x101, arguments, {0})};
  HostGraphRunner runner;
  fixture.session->streamCaptureBegan(0x99);
  fixture.session->graphLaunch(request, runner);  // the second node is selected, but cannot run now
  fixture.session->streamCaptureEnded(0x99);
  CHECK_EQ(runner.kernels, 0);
  CHECK(!fixture.launch());  // the third launch: past --launch-count
  CHECK_EQ(fixture.session->capturedLaunches(), 0u);
  CHECK(contains(fixture.manifest(), "\"stream-capture\":1"));
}

TEST("graph selection: --launch-skip and --launch-count count kernel nodes like launches; a graph with no selected node runs untouched") {
  CaptureOptions options = everyLaunchOptions();
  options.everyLaunch = false;
  options.kernelName = "scale";
  options.launchSkip = 1;
  options.launchCount = 1;
  SessionFixture fixture(options);
  const std::uint64_t a = fixture.addRange(3, 1);
  KernelArguments nodes[3] = {{a, 1}, {a + kPage, 2}, {a + 2 * kPage, 3}};
  GraphLaunchRequest request;
  request.graph = 0x6000;
  request.nodes = {kernelNode(0x100, nodes[0], {}), kernelNode(0x101, nodes[1], {0}), kernelNode(0x102, nodes[2], {1})};
  HostGraphRunner runner;
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 3);  // every node ran, one was captured
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
  CHECK(contains(fixture.record(0), "\"node\":\"0x101\",\"nodeIndex\":1,\"graphLaunch\":0"));
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 3);  // nothing left to select: untouched
  CHECK_EQ(runner.restores, 1);
  CHECK_EQ(fixture.session->capturedLaunches(), 1u);
}

