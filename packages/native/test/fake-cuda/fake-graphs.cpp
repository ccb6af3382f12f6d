// CUDA graphs in the fake libcuda (see fake-graphs.hpp). A graph owns its nodes in creation order;
// cuGraphInstantiate clones it into an executable graph that runs the nodes in one topological order
// (Kahn's, ties broken by creation order) as one piece of work on the stream. Kernel nodes hold copies
// of their parameter values, as CUDA's do. Graph memory nodes allocate when they are added and free
// with the last graph that holds them. Stream capture turns kernels, memsets, copies, stream-ordered
// allocations and frees into nodes, and follows events across streams (fork and join).
#include "fake-graphs.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "fake-device-memory.hpp"
#include "fake-streams.hpp"

using kreplay_fake::CUdeviceptr;
using kreplay_fake::CUresult;

namespace {

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kStreamCaptureUnsupported = 900;
constexpr CUresult kStreamCaptureInvalidated = 901;
constexpr CUresult kStreamCaptureWrongThread = 908;  // ending a capture on a stream that did not begin it
constexpr CUresult kGraphExecUpdateFailure = 910;

// CUgraphNodeType
constexpr int kKernelNode = 0, kMemcpyNode = 1, kMemsetNode = 2, kHostNode = 3, kChildGraphNode = 4,
              kEmptyNode = 5, kEventWaitNode = 6, kEventRecordNode = 7, kMemAllocNode = 10, kMemFreeNode = 11;
// CUmemorytype
constexpr int kHostMemory = 1;

}  // namespace

extern "C" {

// cuda.h's structures, field for field.
struct CUDA_KERNEL_NODE_PARAMS_v1 {
  CUfunc_st* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct CUDA_KERNEL_NODE_PARAMS_v2 {
  CUfunc_st* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;  // CUkernel: the fake takes functions only
  void* ctx;
};
struct CUDA_MEMSET_NODE_PARAMS {
  CUdeviceptr dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};
struct CUDA_MEMCPY3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct CUDA_HOST_NODE_PARAMS {
  void (*fn)(void*);
  void* userData;
};
struct CUDA_MEM_ALLOC_NODE_PARAMS {
  unsigned char poolProps[88];  // CUmemPoolProps
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  CUdeviceptr dptr;
};
struct CUDA_GRAPH_INSTANTIATE_PARAMS {
  unsigned long long flags;
  CUstream_st* hUploadStream;
  struct CUgraphNode_st* hErrNode_out;
  int result_out;
};
struct CUgraphExecUpdateResultInfo {
  int result;
  struct CUgraphNode_st* errorNode;
  struct CUgraphNode_st* errorFromNode;
};

}  // extern "C"

static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS_v2) == 72, "cuda.h's CUDA_KERNEL_NODE_PARAMS_v2");
static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == 40, "cuda.h's CUDA_MEMSET_NODE_PARAMS");
static_assert(sizeof(CUDA_MEMCPY3D) == 200, "cuda.h's CUDA_MEMCPY3D");
static_assert(sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == 120, "cuda.h's CUDA_MEM_ALLOC_NODE_PARAMS");

namespace {

/** Memory of a graph memory node: freed when the last graph (or clone, or executable graph) drops it. */
struct GraphAllocation {
  CUdeviceptr pointer = 0;
  ~GraphAllocation();
};

std::mutex graphAllocationsMutex;
std::set<CUdeviceptr> graphAllocations;

GraphAllocation::~GraphAllocation() {
  {
    std::lock_guard<std::mutex> lock(graphAllocationsMutex);
    graphAllocations.erase(pointer);
  }
  kreplay_fake::freeDeviceMemory(pointer);
}

}  // namespace

struct CUgraph_st;

