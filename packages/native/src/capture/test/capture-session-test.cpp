// The capture session over a fake device (host memory): options, selection, parameter buffers from
// kernelParams and `extra`, what is not captured and why, page blobs reused across launches, and a
// failure that stops capturing without crashing. capture-session-memory-test.cpp has what it reads
// and copies, capture-session-sequence-test.cpp the work between launches and captured sequences;
// capture-session.test.ts checks with readCaptureFolder what the session writes (--write-session-capture).
#include <dirent.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/parameter-buffer.hpp"
#include "capture/json-text.hpp"
#include "capture/test/capture-test-files.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "capture/test/synthetic-images.hpp"
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

std::string hexOf(const void* data, std::size_t size) {
  const std::string quoted = jsonHexBytes(static_cast<const std::uint8_t*>(data), size);
  return quoted.substr(1, quoted.size() - 2);
}

const char* fromMap(const std::map<std::string, std::string>& values, const char* name) {
  const auto found = values.find(name);
  return found == values.end() ? nullptr : found->second.c_str();
}

}  // namespace

TEST("capture options: the environment's variables, and a bad value named with its variable") {
  std::map<std::string, std::string> values = {
      {"KREPLAY_CAPTURE_DIR", "/tmp/x"},
      {"KREPLAY_CAPTURE_KERNEL_NAME", "gemm|axpy"},
      {"KREPLAY_CAPTURE_LAUNCH_SKIP", "3"},
      {"KREPLAY_CAPTURE_EVERY_LAUNCH", "1"},
      {"KREPLAY_CAPTURE_COMMAND", R"(["python", "a \"b\"", "c\\d\u00e9"])"}};
  auto lookup = [&](const char* name) { return fromMap(values, name); };
  const CaptureOptions options = readCaptureOptions(lookup);
  CHECK_EQ(options.directory, std::string("/tmp/x"));
  CHECK(options.kernelName == std::optional<std::string>("gemm|axpy"));
  CHECK(options.launchSkip == std::optional<std::uint64_t>(3));
  CHECK(!options.launchCount.has_value());
  CHECK(options.everyLaunch);
  CHECK_EQ(options.command.size(), std::size_t{3});
  CHECK_EQ(options.command[1], std::string("a \"b\""));
  CHECK_EQ(options.command[2], std::string("c\\d\xc3\xa9"));
  CHECK(options.fromStart);
  values["KREPLAY_CAPTURE_PROFILE_FROM_START"] = "off";
  CHECK(!readCaptureOptions(lookup).fromStart);
  values["KREPLAY_CAPTURE_PROFILE_FROM_START"] = "later";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_PROFILE_FROM_START=later is not on or off");
  values.erase("KREPLAY_CAPTURE_PROFILE_FROM_START");
  values["KREPLAY_CAPTURE_LAUNCH_COUNT"] = "-1";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_LAUNCH_COUNT=-1 is not a whole number");
  values.erase("KREPLAY_CAPTURE_LAUNCH_COUNT");
  values["KREPLAY_CAPTURE_COMMAND"] = "[\"unterminated";
  CHECK_THROWS(readCaptureOptions(lookup), "is not a JSON array of strings");
  values.erase("KREPLAY_CAPTURE_COMMAND");
  CHECK_EQ(readCaptureOptions(lookup).stagingBytes, kDefaultStagingBytes);
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 0u);  // auto
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "1048576";
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "3";
  CHECK_EQ(readCaptureOptions(lookup).stagingBytes, std::uint64_t{1048576});
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 3u);
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "auto";
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 0u);
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "0";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_WRITER_THREADS=0 is not auto or a whole number from 1 to 64");
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "lots";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_WRITER_THREADS=lots is not auto");
  values.erase("KREPLAY_CAPTURE_WRITER_THREADS");
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "4096";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_STAGING_BYTES=4096 is not a byte count of at least 65536");
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "256MiB";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_STAGING_BYTES=256MiB is not a whole number");
  values.erase("KREPLAY_CAPTURE_STAGING_BYTES");
  const std::vector<std::string> own =
      readCaptureOptions(lookup).command;  // this program's /proc/self/cmdline
  CHECK(!own.empty() && own[0].find("kreplay-capture-test") != std::string::npos);
  values.erase("KREPLAY_CAPTURE_DIR");
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_DIR is not set");
  CaptureOptions badRegex;
  badRegex.kernelName = "regex:(unclosed";
  CHECK_THROWS(LaunchSelection{badRegex},
               "KREPLAY_CAPTURE_KERNEL_NAME=regex:(unclosed is not a valid regular expression");
  CaptureOptions literal;
  literal.kernelName = "(unclosed";  // a name, matched whole: no regular expression to compile
  CHECK(!LaunchSelection{literal}.matches("scale"));
  values["KREPLAY_CAPTURE_KERNEL_NAME_BASE"] = "demangled";
  values["KREPLAY_CAPTURE_DIR"] = "/tmp/x";
  CHECK(readCaptureOptions(lookup).kernelNameBase == KernelNameBase::Demangled);
  values["KREPLAY_CAPTURE_KERNEL_NAME_BASE"] = "symbol";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_KERNEL_NAME_BASE");
}

