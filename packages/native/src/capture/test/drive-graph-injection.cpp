#include "capture/test/drive-graph-injection.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/json-text.hpp"
#include "capture/test/drive-graph-exec-changes.hpp"
#include "capture/test/graph-program.hpp"
#include "capture/test/synthetic-images.hpp"

namespace kreplay::capture::test {

namespace cu = cupti;

namespace {

struct InstantiateParams {
  void** phGraphExec;
  void* hGraph;
  unsigned long long flags;
};

constexpr std::size_t kMappingBytes = 2u << 20;                   // the fake's granularity
constexpr std::uint64_t kMappingAddress = 0x3f6000000000;         // a hint: where replays map it too

}  // namespace

int driveGraphInjection(const char* captureLibrary, const char* fakeCupti, const char* fakeCuda, std::ostream& out) {
  void* cuda = ::dlopen(fakeCuda, RTLD_NOW | RTLD_LOCAL);
  void* fake = ::dlopen(fakeCupti, RTLD_NOW | RTLD_LOCAL);
  void* library = ::dlopen(captureLibrary, RTLD_NOW | RTLD_LOCAL);
  if (cuda == nullptr || fake == nullptr || library == nullptr) {
    out << "dlopen failed: " << ::dlerror() << "\n";
    return 1;
  }
  bool missing = false;
  auto symbol = [&](void* from, const char* name) {
    void* found = ::dlsym(from, name);
    if (found == nullptr) {
      out << "missing " << name << "\n";
      missing = true;
    }
    return found;
  };
#define CUDA(name, ...) auto name = reinterpret_cast<int (*)(__VA_ARGS__)>(symbol(cuda, #name))
  CUDA(cuInit, unsigned);
  CUDA(cuDevicePrimaryCtxRetain, void**, int);
  CUDA(cuCtxSetCurrent, void*);
  CUDA(cuModuleLoadDataEx, void**, const void*, unsigned, int*, void**);
  CUDA(cuModuleGetFunction, void**, void*, const char*);
  CUDA(cuMemAddressReserve, std::uint64_t*, std::size_t, std::size_t, std::uint64_t, unsigned long long);
  CUDA(cuMemCreate, unsigned long long*, std::size_t, const void*, unsigned long long);
  CUDA(cuMemMap, std::uint64_t, std::size_t, std::size_t, unsigned long long, unsigned long long);
  CUDA(cuMemSetAccess, std::uint64_t, std::size_t, const void*, std::size_t);
  CUDA(cuMemcpy, std::uint64_t, std::uint64_t, std::size_t);
  CUDA(cuStreamCreate, void**, unsigned);
  CUDA(cuStreamSynchronize, void*);
  CUDA(cuLaunchKernel, void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**);
  CUDA(cuMemsetD8Async, std::uint64_t, unsigned char, std::size_t, void*);
  CUDA(cuGraphCreate, void**, unsigned);
  CUDA(cuGraphAddKernelNode_v2, void**, void*, void* const*, std::size_t, const KernelNodeParams*);
  CUDA(cuGraphAddMemsetNode, void**, void*, void* const*, std::size_t, const MemsetNodeParams*, void*);
  CUDA(cuGraphInstantiateWithFlags, void**, void*, unsigned long long);
  CUDA(cuGraphExecKernelNodeSetParams_v2, void*, void*, const KernelNodeParams*);
  CUDA(cuGraphLaunch, void*, void*);
  CUDA(cuStreamBeginCapture_v2, void*, int);
  CUDA(cuStreamEndCapture, void*, void**);
#undef CUDA
  auto* initialize = reinterpret_cast<int (*)()>(symbol(library, "InitializeInjection"));
  auto* invoke = reinterpret_cast<int (*)(int, std::uint32_t, const void*)>(symbol(fake, "fakeCuptiInvoke"));
  if (missing) return 1;
  const int initialized = initialize();

  cu::CUresult success = 0;
  auto call = [&](std::uint32_t cbid, int site, const void* params, const char* symbolName = nullptr) {
    cu::CallbackData data{};
    data.callbackSite = site;
    data.functionParams = params;
    data.functionReturnValue = &success;
    data.symbolName = symbolName;
    return invoke(cu::kDomainDriverApi, cbid, &data);
  };
  bool ok = true;
  auto check = [&](int result) { ok = ok && result == 0; };

  check(cuInit(0));
  void* context = nullptr;
  check(cuDevicePrimaryCtxRetain(&context, 0));
  check(cuCtxSetCurrent(context));
  const Bytes image = syntheticCubin().bytes;
  void* module = nullptr;
  cu::ModuleLoadParams load{reinterpret_cast<cu::CUmodule*>(&module)};
  call(cu::cbid::cuModuleLoadDataEx, cu::kApiEnter, &load);
  check(cuModuleLoadDataEx(&module, image.data(), 0, nullptr, nullptr));
  cu::ModuleResourceData moduleData{7, image.size(), reinterpret_cast<const char*>(image.data())};
  cu::ResourceData resource{nullptr, nullptr, &moduleData};
  invoke(cu::kDomainResource, cu::kResourceModuleLoaded, &resource);
  call(cu::cbid::cuModuleLoadDataEx, cu::kApiExit, &load);
  void* scale = nullptr;
  check(cuModuleGetFunction(&scale, module, "scale"));

  // A and B: the first two pages of one mapping at a fixed address, so that a replay can map it there.
  std::uint64_t a = 0;
  unsigned long long handle = 0;
  const unsigned char properties[64] = {};
  const struct {
    int type, id, flags;
  } access{1, 0, 3};  // CU_MEM_LOCATION_TYPE_DEVICE 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE
  check(cuMemAddressReserve(&a, kMappingBytes, 0, kMappingAddress, 0));
  check(cuMemCreate(&handle, kMappingBytes, properties, 0));
  check(cuMemMap(a, kMappingBytes, 0, handle, 0));
  check(cuMemSetAccess(a, kMappingBytes, &access, 1));
  cu::MemMapParams map{a, kMappingBytes, 0, handle, 0};
  call(cu::cbid::cuMemMap, cu::kApiExit, &map);
  const std::uint64_t b = a + kBytes;
  std::vector<float> hostA(kCount), hostB(kCount, 0.0f);
  for (int index = 0; index < kCount; ++index) hostA[index] = static_cast<float>(index % 97) * 0.25f;
  check(cuMemcpy(a, reinterpret_cast<std::uint64_t>(hostA.data()), kBytes));
  check(cuMemcpy(b, reinterpret_cast<std::uint64_t>(hostB.data()), kBytes));
  void* stream = nullptr;
  check(cuStreamCreate(&stream, 1));

  auto launchGraph = [&](void* exec) {
    cu::GraphExecParams params{exec, stream, nullptr};
    call(cu::cbid::cuGraphLaunch, cu::kApiEnter, &params);
    check(cuGraphLaunch(exec, stream));
    call(cu::cbid::cuGraphLaunch, cu::kApiExit, &params);
    check(cuStreamSynchronize(stream));
  };
  auto instantiate = [&](void* graph) {
    void* exec = nullptr;
    check(cuGraphInstantiateWithFlags(&exec, graph, 0));
    InstantiateParams params{&exec, graph, 0};
    call(cu::cbid::cuGraphInstantiateWithFlags, cu::kApiExit, &params);
    return exec;
  };

  // A graph built node by node: memset(B, 3.0f), scale(A, count), then scale(B, n) after both.
  std::uint64_t pointerA = a, pointerB = b;
  int countA = kCount, countB = kCount;
  void* argumentsA[] = {&pointerA, &countA};
  void* argumentsB[] = {&pointerB, &countB};
  auto kernelNode = [&](void** arguments) { return scaleNodeParams(scale, arguments); };
  const float three = 3.0f;
  unsigned threeBits = 0;
  std::memcpy(&threeBits, &three, 4);
  void *graph = nullptr, *memsetNode = nullptr, *scaleA = nullptr, *scaleB = nullptr;
  check(cuGraphCreate(&graph, 0));
  const MemsetNodeParams memset{b, kBytes, threeBits, 4, kCount, 1};
  check(cuGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memset, context));
  const KernelNodeParams scaleAParams = kernelNode(argumentsA), scaleBParams = kernelNode(argumentsB);
  check(cuGraphAddKernelNode_v2(&scaleA, graph, nullptr, 0, &scaleAParams));
  void* const both[] = {memsetNode, scaleA};
  check(cuGraphAddKernelNode_v2(&scaleB, graph, both, 2, &scaleBParams));
  void* exec = instantiate(graph);
  std::string counts;
  for (const int count : {kCount, kCount / 2, kCount / 4}) {
    if (count != kCount) {
      countA = count;
      const KernelNodeParams changed = kernelNode(argumentsA);
      check(cuGraphExecKernelNodeSetParams_v2(exec, scaleA, &changed));
      cu::GraphExecParams params{exec, scaleA, &changed};
      call(cu::cbid::cuGraphExecKernelNodeSetParams_v2, cu::kApiExit, &params);
    }
    counts += (counts.empty() ? "" : ",") + std::to_string(count);
    launchGraph(exec);
    std::fill(hostB.begin(), hostB.end(), 3.0f);
    scaleOnHost(hostA, count);
    scaleOnHost(hostB, kCount);
  }