struct CUgraphNode_st {
  int type = kEmptyNode;
  std::size_t index = 0;  // in its graph's creation order
  std::vector<CUgraphNode_st*> dependencies;
  // kernel
  CUfunc_st* function = nullptr;
  kreplay_fake::Dim3 grid, block;
  unsigned sharedBytes = 0;
  kreplay_fake::ParameterValues values;
  std::vector<void*> valuePointers;  // what cuGraphKernelNodeGetParams hands out
  // memset, memcpy, host, memory nodes, events
  CUDA_MEMSET_NODE_PARAMS memset{};
  CUDA_MEMCPY3D copy{};
  CUDA_HOST_NODE_PARAMS host{};
  CUDA_MEM_ALLOC_NODE_PARAMS allocation{};
  std::shared_ptr<GraphAllocation> allocationOwner;
  CUdeviceptr freed = 0;
  CUevent_st* event = nullptr;
  std::unique_ptr<CUgraph_st> child;
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;
  /** The node of `graph` each node handle the program may pass stands for (its graph's, and updates'). */
  std::map<const CUgraphNode_st*, CUgraphNode_st*> nodeFor;
};

namespace {

std::unique_ptr<CUgraph_st> cloneGraph(const CUgraph_st& graph);

void copyNode(CUgraphNode_st& to, const CUgraphNode_st& from) {
  to.type = from.type;
  to.function = from.function;
  to.grid = from.grid;
  to.block = from.block;
  to.sharedBytes = from.sharedBytes;
  to.values = from.values;
  to.memset = from.memset;
  to.copy = from.copy;
  to.host = from.host;
  to.allocation = from.allocation;
  to.allocationOwner = from.allocationOwner;
  to.freed = from.freed;
  to.event = from.event;
  to.child = from.child ? cloneGraph(*from.child) : nullptr;
}

std::unique_ptr<CUgraph_st> cloneGraph(const CUgraph_st& graph) {
  auto clone = std::make_unique<CUgraph_st>();
  for (const auto& node : graph.nodes) {
    auto copy = std::make_unique<CUgraphNode_st>();
    copyNode(*copy, *node);
    copy->index = node->index;
    for (const CUgraphNode_st* dependency : node->dependencies)
      copy->dependencies.push_back(clone->nodes[dependency->index].get());
    clone->nodes.push_back(std::move(copy));
  }
  return clone;
}

/** The nodes in Kahn's topological order, ready nodes taken in creation order. */
std::vector<const CUgraphNode_st*> topologicalOrder(const CUgraph_st& graph) {
  std::vector<std::size_t> waiting(graph.nodes.size(), 0);
  std::vector<std::vector<std::size_t>> dependents(graph.nodes.size());
  for (const auto& node : graph.nodes) {
    waiting[node->index] = node->dependencies.size();
    for (const CUgraphNode_st* dependency : node->dependencies) dependents[dependency->index].push_back(node->index);
  }
  std::set<std::size_t> ready;
  for (std::size_t index = 0; index < waiting.size(); ++index)
    if (waiting[index] == 0) ready.insert(index);
  std::vector<const CUgraphNode_st*> order;
  while (!ready.empty()) {
    const std::size_t index = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(graph.nodes[index].get());
    for (const std::size_t dependent : dependents[index])
      if (--waiting[dependent] == 0) ready.insert(dependent);
  }
  return order;
}

unsigned char* copyAddress(int memoryType, const void* host, CUdeviceptr device, std::size_t x, std::size_t y,
                           std::size_t z, std::size_t pitch, std::size_t height) {
  auto* base = static_cast<unsigned char*>(memoryType == kHostMemory ? const_cast<void*>(host)
                                                                       : reinterpret_cast<void*>(device));
  return base + x + (y + z * height) * pitch;
}

void runCopy(const CUDA_MEMCPY3D& copy) {
  const std::size_t height = std::max<std::size_t>(copy.Height, 1), depth = std::max<std::size_t>(copy.Depth, 1);
  for (std::size_t z = 0; z < depth; ++z)
    for (std::size_t y = 0; y < height; ++y)
      std::memmove(copyAddress(copy.dstMemoryType, copy.dstHost, copy.dstDevice, copy.dstXInBytes, copy.dstY + y,
                               copy.dstZ + z, copy.dstPitch, copy.dstHeight),
                   copyAddress(copy.srcMemoryType, copy.srcHost, copy.srcDevice, copy.srcXInBytes, copy.srcY + y,
                               copy.srcZ + z, copy.srcPitch, copy.srcHeight),
                   copy.WidthInBytes);
}

void runMemset(const CUDA_MEMSET_NODE_PARAMS& memset) {
  for (std::size_t row = 0; row < std::max<std::size_t>(memset.height, 1); ++row) {
    auto* at = reinterpret_cast<unsigned char*>(memset.dst + row * memset.pitch);
    for (std::size_t element = 0; element < memset.width; ++element)
      std::memcpy(at + element * memset.elementSize, &memset.value, memset.elementSize);  // little-endian
  }
}

/** Work of one graph launch, taken when it is enqueued: later updates do not change it. */
struct LaunchedGraph {
  std::unique_ptr<CUgraph_st> graph;
  std::map<const CUgraphNode_st*, std::uint64_t> eventGenerations;
};

void noteEventGenerations(const CUgraph_st& graph, LaunchedGraph& launched) {
  for (const auto& node : graph.nodes) {
    if (node->type == kEventRecordNode) {
      std::lock_guard<std::mutex> lock(node->event->mutex);
      launched.eventGenerations[node.get()] = ++node->event->recorded;
    } else if (node->type == kEventWaitNode) {
      std::lock_guard<std::mutex> lock(node->event->mutex);
      launched.eventGenerations[node.get()] = node->event->recorded;
    } else if (node->type == kChildGraphNode) {
      noteEventGenerations(*node->child, launched);
    }
  }
}

void runGraph(const CUgraph_st& graph, const LaunchedGraph& launched) {
  for (const CUgraphNode_st* node : topologicalOrder(graph)) {
    switch (node->type) {
      case kKernelNode:
        kreplay_fake::runKernel(*node->function->kernel, node->values, node->grid, node->block);
        break;
      case kMemsetNode:
        runMemset(node->memset);
        break;
      case kMemcpyNode:
        runCopy(node->copy);
        break;
      case kHostNode:
        node->host.fn(node->host.userData);
        break;
      case kChildGraphNode:
        runGraph(*node->child, launched);
        break;
      case kEventRecordNode:
        node->event->complete(launched.eventGenerations.at(node));
        break;
      case kEventWaitNode:
        node->event->waitFor(launched.eventGenerations.at(node));
        break;
      default:  // empty nodes; graph memory stays allocated while its graph lives
        break;
    }
  }
}

CUgraphNode_st* addNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                        std::size_t count, int type) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->index = graph->nodes.size();
  node->dependencies.assign(dependencies, dependencies + count);
  *added = node.get();
  graph->nodes.push_back(std::move(node));
  return *added;
}

