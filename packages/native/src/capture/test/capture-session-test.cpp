// The capture session over a fake device (host memory): parameter buffers from kernelParams and
// `extra`, what is not captured and why, page blobs reused across launches (and the writer trusting a
// known blob id), profile-from-start off, a module's globals, and a failure that stops capturing
// without crashing. Its options are in capture-options-test.cpp, which launches it captures in
// launch-selection-test.cpp, which module a launch uses in capture-session-module-test.cpp,
// what it reads and copies in capture-session-memory-test.cpp, the work between launches and captured
// sequences in capture-session-sequence-test.cpp; capture-session.test.ts checks with
// readCaptureFolder what the session writes (--write-session-capture).
#include <dirent.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/parameter-buffer.hpp"
#include "capture/test/session-fixture.hpp"
#include "core/page-hash.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

std::size_t countFiles(const std::string& folder) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) files += 1;
  return files;
}

/** A session over the synthetic cubin (kernel `scale(float* data, int count)`). */
struct ScaleFixture {
  explicit ScaleFixture(CaptureOptions options = {})
      : directory(options.directory.empty() ? temporaryFolder() : options.directory) {
    options.directory = directory;
    if (options.command.empty()) options.command = {"program", "--flag"};
    session = std::make_unique<CaptureSession>(options, device, log);
    module = syntheticCubin().bytes;
    session->moduleLoaded(7, module.data(), module.size());
    memory.assign(3 * kCapturePageBytes, 1);
    session->allocationAdded(base(), memory.size(), MemoryKind::Device);
  }
  std::uint64_t base() const { return reinterpret_cast<std::uint64_t>(memory.data()); }

  /** Launches scale through kernelParams; `kernel` changes memory between before and after. */
  PendingLaunchHandle before(int count, std::uintptr_t stream = 0) {
    pointer = base();
    this->count = count;
    params[0] = &pointer;
    params[1] = &this->count;
    LaunchRequest request;
    request.function = "scale";
    request.functionHandle = 0x77;
    request.shape.grid = {3, 1, 1};
    request.shape.block = {128, 1, 1};
    request.kernelParams = params;
    request.stream = stream;
    return session->beforeLaunch(request);
  }
  void launch(
      int count, const std::function<void()>& kernel = [] {}) {
    auto pending = before(count);
    kernel();
    session->afterLaunch(std::move(pending), true);
  }
  /** The record of a launch, once the writer has written it. */
  std::string record(int sequence) const {
    session->flush();
    char name[32];
    std::snprintf(name, sizeof name, "/launches/%08d.json", sequence);
    return readFile(directory + name);
  }
  std::string manifest() const { return readFile(directory + "/manifest.json"); }

  std::string directory;
  FakeDeviceMemory device;
  std::ostringstream log;
  std::unique_ptr<CaptureSession> session;
  Bytes module;
  std::vector<std::uint8_t> memory;
  std::uint64_t pointer = 0;
  int count = 0;
  void* params[2] = {nullptr, nullptr};
};

}  // namespace

TEST("capture session: kernelParams laid out by the cubin's metadata, shape, device in the manifest") {
  ScaleFixture fixture;
  fixture.launch(3072);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{1});
  const std::string record = fixture.record(0);
  std::uint8_t expected[16] = {};
  const std::uint64_t base = fixture.base();
  const std::uint32_t count = 3072;
  std::memcpy(expected, &base, 8);
  std::memcpy(expected + 8, &count, 4);
  CHECK(contains(record, "\"parameters\":{\"size\":16,\"buffer\":\"" + hexOf(expected, 16) + "\""));
  CHECK(contains(record,
                 "\"slots\":[{\"index\":0,\"offset\":0,\"size\":8},{\"index\":1,\"offset\":8,\"size\":4}]"));
  CHECK(contains(record, "\"grid\":[3,1,1],\"block\":[128,1,1]"));
  CHECK(contains(record, "\"function\":\"scale\""));
  CHECK(contains(fixture.manifest(), "\"name\":\"fake device\",\"architecture\":\"sm_90\""));
  CHECK(contains(fixture.manifest(), "\"command\":[\"program\",\"--flag\"]"));
  // Default selection: the second launch of scale is not captured.
  fixture.launch(1);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{1});
}

