// The CUPTI glue's translation of driver calls, over params structs built here: launch shapes and
// cuLaunchKernelEx attributes, cooperative and graph launches, and allocations and frees of every
// kind reaching the session.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "capture/inject/driver-call-translation.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "capture/test/synthetic-images.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;
namespace cu = kreplay::capture::cupti;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string folder() {
  char pattern[] = "/tmp/kreplay-driver-calls-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  if (made == nullptr) throw std::runtime_error("mkdtemp failed");
  return std::string(made) + "/capture";
}

}  // namespace

TEST("driver calls: cuLaunchKernel's params give the shape, stream, kernelParams and extra") {
  void* kernelParams[1] = {nullptr};
  void* extra[1] = {nullptr};
  cu::LaunchKernelParams params{reinterpret_cast<cu::CUfunction>(0x42),
                                4,
                                5,
                                6,
                                32,
                                2,
                                1,
                                1024,
                                reinterpret_cast<cu::CUstream>(0x9),
                                kernelParams,
                                extra};
  const LaunchRequest request = launchRequest(cu::cbid::cuLaunchKernel_ptsz, &params, "scale");
  CHECK(request.kind == LaunchKind::Kernel);
  CHECK_EQ(request.function, std::string("scale"));
  CHECK_EQ(request.functionHandle, std::uintptr_t{0x42});
  CHECK(request.shape.grid == (std::array<std::uint32_t, 3>{4, 5, 6}));
  CHECK(request.shape.block == (std::array<std::uint32_t, 3>{32, 2, 1}));
  CHECK_EQ(request.shape.dynamicSharedBytes, 1024u);
  CHECK_EQ(request.stream, std::uintptr_t{0x9});
  CHECK(request.kernelParams == kernelParams && request.extra == extra);
  CHECK(isLaunch(cu::cbid::cuLaunchKernel) && isLaunch(cu::cbid::cuGraphLaunch_ptsz) &&
        !isLaunch(cu::cbid::cuMemAlloc_v2));
}

TEST("driver calls: cuLaunchKernelEx's cluster dimensions, other attributes as words, cooperative") {
  cu::LaunchAttribute attributes[3] = {};
  attributes[0].id = cu::kLaunchAttributeClusterDimension;
  attributes[0].value.clusterDim = {2, 1, 1};
  attributes[1].id = 8;  // CU_LAUNCH_ATTRIBUTE_PRIORITY
  // The program's stack behind the priority: words the capture must not record.
  std::memset(attributes[1].value.bytes, 0x5a, sizeof attributes[1].value.bytes);
  attributes[1].value.cooperative = 3;
  attributes[2].id = 99;
  attributes[2].value.clusterDim = {0, 7, 0};
  cu::LaunchConfig config{8, 1, 1, 128, 1, 1, 0, nullptr, attributes, 3};
  cu::LaunchKernelExParams params{&config, reinterpret_cast<cu::CUfunction>(0x43), nullptr, nullptr};
  const LaunchRequest request = launchRequest(cu::cbid::cuLaunchKernelEx, &params, "_Z1kv");
  CHECK(request.kind == LaunchKind::Kernel);
  CHECK(request.shape.grid == (std::array<std::uint32_t, 3>{8, 1, 1}));
  CHECK(request.shape.clusterDims ==
        (std::optional<std::array<std::uint32_t, 3>>(std::array<std::uint32_t, 3>{2, 1, 1})));
  CHECK_EQ(request.shape.attributes.size(), std::size_t{2});
  CHECK_EQ(request.shape.attributes[0].name, std::string("CU_LAUNCH_ATTRIBUTE_PRIORITY"));
  CHECK(request.shape.attributes[0].values == std::vector<std::int64_t>{3});
  CHECK_EQ(request.shape.attributes[1].name, std::string("CU_LAUNCH_ATTRIBUTE_99"));
  CHECK(request.shape.attributes[1].values == (std::vector<std::int64_t>{0, 7}));
  cu::LaunchAttribute cooperative{};
  cooperative.id = cu::kLaunchAttributeCooperative;
  cooperative.value.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  CHECK(launchRequest(cu::cbid::cuLaunchKernelEx_ptsz, &params, "_Z1kv").kind == LaunchKind::Cooperative);
  cu::LaunchCooperativeKernelParams coop{
      reinterpret_cast<cu::CUfunction>(0x44), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr};
  CHECK(launchRequest(cu::cbid::cuLaunchCooperativeKernel, &coop, "k").kind == LaunchKind::Cooperative);
  CHECK(launchRequest(cu::cbid::cuLaunchCooperativeKernelMultiDevice, nullptr, nullptr).kind ==
        LaunchKind::MultiDevice);
  CHECK(launchRequest(cu::cbid::cuGraphLaunch, nullptr, nullptr).kind == LaunchKind::Graph);
}

