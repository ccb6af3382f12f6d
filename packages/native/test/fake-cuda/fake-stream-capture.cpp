// Stream capture in the fake libcuda: between cuStreamBeginCapture and cuStreamEndCapture, kernels,
// memsets, copies, stream-ordered allocations and frees, and graph launches on the stream become nodes
// of the capture's graph instead of running; an event recorded during a capture carries it to the
// streams that wait on it (fork and join); a synchronization invalidates it.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "fake-graph-objects.hpp"
#include "fake-graphs.hpp"
#include "fake-streams.hpp"

using namespace kreplay_fake;  // the graph objects, node kinds and result codes

namespace {

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
  std::shared_ptr<GraphAllocation> owner;
  result = allocateGraphMemory(bytes, owner);
  if (result != kSuccess) return true;
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

bool captureGraphLaunch(CUstream_st* stream, const CUgraph_st& graph) {
  std::lock_guard<std::mutex> lock(capturesMutex);
  CUgraphNode_st* node = captureNode(stream, kChildGraphNode);
  if (node == nullptr) return false;
  node->child = cloneGraph(graph);
  return true;
}

}  // namespace kreplay_fake

extern "C" {

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
