#include "capture/test/drive-collective-injection.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "capture/inject/cupti-callback-api.hpp"
#include "capture/test/synthetic-images.hpp"

namespace kreplay::capture::test {

namespace cu = cupti;

int driveCollectiveInjection(const char* captureLibrary, const char* fakeCupti, const char* imageLibrary,
                             CollectiveScenario scenario, std::ostream& out) {
  void* library = ::dlopen(captureLibrary, RTLD_NOW | RTLD_LOCAL);
  void* fake = ::dlopen(fakeCupti, RTLD_NOW | RTLD_GLOBAL);
  void* images = ::dlopen(imageLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr || fake == nullptr || images == nullptr) {
    out << "dlopen failed: " << ::dlerror() << "\n";
    return 1;
  }
  auto* initialize = reinterpret_cast<int (*)()>(::dlsym(library, "InitializeInjection"));
  auto* invoke = reinterpret_cast<int (*)(int, std::uint32_t, const void*)>(::dlsym(fake, "fakeCuptiInvoke"));
  auto* nameKernel = reinterpret_cast<void (*)(void*, const char*)>(::dlsym(fake, "fakeCuptiNameKernel"));
  auto* launchKernel = reinterpret_cast<int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                                unsigned, void*, void**, void**)>(::dlsym(fake, "cuLaunchKernel"));
  auto* libraryLaunch = reinterpret_cast<int (*)(void*, void**)>(::dlsym(images, "kreplayFixtureLaunch"));
  Bytes cubin = syntheticCubin().bytes;
  auto* image = scenario == CollectiveScenario::ImageInLibrary
                    ? static_cast<std::uint8_t*>(::dlsym(images, "kreplayFixtureModuleImage"))
                    : cubin.data();
  if (initialize == nullptr || invoke == nullptr || image == nullptr || nameKernel == nullptr ||
      launchKernel == nullptr || libraryLaunch == nullptr || cubin.size() > (1u << 16)) {
    out << "missing symbols\n";
    return 1;
  }
  const int initialized = initialize();

  cu::CUresult success = 0;
  auto call = [&](std::uint32_t cbid, int site, const void* params, const char* symbol = nullptr) {
    cu::CallbackData data{};
    data.callbackSite = site;
    data.functionParams = params;
    data.functionReturnValue = &success;
    data.symbolName = symbol;
    return invoke(cu::kDomainDriverApi, cbid, &data);
  };

  // cuModuleLoadData(&module, image): the callback gives the driver's copy, which no library holds.
  if (image != cubin.data()) std::memcpy(image, cubin.data(), cubin.size());
  cu::CUmodule module = nullptr;
  cu::ModuleImageParams load{&module, image};
  call(cu::cbid::cuModuleLoadData, cu::kApiEnter, &load);
  const std::vector<std::uint8_t> driverCopy(image, image + cubin.size());
  cu::ModuleResourceData moduleData{7, driverCopy.size(), reinterpret_cast<const char*>(driverCopy.data())};
  cu::ResourceData resource{nullptr, nullptr, &moduleData};
  invoke(cu::kDomainResource, cu::kResourceModuleLoaded, &resource);
  module = reinterpret_cast<cu::CUmodule>(0x5000);  // what the fake cuFuncGetModule says of every function
  call(cu::cbid::cuModuleLoadData, cu::kApiExit, &load);

  std::vector<std::uint8_t> memory(65536, 1);
  cu::CUdeviceptr base = reinterpret_cast<cu::CUdeviceptr>(memory.data());
  cu::MemAllocParams alloc{&base, memory.size()};
  call(cu::cbid::cuMemAlloc_v2, cu::kApiExit, &alloc);
  std::uint64_t pointer = base;
  int count = 1;
  void* kernelParams[] = {&pointer, &count};
  void* const function = reinterpret_cast<void*>(0x77);
  if (scenario == CollectiveScenario::ImageInLibrary) {
    cu::LaunchKernelParams params{
        static_cast<cu::CUfunction>(function), 1, 1, 1, 64, 1, 1, 0, nullptr, kernelParams, nullptr};
    call(cu::cbid::cuLaunchKernel, cu::kApiEnter, &params, "scale");
    memory[0] = 2;  // the "kernel"
    call(cu::cbid::cuLaunchKernel, cu::kApiExit, &params, "scale");
  } else {
    nameKernel(function, "scale");
    const int fromLibrary = libraryLaunch(function, kernelParams);
    const int fromProgram = launchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, kernelParams, nullptr);
    if (fromLibrary != 0 || fromProgram != 0) {
      out << "cuLaunchKernel failed: " << fromLibrary << ", " << fromProgram << "\n";
      return 1;
    }
  }

  out << "{\"initialized\":" << initialized << ",\"pid\":" << ::getpid() << "}" << std::endl;
  return 0;  // exit: the library's atexit handler drains the writer and marks the capture complete
}

}  // namespace kreplay::capture::test