template <class Params>
CUresult setKernelNode(CUgraphNode_st& node, const Params& params) {
  if (params.func == nullptr) return kInvalidValue;
  bool valid = false;
  kreplay_fake::ParameterValues values =
      kreplay_fake::launchValues(*params.func->kernel, params.kernelParams, params.extra, valid);
  if (!valid) return kInvalidValue;
  node.function = params.func;
  node.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
  node.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
  node.sharedBytes = params.sharedMemBytes;
  node.values = std::move(values);
  return kSuccess;
}

template <class Params>
void getKernelNode(CUgraphNode_st& node, Params& params) {
  node.valuePointers.clear();
  for (auto& value : node.values) node.valuePointers.push_back(value.data());
  params.func = node.function;
  params.gridDimX = node.grid.x;
  params.gridDimY = node.grid.y;
  params.gridDimZ = node.grid.z;
  params.blockDimX = node.block.x;
  params.blockDimY = node.block.y;
  params.blockDimZ = node.block.z;
  params.sharedMemBytes = node.sharedBytes;
  params.kernelParams = node.valuePointers.data();
  params.extra = nullptr;
}

/** Fills a "how many, and which" answer: the count when `into` is null, else up to `*count` entries. */
template <class Item>
void listInto(const std::vector<Item>& items, Item* into, std::size_t* count) {
  if (into != nullptr) {
    for (std::size_t index = 0; index < *count; ++index) into[index] = index < items.size() ? items[index] : Item{};
    *count = std::min(*count, items.size());
  } else {
    *count = items.size();
  }
}

