#include "capture/inject/cuda-graphs.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

namespace {

// cuda.h's structures and constants the graph calls take (the program in test/gpu/cuda-graphs-program/
// checks them on a GPU).
struct KernelNodeParams {
  void* func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;  // v2 only
  void* ctx;   // v2 only
};
struct MemsetNodeParams {
  std::uint64_t dst;
  std::size_t pitch;
  unsigned value, elementSize;
  std::size_t width, height;
};
struct Memcpy3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  std::uint64_t srcDevice;
  void* srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  std::uint64_t dstDevice;
  void* dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct MemAllocNodeParams {
  unsigned char poolProps[88];
  const void* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  std::uint64_t dptr;
};
constexpr unsigned long long kDeviceLaunchFlag = 4;  // CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH
constexpr int kHostMemory = 1, kArrayMemory = 3;      // CUmemorytype

GraphNodeKind kindOfType(int type) {
  switch (type) {
    case 0: return GraphNodeKind::Kernel;
    case 1: return GraphNodeKind::Copy;
    case 2: return GraphNodeKind::Memset;
    case 3: return GraphNodeKind::Host;
    case 4: return GraphNodeKind::ChildGraph;
    case 5: return GraphNodeKind::Empty;
    case 6:
    case 7: return GraphNodeKind::Event;
    case 10: return GraphNodeKind::Allocation;
    case 11: return GraphNodeKind::Free;
    case 13: return GraphNodeKind::Conditional;
    default: return GraphNodeKind::Unsupported;  // external semaphores, batch memory operations
  }
}

std::uint64_t copyAddress(int memoryType, const void* host, std::uint64_t device, std::size_t x) {
  return (memoryType == kHostMemory ? reinterpret_cast<std::uint64_t>(host) : device) + x;
}

}  // namespace

struct CudaGraphs::Calls {
  int (*cuGraphClone)(void**, void*) = nullptr;
  int (*cuGraphDestroy)(void*) = nullptr;
  int (*cuGraphGetNodes)(void*, void**, std::size_t*) = nullptr;
  int (*cuGraphNodeGetType)(void*, int*) = nullptr;
  int (*cuGraphNodeGetDependencies)(void*, void**, std::size_t*) = nullptr;
  int (*cuGraphNodeGetDependencies_v2)(void*, void**, void*, std::size_t*) = nullptr;
  int (*cuGraphKernelNodeGetParams)(void*, KernelNodeParams*) = nullptr;  // _v2
  int (*cuGraphKernelNodeSetParams)(void*, const KernelNodeParams*) = nullptr;  // _v2
  int (*cuGraphMemsetNodeGetParams)(void*, MemsetNodeParams*) = nullptr;
  int (*cuGraphMemcpyNodeGetParams)(void*, Memcpy3D*) = nullptr;
  int (*cuGraphMemAllocNodeGetParams)(void*, MemAllocNodeParams*) = nullptr;
  int (*cuGraphMemFreeNodeGetParams)(void*, std::uint64_t*) = nullptr;
  int (*cuFuncGetName)(const char**, void*) = nullptr;
  int (*cuKernelGetFunction)(void**, void*) = nullptr;
  int (*cuLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                        void**) = nullptr;
  int (*cuMemsetD8Async)(std::uint64_t, unsigned char, std::size_t, void*) = nullptr;
  int (*cuMemsetD16Async)(std::uint64_t, unsigned short, std::size_t, void*) = nullptr;
  int (*cuMemsetD32Async)(std::uint64_t, unsigned, std::size_t, void*) = nullptr;
  int (*cuMemcpyAsync)(std::uint64_t, std::uint64_t, std::size_t, void*) = nullptr;
  int (*cuMemcpy)(std::uint64_t, std::uint64_t, std::size_t) = nullptr;
  int (*cuMemAlloc)(std::uint64_t*, std::size_t) = nullptr;
  int (*cuMemFree)(std::uint64_t) = nullptr;
  int (*cuCtxSynchronize)() = nullptr;
  int (*cuGetErrorName)(int, const char**) = nullptr;
};

