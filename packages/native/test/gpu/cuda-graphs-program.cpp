// CUDA graphs as the fake libcuda runs them, checked against what the NVIDIA driver does: built with
// g++ (no CUDA SDK) by cuda-graphs.test.ts, it opens libcuda ($KREPLAY_CUDA_LIBRARY or libcuda.so.1),
// loads argv[1] (scale-floats.ptx: kreplay_test_scale_floats(data, count, factor)), and checks graphs
// built node by node (kernel, memset, 1D memcpy, host, empty, child graph, event record, memory
// nodes; nodes, edges, types and parameters read back; exec kernel-node parameters and exec update)
// and by stream capture (one stream, two streams joined by events, stream-ordered allocations, a
// synchronization that invalidates the capture). Prints "ok <check>" per check, "FAILED ..." and
// exits 1 on the first failure.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using Ptr = unsigned long long;
using Handle = void*;

// cuda.h's structures (CUDA 12 and 13).
struct KernelNodeParams {
  Handle func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  Handle kern;
  Handle ctx;
};
struct MemsetNodeParams {
  Ptr dst;
  std::size_t pitch;
  unsigned value, elementSize;
  std::size_t width, height;
};
struct Memcpy3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  Ptr srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  Ptr dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct HostNodeParams {
  void (*fn)(void*);
  void* userData;
};
struct MemAllocNodeParams {
  struct {
    int allocType, handleTypes, locationType, locationId;
    void* win32SecurityAttributes;
    unsigned char rest[64];
  } poolProps;
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  Ptr dptr;
};
struct ExecUpdateResultInfo {
  int result;
  Handle errorNode, errorFromNode;
};

void* library = nullptr;

template <class Function>
Function symbol(const char* name) {
  auto* found = reinterpret_cast<Function>(::dlsym(library, name));
  if (found == nullptr) {
    std::printf("FAILED libcuda has no %s\n", name);
    std::exit(1);
  }
  return found;
}

void check(CUresult result, const char* call, int line) {
  if (result == 0) return;
  std::printf("FAILED %s returned %d (line %d)\n", call, result, line);
  std::exit(1);
}

void expect(bool condition, const char* what) {
  if (!condition) {
    std::printf("FAILED %s\n", what);
    std::exit(1);
  }
}

#define FN(name, ...) auto name##_ = symbol<CUresult (*)(__VA_ARGS__)>(#name)

}  // namespace

