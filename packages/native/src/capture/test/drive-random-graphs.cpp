#include "capture/test/drive-random-graphs.hpp"

#include <string>
#include <vector>

#include "capture/json-text.hpp"
#include "capture/test/random-graph-plan.hpp"
#include "capture/test/synthetic-images.hpp"
#include "capture/test/traced-cuda.hpp"

namespace kreplay::capture::test {

namespace {

constexpr std::size_t kMappingBytes = 2u << 20;            // the fake's granularity
constexpr std::uint64_t kMappingAddress = 0x3f7000000000;  // a hint: where replays map it too
constexpr unsigned kBlock = 256;

std::string hashesText(const std::vector<std::uint64_t>& hashes) {
  std::string text = "[";
  for (std::size_t index = 0; index < hashes.size(); ++index)
    text += (index == 0 ? "" : ",") + jsonHash(hashes[index]);
  return text + "]";
}

/** One graph of the plan made on the fake libcuda: its executable graph and its nodes' handles. */
struct MadeGraph {
  void* graph = nullptr;
  void* exec = nullptr;
  std::vector<void*> nodes;  // node by node only
};

class RandomGraphProgram {
 public:
  RandomGraphProgram(TracedCuda& cuda, std::uint64_t arena, void* function, std::vector<void*> streams)
      : cuda_(cuda), arena_(arena), function_(function), streams_(std::move(streams)) {}

  /** The kernel node parameters of `scale` over `bytes` at arena offset `offset` (pointers into `values`). */
  KernelNodeParams kernel(std::size_t offset, std::size_t bytes) {
    pointer_ = arena_ + offset;
    count_ = static_cast<int>(bytes / 4);
    arguments_[0] = &pointer_;
    arguments_[1] = &count_;
    const unsigned grid = static_cast<unsigned>((bytes / 4 + kBlock - 1) / kBlock);
    return KernelNodeParams{function_, grid, 1, 1, kBlock, 1, 1, 0, arguments_, nullptr, nullptr, nullptr};
  }

  MemsetNodeParams memset(const RandomNode& node) const {
    return MemsetNodeParams{arena_ + node.destination,      node.bytes, node.value, node.elementBytes,
                            node.bytes / node.elementBytes, 1};
  }

  Memcpy3D copy(const RandomNode& node) const {
    Memcpy3D params{};
    params.srcMemoryType = params.dstMemoryType = 2;  // CU_MEMORYTYPE_DEVICE
    params.srcDevice = arena_ + node.source;
    params.dstDevice = arena_ + node.destination;
    params.srcPitch = params.dstPitch = params.WidthInBytes = node.bytes;
    params.Height = params.Depth = 1;
    return params;
  }

  /** A graph of `nodes` built node by node (not instantiated). */
  MadeGraph nodeByNode(const std::vector<RandomNode>& nodes) {
    MadeGraph made;
    cuda_.check(cuda_.cuGraphCreate(&made.graph, 0));
    for (const RandomNode& node : nodes) {
      std::vector<void*> dependencies;
      for (const std::size_t index : node.dependencies) dependencies.push_back(made.nodes[index]);
      void* added = nullptr;
      if (node.kind == RandomNodeKind::Kernel) {
        const KernelNodeParams params = kernel(node.destination, node.bytes);
        cuda_.check(cuda_.cuGraphAddKernelNode_v2(&added, made.graph, dependencies.data(),
                                                  dependencies.size(), &params));
      } else if (node.kind == RandomNodeKind::Memset) {
        const MemsetNodeParams params = memset(node);
        cuda_.check(cuda_.cuGraphAddMemsetNode(&added, made.graph, dependencies.data(), dependencies.size(),
                                               &params, nullptr));
      } else {
        const Memcpy3D params = copy(node);
        cuda_.check(cuda_.cuGraphAddMemcpyNode(&added, made.graph, dependencies.data(), dependencies.size(),
                                               &params, nullptr));
      }
      made.nodes.push_back(added);
    }
    return made;
  }

