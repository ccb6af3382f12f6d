// Launches made by a collective library's code (collective-caller.hpp): return addresses matched
// against executable ranges, the ranges read from the loaded objects, the calling thread's return
// addresses, and the session counting such a launch, alone or as a graph's kernel node, as collective.
#include <dlfcn.h>

#include <cstdio>

#include "capture/inject/collective-caller.hpp"
#include "capture/inject/graph-launch.hpp"
#include "capture/test/graph-test-nodes.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

std::string pickedPath;  // executableRanges' pick is a plain function

std::optional<std::string> pickPath(const std::string& path) {
  return path == pickedPath ? std::optional<std::string>("picked") : std::nullopt;
}

std::optional<std::string> pickProgram(const std::string& path) {
  return path.empty() ? std::optional<std::string>("program") : std::nullopt;
}

/** The return addresses seen from one call deeper, so that this function's caller's are among them. */
__attribute__((noinline)) std::vector<std::uintptr_t> addressesFromHere() {
  std::vector<std::uintptr_t> addresses = callerReturnAddresses(kCallerFrames);
  asm volatile("" ::: "memory");  // no tail call: this frame stays on the stack
  return addresses;
}

bool holds(const std::vector<CodeRange>& ranges, std::uintptr_t address) {
  for (const CodeRange& range : ranges)
    if (address >= range.begin && address < range.end) return true;
  return false;
}

}  // namespace

TEST("collective caller: a return address matches the range holding the call before it, in any frame") {
  const std::vector<CodeRange> ranges = {{0x1000, 0x2000, "libnccl.so.2"}, {0x5000, 0x6000, "librccl.so.1"}};
  CHECK(libraryHoldingCaller(ranges, {0x1001}) == std::optional<std::string>("libnccl.so.2"));
  CHECK(libraryHoldingCaller(ranges, {0x2000}) == std::optional<std::string>("libnccl.so.2"));  // call ends the range
  CHECK(!libraryHoldingCaller(ranges, {0x1000}));  // the call before it lies below the range
  CHECK(!libraryHoldingCaller(ranges, {0x2001}));
  CHECK(libraryHoldingCaller(ranges, {0x9000, 0, 0x3000, 0x5800}) == std::optional<std::string>("librccl.so.1"));
  CHECK(libraryHoldingCaller(ranges, {0x5800, 0x1800}) == std::optional<std::string>("librccl.so.1"));  // innermost first
  CHECK(!libraryHoldingCaller(ranges, {}));
  CHECK(!libraryHoldingCaller({}, {0x1800}));
}

TEST("collective caller: the executable ranges of a loaded object hold its functions, not its data") {
  Dl_info info{};
  const void* function = reinterpret_cast<const void*>(&std::fopen);
  CHECK(::dladdr(function, &info) != 0 && info.dli_fname != nullptr);
  pickedPath = info.dli_fname;
  const std::vector<CodeRange> ranges = executableRanges(pickPath);
  CHECK(!ranges.empty());
  CHECK(holds(ranges, reinterpret_cast<std::uintptr_t>(function)));
  for (const CodeRange& range : ranges) CHECK(range.library == "picked" && range.begin < range.end);
  static const char data[] = "not code";
  CHECK(!holds(executableRanges(pickProgram), reinterpret_cast<std::uintptr_t>(data)));
  pickedPath = "/no/such/libnccl.so.2";
  CHECK(executableRanges(pickPath).empty());
}

TEST("collective caller: the calling thread's return addresses include this program's frames, at most as many as asked") {
  const std::vector<std::uintptr_t> addresses = addressesFromHere();
  CHECK(libraryHoldingCaller(executableRanges(pickProgram), addresses) == std::optional<std::string>("program"));
  std::size_t inProgram = 0;
  for (const std::uintptr_t address : addresses) inProgram += holds(executableRanges(pickProgram), address - 1) ? 1 : 0;
  CHECK(inProgram >= 2);  // addressesFromHere and this test
  CHECK_EQ(callerReturnAddresses(2).size(), std::size_t{2});
  // No libnccl*/librccl* in this program: no caller, and no backtrace taken.
  CHECK(!collectiveCaller());
}

TEST("capture session: a launch made from a collective library's code is counted, not recorded, and breaks the sequence") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(1, 1);
  CHECK(fixture.launch());
  std::uint64_t pointer = a;
  int count = 1;
  void* params[] = {&pointer, &count};
  LaunchRequest request;
  request.function = "scale";  // no NCCL name, from a module no collective library held
  request.functionHandle = 0x77;
  request.kernelParams = params;
  request.launchedFrom = "libnccl.so.2";
  auto pending = fixture.session->beforeLaunch(request);
  CHECK(pending == nullptr);
  fixture.session->afterLaunch(std::move(pending), true);
  CHECK(fixture.launch());
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{2});
  CHECK(contains(fixture.manifest(), "\"collective\":1"));
  CHECK(contains(fixture.record(1), "\"follows\":null,\"sequenceBreak\":\"uncaptured-launch\""));
  CHECK(contains(fixture.log.str(), "not captured (collective): scale: launched from libnccl.so.2's code, a collective library"));
}

TEST("graph capture: a kernel node of a graph launched from a collective library's code leaves its graph untouched") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(1, 1);
  KernelArguments arguments;
  arguments.pointer = a;
  arguments.value = 1;
  GraphNode node = kernelNode(0, arguments, {});
  node.launch.launchedFrom = "librccl.so.1";
  GraphLaunchRequest request;
  request.nodes = {node};
  CountingGraphRunner runner;
  fixture.session->graphLaunch(request, runner);
  CHECK_EQ(runner.kernels, 0);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{0});
  CHECK(contains(fixture.manifest(), "\"collective\":1"));
  CHECK(contains(fixture.log.str(), "a node of a graph launch, which runs untouched: launched from librccl.so.1's code"));
}
