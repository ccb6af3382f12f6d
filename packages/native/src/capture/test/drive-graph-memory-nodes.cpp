// The graph injection driver's scenario of memcpy and graph memory nodes (drive-graph-exec-changes.hpp).
#include <string>
#include <vector>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/json-text.hpp"
#include "capture/test/drive-graph-exec-changes.hpp"

namespace kreplay::capture::test {

namespace {

struct MemAllocNodeParams {  // cuda.h's CUDA_MEM_ALLOC_NODE_PARAMS
  struct {
    int allocType, handleTypes, locationType, locationId;  // CUmemPoolProps' first fields
    unsigned char rest[72];
  } poolProps;
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  std::uint64_t dptr;
};
static_assert(sizeof(MemAllocNodeParams) == 120, "cuda.h's CUDA_MEM_ALLOC_NODE_PARAMS");

constexpr int kHostMemory = 1, kDeviceMemory = 2;  // CUmemorytype

/** A one-row copy of the buffer's bytes from `source` (host or device) to device memory. */
Memcpy3D linearCopy(int sourceType, const void* sourceHost, std::uint64_t sourceDevice, std::uint64_t destination) {
  Memcpy3D copy{};
  copy.srcMemoryType = sourceType;
  copy.srcHost = sourceHost;
  copy.srcDevice = sourceDevice;
  copy.dstMemoryType = kDeviceMemory;
  copy.dstDevice = destination;
  copy.WidthInBytes = kBytes;
  copy.Height = 1;
  copy.Depth = 1;
  return copy;
}

}  // namespace

std::string driveGraphMemoryNodes(GraphProgram& program) {
  namespace cu = cupti;
  using Dependencies = void* const*;
  auto cuGraphCreate = program.resolve<int (*)(void**, unsigned)>("cuGraphCreate");
  auto cuGraphAddKernelNode =
      program.resolve<int (*)(void**, void*, Dependencies, std::size_t, const KernelNodeParams*)>("cuGraphAddKernelNode_v2");
  auto cuGraphAddMemcpyNode =
      program.resolve<int (*)(void**, void*, Dependencies, std::size_t, const Memcpy3D*, void*)>("cuGraphAddMemcpyNode");
  auto cuGraphAddMemAllocNode =
      program.resolve<int (*)(void**, void*, Dependencies, std::size_t, MemAllocNodeParams*)>("cuGraphAddMemAllocNode");
  auto cuGraphAddMemFreeNode =
      program.resolve<int (*)(void**, void*, Dependencies, std::size_t, std::uint64_t)>("cuGraphAddMemFreeNode");
  auto cuGraphExecMemcpyNodeSetParams =
      program.resolve<int (*)(void*, void*, const Memcpy3D*, void*)>("cuGraphExecMemcpyNodeSetParams");
  if (program.missing) return "null";
  std::vector<float> host(kCount);
  for (int index = 0; index < kCount; ++index) host[index] = static_cast<float>(index % 13) - 6.0f;
  void *graph = nullptr, *allocate = nullptr, *upload = nullptr, *copy = nullptr, *scaleB = nullptr,
       *scaleD = nullptr, *free = nullptr;
  program.check(cuGraphCreate(&graph, 0));
  MemAllocNodeParams allocation{};
  allocation.poolProps.allocType = 1;      // CU_MEM_ALLOCATION_TYPE_PINNED
  allocation.poolProps.locationType = 1;   // CU_MEM_LOCATION_TYPE_DEVICE, device 0
  allocation.bytesize = kBytes;
  program.check(cuGraphAddMemAllocNode(&allocate, graph, nullptr, 0, &allocation));
  const std::uint64_t d = allocation.dptr;
  const Memcpy3D hostToD = linearCopy(kHostMemory, host.data(), 0, d);
  program.check(cuGraphAddMemcpyNode(&upload, graph, &allocate, 1, &hostToD, program.context));
  Memcpy3D dToB = linearCopy(kDeviceMemory, nullptr, d, program.b);
  program.check(cuGraphAddMemcpyNode(&copy, graph, &upload, 1, &dToB, program.context));
  std::uint64_t pointerB = program.b, pointerD = d;
  int count = kCount;
  void* argumentsB[] = {&pointerB, &count};
  void* argumentsD[] = {&pointerD, &count};
  const KernelNodeParams scaleBParams = program.scaleNode(argumentsB), scaleDParams = program.scaleNode(argumentsD);
  program.check(cuGraphAddKernelNode(&scaleB, graph, &copy, 1, &scaleBParams));
  program.check(cuGraphAddKernelNode(&scaleD, graph, &scaleB, 1, &scaleDParams));
  program.check(cuGraphAddMemFreeNode(&free, graph, &scaleD, 1, d));
  void* exec = program.instantiate(graph);
  program.launch(exec);
  *program.hostB = host;
  scaleOnHost(*program.hostB, kCount);
  // The second copy now reads A.
  dToB = linearCopy(kDeviceMemory, nullptr, program.a, program.b);
  program.check(cuGraphExecMemcpyNodeSetParams(exec, copy, &dToB, program.context));
  const cu::GraphExecParams set{exec, copy, &dToB};
  program.raise(cu::cbid::cuGraphExecMemcpyNodeSetParams, cu::kApiExit, &set);
  program.launch(exec);
  *program.hostB = *program.hostA;
  scaleOnHost(*program.hostB, kCount);
  return "{\"graph\":" + jsonAddress(reinterpret_cast<std::uint64_t>(graph)) + ",\"d\":" + std::to_string(d) + "}";
}

}  // namespace kreplay::capture::test