  /** Each node issued on its stream in plan order; a node waits on the events after its dependencies on other
   * streams. */
  MadeGraph captured(const RandomGraph& plan) {
    void* origin = streams_[0];
    std::vector<void*> events(plan.nodes.size() + 1);
    for (void*& event : events) cuda_.check(cuda_.cuEventCreate(&event, 0));
    void* fork = events.back();
    std::vector<bool> joined(plan.streams, false);
    joined[0] = true;
    cuda_.beginCapture(origin);
    cuda_.recordEvent(fork, origin);
    for (std::size_t index = 0; index < plan.nodes.size(); ++index) {
      const RandomNode& node = plan.nodes[index];
      void* stream = streams_[node.stream];
      if (!joined[node.stream]) cuda_.waitEvent(stream, fork);
      joined[node.stream] = true;
      for (const std::size_t dependency : node.dependencies)
        if (plan.nodes[dependency].stream != node.stream) cuda_.waitEvent(stream, events[dependency]);
      if (node.kind == RandomNodeKind::Kernel) {
        const KernelNodeParams params = kernel(node.destination, node.bytes);
        cuda_.launch(function_, "scale", params.gridDimX, kBlock, stream, params.kernelParams);
      } else if (node.kind == RandomNodeKind::Memset) {
        cuda_.memsetAsync(arena_ + node.destination, node.value, node.elementBytes,
                          node.bytes / node.elementBytes, stream);
      } else {
        cuda_.copyAsync(arena_ + node.destination, arena_ + node.source, node.bytes, stream);
      }
      cuda_.recordEvent(events[index], stream);
    }
    for (std::size_t stream = 1; stream < plan.streams; ++stream) {
      if (!joined[stream]) continue;
      void* join = nullptr;
      cuda_.check(cuda_.cuEventCreate(&join, 0));
      cuda_.recordEvent(join, streams_[stream]);
      cuda_.waitEvent(origin, join);
    }
    MadeGraph made;
    made.graph = cuda_.endCapture(origin);
    return made;
  }

  std::vector<unsigned char> readArena() {
    std::vector<unsigned char> arena(kRandomGraphArenaBytes);
    cuda_.copy(reinterpret_cast<std::uint64_t>(arena.data()), arena_, arena.size());
    return arena;
  }