TEST("driver calls: allocations of every kind become ranges of a launch, frees and unmaps remove them") {
  CaptureOptions options;
  options.directory = folder();
  options.everyLaunch = true;
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  const Bytes module = syntheticCubin().bytes;
  session.moduleLoaded(1, module.data(), module.size());
  std::vector<std::vector<std::uint8_t>> blocks(9, std::vector<std::uint8_t>(4096, 0));
  auto at = [&](int i) { return reinterpret_cast<std::uint64_t>(blocks[i].data()); };
  cu::CUdeviceptr pointers[9];
  for (int i = 0; i < 9; ++i) pointers[i] = at(i);
  void* hostPointers[9];
  for (int i = 0; i < 9; ++i) hostPointers[i] = blocks[i].data();
  std::size_t pitch = 1024;
  cu::MemAllocParams alloc{&pointers[0], 4096};
  cu::MemAllocPitchParams pitched{&pointers[1], &pitch, 1000, 4, 4};
  cu::MemAllocAsyncParams async{&pointers[2], 4096, nullptr};
  cu::MemAllocFromPoolAsyncParams fromPool{&pointers[3], 4096, nullptr, nullptr};
  cu::MemHostAllocParams hostAlloc{&hostPointers[4], 4096, 0};
  cu::MemAllocHostParams allocHost{&hostPointers[5], 4096};
  cu::MemHostRegisterParams registered{hostPointers[6], 4096, 0};
  cu::MemMapParams mapped{at(7), 4096, 0, 1, 0};
  applyMemoryCall(session, cu::cbid::cuMemAlloc_v2, &alloc);
  applyMemoryCall(session, cu::cbid::cuMemAllocPitch_v2, &pitched);
  applyMemoryCall(session, cu::cbid::cuMemAllocAsync_ptsz, &async);
  applyMemoryCall(session, cu::cbid::cuMemAllocFromPoolAsync, &fromPool);
  applyMemoryCall(session, cu::cbid::cuMemHostAlloc, &hostAlloc);
  applyMemoryCall(session, cu::cbid::cuMemAllocHost_v2, &allocHost);
  applyMemoryCall(session, cu::cbid::cuMemHostRegister_v2, &registered);
  applyMemoryCall(session, cu::cbid::cuMemMap, &mapped);
  std::uint64_t data = at(0);
  int count = 1;
  void* params[] = {&data, &count};
  LaunchRequest request;
  request.function = "scale";
  request.kernelParams = params;
  session.afterLaunch(session.beforeLaunch(request), true);
  session.flush();
  const std::string first = readAll(options.directory + "/launches/00000000.json");
  for (const char* kind : {"device", "pool", "host-pinned", "host-registered", "vmm"})
    CHECK(contains(first, std::string("\"kind\":\"") + kind + "\""));
  CHECK(contains(first, "\"bytes\":4096,\"kind\":\"device\""));  // the pitched one: 1024 * 4
  cu::MemFreeParams freed{at(0)};
  cu::MemFreeAsyncParams freedAsync{at(2), nullptr};
  cu::HostPointerParams freedHost{hostPointers[4]}, unregistered{hostPointers[6]};
  cu::MemUnmapParams unmapped{at(7), 4096};
  applyMemoryCall(session, cu::cbid::cuMemFree_v2, &freed);
  applyMemoryCall(session, cu::cbid::cuMemFreeAsync, &freedAsync);
  applyMemoryCall(session, cu::cbid::cuMemFreeHost, &freedHost);
  applyMemoryCall(session, cu::cbid::cuMemHostUnregister, &unregistered);
  applyMemoryCall(session, cu::cbid::cuMemUnmap, &unmapped);
  // A managed allocation and a texture object make a launch naming them not captured.
  cu::MemAllocManagedParams managed{&pointers[8], 4096, 1};
  applyMemoryCall(session, cu::cbid::cuMemAllocManaged, &managed);
  unsigned long long texture = 0xabcdef;
  cu::ObjectCreateParams created{&texture};
  applyMemoryCall(session, cu::cbid::cuTexObjectCreate, &created);
  data = at(8);
  CHECK(session.beforeLaunch(request) == nullptr);
  data = texture;
  CHECK(session.beforeLaunch(request) == nullptr);
  cu::ObjectDestroyParams destroyed{texture};
  applyMemoryCall(session, cu::cbid::cuTexObjectDestroy, &destroyed);
  session.afterLaunch(session.beforeLaunch(request), true);
  session.flush();
  const std::string second = readAll(options.directory + "/launches/00000001.json");
  CHECK(!contains(second, "\"kind\":\"vmm\"") && !contains(second, "\"kind\":\"host-registered\""));
  CHECK(contains(second, "\"kind\":\"pool\"") &&
        contains(second, "\"kind\":\"host-pinned\""));  // fromPool, allocHost
  const std::string manifest = readAll(options.directory + "/manifest.json");
  CHECK(contains(manifest, "\"managed-memory\":1") && contains(manifest, "\"texture-or-surface\":1"));
}