TEST(
    "capture session: an extra buffer is the parameter buffer, with the metadata's slots when its size "
    "fits") {
  ScaleFixture fixture;
  std::uint8_t buffer[16];
  for (int i = 0; i < 16; ++i) buffer[i] = static_cast<std::uint8_t>(0xa0 + i);
  std::size_t size = sizeof buffer;
  void* extra[] = {reinterpret_cast<void*>(1), buffer, reinterpret_cast<void*>(2), &size, nullptr};
  LaunchRequest request;
  request.function = "scale";
  request.extra = extra;
  fixture.session->afterLaunch(fixture.session->beforeLaunch(request), true);
  const std::string record = fixture.record(0);
  CHECK(contains(record, "\"buffer\":\"" + hexOf(buffer, 16) + "\""));
  CHECK(contains(record, "\"slots\":[{\"index\":0"));
  CHECK(*extraParameterBuffer(extra) == std::vector<std::uint8_t>(buffer, buffer + 16));
  void* pointerOnly[] = {reinterpret_cast<void*>(1), buffer, nullptr};
  CHECK_THROWS(extraParameterBuffer(pointerOnly), "pointer but no size");
  void* unknown[] = {reinterpret_cast<void*>(9), buffer, nullptr};
  CHECK_THROWS(extraParameterBuffer(unknown), "holds key 9");
  void* empty[] = {nullptr};
  CHECK(!extraParameterBuffer(empty).has_value());
}

TEST(
    "capture session: what is not captured is counted by reason, and a capturing stream is never "
    "synchronized") {
  CaptureOptions options;
  options.everyLaunch = true;
  ScaleFixture fixture(options);
  LaunchRequest graph;
  graph.kind = LaunchKind::Graph;
  CHECK(fixture.session->beforeLaunch(graph) == nullptr);
  LaunchRequest cooperative;
  cooperative.kind = LaunchKind::Cooperative;
  cooperative.function = "scale";
  CHECK(fixture.session->beforeLaunch(cooperative) == nullptr);
  LaunchRequest multi;
  multi.kind = LaunchKind::MultiDevice;
  CHECK(fixture.session->beforeLaunch(multi) == nullptr);
  fixture.device.capturingStream = 0x99;
  CHECK(fixture.before(1, 0x99) == nullptr);
  CHECK_EQ(fixture.device.synchronizations, std::uint64_t{0});
  LaunchRequest unknown;
  unknown.function = "not_in_any_module";
  CHECK(fixture.session->beforeLaunch(unknown) == nullptr);
  // A parameter pointing into managed memory, or holding a live texture object.
  std::vector<std::uint8_t> managed(4096);
  const auto managedBase = reinterpret_cast<std::uint64_t>(managed.data());
  fixture.session->managedAllocationAdded(managedBase, managed.size());
  std::uint64_t inside = managedBase + 100;
  int count = 1;
  void* params[] = {&inside, &count};
  LaunchRequest toManaged;
  toManaged.function = "scale";
  toManaged.kernelParams = params;
  CHECK(fixture.session->beforeLaunch(toManaged) == nullptr);
  fixture.session->opaqueObjectCreated(0x1234);
  inside = 0x1234;
  CHECK(fixture.session->beforeLaunch(toManaged) == nullptr);
  fixture.session->opaqueObjectDestroyed(0x1234);
  fixture.session->allocationRemoved(managedBase);
  CHECK_EQ(fixture.device.synchronizations, std::uint64_t{0});
  const std::string manifest = fixture.manifest();
  for (const char* reason : {"\"graph-launch\":1", "\"cooperative-launch\":1", "\"multi-device-launch\":1",
                             "\"stream-capture\":1", "\"no-parameter-metadata\":1", "\"managed-memory\":1",
                             "\"texture-or-surface\":1", "\"complete\":false"}) {
    CHECK(contains(manifest, reason));
  }
  CHECK(contains(fixture.log.str(),
                 "[kreplay capture] not captured (no-parameter-metadata): not_in_any_module"));
  // The pointer now lands nowhere special: captured.
  fixture.session->afterLaunch(fixture.session->beforeLaunch(toManaged), true);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{1});
  fixture.session->finish();
  CHECK(contains(fixture.manifest(), "\"complete\":true"));
}