 private:
  TracedCuda& cuda_;
  std::uint64_t arena_;
  void* function_;
  std::vector<void*> streams_;
  std::uint64_t pointer_ = 0;
  int count_ = 0;
  void* arguments_[2] = {};
};

}  // namespace

int driveRandomGraphs(const char* captureLibrary, const char* fakeCupti, const char* fakeCuda,
                      std::uint64_t seed, std::ostream& out) {
  TracedCuda cuda(fakeCuda, fakeCupti, captureLibrary, out);
  if (!cuda.opened()) return 1;
  const RandomGraphPlan plan = randomGraphPlan(seed);

  cuda.check(cuda.cuInit(0));
  void* context = nullptr;
  cuda.check(cuda.cuDevicePrimaryCtxRetain(&context, 0));
  cuda.check(cuda.cuCtxSetCurrent(context));
  const Bytes image = syntheticCubin().bytes;
  void* module = cuda.loadModule(image.data(), image.size());
  void* scale = nullptr;
  cuda.check(cuda.cuModuleGetFunction(&scale, module, "scale"));

  std::uint64_t arena = 0;
  unsigned long long handle = 0;
  const unsigned char properties[64] = {};
  const struct {
    int type, id, flags;
  } access{1, 0, 3};  // CU_MEM_LOCATION_TYPE_DEVICE 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE
  cuda.check(cuda.cuMemAddressReserve(&arena, kMappingBytes, 0, kMappingAddress, 0));
  cuda.check(cuda.cuMemCreate(&handle, kMappingBytes, properties, 0));
  cuda.mapped(arena, kMappingBytes, handle);
  cuda.check(cuda.cuMemSetAccess(arena, kMappingBytes, &access, 1));
  cuda.copy(arena, reinterpret_cast<std::uint64_t>(plan.initial.data()), plan.initial.size());
  std::vector<void*> streams(3);
  for (void*& stream : streams) cuda.check(cuda.cuStreamCreate(&stream, 1));

  RandomGraphProgram program(cuda, arena, scale, streams);
  std::vector<unsigned char> reference = plan.initial;
  std::string graphs, launches;
  for (std::size_t graphIndex = 0; graphIndex < plan.graphs.size(); ++graphIndex) {
    const RandomGraph& graph = plan.graphs[graphIndex];
    MadeGraph made = graph.captured ? program.captured(graph) : program.nodeByNode(graph.nodes);
    made.exec = cuda.instantiate(made.graph);
    std::vector<RandomNode> nodes = graph.nodes;  // as the executable graph holds them
    const std::vector<std::vector<std::size_t>> edges = graphEdges(graph);
    std::string kinds;
    for (const RandomNode& node : nodes)
      kinds += std::string(kinds.empty() ? "" : ",") + (node.kind == RandomNodeKind::Kernel   ? "\"kernel\""
                                                        : node.kind == RandomNodeKind::Memset ? "\"memset\""
                                                                                              : "\"copy\"");
    graphs += std::string(graphs.empty() ? "" : ",") +
              "{\"graph\":" + jsonAddress(reinterpret_cast<std::uint64_t>(made.graph)) +
              ",\"captured\":" + (graph.captured ? "true" : "false") +
              ",\"streams\":" + std::to_string(graph.streams) + ",\"nodes\":[" + kinds + "]}";
    for (std::size_t launchIndex = 0; launchIndex < graph.launches.size(); ++launchIndex) {
      const RandomLaunch& launch = graph.launches[launchIndex];
      for (const RandomUpload& upload : launch.uploads) {
        cuda.copy(arena + upload.offset, reinterpret_cast<std::uint64_t>(upload.bytes.data()),
                  upload.bytes.size());
        std::copy(upload.bytes.begin(), upload.bytes.end(),
                  reference.begin() + static_cast<std::ptrdiff_t>(upload.offset));
      }
      if (launch.updates) {
        nodes = launch.updatedNodes;
        cuda.updateExec(made.exec, program.nodeByNode(nodes).graph);
      }
      for (const auto& [index, node] :
           launch.nodeSets) {  // with the nodes of the graph it was instantiated from
        nodes[index] = node;
        if (node.kind == RandomNodeKind::Memset)
          cuda.setMemsetNode(made.exec, made.nodes[index], program.memset(node));
        else
          cuda.setMemcpyNode(made.exec, made.nodes[index], program.copy(node));
      }
      if (launch.shrinks) {
        nodes[launch.shrunkNode].bytes = launch.shrunkBytes;
        const KernelNodeParams params =
            program.kernel(nodes[launch.shrunkNode].destination, launch.shrunkBytes);
        cuda.setKernelNode(made.exec, made.nodes[launch.shrunkNode], params);
      }
      cuda.launchGraph(made.exec, streams[0]);
      cuda.check(cuda.cuStreamSynchronize(streams[0]));
      const std::vector<ReferenceKernel> kernels = runOnHost(nodes, edges, reference);
      const std::vector<unsigned char> device = program.readArena();
      std::string kernelsText;
      for (const ReferenceKernel& kernel : kernels)
        kernelsText +=
            std::string(kernelsText.empty() ? "" : ",") + "{\"node\":" + std::to_string(kernel.node) +
            ",\"position\":" + std::to_string(kernel.position) + ",\"before\":" + hashesText(kernel.before) +
            ",\"after\":" + hashesText(kernel.after) + "}";
      launches += std::string(launches.empty() ? "" : ",") + "{\"graph\":" + std::to_string(graphIndex) +
                  ",\"launch\":" + std::to_string(launchIndex) +
                  ",\"updated\":" + (launch.updates ? "true" : "false") +
                  ",\"nodesSet\":" + std::to_string(launch.nodeSets.size()) +
                  ",\"shrunkNode\":" + (launch.shrinks ? std::to_string(launch.shrunkNode) : "null") +
                  ",\"digest\":" + hashesText(arenaPageHashes(device)) +
                  ",\"matchesReference\":" + (device == reference ? "true" : "false") + ",\"kernels\":[" +
                  kernelsText + "]}";
    }
  }
  out << "{\"initialized\":" << cuda.initialized() << ",\"ok\":" << (cuda.ok() ? "true" : "false")
      << ",\"arena\":" << arena << ",\"graphs\":[" << graphs << "],\"launches\":[" << launches << "]}"
      << std::endl;
  return 0;  // exit: the library's atexit handler drains the writer and marks the capture complete
}

}  // namespace kreplay::capture::test