TEST(
    "driver calls: while any stream captures into a graph, a launch on another stream is not captured nor "
    "synchronized") {
  CaptureOptions options;
  options.directory = folder();
  options.everyLaunch = true;
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  const Bytes module = syntheticCubin().bytes;
  session.moduleLoaded(1, module.data(), module.size());
  std::uint64_t data = 0x1000;
  int count = 1;
  void* params[] = {&data, &count};
  LaunchRequest request;
  request.function = "scale";
  request.kernelParams = params;
  cu::StreamCaptureParams capture{reinterpret_cast<cu::CUstream>(0x5)};
  applyMemoryCall(session, cu::cbid::cuStreamBeginCapture_v2, &capture);
  CHECK(session.beforeLaunch(request) == nullptr);
  CHECK_EQ(device.synchronizations, std::uint64_t{0});
  CHECK(isStreamCaptureEnd(cu::cbid::cuStreamEndCapture_ptsz) &&
        !isStreamCaptureEnd(cu::cbid::cuStreamBeginCapture));
  applyMemoryCall(session, cu::cbid::cuStreamEndCapture, &capture);
  session.afterLaunch(session.beforeLaunch(request), true);
  CHECK_EQ(session.capturedLaunches(), std::uint64_t{1});
  CHECK(contains(readAll(options.directory + "/manifest.json"), "\"stream-capture\":1"));
}

TEST("driver calls: a module load's params give the handle it returned") {
  cu::CUmodule module = reinterpret_cast<cu::CUmodule>(0x1234);
  cu::ModuleLoadParams params{&module};
  CHECK(isModuleLoad(cu::cbid::cuModuleLoadDataEx) && isModuleLoad(cu::cbid::cuModuleLoad) &&
        !isModuleLoad(cu::cbid::cuMemMap));
  CHECK_EQ(loadedModuleHandle(&params), std::uintptr_t{0x1234});
}

TEST("driver calls: a module or library load from memory gives the image it loads; a load from a file none") {
  const char image[] = "image";
  cu::ModuleImageParams params{nullptr, image};
  for (const std::uint32_t id : {cu::cbid::cuModuleLoadData, cu::cbid::cuModuleLoadDataEx,
                                 cu::cbid::cuModuleLoadFatBinary, cu::cbid::cuLibraryLoadData})
    CHECK(loadedModuleImage(id, &params) == image);
  CHECK(loadedModuleImage(cu::cbid::cuModuleLoad, &params) == nullptr);
  CHECK(loadedModuleImage(cu::cbid::cuMemMap, &params) == nullptr);
}
