#include "capture/test/drive-injection.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/test/synthetic-images.hpp"

namespace kreplay::capture::test {

namespace cu = cupti;

namespace {

constexpr std::size_t kPage = 65536;

std::string fills(const std::vector<std::uint8_t>& memory) {
  std::string out = "[";
  for (std::size_t at = 0; at < memory.size(); at += kPage) out += (at ? "," : "") + std::to_string(memory[at]);
  return out + "]";
}

}  // namespace

int driveInjection(const char* captureLibrary, const char* fakeCupti, std::ostream& out) {
  void* library = ::dlopen(captureLibrary, RTLD_NOW | RTLD_LOCAL);
  void* fake = ::dlopen(fakeCupti, RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr || fake == nullptr) {
    out << "dlopen failed: " << ::dlerror() << "\n";
    return 1;
  }
  auto* initialize = reinterpret_cast<int (*)()>(::dlsym(library, "InitializeInjection"));
  auto* invoke = reinterpret_cast<int (*)(int, std::uint32_t, const void*)>(::dlsym(fake, "fakeCuptiInvoke"));
  auto* enabled = reinterpret_cast<int (*)(int, std::uint32_t)>(::dlsym(fake, "fakeCuptiEnabled"));
  auto* counterAddress = reinterpret_cast<std::uint64_t (*)()>(::dlsym(fake, "fakeCudaCounterAddress"));
  auto counter = [&](const char* name) {
    auto* read = reinterpret_cast<std::uint64_t (*)()>(::dlsym(fake, name));
    return read == nullptr ? ~std::uint64_t{0} : read();
  };
  if (initialize == nullptr || invoke == nullptr || enabled == nullptr || counterAddress == nullptr) {
    out << "missing symbols\n";
    return 1;
  }
  const int initialized = initialize();

  const Bytes module = syntheticCubin().bytes;
  cu::ModuleResourceData moduleData{7, module.size(), reinterpret_cast<const char*>(module.data())};
  cu::ResourceData resource{nullptr, nullptr, &moduleData};
  invoke(cu::kDomainResource, cu::kResourceModuleLoaded, &resource);

  cu::CUresult success = 0;
  auto call = [&](std::uint32_t cbid, int site, const void* params, const char* symbol = nullptr) {
    cu::CallbackData data{};
    data.callbackSite = site;
    data.functionParams = params;
    data.functionReturnValue = &success;
    data.symbolName = symbol;
    return invoke(cu::kDomainDriverApi, cbid, &data);
  };

  std::vector<std::uint8_t> memory(3 * kPage, 1);
  cu::CUdeviceptr base = reinterpret_cast<cu::CUdeviceptr>(memory.data());
  cu::MemAllocParams alloc{&base, memory.size()};
  call(cu::cbid::cuMemAlloc_v2, cu::kApiExit, &alloc);
  auto* const global = reinterpret_cast<std::uint8_t*>(counterAddress());

  auto* stream1 = reinterpret_cast<cu::CUstream>(0x51);
  auto* stream2 = reinterpret_cast<cu::CUstream>(0x52);
  std::string launches;
  auto launch = [&](cu::CUstream stream, int page, std::uint8_t write, const char* symbol = "scale") {
    std::uint64_t pointer = base;
    int count = 1;
    void* kernelParams[] = {&pointer, &count};
    cu::LaunchKernelParams params{
        reinterpret_cast<cu::CUfunction>(0x77), 2, 1, 1, 64, 1, 1, 0, stream, kernelParams, nullptr};
    const std::string before = fills(memory);
    const int counterBefore = global[0];
    const int seen = call(cu::cbid::cuLaunchKernel, cu::kApiEnter, &params, symbol);
    if (page >= 0) std::memset(memory.data() + page * kPage, write, kPage);  // the "kernel"
    call(cu::cbid::cuLaunchKernel, cu::kApiExit, &params, symbol);
    if (std::strcmp(symbol, "scale") != 0) return;
    launches += std::string(launches.empty() ? "" : ",") + "{\"seen\":" + std::to_string(seen) +
                ",\"stream\":\"0x" + (stream == stream1 ? "51" : "52") + "\",\"before\":" + before +
                ",\"after\":" + fills(memory) + ",\"counter\":" + std::to_string(counterBefore) + "}";
  };

  launch(stream1, 0, 2);
  std::memset(memory.data() + kPage, 5, kPage);  // cuMemsetD8Async on stream 1: page 1
  cu::MemsetAsyncParams<unsigned char> memset{base + kPage, 5, kPage, stream1};
  call(cu::cbid::cuMemsetD8Async, cu::kApiExit, &memset);
  launch(stream1, 0, 3);
  std::vector<std::uint8_t> host(kPage, 8);  // cuMemcpyHtoDAsync on stream 2 from untracked memory: page 2
  std::memcpy(memory.data() + 2 * kPage, host.data(), kPage);
  cu::LinearCopyAsyncParams upload{base + 2 * kPage, reinterpret_cast<std::uint64_t>(host.data()), kPage, stream2};
  call(cu::cbid::cuMemcpyHtoDAsync_v2, cu::kApiExit, &upload);
  launch(stream2, -1, 0);
  cu::StreamFirstParams hostFunction{stream2};
  call(cu::cbid::cuLaunchHostFunc, cu::kApiExit, &hostFunction);
  launch(stream2, -1, 0);
  launch(stream2, 1, 6, "other_kernel");  // not selected: it writes page 1 unseen
  launch(stream2, -1, 0);
  cu::EventRecordParams record{reinterpret_cast<void*>(0xe1), stream1};
  call(cu::cbid::cuEventRecord, cu::kApiExit, &record);
  cu::StreamWaitEventParams wait{stream2, reinterpret_cast<void*>(0xe1), 0};
  call(cu::cbid::cuStreamWaitEvent, cu::kApiExit, &wait);
  launch(stream2, 2, 9);

  struct {
    void* graph;
    cu::CUstream stream;
  } graph{nullptr, nullptr};
  call(cu::cbid::cuGraphLaunch, cu::kApiEnter, &graph);
  call(cu::cbid::cuGraphLaunch, cu::kApiExit, &graph);
  cu::MemFreeParams freed{base};
  call(cu::cbid::cuMemFree_v2, cu::kApiExit, &freed);

  int enabledCount = 0;
  for (const std::uint32_t cbid :
       {cu::cbid::cuLaunchKernel, cu::cbid::cuLaunchKernel_ptsz, cu::cbid::cuLaunchKernelEx,
        cu::cbid::cuLaunchKernelEx_ptsz, cu::cbid::cuGraphLaunch, cu::cbid::cuMemAlloc_v2, cu::cbid::cuMemFree_v2,
        cu::cbid::cuMemMap, cu::cbid::cuTexObjectCreate, cu::cbid::cuModuleLoadData, cu::cbid::cuMemsetD8Async,
        cu::cbid::cuMemcpyHtoDAsync_v2, cu::cbid::cuLaunchHostFunc, cu::cbid::cuEventRecord,
        cu::cbid::cuStreamWaitEvent, cu::cbid::cuMemcpy2D_v2})
    enabledCount += enabled(cu::kDomainDriverApi, cbid);
  enabledCount += enabled(cu::kDomainResource, cu::kResourceModuleLoaded);
  out << "{\"initialized\":" << initialized << ",\"pid\":" << ::getpid() << ",\"base\":" << base
      << ",\"bytes\":" << memory.size() << ",\"counter\":" << counterAddress() << ",\"enabled\":" << enabledCount
      << ",\"hashModuleLoads\":" << counter("fakeCudaHashModuleLoads")
      << ",\"hashLaunches\":" << counter("fakeCudaHashLaunches") << ",\"hashedBytes\":" << counter("fakeCudaHashedBytes")
      << ",\"stagedBytes\":" << counter("fakeCudaStagedBytes")
      << ",\"pinnedAllocations\":" << counter("fakeCudaPinnedAllocations") << ",\"launches\":[" << launches << "]}"
      << std::endl;
  return 0;  // exit: the library's atexit handler drains the writer and marks the capture complete
}

}  // namespace kreplay::capture::test
