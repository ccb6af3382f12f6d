// A graph launch of the capture session: whether its nodes can run one at a time, the selection of
// its kernel nodes (counted like launches, in the order they run, whether the graph runs node by node
// or untouched), and the run of its nodes between keeping the memory they can reach and putting it back.
#include "capture/inject/capture-session.hpp"
#include "capture/inject/collective-library.hpp"
#include "capture/inject/graph-launch.hpp"

namespace kreplay::capture {

namespace {

/** The reason a node other than a kernel keeps its graph from running node by node, if it does. */
std::optional<NotCapturedReason> nodeReason(const GraphNode& node) {
  switch (node.kind) {
    case GraphNodeKind::ChildGraph:
      return NotCapturedReason::GraphChildGraph;
    case GraphNodeKind::Conditional:
      return NotCapturedReason::GraphConditionalNode;
    case GraphNodeKind::Host:
      return NotCapturedReason::GraphHostNode;
    case GraphNodeKind::Event:
      return NotCapturedReason::GraphEventNode;
    case GraphNodeKind::Unsupported:
      return NotCapturedReason::GraphLaunch;
    default:
      return std::nullopt;
  }
}

}  // namespace

bool CaptureSession::graphNodesRunAlone(const GraphLaunchRequest& request, const std::vector<std::size_t>& order,
                                        std::vector<std::string>& kernels) {
  bool alone = true;
  // A launch counted once for the whole graph (no clone, an untracked change, a device launch) counts no node again.
  const bool countedOnce = !request.notCloned.empty() || !request.untrackedChange.empty() || request.deviceLaunchable;
  if (!request.notCloned.empty()) {
    notCaptured(NotCapturedReason::GraphNotCloned, "",
                "a graph launch of an executable graph the capture could not copy: " + request.notCloned);
    alone = false;
  } else if (!request.untrackedChange.empty()) {
    notCaptured(NotCapturedReason::GraphUntrackedChange, "",
                "a graph launch of an executable graph changed by " + request.untrackedChange +
                    ", which the capture could not follow");
    alone = false;
  } else if (request.deviceLaunchable) {
    notCaptured(NotCapturedReason::DeviceGraphLaunch, "", "a graph instantiated for launches from the device");
    alone = false;
  }
  for (const std::size_t index : order) {
    const GraphNode& node = request.nodes[index];
    const auto reason = nodeReason(node);
    const auto collective = node.kind == GraphNodeKind::Kernel ? collectiveLaunch(node.launch) : std::nullopt;
    // A collective's kernel is not counted by the selection, as when launched alone (prepare).
    if (node.kind == GraphNodeKind::Kernel && !collective) kernels.push_back(node.launch.function);
    if (countedOnce || (!reason && !collective)) continue;
    notCaptured(reason.value_or(NotCapturedReason::Collective), node.launch.function,
                "a node of a graph launch, which runs untouched" + (collective ? ": " + *collective : ""));
    alone = false;
  }
  return alone;
}

void CaptureSession::graphLaunch(const GraphLaunchRequest& request, GraphNodeRunner& runner) {
  if (!inOwner()) return;
  std::unique_lock<std::recursive_mutex> lock(mutex_);
  const std::uint64_t graphLaunch = graphLaunches_++;
  if (stopped_ || !profiling_) {
    launchNotCaptured();
    return;
  }
  // The selection counts the graph's kernel nodes in the order they run, like launches: when the nodes
  // run one at a time, each is selected as it runs (prepare), as if launched alone; when the graph runs
  // untouched, its kernel nodes are counted as launches seen but not captured.
  const std::vector<std::size_t> order = graphTopologicalOrder(request.nodes);
  std::vector<std::string> kernels;
  const bool alone = graphNodesRunAlone(request, order, kernels);
  if (!alone || !selection_.selectsAnyOf(kernels)) {
    selection_.countLaunches(kernels);
    launchNotCaptured();
    return;
  }
  if (!capturingStreams_.empty() || device_.streamCapturing(request.stream)) {
    notCaptured(NotCapturedReason::StreamCapture, "", "a graph launch while a stream is being captured into a graph");
    selection_.countLaunches(kernels);
    launchNotCaptured();
    return;
  }
  graphNode_ = GraphNodePlace{request.graph, 0, 0, graphLaunch};
  graphStarts_ = true;
  if (!runGraphNodes(request, order, runner)) selection_.countLaunches(kernels);
  graphNode_.reset();
  launchNotCaptured();  // the program's own launch runs next: it may write any memory
}

bool CaptureSession::runGraphNodes(const GraphLaunchRequest& request, const std::vector<std::size_t>& order,
                                   GraphNodeRunner& runner) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (const auto& [base, range] : tracked_.allocations()) spans.emplace_back(base, range.bytes);
  for (const auto& [module, globals] : moduleGlobals_)
    for (const std::uint64_t base : globals) spans.emplace_back(base, tracked_.global(base).bytes);
  for (const GraphNode& node : request.nodes)
    if (node.kind == GraphNodeKind::Allocation && tracked_.allocations().count(node.work.address) == 0)
      spans.emplace_back(node.work.address, node.work.bytes);
  try {
    device_.synchronize();
    runner.preserve(spans);
  } catch (const std::exception& error) {
    sayOnce("graph preserve", std::string("a graph launch runs untouched: its memory could not be kept aside (") +
                                  error.what() + ")");
    return false;
  }
  std::uint64_t position = 0;
  try {
    for (const std::size_t index : order) {
      const GraphNode& node = request.nodes[index];
      RecordedWork work = node.work;
      work.stream = request.stream;
      switch (node.kind) {
        case GraphNodeKind::Kernel: {
          LaunchRequest launch = node.launch;
          launch.stream = request.stream;
          launch.context = request.context;
          graphNode_->node = node.handle;
          graphNode_->nodeIndex = position;
          PendingLaunchHandle pending = beforeLaunch(launch);
          const bool captured = pending != nullptr;
          runner.runKernel(launch);
          afterLaunch(std::move(pending), true);
          if (captured && !stopped_) graphStarts_ = false;
          break;
        }
        case GraphNodeKind::Memset:
          memsetIssued(work.stream, work.address, work.bytes, work.value, work.elementBytes);
          runner.runWork(work);
          break;
        case GraphNodeKind::Copy:
          copyIssued(work.stream, work.address, work.source, work.bytes);
          runner.runWork(work);
          break;
        case GraphNodeKind::Allocation:
          if (tracked_.allocations().count(work.address) == 0) allocationAdded(work.address, work.bytes, MemoryKind::Device);
          break;
        case GraphNodeKind::Free:
          allocationRemoved(work.address);
          break;
        default:
          break;
      }
      position += 1;
    }
  } catch (const std::exception& error) {
    failed("a graph's node", error.what());
  }
  try {
    runner.restore();
  } catch (const std::exception& error) {
    stop(std::string("putting back the memory of a graph launch after running its nodes failed (") + error.what() +
         "); the program's results may differ from a run without capture");
  }
  return true;
}

}  // namespace kreplay::capture