  // A graph captured from the stream: memset(B, 0), scale(A), scale(B).
  cu::StreamCaptureParams capture{static_cast<cu::CUstream>(stream)};
  check(cuStreamBeginCapture_v2(stream, 0));
  call(cu::cbid::cuStreamBeginCapture_v2, cu::kApiExit, &capture);
  check(cuMemsetD8Async(b, 0, kBytes, stream));
  cu::MemsetAsyncParams<unsigned char> memsetCall{b, 0, kBytes, static_cast<cu::CUstream>(stream)};
  call(cu::cbid::cuMemsetD8Async, cu::kApiExit, &memsetCall);
  countA = kCount;
  for (void** arguments : {argumentsA, argumentsB}) {
    cu::LaunchKernelParams params{static_cast<cu::CUfunction>(scale), kCount / 256, 1, 1, 256, 1, 1, 0,
                                  static_cast<cu::CUstream>(stream), arguments, nullptr};
    call(cu::cbid::cuLaunchKernel, cu::kApiEnter, &params, "scale");
    check(cuLaunchKernel(scale, kCount / 256, 1, 1, 256, 1, 1, 0, stream, arguments, nullptr));
    call(cu::cbid::cuLaunchKernel, cu::kApiExit, &params, "scale");
  }
  void* captured = nullptr;
  check(cuStreamEndCapture(stream, &captured));
  call(cu::cbid::cuStreamEndCapture, cu::kApiExit, &capture);
  void* capturedExec = instantiate(captured);
  for (int launch = 0; launch < 3; ++launch) {
    launchGraph(capturedExec);
    std::fill(hostB.begin(), hostB.end(), 0.0f);
    scaleOnHost(hostA, kCount);
    scaleOnHost(hostB, kCount);
  }

