#include "capture/test/traced-cuda.hpp"

#include <dlfcn.h>

namespace kreplay::capture::test {

namespace cu = cupti;

TracedCuda::TracedCuda(const char* fakeCuda, const char* fakeCupti, const char* captureLibrary,
                       std::ostream& out) {
  void* cuda = ::dlopen(fakeCuda, RTLD_NOW | RTLD_LOCAL);
  void* fake = fakeCupti != nullptr ? ::dlopen(fakeCupti, RTLD_NOW | RTLD_LOCAL) : nullptr;
  void* library = captureLibrary != nullptr ? ::dlopen(captureLibrary, RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (cuda == nullptr || (fakeCupti != nullptr && fake == nullptr) ||
      (captureLibrary != nullptr && library == nullptr)) {
    out << "dlopen failed: " << ::dlerror() << "\n";
    return;
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
#define KREPLAY_TRACED_CUDA_RESOLVE(name, ...) \
  name = reinterpret_cast<int (*)(__VA_ARGS__)>(symbol(cuda, #name));
  KREPLAY_TRACED_CUDA_CALLS(KREPLAY_TRACED_CUDA_RESOLVE)
#undef KREPLAY_TRACED_CUDA_RESOLVE
  int (*initialize)() = nullptr;
  if (library != nullptr) initialize = reinterpret_cast<int (*)()>(symbol(library, "InitializeInjection"));
  if (fake != nullptr)
    invoke_ = reinterpret_cast<int (*)(int, std::uint32_t, const void*)>(symbol(fake, "fakeCuptiInvoke"));
  if (missing) return;
  if (initialize != nullptr) initialized_ = initialize();
  opened_ = true;
}

void TracedCuda::callback(std::uint32_t id, int site, const void* params, const char* symbol) {
  if (invoke_ == nullptr) return;
  cu::CallbackData data{};
  data.callbackSite = site;
  data.functionParams = params;
  data.functionReturnValue = &result_;
  data.symbolName = symbol;
  invoke_(cu::kDomainDriverApi, id, &data);
}

void TracedCuda::moduleLoaded(std::uint32_t moduleId, const void* image, std::size_t bytes) {
  if (invoke_ == nullptr) return;
  cu::ModuleResourceData module{moduleId, bytes, static_cast<const char*>(image)};
  cu::ResourceData resource{nullptr, nullptr, &module};
  invoke_(cu::kDomainResource, cu::kResourceModuleLoaded, &resource);
}

namespace {

/** Raises `id`'s entry callback, makes the call, keeps its result for the exit callback, raises that. */
template <class Call>
void traced(TracedCuda& cuda, cu::CUresult& result, std::uint32_t id, const void* params, Call call,
            const char* symbol = nullptr) {
  cuda.callback(id, cu::kApiEnter, params, symbol);
  result = call();
  cuda.check(result);
  cuda.callback(id, cu::kApiExit, params, symbol);
}

}  // namespace

void* TracedCuda::loadModule(const void* image, std::size_t bytes) {
  void* module = nullptr;
  cu::ModuleImageParams params{&module, image};
  callback(cu::cbid::cuModuleLoadDataEx, cu::kApiEnter, &params);
  result_ = cuModuleLoadDataEx(&module, image, 0, nullptr, nullptr);
  check(result_);
  moduleLoaded(7, image, bytes);
  callback(cu::cbid::cuModuleLoadDataEx, cu::kApiExit, &params);
  return module;
}

void TracedCuda::mapped(std::uint64_t address, std::size_t bytes, unsigned long long handle) {
  cu::MemMapParams params{address, bytes, 0, handle, 0};
  traced(*this, result_, cu::cbid::cuMemMap, &params, [&] { return cuMemMap(address, bytes, 0, handle, 0); });
}

void TracedCuda::copy(std::uint64_t destination, std::uint64_t source, std::size_t bytes) {
  cu::LinearCopyParams params{destination, source, bytes};
  traced(*this, result_, cu::cbid::cuMemcpy, &params, [&] { return cuMemcpy(destination, source, bytes); });
}

void TracedCuda::copyAsync(std::uint64_t destination, std::uint64_t source, std::size_t bytes, void* stream) {
  cu::LinearCopyAsyncParams params{destination, source, bytes, static_cast<cu::CUstream>(stream)};
  traced(*this, result_, cu::cbid::cuMemcpyAsync, &params,
         [&] { return cuMemcpyAsync(destination, source, bytes, stream); });
}

void TracedCuda::memsetAsync(std::uint64_t destination, unsigned value, unsigned elementBytes,
                             std::size_t count, void* stream) {
  const auto cuStream = static_cast<cu::CUstream>(stream);
  if (elementBytes == 1) {
    cu::MemsetAsyncParams<unsigned char> params{destination, static_cast<unsigned char>(value), count,
                                                cuStream};
    traced(*this, result_, cu::cbid::cuMemsetD8Async, &params,
           [&] { return cuMemsetD8Async(destination, params.value, count, stream); });
  } else if (elementBytes == 2) {
    cu::MemsetAsyncParams<unsigned short> params{destination, static_cast<unsigned short>(value), count,
                                                 cuStream};
    traced(*this, result_, cu::cbid::cuMemsetD16Async, &params,
           [&] { return cuMemsetD16Async(destination, params.value, count, stream); });
  } else {
    cu::MemsetAsyncParams<unsigned> params{destination, value, count, cuStream};
    traced(*this, result_, cu::cbid::cuMemsetD32Async, &params,
           [&] { return cuMemsetD32Async(destination, value, count, stream); });
  }
}

void TracedCuda::launch(void* function, const char* name, unsigned grid, unsigned block, void* stream,
                        void** arguments) {
  cu::LaunchKernelParams params{static_cast<cu::CUfunction>(function), grid,      1,      1, block, 1, 1, 0,
                                static_cast<cu::CUstream>(stream),     arguments, nullptr};
  traced(
      *this, result_, cu::cbid::cuLaunchKernel, &params,
      [&] { return cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, stream, arguments, nullptr); }, name);
}

void TracedCuda::recordEvent(void* event, void* stream) {
  cu::EventRecordParams params{event, static_cast<cu::CUstream>(stream)};
  traced(*this, result_, cu::cbid::cuEventRecord, &params, [&] { return cuEventRecord(event, stream); });
}

void TracedCuda::waitEvent(void* stream, void* event) {
  cu::StreamWaitEventParams params{static_cast<cu::CUstream>(stream), event, 0};
  traced(*this, result_, cu::cbid::cuStreamWaitEvent, &params,
         [&] { return cuStreamWaitEvent(stream, event, 0); });
}

void TracedCuda::beginCapture(void* stream) {
  cu::StreamCaptureParams params{static_cast<cu::CUstream>(stream)};
  traced(*this, result_, cu::cbid::cuStreamBeginCapture_v2, &params,
         [&] { return cuStreamBeginCapture_v2(stream, 0); });
}

void* TracedCuda::endCapture(void* stream) {
  void* graph = nullptr;
  cu::StreamCaptureParams params{static_cast<cu::CUstream>(stream)};
  traced(*this, result_, cu::cbid::cuStreamEndCapture, &params,
         [&] { return cuStreamEndCapture(stream, &graph); });
  return graph;
}

void* TracedCuda::instantiate(void* graph) {
  void* exec = nullptr;
  cu::GraphInstantiateParams params{&exec, graph, nullptr};  // flags 0
  traced(*this, result_, cu::cbid::cuGraphInstantiateWithFlags, &params,
         [&] { return cuGraphInstantiateWithFlags(&exec, graph, 0); });
  return exec;
}

void TracedCuda::setKernelNode(void* exec, void* node, const KernelNodeParams& kernel) {
  cu::GraphExecParams params{exec, node, &kernel};
  traced(*this, result_, cu::cbid::cuGraphExecKernelNodeSetParams_v2, &params,
         [&] { return cuGraphExecKernelNodeSetParams_v2(exec, node, &kernel); });
}

void TracedCuda::updateExec(void* exec, void* graph) {
  struct {
    int result;
    void* errorNode;
    void* errorFromNode;
  } info{};  // CUgraphExecUpdateResultInfo
  cu::GraphExecParams params{exec, graph, &info};
  traced(*this, result_, cu::cbid::cuGraphExecUpdate_v2, &params,
         [&] { return cuGraphExecUpdate_v2(exec, graph, &info); });
}

void TracedCuda::setMemsetNode(void* exec, void* node, const MemsetNodeParams& memset) {
  cu::GraphExecParams params{exec, node, &memset};
  traced(*this, result_, cu::cbid::cuGraphExecMemsetNodeSetParams, &params,
         [&] { return cuGraphExecMemsetNodeSetParams(exec, node, &memset, nullptr); });
}

void TracedCuda::setMemcpyNode(void* exec, void* node, const Memcpy3D& copy) {
  cu::GraphExecParams params{exec, node, &copy};
  traced(*this, result_, cu::cbid::cuGraphExecMemcpyNodeSetParams, &params,
         [&] { return cuGraphExecMemcpyNodeSetParams(exec, node, &copy, nullptr); });
}

void TracedCuda::launchGraph(void* exec, void* stream) {
  cu::GraphExecParams params{exec, stream, nullptr};
  traced(*this, result_, cu::cbid::cuGraphLaunch, &params, [&] { return cuGraphLaunch(exec, stream); });
}

}  // namespace kreplay::capture::test