CudaGraphs::CudaGraphs() : calls_(std::make_unique<Calls>()) {
  const char* path = std::getenv("KREPLAY_CUDA_LIBRARY");
  library_ = std::make_unique<DynamicLibrary>(path != nullptr && *path != '\0' ? path : "libcuda.so.1");
  if (!library_->loaded()) return;
  Calls& c = *calls_;
  bool all = true;
  auto resolve = [&](auto& function, const char* name, bool required = true) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(library_->symbol(name));
    if (function == nullptr && required) all = false;
  };
  resolve(c.cuGraphClone, "cuGraphClone");
  resolve(c.cuGraphDestroy, "cuGraphDestroy");
  resolve(c.cuGraphGetNodes, "cuGraphGetNodes");
  resolve(c.cuGraphNodeGetType, "cuGraphNodeGetType");
  resolve(c.cuGraphNodeGetDependencies_v2, "cuGraphNodeGetDependencies_v2", false);
  resolve(c.cuGraphNodeGetDependencies, "cuGraphNodeGetDependencies", c.cuGraphNodeGetDependencies_v2 == nullptr);
  resolve(c.cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2");
  resolve(c.cuGraphKernelNodeSetParams, "cuGraphKernelNodeSetParams_v2");
  resolve(c.cuGraphMemsetNodeGetParams, "cuGraphMemsetNodeGetParams");
  resolve(c.cuGraphMemcpyNodeGetParams, "cuGraphMemcpyNodeGetParams");
  resolve(c.cuGraphMemAllocNodeGetParams, "cuGraphMemAllocNodeGetParams");
  resolve(c.cuGraphMemFreeNodeGetParams, "cuGraphMemFreeNodeGetParams");
  resolve(c.cuFuncGetName, "cuFuncGetName");
  resolve(c.cuKernelGetFunction, "cuKernelGetFunction", false);
  resolve(c.cuLaunchKernel, "cuLaunchKernel");
  resolve(c.cuMemsetD8Async, "cuMemsetD8Async");
  resolve(c.cuMemsetD16Async, "cuMemsetD16Async");
  resolve(c.cuMemsetD32Async, "cuMemsetD32Async");
  resolve(c.cuMemcpyAsync, "cuMemcpyAsync");
  resolve(c.cuMemcpy, "cuMemcpy");
  resolve(c.cuMemAlloc, "cuMemAlloc_v2");
  resolve(c.cuMemFree, "cuMemFree_v2");
  resolve(c.cuCtxSynchronize, "cuCtxSynchronize");
  resolve(c.cuGetErrorName, "cuGetErrorName");
  available_ = all;
}

CudaGraphs::~CudaGraphs() = default;  // clones are left to the driver: the program may be exiting

void CudaGraphs::check(int result, const char* call) const {
  if (result == 0) return;
  const char* name = nullptr;
  if (calls_->cuGetErrorName(result, &name) != 0 || name == nullptr) name = "an unknown error";
  throw DeviceAccessError(std::string(call) + " failed: " + name + " (" + std::to_string(result) + ")");
}

std::vector<void*> CudaGraphs::nodesOf(void* graph) {
  std::size_t count = 0;
  check(calls_->cuGraphGetNodes(graph, nullptr, &count), "cuGraphGetNodes");
  std::vector<void*> nodes(count);
  if (count > 0) check(calls_->cuGraphGetNodes(graph, nodes.data(), &count), "cuGraphGetNodes");
  nodes.resize(count);
  return nodes;
}

void CudaGraphs::forget(Exec& exec) {
  if (exec.clone != nullptr) calls_->cuGraphDestroy(exec.clone);
  exec.clone = nullptr;
}

void CudaGraphs::instantiated(std::uintptr_t handle, std::uintptr_t graph, unsigned long long flags) {
  if (!available_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = execs_.find(handle); found != execs_.end()) {
    forget(found->second);
    execs_.erase(found);  // until it is known again: a launch of it is then only counted
  }
  Exec exec;
  exec.graph = graph;
  exec.deviceLaunchable = (flags & kDeviceLaunchFlag) != 0;
  check(calls_->cuGraphClone(&exec.clone, reinterpret_cast<void*>(graph)), "cuGraphClone");
  try {
    exec.originalNodes = nodesOf(reinterpret_cast<void*>(graph));
    exec.cloneNodes = nodesOf(exec.clone);
  } catch (...) {
    forget(exec);
    throw;
  }
  execs_[handle] = std::move(exec);
}