TEST("capture session: a second launch writes only the pages that changed, and reuses the others' blobs") {
  CaptureOptions options;
  options.everyLaunch = true;
  ScaleFixture fixture(options);
  fixture.launch(1, [&] { fixture.memory[0] = 2; });  // the kernel writes page 0
  fixture.session->flush();
  // module + one blob for the three equal pages before launch 0.
  CHECK_EQ(countFiles(fixture.directory + "/blobs"), std::size_t{2});
  // The pages before the launch, copied once; after it, only hashed.
  CHECK_EQ(fixture.device.copiedBytes, std::uint64_t{3 * kCapturePageBytes});
  fixture.memory[2 * kCapturePageBytes + 5] = 9;  // the program changes page 2 between launches (a memset)
  fixture.session->memsetIssued(0, fixture.base() + 2 * kCapturePageBytes + 5, 1, 9, 1);
  fixture.launch(2);
  fixture.session->flush();
  // Before launch 1: page 0 (written by launch 0) and page 2 are new contents; page 1 is reused.
  CHECK_EQ(countFiles(fixture.directory + "/blobs"), std::size_t{4});
  CHECK_EQ(fixture.device.copiedBytes, std::uint64_t{5 * kCapturePageBytes});
  const std::string first = fixture.record(0), second = fixture.record(1);
  const std::string ones(kCapturePageBytes, '\1');
  const std::string unchanged = blobId(reinterpret_cast<const std::uint8_t*>(ones.data()), ones.size());
  CHECK(
      contains(first, "\"pagesBefore\":[\"" + unchanged + "\",\"" + unchanged + "\",\"" + unchanged + "\"]"));
  CHECK(contains(second, "\"" + unchanged + "\""));
  // Launch 0's after-hashes describe page 0 as launch 1 found it.
  const std::uint64_t written = kreplay::pageHash(fixture.memory.data(), kCapturePageBytes);
  CHECK(contains(first, "\"pageHashesAfter\":[" + jsonHash(written)));
  CHECK(contains(second, "\"pageHashesBefore\":[" + jsonHash(written)));
}

TEST("capture session: with profile-from-start off, only launches between cuProfilerStart and Stop count") {
  CaptureOptions options;
  options.everyLaunch = true;
  options.launchSkip = 1;  // as ncu: the skip counts launches inside the profiled span only
  options.fromStart = false;
  ScaleFixture fixture(options);
  fixture.launch(1);  // before cuProfilerStart: neither captured nor counted by the skip
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{0});
  fixture.session->profilerStarted();
  fixture.launch(2);  // skipped
  fixture.launch(3);
  fixture.launch(4);
  fixture.session->profilerStopped();
  fixture.launch(5);
  CHECK_EQ(fixture.session->capturedLaunches(), std::uint64_t{2});
  CHECK_EQ(fixture.device.synchronizations, std::uint64_t{4});  // before and after each captured launch
}

TEST("capture writer: a known page blob id is used as given, without hashing the page again") {
  const std::string folder = temporaryFolder();
  CaptureWriter writer(folder, {});
  const Bytes module = syntheticCubin().bytes;
  const std::string page(100, 'p'), other(100, 'q');
  const std::string stored =
      writer.putBlob(reinterpret_cast<const std::uint8_t*>(other.data()), other.size());
  LaunchRecord record;
  record.function = "scale";
  record.module = module.data();
  record.moduleBytes = module.size();
  record.pageBytes = 100;
  record.memory.push_back(
      {0x1000, 100, MemoryKind::Device, "", reinterpret_cast<const std::uint8_t*>(page.data()), {1}});
  record.knownPageBlobs = {{stored}};
  StagedLaunch staged = writer.stageLaunch(record);
  writer.commitLaunch(staged);
  // The writer trusts the id it was given (the session only passes ids of unchanged pages).
  CHECK_EQ(staged.pagesBefore[0][0], stored);
  // An id it never stored is not trusted: the page is hashed and stored.
  record.knownPageBlobs = {{"00000000000000000000000000000000-100"}};
  staged = writer.stageLaunch(record);
  CHECK_EQ(staged.pagesBefore[0][0], blobId(reinterpret_cast<const std::uint8_t*>(page.data()), page.size()));
  CHECK_EQ(staged.moduleBlob, blobId(module.data(), module.size()));
  record.knownPageBlobs = {{"a", "b"}};
  CHECK_THROWS(writer.stageLaunch(record), "has 2 known page blobs");
}

TEST(
    "capture session: a device failure stops capturing with a message, never throws, leaves the folder "
    "readable") {
  ScaleFixture fixture;
  fixture.device.failSynchronize = true;
  CHECK(fixture.before(1) == nullptr);
  CHECK(fixture.session->stopped());
  CHECK(contains(fixture.log.str(),
                 "[kreplay capture] capturing a launch of scale failed: cuCtxSynchronize failed"));
  CHECK(contains(fixture.log.str(), "capturing stops here"));
  fixture.device.failSynchronize = false;
  CHECK(fixture.before(1) == nullptr);  // stopped: nothing more
  fixture.session->finish();
  CHECK(contains(fixture.manifest(), "\"complete\":false"));
}

TEST("capture session: a module's globals are ranges of the launch, labelled by name") {
  ScaleFixture fixture;
  std::vector<std::uint8_t> counter(4, 5);
  fixture.device.globals["counter"] = {reinterpret_cast<std::uint64_t>(counter.data()), 4};
  fixture.launch(1);
  const std::string record = fixture.record(0);
  CHECK(contains(record, "\"kind\":\"module-global\",\"label\":\"counter\""));
  CHECK(contains(record, "\"bytes\":4,"));
}