// Stream capture: one capture per cuStreamBeginCapture, joined by other streams through events.
struct StreamCapture {
  CUstream_st* origin = nullptr;
  std::unique_ptr<CUgraph_st> graph = std::make_unique<CUgraph_st>();
  bool invalidated = false;
  std::set<CUstream_st*> streams;
};

std::mutex capturesMutex;
std::uint64_t lastCaptureId = 0;
std::map<std::uint64_t, StreamCapture> captures;

/** Adds a node of `type` after the stream's captured work, or returns nullptr when it is not capturing. */
CUgraphNode_st* captureNode(CUstream_st* stream, int type) {
  if (stream == nullptr || stream->capture == 0) return nullptr;
  StreamCapture& capture = captures.at(stream->capture);
  CUgraphNode_st* node = nullptr;
  addNode(&node, capture.graph.get(), stream->captureDependencies.data(), stream->captureDependencies.size(), type);
  stream->captureDependencies = {node};
  return node;
}

void endCapture(std::uint64_t id) {
  StreamCapture& capture = captures.at(id);
  for (CUstream_st* stream : capture.streams) {
    stream->capture = 0;
    stream->captureDependencies.clear();
  }
  captures.erase(id);
}

}  // namespace

namespace kreplay_fake {

bool captureKernel(CUstream_st* stream, CUfunc_st* function, Dim3 grid, Dim3 block, unsigned sharedBytes,
                   ParameterValues values) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  CUgraphNode_st* node = captureNode(stream, kKernelNode);
  if (node == nullptr) return false;
  node->function = function;
  node->grid = grid;
  node->block = block;
  node->sharedBytes = sharedBytes;
  node->values = std::move(values);
  return true;
}

bool captureMemset(CUstream_st* stream, CUdeviceptr destination, unsigned value, unsigned elementBytes,
                   std::size_t count) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  CUgraphNode_st* node = captureNode(stream, kMemsetNode);
  if (node == nullptr) return false;
  node->memset = {destination, count * elementBytes, value, elementBytes, count, 1};
  return true;
}

bool captureCopy(CUstream_st* stream, CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  CUgraphNode_st* node = captureNode(stream, kMemcpyNode);
  if (node == nullptr) return false;
  node->copy = CUDA_MEMCPY3D{};
  node->copy.srcMemoryType = node->copy.dstMemoryType = 2;  // CU_MEMORYTYPE_DEVICE
  node->copy.srcDevice = source;
  node->copy.dstDevice = destination;
  node->copy.srcPitch = node->copy.dstPitch = bytes;
  node->copy.WidthInBytes = bytes;
  node->copy.Height = node->copy.Depth = 1;
  return true;
}

bool captureAllocation(CUstream_st* stream, CUdeviceptr* pointer, std::size_t bytes, CUresult& result) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  if (stream == nullptr || stream->capture == 0) return false;
  auto owner = std::make_shared<GraphAllocation>();
  result = allocateDeviceMemory(&owner->pointer, bytes);
  if (result != kSuccess) return true;
  {
    std::lock_guard<std::mutex> allocations(graphAllocationsMutex);
    graphAllocations.insert(owner->pointer);
  }
  CUgraphNode_st* node = captureNode(stream, kMemAllocNode);
  node->allocation.bytesize = bytes;
  node->allocation.dptr = owner->pointer;
  node->allocationOwner = std::move(owner);
  *pointer = node->allocation.dptr;
  return true;
}

bool captureFree(CUstream_st* stream, CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  CUgraphNode_st* node = captureNode(stream, kMemFreeNode);
  if (node == nullptr) return false;
  node->freed = pointer;
  return true;
}

bool captureEventRecord(CUstream_st* stream, CUevent_st* event) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  if (stream == nullptr || stream->capture == 0) return false;
  event->capture = stream->capture;
  event->captureDependencies = stream->captureDependencies;
  return true;
}

