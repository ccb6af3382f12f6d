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

  std::vector<std::uint8_t> memory(3 * 65536, 1);
  cu::CUdeviceptr base = reinterpret_cast<cu::CUdeviceptr>(memory.data());
  cu::MemAllocParams alloc{&base, memory.size()};
  call(cu::cbid::cuMemAlloc_v2, cu::kApiExit, &alloc);

  std::string launches;
  auto launch = [&](int count, std::uint8_t write) {
    std::uint64_t pointer = base;
    void* kernelParams[] = {&pointer, &count};
    cu::LaunchKernelParams params{
        reinterpret_cast<cu::CUfunction>(0x77), 2, 1, 1, 64, 1, 1, 0, nullptr, kernelParams, nullptr};
    const int before = memory[0], counterBefore = reinterpret_cast<std::uint8_t*>(counterAddress())[0];
    const int seen = call(cu::cbid::cuLaunchKernel, cu::kApiEnter, &params, "scale");
    std::memset(memory.data(), write, 65536);  // the "kernel" writes page 0
    call(cu::cbid::cuLaunchKernel, cu::kApiExit, &params, "scale");
    launches += std::string(launches.empty() ? "" : ",") + "{\"seen\":" + std::to_string(seen) +
                ",\"page0Before\":" + std::to_string(before) + ",\"page0After\":" + std::to_string(write) +
                ",\"counter\":" + std::to_string(counterBefore) + "}";
  };
  launch(1, 2);
  memory[2 * 65536] = 9;  // the program writes page 2
  launch(2, 3);

  cu::CUstream stream = nullptr;
  struct {
    void* graph;
    cu::CUstream stream;
  } graph{nullptr, stream};
  call(cu::cbid::cuGraphLaunch, cu::kApiEnter, &graph);
  call(cu::cbid::cuGraphLaunch, cu::kApiExit, &graph);
  cu::MemFreeParams freed{base};
  call(cu::cbid::cuMemFree_v2, cu::kApiExit, &freed);

  int enabledCount = 0;
  for (const std::uint32_t cbid :
       {cu::cbid::cuLaunchKernel, cu::cbid::cuLaunchKernel_ptsz, cu::cbid::cuLaunchKernelEx,
        cu::cbid::cuLaunchKernelEx_ptsz, cu::cbid::cuGraphLaunch, cu::cbid::cuMemAlloc_v2,
        cu::cbid::cuMemFree_v2, cu::cbid::cuMemMap, cu::cbid::cuTexObjectCreate, cu::cbid::cuModuleLoadData})
    enabledCount += enabled(cu::kDomainDriverApi, cbid);
  enabledCount += enabled(cu::kDomainResource, cu::kResourceModuleLoaded);
  out << "{\"initialized\":" << initialized << ",\"pid\":" << ::getpid() << ",\"base\":" << base
      << ",\"bytes\":" << memory.size()
      << ",\"counter\":" << counterAddress() << ",\"enabled\":" << enabledCount << ",\"launches\":["
      << launches << "]}" << std::endl;
  return 0;  // exit: the library's atexit handler marks the capture complete
}

}  // namespace kreplay::capture::test