void CudaGraphs::kernelNodeSet(std::uintptr_t handle, std::uintptr_t node, const void* params, bool version2) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end()) return;
  Exec& exec = found->second;
  for (std::size_t index = 0; index < exec.originalNodes.size() && index < exec.cloneNodes.size(); ++index) {
    if (reinterpret_cast<std::uintptr_t>(exec.originalNodes[index]) != node) continue;
    KernelNodeParams copy{};
    std::memcpy(&copy, params, version2 ? sizeof(KernelNodeParams) : offsetof(KernelNodeParams, kern));
    check(calls_->cuGraphKernelNodeSetParams(exec.cloneNodes[index], &copy), "cuGraphKernelNodeSetParams");
    return;
  }
}

void CudaGraphs::updated(std::uintptr_t handle, std::uintptr_t graph) {
  bool deviceLaunchable = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = execs_.find(handle);
    if (found == execs_.end()) return;
    deviceLaunchable = found->second.deviceLaunchable;
  }
  instantiated(handle, graph, deviceLaunchable ? kDeviceLaunchFlag : 0);
}

void CudaGraphs::destroyed(std::uintptr_t handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (found == execs_.end()) return;
  forget(found->second);
  execs_.erase(found);
}

std::optional<GraphLaunchRequest> CudaGraphs::describe(std::uintptr_t handle, std::uintptr_t stream,
                                                       std::uintptr_t context) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = execs_.find(handle);
  if (!available_ || found == execs_.end()) return std::nullopt;
  const Exec& exec = found->second;
  const Calls& c = *calls_;
  GraphLaunchRequest request;
  request.graph = exec.graph;
  request.stream = stream;
  request.context = context;
  request.deviceLaunchable = exec.deviceLaunchable;
  std::map<void*, std::size_t> indexOf;
  for (std::size_t index = 0; index < exec.cloneNodes.size(); ++index) indexOf[exec.cloneNodes[index]] = index;
  for (std::size_t index = 0; index < exec.cloneNodes.size(); ++index) {
    void* node = exec.cloneNodes[index];
    GraphNode described;
    described.handle = index < exec.originalNodes.size() ? reinterpret_cast<std::uint64_t>(exec.originalNodes[index]) : 0;
    int type = -1;
    check(c.cuGraphNodeGetType(node, &type), "cuGraphNodeGetType");
    described.kind = kindOfType(type);
    std::size_t count = 0;
    std::vector<void*> dependencies;
    if (c.cuGraphNodeGetDependencies_v2 != nullptr) {
      check(c.cuGraphNodeGetDependencies_v2(node, nullptr, nullptr, &count), "cuGraphNodeGetDependencies");
      dependencies.resize(count);
      if (count > 0) check(c.cuGraphNodeGetDependencies_v2(node, dependencies.data(), nullptr, &count), "cuGraphNodeGetDependencies");
    } else {
      check(c.cuGraphNodeGetDependencies(node, nullptr, &count), "cuGraphNodeGetDependencies");
      dependencies.resize(count);
      if (count > 0) check(c.cuGraphNodeGetDependencies(node, dependencies.data(), &count), "cuGraphNodeGetDependencies");
    }
    for (void* dependency : dependencies) described.dependencies.push_back(indexOf.at(dependency));
    switch (described.kind) {
      case GraphNodeKind::Kernel: {
        KernelNodeParams params{};
        check(c.cuGraphKernelNodeGetParams(node, &params), "cuGraphKernelNodeGetParams");
        void* function = params.func;
        if (function == nullptr && params.kern != nullptr && c.cuKernelGetFunction != nullptr)
          check(c.cuKernelGetFunction(&function, params.kern), "cuKernelGetFunction");
        const char* name = nullptr;
        if (function == nullptr || c.cuFuncGetName(&name, function) != 0 || name == nullptr) {
          described.kind = GraphNodeKind::Unsupported;
          break;
        }
        LaunchRequest& launch = described.launch;
        launch.function = name;
        launch.functionHandle = reinterpret_cast<std::uintptr_t>(function);
        launch.shape.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
        launch.shape.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
        launch.shape.dynamicSharedBytes = params.sharedMemBytes;
        launch.kernelParams = params.kernelParams;
        launch.extra = params.extra;
        break;
      }
      case GraphNodeKind::Memset: {
        MemsetNodeParams params{};
        check(c.cuGraphMemsetNodeGetParams(node, &params), "cuGraphMemsetNodeGetParams");
        if (params.height > 1) {
          described.kind = GraphNodeKind::Unsupported;
          break;
        }
        described.work.kind = WorkKind::Memset;
        described.work.address = params.dst;
        described.work.bytes = params.width * params.elementSize;
        described.work.value = params.value;
        described.work.elementBytes = params.elementSize;
        break;
      }
      case GraphNodeKind::Copy: {
        Memcpy3D params{};
        check(c.cuGraphMemcpyNodeGetParams(node, &params), "cuGraphMemcpyNodeGetParams");
        if (params.srcMemoryType == kArrayMemory || params.dstMemoryType == kArrayMemory || params.Height > 1 ||
            params.Depth > 1) {
          described.kind = GraphNodeKind::Unsupported;
          break;
        }
        described.work.kind = WorkKind::Copy;
        described.work.address = copyAddress(params.dstMemoryType, params.dstHost, params.dstDevice, params.dstXInBytes);
        described.work.source = copyAddress(params.srcMemoryType, params.srcHost, params.srcDevice, params.srcXInBytes);
        described.work.bytes = params.WidthInBytes;
        break;
      }
      case GraphNodeKind::Allocation: {
        MemAllocNodeParams params{};
        check(c.cuGraphMemAllocNodeGetParams(node, &params), "cuGraphMemAllocNodeGetParams");
        described.work.kind = WorkKind::Allocation;
        described.work.address = params.dptr;
        described.work.bytes = params.bytesize;
        break;
      }
      case GraphNodeKind::Free: {
        std::uint64_t pointer = 0;
        check(c.cuGraphMemFreeNodeGetParams(node, &pointer), "cuGraphMemFreeNodeGetParams");
        described.work.kind = WorkKind::Free;
        described.work.address = pointer;
        break;
      }
      default:
        break;
    }
    request.nodes.push_back(std::move(described));
  }
  return request;
}