bool captureEventWait(CUstream_st* stream, CUevent_st* event) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  if (stream == nullptr || event->capture == 0 || captures.count(event->capture) == 0) return false;
  if (stream->capture == 0) {
    stream->capture = event->capture;
    stream->captureDependencies = event->captureDependencies;
    captures.at(event->capture).streams.insert(stream);
  } else {
    for (CUgraphNode_st* node : event->captureDependencies)
      if (std::find(stream->captureDependencies.begin(), stream->captureDependencies.end(), node) ==
          stream->captureDependencies.end())
        stream->captureDependencies.push_back(node);
  }
  return true;
}

bool invalidateCaptureOnSynchronize(CUstream_st* stream) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  if (stream == nullptr || stream->capture == 0) return false;
  captures.at(stream->capture).invalidated = true;
  return true;
}

bool isGraphAllocation(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(graphAllocationsMutex);
  return graphAllocations.count(pointer) != 0;
}

}  // namespace kreplay_fake

extern "C" {

CUresult cuGraphCreate(CUgraph_st** graph, unsigned) {
  *graph = new CUgraph_st();
  return kSuccess;
}
CUresult cuGraphDestroy(CUgraph_st* graph) {
  delete graph;
  return kSuccess;
}
CUresult cuGraphClone(CUgraph_st** clone, CUgraph_st* graph) {
  *clone = cloneGraph(*graph).release();
  return kSuccess;
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                 std::size_t count, const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  CUgraphNode_st node;
  node.type = kKernelNode;
  if (const CUresult result = setKernelNode(node, *params); result != kSuccess) return result;
  copyNode(*addNode(added, graph, dependencies, count, kKernelNode), node);
  return kSuccess;
}
CUresult cuGraphAddKernelNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_KERNEL_NODE_PARAMS_v1* params) {
  CUgraphNode_st node;
  node.type = kKernelNode;
  if (const CUresult result = setKernelNode(node, *params); result != kSuccess) return result;
  copyNode(*addNode(added, graph, dependencies, count, kKernelNode), node);
  return kSuccess;
}
CUresult cuGraphAddMemsetNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_MEMSET_NODE_PARAMS* params, void*) {
  if (params->elementSize != 1 && params->elementSize != 2 && params->elementSize != 4) return kInvalidValue;
  addNode(added, graph, dependencies, count, kMemsetNode)->memset = *params;
  return kSuccess;
}
CUresult cuGraphAddMemcpyNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                              std::size_t count, const CUDA_MEMCPY3D* params, void*) {
  if (params->srcArray != nullptr || params->dstArray != nullptr) return kInvalidValue;  // no arrays
  addNode(added, graph, dependencies, count, kMemcpyNode)->copy = *params;
  return kSuccess;
}
CUresult cuGraphAddHostNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                            std::size_t count, const CUDA_HOST_NODE_PARAMS* params) {
  addNode(added, graph, dependencies, count, kHostNode)->host = *params;
  return kSuccess;
}
CUresult cuGraphAddChildGraphNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                  std::size_t count, CUgraph_st* child) {
  addNode(added, graph, dependencies, count, kChildGraphNode)->child = cloneGraph(*child);
  return kSuccess;
}
CUresult cuGraphAddEventRecordNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                   std::size_t count, CUevent_st* event) {
  addNode(added, graph, dependencies, count, kEventRecordNode)->event = event;
  return kSuccess;
}
CUresult cuGraphAddEventWaitNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                 std::size_t count, CUevent_st* event) {
  addNode(added, graph, dependencies, count, kEventWaitNode)->event = event;
  return kSuccess;
}
CUresult cuGraphAddEmptyNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                             std::size_t count) {
  addNode(added, graph, dependencies, count, kEmptyNode);
  return kSuccess;
}
CUresult cuGraphAddMemAllocNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                                std::size_t count, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  auto owner = std::make_shared<GraphAllocation>();
  if (const CUresult result = kreplay_fake::allocateDeviceMemory(&owner->pointer, params->bytesize);
      result != kSuccess)
    return result;
  {
    std::lock_guard<std::mutex> lock(graphAllocationsMutex);
    graphAllocations.insert(owner->pointer);
  }
  params->dptr = owner->pointer;
  CUgraphNode_st* node = addNode(added, graph, dependencies, count, kMemAllocNode);
  node->allocation = *params;
  node->allocationOwner = std::move(owner);
  return kSuccess;
}
CUresult cuGraphAddMemFreeNode(CUgraphNode_st** added, CUgraph_st* graph, CUgraphNode_st* const* dependencies,
                               std::size_t count, CUdeviceptr pointer) {
  addNode(added, graph, dependencies, count, kMemFreeNode)->freed = pointer;
  return kSuccess;
}

