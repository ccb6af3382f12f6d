// Checks of graphs made by stream capture: one stream (nothing runs while capturing; the graph runs
// it at each of three launches), two streams joined by events with a stream-ordered allocation and
// free, and a synchronization that invalidates the capture.
#include <cstdio>
#include <vector>

#include "graph-checks.hpp"

namespace {

constexpr std::uint32_t n = GraphFixture::n;
constexpr std::size_t bytes = GraphFixture::bytes;

}  // namespace

void checkCaptureOnOneStream(GraphFixture& fixture) {
  const Ptr a = fixture.a, b = fixture.b;
  const Handle stream = fixture.stream;
  fixture.upload(a, 1);
  fixture.upload(b, 7);
  int status = -1;
  CALL(cuStreamBeginCapture_v2, stream, 0);  // CU_STREAM_CAPTURE_MODE_GLOBAL
  CALL(cuStreamIsCapturing, stream, &status);
  expect(status == 1, "a capturing stream says so");
  CALL(cuMemsetD8Async, b, 0, bytes, stream);
  Ptr data = a;
  std::uint32_t items = n;
  float factor = 3;
  void* arguments[] = {&data, &items, &factor};
  CALL(cuLaunchKernel, fixture.scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, arguments, nullptr);
  CALL(cuMemcpyAsync, b, a, bytes, stream);
  data = b;
  factor = 2;
  CALL(cuLaunchKernel, fixture.scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, arguments, nullptr);
  Handle captured = nullptr, capturedExec = nullptr;
  CALL(cuStreamEndCapture, stream, &captured);
  fixture.graphs.push_back(captured);
  CALL(cuStreamIsCapturing, stream, &status);
  expect(status == 0, "the stream no longer captures after cuStreamEndCapture");
  expect(fixture.holds(a, 1) && fixture.holds(b, 7), "work on a capturing stream does not run");
  std::size_t count = 0;
  CALL(cuGraphGetNodes, captured, nullptr, &count);
  expect(count == 4, "the captured graph has one node per captured call");
  std::vector<Handle> nodes(count, nullptr);
  CALL(cuGraphGetNodes, captured, nodes.data(), &count);
  const int capturedTypes[] = {2, 0, 1, 0};
  int type = -1;
  for (std::size_t index = 0; index < count; ++index) {
    CALL(cuGraphNodeGetType, nodes[index], &type);
    expect(type == capturedTypes[index], "captured nodes: memset, kernel, memcpy, kernel");
  }
  CALL(cuGraphGetEdges_v2, captured, nullptr, nullptr, nullptr, &count);
  expect(count == 3, "the captured nodes form a chain");
  expect(fixture.factorOf(nodes[1]) == 3 && fixture.factorOf(nodes[3]) == 2,
         "captured kernel nodes hold the values at capture");
  CALL(cuGraphInstantiateWithFlags, &capturedExec, captured, 0);
  fixture.execs.push_back(capturedExec);
  for (int launch = 0; launch < 3; ++launch) CALL(cuGraphLaunch, capturedExec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(fixture.holds(a, 27) && fixture.holds(b, 54), "three launches of the captured graph");
  std::printf("ok stream capture on one stream, launched three times\n");
}

void checkCaptureAcrossTwoStreams(GraphFixture& fixture) {
  const Handle stream = fixture.stream, other = fixture.other;
  Handle fork = nullptr, join = nullptr, twoStreams = nullptr;
  CALL(cuEventCreate, &fork, 0);
  CALL(cuEventCreate, &join, 0);
  CALL(cuStreamBeginCapture_v2, stream, 0);
  Ptr temporary = 0;
  CALL(cuMemAllocAsync, &temporary, bytes, stream);
  CALL(cuMemsetD8Async, temporary, 0, bytes, stream);
  CALL(cuEventRecord, fork, stream);
  CALL(cuStreamWaitEvent, other, fork, 0);
  int status = -1;
  CALL(cuStreamIsCapturing, other, &status);
  expect(status == 1, "a stream waiting on an event of a capture joins it");
  Ptr data = fixture.a;
  std::uint32_t items = n;
  float factor = 2;
  void* arguments[] = {&data, &items, &factor};
  CALL(cuLaunchKernel, fixture.scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, other, arguments, nullptr);
  CALL(cuEventRecord, join, other);
  CALL(cuStreamWaitEvent, stream, join, 0);
  CALL(cuMemFreeAsync, temporary, stream);
  CALL(cuStreamEndCapture, stream, &twoStreams);
  fixture.graphs.push_back(twoStreams);
  CALL(cuStreamIsCapturing, other, &status);
  expect(status == 0, "the joined stream leaves the capture when it ends");
  std::size_t count = 0;
  CALL(cuGraphGetNodes, twoStreams, nullptr, &count);
  expect(count == 4, "alloc, memset, kernel (on the other stream), free");
  std::vector<Handle> nodes(count, nullptr);
  CALL(cuGraphGetNodes, twoStreams, nodes.data(), &count);
  const int joinedTypes[] = {10, 2, 0, 11};
  int type = -1;
  for (std::size_t index = 0; index < count; ++index) {
    CALL(cuGraphNodeGetType, nodes[index], &type);
    expect(type == joinedTypes[index], "captured nodes: mem alloc, memset, kernel, mem free");
  }
  CALL(cuGraphNodeGetDependencies_v2, nodes[2], nullptr, nullptr, &count);
  expect(count == 1, "the other stream's kernel depends on the memset before the fork");
  MemAllocNodeParams allocationRead{};
  CALL(cuGraphMemAllocNodeGetParams, nodes[0], &allocationRead);
  expect(allocationRead.dptr == temporary && allocationRead.bytesize == bytes,
         "a captured allocation becomes a memory node at the address it returned");
  std::printf("ok stream capture across two streams, with an allocation and a free\n");
}

void checkSynchronizationInvalidatesCapture(GraphFixture& fixture) {
  const Handle stream = fixture.stream;
  Handle invalid = nullptr;
  CALL(cuStreamBeginCapture_v2, stream, 0);
  CALL(cuMemsetD8Async, fixture.b, 0, bytes, stream);
  expect(cuda.cuStreamSynchronize(stream) == 900, "synchronizing a capturing stream fails (900)");
  expect(cuda.cuStreamEndCapture(stream, &invalid) == 901 && invalid == nullptr,
         "the capture ends invalidated (901)");
  std::printf("ok a synchronization invalidates a capture\n");
}
