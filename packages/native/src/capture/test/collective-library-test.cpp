// Kernels of collectives, never captured: which shared objects are collective libraries (by file
// name), and the session counting a launch, alone or as a graph node, of a kernel whose module was
// loaded from one, whatever the kernel's name (NCCL's names are matched too).
#include <dlfcn.h>

#include <cstdio>

#include "capture/inject/collective-library.hpp"
#include "capture/inject/graph-launch.hpp"
#include "capture/test/graph-test-nodes.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

TEST("collective library: a shared object whose file name starts libnccl or librccl, wherever it lies") {
  CHECK(collectiveLibraryName("/usr/lib/x86_64-linux-gnu/libnccl.so.2") == std::optional<std::string>("libnccl.so.2"));
  CHECK(collectiveLibraryName("libnccl.so") == std::optional<std::string>("libnccl.so"));
  CHECK(collectiveLibraryName("/site-packages/nvidia/nccl/lib/libnccl.so.2.21.5") ==
        std::optional<std::string>("libnccl.so.2.21.5"));
  CHECK(collectiveLibraryName("/opt/rocm/lib/librccl.so.1") == std::optional<std::string>("librccl.so.1"));
  CHECK(!collectiveLibraryName("/usr/lib/libcudart.so.12"));
  CHECK(!collectiveLibraryName("/opt/libnccl/lib/libtorch_cuda.so"));  // a folder's name does not count
  CHECK(!collectiveLibraryName("/usr/lib/mylibnccl.so"));
  CHECK(!collectiveLibraryName(""));
}

TEST("collective library: dladdr finds the file holding an address; the program's and libc's are not collective") {
  static const char image[] = "a module image in the test program";
  CHECK(!collectiveLibraryHolding(image));
  CHECK(!collectiveLibraryHolding(reinterpret_cast<const void*>(&std::fopen)));
  CHECK(!collectiveLibraryHolding(nullptr));
  const int onTheStack = 0;
  CHECK(!collectiveLibraryHolding(&onTheStack));  // no file holds it
}

TEST("collective library: why a launch is a collective's says the library its code came from, or NCCL's name") {
  CHECK(whyCollective("oneRankReduce", "libnccl.so.2") ==
        std::optional<std::string>("its code was loaded from libnccl.so.2, a collective library, and a collective is "
                                   "never replayed alone"));
  CHECK(contains(whyCollective("ncclDevKernel_AllReduce_Sum_f32", "").value_or(""), "collective (NCCL)"));
  CHECK(!whyCollective("scale", ""));
}

TEST("capture session: a launch of a kernel from a module loaded from a collective library is counted, not recorded, and breaks the sequence") {
  SessionFixture fixture;  // module 7 defines scale
  fixture.addRange(1, 1);
  CHECK(fixture.launch());
  // Module 8, from libnccl, defines scale too; its handle is unknown, so the latest definition is used.
  fixture.session->moduleLoaded(8, fixture.module.data(), fixture.module.size(), "libnccl.so.2");
  CHECK(!fixture.launch());
  fixture.session->moduleUnloaded(8);
  CHECK(fixture.launch());
  // Its handle known, module 8 is the launch's, though a later module defines scale too.
  fixture.session->moduleLoaded(8, fixture.module.data(), fixture.module.size(), "librccl.so.1");
  fixture.session->moduleLoaded(9, fixture.module.data(), fixture.module.size());
  fixture.session->moduleHandle(fixture.device.module, 8);
  CHECK(!fixture.launch());
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{2});
  CHECK(contains(fixture.manifest(), "\"collective\":2"));
  CHECK(contains(fixture.record(1), "\"follows\":null,\"sequenceBreak\":\"uncaptured-launch\""));
  const std::string said = fixture.log.str();
  CHECK(contains(said, "not captured (collective): scale: its code was loaded from libnccl.so.2, a collective library"));
  CHECK(contains(said, "modules loaded from librccl.so.1, a collective library: their kernels are counted as collective"));
}

TEST("graph capture: a kernel node from a collective library's module leaves its graph untouched, counted as collective") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(1, 1);
  fixture.session->moduleLoaded(8, fixture.module.data(), fixture.module.size(), "libnccl.so.2");
  fixture.session->moduleHandle(fixture.device.module, 8);
  KernelArguments arguments;
  arguments.pointer = a;
  arguments.value = 1;
  GraphLaunchRequest request;
  request.nodes = {kernelNode(0, arguments, {})};
  CountingGraphRunner runner;
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 0);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{0});
  CHECK(contains(fixture.manifest(), "\"collective\":1"));
  CHECK(contains(fixture.log.str(), "a node of a graph launch, which runs untouched: its code was loaded from libnccl.so.2"));
}