int main(int argc, char** argv) {
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  library = ::dlopen(path != nullptr && *path != '\0' ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr || argc < 2) {
    std::printf("FAILED could not open libcuda (%s) or no PTX given\n", ::dlerror());
    return 1;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const std::string ptx = text.str();

  FN(cuInit, unsigned);
  FN(cuDeviceGet, int*, int);
  FN(cuDevicePrimaryCtxRetain, Handle*, int);
  FN(cuCtxSetCurrent, Handle);
  FN(cuModuleLoadDataEx, Handle*, const void*, unsigned, int*, void**);
  FN(cuModuleGetFunction, Handle*, Handle, const char*);
  FN(cuMemAlloc_v2, Ptr*, std::size_t);
  FN(cuMemcpy, Ptr, Ptr, std::size_t);
  FN(cuStreamCreate, Handle*, unsigned);
  FN(cuStreamSynchronize, Handle);
  FN(cuEventCreate, Handle*, unsigned);
  FN(cuEventRecord, Handle, Handle);
  FN(cuEventSynchronize, Handle);
  FN(cuStreamWaitEvent, Handle, Handle, unsigned);
  FN(cuLaunchKernel, Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Handle, void**,
     void**);
  FN(cuMemsetD8Async, Ptr, unsigned char, std::size_t, Handle);
  FN(cuMemcpyAsync, Ptr, Ptr, std::size_t, Handle);
  FN(cuMemAllocAsync, Ptr*, std::size_t, Handle);
  FN(cuMemFreeAsync, Ptr, Handle);
  FN(cuGraphCreate, Handle*, unsigned);
  FN(cuGraphDestroy, Handle);
  FN(cuGraphClone, Handle*, Handle);
  FN(cuGraphAddKernelNode_v2, Handle*, Handle, const Handle*, std::size_t, const KernelNodeParams*);
  FN(cuGraphAddMemsetNode, Handle*, Handle, const Handle*, std::size_t, const MemsetNodeParams*, Handle);
  FN(cuGraphAddMemcpyNode, Handle*, Handle, const Handle*, std::size_t, const Memcpy3D*, Handle);
  FN(cuGraphAddHostNode, Handle*, Handle, const Handle*, std::size_t, const HostNodeParams*);
  FN(cuGraphAddEmptyNode, Handle*, Handle, const Handle*, std::size_t);
  FN(cuGraphAddChildGraphNode, Handle*, Handle, const Handle*, std::size_t, Handle);
  FN(cuGraphAddEventRecordNode, Handle*, Handle, const Handle*, std::size_t, Handle);
  FN(cuGraphAddMemAllocNode, Handle*, Handle, const Handle*, std::size_t, MemAllocNodeParams*);
  FN(cuGraphAddMemFreeNode, Handle*, Handle, const Handle*, std::size_t, Ptr);
  FN(cuGraphGetNodes, Handle, Handle*, std::size_t*);
  FN(cuGraphGetEdges_v2, Handle, Handle*, Handle*, void*, std::size_t*);
  FN(cuGraphNodeGetType, Handle, int*);
  FN(cuGraphNodeGetDependencies_v2, Handle, Handle*, void*, std::size_t*);
  FN(cuGraphKernelNodeGetParams_v2, Handle, KernelNodeParams*);
  FN(cuGraphKernelNodeSetParams_v2, Handle, const KernelNodeParams*);
  FN(cuGraphMemsetNodeGetParams, Handle, MemsetNodeParams*);
  FN(cuGraphMemcpyNodeGetParams, Handle, Memcpy3D*);
  FN(cuGraphMemAllocNodeGetParams, Handle, MemAllocNodeParams*);
  FN(cuGraphInstantiateWithFlags, Handle*, Handle, unsigned long long);
  FN(cuGraphExecDestroy, Handle);
  FN(cuGraphLaunch, Handle, Handle);
  FN(cuGraphExecKernelNodeSetParams_v2, Handle, Handle, const KernelNodeParams*);
  FN(cuGraphExecUpdate_v2, Handle, Handle, ExecUpdateResultInfo*);
  FN(cuStreamBeginCapture_v2, Handle, int);
  FN(cuStreamEndCapture, Handle, Handle*);
  FN(cuStreamIsCapturing, Handle, int*);
#define CALL(name, ...) check(name##_(__VA_ARGS__), #name, __LINE__)

  CALL(cuInit, 0);
  int device = 0;
  Handle context = nullptr, module = nullptr, scale = nullptr, stream = nullptr, other = nullptr;
  CALL(cuDeviceGet, &device, 0);
  CALL(cuDevicePrimaryCtxRetain, &context, device);
  CALL(cuCtxSetCurrent, context);
  CALL(cuModuleLoadDataEx, &module, ptx.c_str(), 0, nullptr, nullptr);
  CALL(cuModuleGetFunction, &scale, module, "kreplay_test_scale_floats");
  CALL(cuStreamCreate, &stream, 1);
  CALL(cuStreamCreate, &other, 1);

  constexpr std::uint32_t n = 256;
  constexpr std::size_t bytes = n * sizeof(float);
  Ptr a = 0, b = 0, c = 0;
  CALL(cuMemAlloc_v2, &a, bytes);
  CALL(cuMemAlloc_v2, &b, bytes);
  CALL(cuMemAlloc_v2, &c, bytes);
  std::vector<float> host(n);
  auto upload = [&](Ptr to, float scaleBy) {
    for (std::uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i + 1) * scaleBy;
    CALL(cuMemcpy, to, reinterpret_cast<Ptr>(host.data()), bytes);
  };
  auto holds = [&](Ptr from, float scaleBy) {
    std::vector<float> read(n);
    CALL(cuMemcpy, reinterpret_cast<Ptr>(read.data()), from, bytes);
    for (std::uint32_t i = 0; i < n; ++i)
      if (read[i] != static_cast<float>(i + 1) * scaleBy) return false;
    return true;
  };
  auto holdsEvery = [&](Ptr from, float value) {
    std::vector<float> read(n);
    CALL(cuMemcpy, reinterpret_cast<Ptr>(read.data()), from, bytes);
    for (const float item : read)
      if (item != value) return false;
    return true;
  };
  // Kernel node parameters: values the driver copies when the node is made or set.
  struct Scale {
    Ptr data;
    std::uint32_t count = n;
    float factor;
    void* pointers[3];
    KernelNodeParams params() {
      pointers[0] = &data;
      pointers[1] = &count;
      pointers[2] = &factor;
      return KernelNodeParams{nullptr, (n + 63) / 64, 1, 1, 64, 1, 1, 0, pointers, nullptr, nullptr, nullptr};
    }
  };
  auto scaleNode = [&](Ptr data, float factor) {
    static Scale storage[16];
    static int used = 0;
    Scale& s = storage[used++ % 16];
    s.data = data;
    s.count = n;
    s.factor = factor;
    KernelNodeParams params = s.params();
    params.func = scale;
    return params;
  };
  auto factorOf = [&](Handle node) {
    KernelNodeParams read{};
    CALL(cuGraphKernelNodeGetParams_v2, node, &read);
    return *static_cast<const float*>(read.kernelParams[2]);
  };
  const float one = 1.0f;
  unsigned oneBits = 0;
  std::memcpy(&oneBits, &one, 4);

  // A graph built node by node.
  upload(a, 1);
  Handle graph = nullptr, k1 = nullptr, m1 = nullptr, c1 = nullptr, k2 = nullptr, k3 = nullptr, h1 = nullptr,
         e1 = nullptr;
  CALL(cuGraphCreate, &graph, 0);
  KernelNodeParams p1 = scaleNode(a, 2);
  CALL(cuGraphAddKernelNode_v2, &k1, graph, nullptr, 0, &p1);
  const MemsetNodeParams memset{b, bytes, oneBits, 4, n, 1};
  CALL(cuGraphAddMemsetNode, &m1, graph, nullptr, 0, &memset, context);
  Memcpy3D copy{};
  copy.srcMemoryType = copy.dstMemoryType = 2;  // CU_MEMORYTYPE_DEVICE
  copy.srcDevice = a;
  copy.dstDevice = c;
  copy.srcPitch = copy.dstPitch = bytes;
  copy.WidthInBytes = bytes;
  copy.Height = copy.Depth = 1;
  CALL(cuGraphAddMemcpyNode, &c1, graph, &k1, 1, &copy, context);
  KernelNodeParams p2 = scaleNode(c, 3), p3 = scaleNode(b, 5);
  CALL(cuGraphAddKernelNode_v2, &k2, graph, &c1, 1, &p2);
  CALL(cuGraphAddKernelNode_v2, &k3, graph, &m1, 1, &p3);
  static int hostRuns = 0;
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
  expect(factorOf(k1) == 2, "a kernel node's parameters read back");
  MemsetNodeParams memsetRead{};
  CALL(cuGraphMemsetNodeGetParams, m1, &memsetRead);
  expect(memsetRead.dst == b && memsetRead.value == oneBits && memsetRead.elementSize == 4 && memsetRead.width == n,
         "a memset node's parameters read back");
  Memcpy3D copyRead{};
  CALL(cuGraphMemcpyNodeGetParams, c1, &copyRead);
  expect(copyRead.srcDevice == a && copyRead.dstDevice == c && copyRead.WidthInBytes == bytes,
         "a memcpy node's parameters read back");
  std::printf("ok nodes, edges, types and parameters of a graph built node by node\n");

  Handle exec = nullptr;
  CALL(cuGraphInstantiateWithFlags, &exec, graph, 0);
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(holds(a, 2) && holds(c, 6) && holdsEvery(b, 5) && hostRuns == 1, "the graph's launch ran every node in order");
  KernelNodeParams p4 = scaleNode(a, 10);
  CALL(cuGraphExecKernelNodeSetParams_v2, exec, k1, &p4);
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(holds(a, 20) && holds(c, 60) && hostRuns == 2, "an exec kernel node's new parameters apply to the next launch");
  expect(factorOf(k1) == 2, "setting an exec node's parameters leaves the graph's node as it was");
  Handle clone = nullptr;
  CALL(cuGraphClone, &clone, graph);
  std::vector<Handle> cloned(7);
  count = 7;
  CALL(cuGraphGetNodes, clone, cloned.data(), &count);
  KernelNodeParams p5 = scaleNode(a, 0.5f);
  CALL(cuGraphKernelNodeSetParams_v2, cloned[0], &p5);
  ExecUpdateResultInfo info{};
  CALL(cuGraphExecUpdate_v2, exec, clone, &info);
  expect(info.result == 0, "an exec update from a clone succeeds");
  CALL(cuGraphLaunch, exec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(holds(a, 10) && holds(c, 30) && hostRuns == 3, "an exec update's parameters apply to the next launch");
  std::printf("ok launches, exec kernel-node parameters and exec update\n");

  // A child graph and an event record node.
  Handle parent = nullptr, child = nullptr, childKernel = nullptr, childNode = nullptr, recordNode = nullptr,
         event = nullptr, parentExec = nullptr;
  CALL(cuEventCreate, &event, 0);
  CALL(cuGraphCreate, &child, 0);
  KernelNodeParams p6 = scaleNode(a, 0.5f);
  CALL(cuGraphAddKernelNode_v2, &childKernel, child, nullptr, 0, &p6);
  CALL(cuGraphCreate, &parent, 0);
  CALL(cuGraphAddChildGraphNode, &childNode, parent, nullptr, 0, child);
  CALL(cuGraphAddEventRecordNode, &recordNode, parent, &childNode, 1, event);
  CALL(cuGraphNodeGetType, childNode, &type);
  expect(type == 4, "a child graph node has type 4");
  CALL(cuGraphNodeGetType, recordNode, &type);
  expect(type == 7, "an event record node has type 7");
  CALL(cuGraphInstantiateWithFlags, &parentExec, parent, 0);
  CALL(cuGraphLaunch, parentExec, stream);
  CALL(cuEventSynchronize, event);
  expect(holds(a, 5), "a child graph's nodes run, and the event record node completes after them");
  std::printf("ok child graph and event record nodes\n");

  // Graph memory nodes.
  Handle memoryGraph = nullptr, allocNode = nullptr, setNode = nullptr, freeNode = nullptr, memoryExec = nullptr;
  CALL(cuGraphCreate, &memoryGraph, 0);
  MemAllocNodeParams allocation{};
  allocation.poolProps.allocType = 1;     // CU_MEM_ALLOCATION_TYPE_PINNED
  allocation.poolProps.locationType = 1;  // CU_MEM_LOCATION_TYPE_DEVICE
  allocation.poolProps.locationId = device;
  allocation.bytesize = bytes;
  CALL(cuGraphAddMemAllocNode, &allocNode, memoryGraph, nullptr, 0, &allocation);
  expect(allocation.dptr != 0, "a memory allocation node gives its address when it is added");
  const MemsetNodeParams zero{allocation.dptr, bytes, 0, 1, bytes, 1};
  CALL(cuGraphAddMemsetNode, &setNode, memoryGraph, &allocNode, 1, &zero, context);
  CALL(cuGraphAddMemFreeNode, &freeNode, memoryGraph, &setNode, 1, allocation.dptr);
  MemAllocNodeParams allocationRead{};
  CALL(cuGraphMemAllocNodeGetParams, allocNode, &allocationRead);
  expect(allocationRead.dptr == allocation.dptr && allocationRead.bytesize == bytes,
         "a memory allocation node's parameters read back");
  CALL(cuGraphNodeGetType, freeNode, &type);
  expect(type == 11, "a memory free node has type 11");
  CALL(cuGraphInstantiateWithFlags, &memoryExec, memoryGraph, 0);
  CALL(cuGraphLaunch, memoryExec, stream);
  CALL(cuStreamSynchronize, stream);
  std::printf("ok graph memory nodes\n");

  // Stream capture on one stream: nothing runs while capturing; the graph runs it at each launch.
  upload(a, 1);
  upload(b, 7);
  int status = -1;
  CALL(cuStreamBeginCapture_v2, stream, 0);  // CU_STREAM_CAPTURE_MODE_GLOBAL
  CALL(cuStreamIsCapturing, stream, &status);
  expect(status == 1, "a capturing stream says so");
  CALL(cuMemsetD8Async, b, 0, bytes, stream);
  Ptr data = a;
  std::uint32_t items = n;
  float factor = 3;
  void* arguments[] = {&data, &items, &factor};
  CALL(cuLaunchKernel, scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, arguments, nullptr);
  CALL(cuMemcpyAsync, b, a, bytes, stream);
  data = b;
  factor = 2;
  CALL(cuLaunchKernel, scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, arguments, nullptr);
  Handle captured = nullptr, capturedExec = nullptr;
  CALL(cuStreamEndCapture, stream, &captured);
  CALL(cuStreamIsCapturing, stream, &status);
  expect(status == 0, "the stream no longer captures after cuStreamEndCapture");
  expect(holds(a, 1) && holds(b, 7), "work on a capturing stream does not run");
  CALL(cuGraphGetNodes, captured, nullptr, &count);
  expect(count == 4, "the captured graph has one node per captured call");
  nodes.assign(count, nullptr);
  CALL(cuGraphGetNodes, captured, nodes.data(), &count);
  const int capturedTypes[] = {2, 0, 1, 0};
  for (std::size_t index = 0; index < count; ++index) {
    CALL(cuGraphNodeGetType, nodes[index], &type);
    expect(type == capturedTypes[index], "captured nodes: memset, kernel, memcpy, kernel");
  }
  CALL(cuGraphGetEdges_v2, captured, nullptr, nullptr, nullptr, &count);
  expect(count == 3, "the captured nodes form a chain");
  expect(factorOf(nodes[1]) == 3 && factorOf(nodes[3]) == 2, "captured kernel nodes hold the values at capture");
  CALL(cuGraphInstantiateWithFlags, &capturedExec, captured, 0);
  for (int launch = 0; launch < 3; ++launch) CALL(cuGraphLaunch, capturedExec, stream);
  CALL(cuStreamSynchronize, stream);
  expect(holds(a, 27) && holds(b, 54), "three launches of the captured graph");
  std::printf("ok stream capture on one stream, launched three times\n");

  // Two streams joined by events; a stream-ordered allocation and free inside the capture.
  Handle fork = nullptr, join = nullptr, twoStreams = nullptr;
  CALL(cuEventCreate, &fork, 0);
  CALL(cuEventCreate, &join, 0);
  CALL(cuStreamBeginCapture_v2, stream, 0);
  Ptr temporary = 0;
  CALL(cuMemAllocAsync, &temporary, bytes, stream);
  CALL(cuMemsetD8Async, temporary, 0, bytes, stream);
  CALL(cuEventRecord, fork, stream);
  CALL(cuStreamWaitEvent, other, fork, 0);
  CALL(cuStreamIsCapturing, other, &status);
  expect(status == 1, "a stream waiting on an event of a capture joins it");
  data = a;
  factor = 2;
  CALL(cuLaunchKernel, scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, other, arguments, nullptr);
  CALL(cuEventRecord, join, other);
  CALL(cuStreamWaitEvent, stream, join, 0);
  CALL(cuMemFreeAsync, temporary, stream);
  CALL(cuStreamEndCapture, stream, &twoStreams);
  CALL(cuStreamIsCapturing, other, &status);
  expect(status == 0, "the joined stream leaves the capture when it ends");
  CALL(cuGraphGetNodes, twoStreams, nullptr, &count);
  expect(count == 4, "alloc, memset, kernel (on the other stream), free");
  nodes.assign(count, nullptr);
  CALL(cuGraphGetNodes, twoStreams, nodes.data(), &count);
  const int joinedTypes[] = {10, 2, 0, 11};
  for (std::size_t index = 0; index < count; ++index) {
    CALL(cuGraphNodeGetType, nodes[index], &type);
    expect(type == joinedTypes[index], "captured nodes: mem alloc, memset, kernel, mem free");
  }
  CALL(cuGraphNodeGetDependencies_v2, nodes[2], nullptr, nullptr, &count);
  expect(count == 1, "the other stream's kernel depends on the memset before the fork");
  CALL(cuGraphMemAllocNodeGetParams, nodes[0], &allocationRead);
  expect(allocationRead.dptr == temporary && allocationRead.bytesize == bytes,
         "a captured allocation becomes a memory node at the address it returned");
  std::printf("ok stream capture across two streams, with an allocation and a free\n");

  // A synchronization inside a capture fails and invalidates it.
  Handle invalid = nullptr;
  CALL(cuStreamBeginCapture_v2, stream, 0);
  CALL(cuMemsetD8Async, b, 0, bytes, stream);
  expect(cuStreamSynchronize_(stream) == 900, "synchronizing a capturing stream fails (900)");
  expect(cuStreamEndCapture_(stream, &invalid) == 901 && invalid == nullptr, "the capture ends invalidated (901)");
  std::printf("ok a synchronization invalidates a capture\n");

  CALL(cuGraphExecDestroy, exec);
  CALL(cuGraphExecDestroy, parentExec);
  CALL(cuGraphExecDestroy, memoryExec);
  CALL(cuGraphExecDestroy, capturedExec);
  for (Handle made : {graph, clone, parent, child, memoryGraph, captured, twoStreams}) CALL(cuGraphDestroy, made);
  std::printf("ok\n");
  return 0;
}