  GraphProgram program;
  program.cuda = cuda;
  program.raise = [&](std::uint32_t cbid, int site, const void* params) { call(cbid, site, params); };
  program.check = check;
  program.instantiate = instantiate;
  program.launch = launchGraph;
  program.context = context;
  program.stream = stream;
  program.scale = scale;
  program.a = a;
  program.b = b;
  program.hostA = &hostA;
  program.hostB = &hostB;
  const std::string update = driveGraphExecUpdate(program);
  const std::string setters = driveGraphExecSetters(program);
  const std::string memoryNodes = driveGraphMemoryNodes(program);
  if (program.missing) std::cerr << "the fake libcuda lacks a graph call the scenarios make\n";
  ok = ok && !program.missing;

  std::vector<float> deviceA(kCount), deviceB(kCount);
  check(cuMemcpy(reinterpret_cast<std::uint64_t>(deviceA.data()), a, kBytes));
  check(cuMemcpy(reinterpret_cast<std::uint64_t>(deviceB.data()), b, kBytes));
  const bool unchanged = deviceA == hostA && deviceB == hostB;
  auto hex = [](const void* handle) { return jsonAddress(reinterpret_cast<std::uint64_t>(handle)); };
  out << "{\"initialized\":" << initialized << ",\"ok\":" << (ok ? "true" : "false") << ",\"a\":" << a
      << ",\"b\":" << b << ",\"bytes\":" << kBytes << ",\"graph\":" << hex(graph) << ",\"memsetNode\":" << hex(memsetNode)
      << ",\"scaleA\":" << hex(scaleA) << ",\"scaleB\":" << hex(scaleB) << ",\"captured\":" << hex(captured)
      << ",\"stream\":" << hex(stream) << ",\"counts\":[" << counts << "],\"update\":" << update
      << ",\"setters\":" << setters << ",\"memoryNodes\":" << memoryNodes
      << ",\"unchanged\":" << (unchanged ? "true" : "false") << "}" << std::endl;
  return 0;  // exit: the library's atexit handler drains the writer and marks the capture complete
}

}  // namespace kreplay::capture::test