TEST("launch selection: a name matched whole, as ncu reads --kernel-name, on the function's name by default") {
  CaptureOptions options;
  options.kernelName = "apply";
  LaunchSelection function(options);
  CHECK(function.matches("_Z5applyIiEviT_"));  // void apply<int>(int, int)
  CHECK(function.matches("apply"));
  CHECK(!function.matches("_Z7applyToi"));  // applyTo(int): not the whole name
  options.kernelName = "app";
  LaunchSelection part(options);
  CHECK(!part.matches("_Z5applyIiEviT_"));
  CHECK(!part.matches("apply"));
}

TEST("launch selection: regex: searches the name, the base names which name") {
  CaptureOptions options;
  options.kernelName = "regex:^app";
  LaunchSelection searched(options);
  CHECK(searched.matches("_Z5applyIiEviT_"));
  CHECK(!searched.matches("_Z4scalePfi"));
  options.kernelName = "regex:^void apply<";
  CHECK(!LaunchSelection(options).matches("_Z5applyIiEviT_"));  // the function's name has no return type
  options.kernelNameBase = KernelNameBase::Demangled;
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "void apply<int>(int, int)";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelNameBase = KernelNameBase::Mangled;
  options.kernelName = "_Z5applyIiEviT_";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "apply";
  CHECK(!LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "regex:Z5app";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  CHECK_EQ(demangledName("_Z5applyIiEviT_"), std::string("void apply<int>(int, int)"));
  CHECK_EQ(demangledName("scale"), std::string("scale"));
  // Only a function's symbol is demangled: `b` alone would read as the type bool.
  CHECK_EQ(demangledName("b"), std::string("b"));
  CHECK_EQ(kernelName("i", KernelNameBase::Function), std::string("i"));
}

TEST("kernel names: the function's name drops return type, scope, template arguments and parameters") {
  CHECK_EQ(functionName("void apply<int>(int, int)"), std::string("apply"));
  CHECK_EQ(functionName("scale"), std::string("scale"));
  CHECK_EQ(functionName("scale(float*, int)"), std::string("scale"));
  CHECK_EQ(functionName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
           std::string("vectorized_elementwise_kernel"));
  CHECK_EQ(functionName("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align1>("
                        "cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align1::Params)"),
           std::string("Kernel2"));
  CHECK_EQ(functionName("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::"
                        "AddFunctor<float> >(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::"
                        "{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >("
                        "at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1})"),
           std::string("elementwise_kernel"));
  CHECK_EQ(kernelName("_Z5applyIiEviT_", KernelNameBase::Function), std::string("apply"));
  CHECK_EQ(kernelName("_Z5applyIiEviT_", KernelNameBase::Mangled), std::string("_Z5applyIiEviT_"));
  CHECK(parseKernelNameBase("demangled") == KernelNameBase::Demangled);
  CHECK(!parseKernelNameBase("Function"));
}

TEST("launch selection: by default the first launch of each kernel, until one is captured") {
  LaunchSelection selection(CaptureOptions{});
  CHECK(selection.select("a"));
  CHECK(selection.select("a"));  // not captured yet (say, its stream was capturing): still wanted
  selection.markCaptured("a");
  CHECK(!selection.select("a"));
  CHECK(selection.select("b"));
  selection.markCaptured("b");
  CHECK(!selection.select("b"));
  CHECK(!selection.exhausted());
}

TEST("launch selection: skip and count over the matching launches, every launch") {
  CaptureOptions options;
  options.launchSkip = 2;
  options.launchCount = 3;
  LaunchSelection ranged(options);
  std::string picked;
  for (int i = 0; i < 8; ++i) picked += ranged.select(i % 2 == 0 ? "a" : "b") ? "1" : "0";
  CHECK_EQ(picked, std::string("00111000"));
  CHECK(ranged.exhausted());
  CaptureOptions every;
  every.everyLaunch = true;
  LaunchSelection all(every);
  all.markCaptured("a");
  CHECK(all.select("a") && all.select("a") && all.select("b"));
  CaptureOptions countOnly;
  countOnly.launchCount = 1;
  LaunchSelection one(countOnly);
  CHECK(one.select("a"));
  CHECK(!one.select("b"));
}

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