void CudaGraphs::runKernel(const LaunchRequest& launch) {
  const LaunchShape& shape = launch.shape;
  check(calls_->cuLaunchKernel(reinterpret_cast<void*>(launch.functionHandle), shape.grid[0], shape.grid[1],
                               shape.grid[2], shape.block[0], shape.block[1], shape.block[2],
                               shape.dynamicSharedBytes, reinterpret_cast<void*>(launch.stream),
                               const_cast<void**>(launch.kernelParams), const_cast<void**>(launch.extra)),
        "cuLaunchKernel (a graph's kernel node)");
}

void CudaGraphs::runWork(const RecordedWork& work) {
  void* stream = reinterpret_cast<void*>(work.stream);
  if (work.kind == WorkKind::Copy) {
    check(calls_->cuMemcpyAsync(work.address, work.source, work.bytes, stream), "cuMemcpyAsync (a graph's memcpy node)");
  } else if (work.elementBytes == 4) {
    check(calls_->cuMemsetD32Async(work.address, work.value, work.bytes / 4, stream), "cuMemsetD32Async (a graph's memset node)");
  } else if (work.elementBytes == 2) {
    check(calls_->cuMemsetD16Async(work.address, static_cast<unsigned short>(work.value), work.bytes / 2, stream),
          "cuMemsetD16Async (a graph's memset node)");
  } else {
    check(calls_->cuMemsetD8Async(work.address, static_cast<unsigned char>(work.value), work.bytes, stream),
          "cuMemsetD8Async (a graph's memset node)");
  }
}

void CudaGraphs::preserve(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) {
  std::uint64_t total = 0;
  for (const auto& span : spans) total += span.second;
  preserved_ = spans;
  scratch_ = 0;
  if (total == 0) return;
  check(calls_->cuMemAlloc(&scratch_, total), "cuMemAlloc (memory kept aside during a graph launch)");
  std::uint64_t offset = 0;
  for (const auto& [address, bytes] : spans) {
    check(calls_->cuMemcpy(scratch_ + offset, address, bytes), "cuMemcpy (keeping a graph's memory aside)");
    offset += bytes;
  }
}

void CudaGraphs::restore() {
  check(calls_->cuCtxSynchronize(), "cuCtxSynchronize (after a graph's nodes)");
  std::uint64_t offset = 0;
  for (const auto& [address, bytes] : preserved_) {
    check(calls_->cuMemcpy(address, scratch_ + offset, bytes), "cuMemcpy (putting a graph's memory back)");
    offset += bytes;
  }
  check(calls_->cuCtxSynchronize(), "cuCtxSynchronize (after putting a graph's memory back)");
  if (scratch_ != 0) calls_->cuMemFree(scratch_);
  scratch_ = 0;
  preserved_.clear();
}

}  // namespace kreplay::capture
