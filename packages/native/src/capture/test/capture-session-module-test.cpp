// Which module and parameter layout the capture session uses for a launch: the cubins nvcc builds
// (axpy, a struct passed by value; given by capture-layout.test.ts when nvcc is found), a module the
// driver loads lazily while the session asks about the function, and of several modules defining a
// kernel, the one its handle is known to come from, else the latest.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

TEST(
    "capture session: kernelParams of nvcc-built kernels (axpy, a struct by value) laid out by their "
    "cubins") {
  const char* axpyCubin = std::getenv("KREPLAY_CAPTURE_TEST_AXPY_CUBIN");
  const char* parametersCubin = std::getenv("KREPLAY_CAPTURE_TEST_PARAMETERS_CUBIN");
  if (axpyCubin == nullptr || parametersCubin == nullptr)
    throw kreplay::hsa::test::Skip(
        "no nvcc-built cubins (capture-layout.test.ts builds them when nvcc is found)");
  CaptureOptions options;
  options.directory = temporaryFolder();
  options.everyLaunch = true;
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  const std::string axpy = readFile(axpyCubin), parameters = readFile(parametersCubin);
  session.moduleLoaded(1, reinterpret_cast<const std::uint8_t*>(axpy.data()), axpy.size());
  session.moduleLoaded(2, reinterpret_cast<const std::uint8_t*>(parameters.data()), parameters.size());
  std::uint64_t y = 0x7f0000001000, x = 0x7f0000002000;
  float a = 2.5f;
  unsigned n = 1000;
  void* axpyParams[] = {&y, &x, &a, &n};
  LaunchRequest request;
  request.function = "kreplay_capture_fixture_axpy";
  request.kernelParams = axpyParams;
  session.afterLaunch(session.beforeLaunch(request), true);
  std::uint8_t expected[24] = {};
  std::memcpy(expected, &y, 8);
  std::memcpy(expected + 8, &x, 8);
  std::memcpy(expected + 16, &a, 4);
  std::memcpy(expected + 20, &n, 4);
  session.flush();
  const std::string first = readFile(options.directory + "/launches/00000000.json");
  CHECK(contains(first, "\"size\":24,\"buffer\":\"" + hexOf(expected, 24) + "\""));
  CHECK(contains(first, "{\"index\":2,\"offset\":16,\"size\":4},{\"index\":3,\"offset\":20,\"size\":4}"));
  struct Padded {
    char tag;
    double value;
    short count;
  } padded{'t', 1.5, 7};
  int after = 42;
  std::uint64_t out = 0x7f0000003000;
  void* paddedParams[] = {&padded, &after, &out};
  request.function = "padded_struct";
  request.kernelParams = paddedParams;
  session.afterLaunch(session.beforeLaunch(request), true);
  std::uint8_t expectedPadded[40] = {};
  std::memcpy(expectedPadded, &padded, 24);
  std::memcpy(expectedPadded + 24, &after, 4);
  std::memcpy(expectedPadded + 32, &out, 8);
  session.flush();
  const std::string second = readFile(options.directory + "/launches/00000001.json");
  CHECK(contains(second, "\"size\":40,\"buffer\":\"" + hexOf(expectedPadded, 40) + "\""));
  CHECK(contains(second,
                 "[{\"index\":0,\"offset\":0,\"size\":24},{\"index\":1,\"offset\":24,\"size\":4},{\"index\":"
                 "2,\"offset\":32,\"size\":8}]"));
}

TEST(
    "capture session: a module the driver loads lazily when asked about the function is used for that "
    "launch") {
  const std::string directory = temporaryFolder();
  CaptureOptions options;
  options.directory = directory;
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  const Bytes module = syntheticCubin().bytes;
  // The module-loaded callback comes on the same thread, inside the session's own question.
  device.onFunctionModule = [&] { session.moduleLoaded(9, module.data(), module.size()); };
  std::uint64_t pointer = 0x1000;
  int count = 4;
  void* params[] = {&pointer, &count};
  LaunchRequest request;
  request.function = "scale";
  request.functionHandle = 0x77;
  request.kernelParams = params;
  session.afterLaunch(session.beforeLaunch(request), true);
  CHECK_EQ(session.capturedLaunches(), std::uint64_t{1});
  CHECK(!contains(readFile(directory + "/manifest.json"), "\"no-parameter-metadata\":1"));
}

TEST(
    "capture session: of several modules defining a kernel, the one its handle is known to be, else the "
    "latest, said once") {
  const std::string directory = temporaryFolder();
  CaptureOptions options;
  options.directory = directory;
  options.everyLaunch = true;
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  const Bytes first = syntheticCubin().bytes;
  const Bytes second = syntheticCubin(8, {0x04, 0x7d, 0x04, 0x00, 1, 2, 3, 4}).bytes;
  session.moduleLoaded(1, first.data(), first.size());
  session.moduleLoaded(2, second.data(), second.size());
  session.moduleHandle(0x5000, 1);  // what cuModuleLoadData returned while module 1 loaded
  std::uint64_t pointer = 0x1000;
  int count = 4;
  void* params[] = {&pointer, &count};
  LaunchRequest request;
  request.function = "scale";
  request.functionHandle = 0x77;  // the fake device says its module is 0x5000
  request.kernelParams = params;
  session.afterLaunch(session.beforeLaunch(request), true);
  request.functionHandle = 0;  // a module it cannot tell
  session.afterLaunch(session.beforeLaunch(request), true);
  session.afterLaunch(session.beforeLaunch(request), true);
  session.flush();
  CHECK(contains(readFile(directory + "/launches/00000000.json"),
                 "\"module\":\"" + blobId(first.data(), first.size()) + "\""));
  CHECK(contains(readFile(directory + "/launches/00000001.json"),
                 "\"module\":\"" + blobId(second.data(), second.size()) + "\""));
  const std::string said = log.str();
  const std::string message =
      "[kreplay capture] 2 loaded modules define scale; the capture uses the most recently loaded one "
      "(module 2)";
  CHECK(contains(said, message));
  CHECK_EQ(said.find(message), said.rfind(message));
  session.moduleUnloaded(2);
  session.afterLaunch(session.beforeLaunch(request), true);
  session.flush();
  CHECK(contains(readFile(directory + "/launches/00000003.json"),
                 "\"module\":\"" + blobId(first.data(), first.size()) + "\""));
}