CUresult cuGraphGetNodes(CUgraph_st* graph, CUgraphNode_st** nodes, std::size_t* count) {
  std::vector<CUgraphNode_st*> all;
  for (const auto& node : graph->nodes) all.push_back(node.get());
  listInto(all, nodes, count);
  return kSuccess;
}
CUresult cuGraphGetEdges(CUgraph_st* graph, CUgraphNode_st** from, CUgraphNode_st** to, std::size_t* count) {
  std::vector<CUgraphNode_st*> sources, destinations;
  for (const auto& node : graph->nodes) {
    for (CUgraphNode_st* dependency : node->dependencies) {
      sources.push_back(dependency);
      destinations.push_back(node.get());
    }
  }
  if ((from == nullptr) != (to == nullptr)) return kInvalidValue;
  std::size_t requested = *count;
  listInto(sources, from, count);
  listInto(destinations, to, &requested);
  return kSuccess;
}
CUresult cuGraphGetEdges_v2(CUgraph_st* graph, CUgraphNode_st** from, CUgraphNode_st** to, void* edgeData,
                            std::size_t* count) {
  if (edgeData != nullptr) std::memset(edgeData, 0, 8 * (from != nullptr ? *count : 0));  // default edges
  return cuGraphGetEdges(graph, from, to, count);
}
CUresult cuGraphNodeGetType(CUgraphNode_st* node, int* type) {
  *type = node->type;
  return kSuccess;
}
CUresult cuGraphNodeGetDependencies(CUgraphNode_st* node, CUgraphNode_st** dependencies, std::size_t* count) {
  listInto(node->dependencies, dependencies, count);
  return kSuccess;
}
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode_st* node, CUgraphNode_st** dependencies, void* edgeData,
                                       std::size_t* count) {
  if (edgeData != nullptr && dependencies != nullptr) std::memset(edgeData, 0, 8 * *count);
  return cuGraphNodeGetDependencies(node, dependencies, count);
}
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode_st* node, CUDA_KERNEL_NODE_PARAMS_v2* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  getKernelNode(*node, *params);
  params->kern = nullptr;
  params->ctx = nullptr;
  return kSuccess;
}
CUresult cuGraphKernelNodeGetParams(CUgraphNode_st* node, CUDA_KERNEL_NODE_PARAMS_v1* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  getKernelNode(*node, *params);
  return kSuccess;
}
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode_st* node, const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  if (node->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*node, *params);
}
CUresult cuGraphMemsetNodeGetParams(CUgraphNode_st* node, CUDA_MEMSET_NODE_PARAMS* params) {
  if (node->type != kMemsetNode) return kInvalidValue;
  *params = node->memset;
  return kSuccess;
}
CUresult cuGraphMemcpyNodeGetParams(CUgraphNode_st* node, CUDA_MEMCPY3D* params) {
  if (node->type != kMemcpyNode) return kInvalidValue;
  *params = node->copy;
  return kSuccess;
}
CUresult cuGraphHostNodeGetParams(CUgraphNode_st* node, CUDA_HOST_NODE_PARAMS* params) {
  if (node->type != kHostNode) return kInvalidValue;
  *params = node->host;
  return kSuccess;
}
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode_st* node, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  if (node->type != kMemAllocNode) return kInvalidValue;
  *params = node->allocation;
  return kSuccess;
}
CUresult cuGraphMemFreeNodeGetParams(CUgraphNode_st* node, CUdeviceptr* pointer) {
  if (node->type != kMemFreeNode) return kInvalidValue;
  *pointer = node->freed;
  return kSuccess;
}
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode_st* node, CUgraph_st** graph) {
  if (node->type != kChildGraphNode) return kInvalidValue;
  *graph = node->child.get();
  return kSuccess;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec_st** exec, CUgraph_st* graph, unsigned long long) {
  auto* made = new CUgraphExec_st();
  made->graph = cloneGraph(*graph);
  for (std::size_t index = 0; index < graph->nodes.size(); ++index)
    made->nodeFor[graph->nodes[index].get()] = made->graph->nodes[index].get();
  *exec = made;
  return kSuccess;
}
CUresult cuGraphInstantiate_v2(CUgraphExec_st** exec, CUgraph_st* graph, CUgraphNode_st** errorNode, char* log,
                               std::size_t logBytes) {
  if (errorNode != nullptr) *errorNode = nullptr;
  if (log != nullptr && logBytes > 0) log[0] = '\0';
  return cuGraphInstantiateWithFlags(exec, graph, 0);
}
CUresult cuGraphInstantiateWithParams(CUgraphExec_st** exec, CUgraph_st* graph, CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  params->hErrNode_out = nullptr;
  params->result_out = 0;  // CUDA_GRAPH_INSTANTIATE_SUCCESS
  return cuGraphInstantiateWithFlags(exec, graph, params->flags);
}
CUresult cuGraphExecDestroy(CUgraphExec_st* exec) {
  delete exec;
  return kSuccess;
}

CUresult cuGraphLaunch(CUgraphExec_st* exec, CUstream_st* stream) {
  {
    std::lock_guard<std::mutex> lock(capturesMutex);
    if (CUgraphNode_st* node = captureNode(stream, kChildGraphNode)) {  // a graph launched into a capture
      node->child = cloneGraph(*exec->graph);
      return kSuccess;
    }
  }
  auto launched = std::make_shared<LaunchedGraph>();
  launched->graph = cloneGraph(*exec->graph);
  noteEventGenerations(*launched->graph, *launched);
  auto run = [launched] { runGraph(*launched->graph, *launched); };
  if (stream != nullptr) stream->push(run);
  else run();
  return kSuccess;
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec_st* exec, CUgraphNode_st* node,
                                           const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  const auto found = exec->nodeFor.find(node);
  if (found == exec->nodeFor.end() || found->second->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*found->second, *params);
}
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node,
                                        const CUDA_KERNEL_NODE_PARAMS_v1* params) {
  const auto found = exec->nodeFor.find(node);
  if (found == exec->nodeFor.end() || found->second->type != kKernelNode) return kInvalidValue;
  return setKernelNode(*found->second, *params);
}

/** Takes `graph`'s node parameters into `exec` when its nodes pair with exec's (same types and edges, in order). */
CUresult cuGraphExecUpdate_v2(CUgraphExec_st* exec, CUgraph_st* graph, CUgraphExecUpdateResultInfo* info) {
  auto fail = [&](int result, CUgraphNode_st* node) {
    if (info != nullptr) *info = {result, node, nullptr};
    return kGraphExecUpdateFailure;
  };
  const CUgraph_st& current = *exec->graph;
  if (graph->nodes.size() != current.nodes.size()) return fail(2, nullptr);  // TOPOLOGY_CHANGED
  for (std::size_t index = 0; index < graph->nodes.size(); ++index) {
    const CUgraphNode_st& next = *graph->nodes[index];
    const CUgraphNode_st& now = *current.nodes[index];
    if (next.type != now.type) return fail(3, graph->nodes[index].get());  // NODE_TYPE_CHANGED
    if (next.dependencies.size() != now.dependencies.size()) return fail(2, graph->nodes[index].get());
    for (std::size_t edge = 0; edge < next.dependencies.size(); ++edge)
      if (next.dependencies[edge]->index != now.dependencies[edge]->index) return fail(2, graph->nodes[index].get());
    if (next.type == kChildGraphNode || next.type == kMemAllocNode || next.type == kMemFreeNode)
      return fail(6, graph->nodes[index].get());  // NOT_SUPPORTED by the fake
  }
  for (std::size_t index = 0; index < graph->nodes.size(); ++index) {
    copyNode(*exec->graph->nodes[index], *graph->nodes[index]);
    exec->nodeFor[graph->nodes[index].get()] = exec->graph->nodes[index].get();
  }
  if (info != nullptr) *info = {0, nullptr, nullptr};
  return kSuccess;
}
CUresult cuGraphExecUpdate(CUgraphExec_st* exec, CUgraph_st* graph, CUgraphNode_st** errorNode, int* result) {
  CUgraphExecUpdateResultInfo info{};
  const CUresult returned = cuGraphExecUpdate_v2(exec, graph, &info);
  if (errorNode != nullptr) *errorNode = info.errorNode;
  if (result != nullptr) *result = info.result;
  return returned;
}

CUresult cuStreamBeginCapture_v2(CUstream_st* stream, int) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  if (stream == nullptr || stream->capture != 0) return kStreamCaptureUnsupported;
  const std::uint64_t id = ++lastCaptureId;
  StreamCapture& capture = captures[id];
  capture.origin = stream;
  capture.streams.insert(stream);
  stream->capture = id;
  stream->captureDependencies.clear();
  return kSuccess;
}
CUresult cuStreamBeginCapture(CUstream_st* stream, int mode) {
  return cuStreamBeginCapture_v2(stream, mode);
}
CUresult cuStreamEndCapture(CUstream_st* stream, CUgraph_st** graph) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  *graph = nullptr;
  if (stream == nullptr || stream->capture == 0) return kInvalidValue;
  const std::uint64_t id = stream->capture;
  StreamCapture& capture = captures.at(id);
  if (capture.origin != stream) return kStreamCaptureWrongThread;
  const bool invalidated = capture.invalidated;
  std::unique_ptr<CUgraph_st> made = std::move(capture.graph);
  endCapture(id);
  if (invalidated) return kStreamCaptureInvalidated;
  *graph = made.release();
  return kSuccess;
}
CUresult cuStreamIsCapturing(CUstream_st* stream, int* status) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  // CU_STREAM_LEGACY (0x1) and CU_STREAM_PER_THREAD (0x2) never capture here.
  if (reinterpret_cast<std::uintptr_t>(stream) <= 2 || stream->capture == 0) *status = 0;  // CU_STREAM_CAPTURE_STATUS_NONE
  else *status = captures.at(stream->capture).invalidated ? 2 : 1;  // INVALIDATED : ACTIVE
  return kSuccess;
}
CUresult cuStreamGetCaptureInfo_v2(CUstream_st* stream, int* status, unsigned long long* id, CUgraph_st** graph,
                                   CUgraphNode_st* const** dependencies, std::size_t* count) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  const bool capturing = stream != nullptr && stream->capture != 0;
  if (status != nullptr) *status = !capturing ? 0 : captures.at(stream->capture).invalidated ? 2 : 1;
  if (!capturing) return kSuccess;
  if (id != nullptr) *id = stream->capture;
  if (graph != nullptr) *graph = captures.at(stream->capture).graph.get();
  if (dependencies != nullptr) *dependencies = stream->captureDependencies.data();
  if (count != nullptr) *count = stream->captureDependencies.size();
  return kSuccess;
}
CUresult cuStreamGetCaptureInfo_v3(CUstream_st* stream, int* status, unsigned long long* id, CUgraph_st** graph,
                                   CUgraphNode_st* const** dependencies, const void** edgeData, std::size_t* count) {
  if (edgeData != nullptr) *edgeData = nullptr;  // every edge is a default edge
  return cuStreamGetCaptureInfo_v2(stream, status, id, graph, dependencies, count);
}
CUresult cuStreamGetCaptureInfo(CUstream_st* stream, int* status, unsigned long long* id) {
  return cuStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr, nullptr);
}

}  // extern "C"
