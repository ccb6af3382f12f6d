// The capture session's reads of device memory, over the fake device: a range hashed on the device
// only when it is not current, only the pages whose hash changed copied (contiguous ones in one
// copy), host ranges and memory of another context read by the CPU, the staging bound (the program
// waits for the writer), and a writer failure that stops the capture naming the file.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "capture/json-text.hpp"
#include "capture/test/session-fixture.hpp"
#include "core/page-hash.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

constexpr std::uint64_t kPage = kCapturePageBytes;

std::string pageBlob(std::uint8_t fill, std::uint64_t bytes = kPage) {
  const std::vector<std::uint8_t> page(bytes, fill);
  return blobId(page.data(), page.size());
}

std::string pageHashText(std::uint8_t fill, std::uint64_t bytes = kPage) {
  const std::vector<std::uint8_t> page(bytes, fill);
  return jsonHash(kreplay::pageHash(page.data(), page.size()));
}

/** Waits until `done` holds (checked every millisecond, for at most 20 s). */
template <class Condition>
bool eventually(Condition done) {
  for (int i = 0; i < 20000 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

bool copiedExactly(const FakeDeviceMemory& device, const std::vector<FakeDeviceMemory::Copied>& expected) {
  if (device.copied.size() != expected.size()) return false;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (device.copied[i].address != expected[i].address || device.copied[i].bytes != expected[i].bytes) return false;
  return true;
}

}  // namespace

TEST("capture memory: a current range is not read again; only the pages the launch wrote are copied, coalesced") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(8);
  fixture.launch([&] {
    for (const int page : {2, 3, 6}) SessionFixture::fillPage(a, page, 7);
  });
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{2});  // before and after
  CHECK(copiedExactly(fixture.device, {{a, 8 * kPage}}));       // all of it, in one copy
  fixture.device.copied.clear();
  fixture.launch();
  // Its hashes before were those after launch 0: only the after-hash read it.
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{3});
  CHECK(copiedExactly(fixture.device, {{a + 2 * kPage, 2 * kPage}, {a + 6 * kPage, kPage}}));
  const std::string second = fixture.record(1);
  CHECK(contains(second, "\"pagesBefore\":[\"" + pageBlob(1) + "\",\"" + pageBlob(1) + "\",\"" + pageBlob(7) + "\""));
  CHECK(contains(second, "\"pageHashesBefore\":[" + pageHashText(1) + "," + pageHashText(1) + "," + pageHashText(7)));
  CHECK(contains(fixture.manifest(), "\"launches\":2"));
}

TEST("capture memory: a memset or copy makes only the ranges it writes read again; a short last page is hashed short") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(2), b = fixture.addRange(2, 1, MemoryKind::Device, 100);
  fixture.launch();
  SessionFixture::fillPage(a, 0, 9);
  fixture.session->memsetIssued(0, a, kPage, 9, 1);
  fixture.device.copied.clear();
  fixture.launch();
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{4});  // before and after both launches
  CHECK_EQ(fixture.device.hashedRanges[b], std::uint64_t{3});  // not before the second: current
  CHECK(copiedExactly(fixture.device, {{a, kPage}}));
  std::memset(SessionFixture::at(b), 4, 16);
  fixture.session->copyIssued(0, b, a, 16);  // a copy into b: b is read again, a is not
  fixture.launch();
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{5});
  CHECK_EQ(fixture.device.hashedRanges[b], std::uint64_t{5});
  CHECK(contains(fixture.record(0), "\"bytes\":65636,\"kind\":\"device\",\"label\":\"\",\"pagesBefore\":[\"" +
                                     pageBlob(1) + "\",\"" + pageBlob(1, 100) + "\"]"));
}

TEST("capture memory: a launch that is not captured, or a write the capture cannot bound, makes every range read again") {
  CaptureOptions options = everyLaunchOptions();
  options.kernelName = "scale";
  SessionFixture fixture(options);
  const std::uint64_t a = fixture.addRange(1), b = fixture.addRange(1);
  fixture.launch();
  CHECK(!fixture.launch({}, 0, 0, "other_kernel"));
  fixture.launch();
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{4});
  CHECK_EQ(fixture.device.hashedRanges[b], std::uint64_t{4});
  fixture.session->unboundedWriteIssued();
  fixture.launch();
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{6});
  fixture.launch();  // nothing in between: current
  CHECK_EQ(fixture.device.hashedRanges[a], std::uint64_t{7});
}

TEST("capture memory: host ranges are read by the CPU before every launch, never hashed on the device") {
  SessionFixture fixture;
  const std::uint64_t host = fixture.addRange(1, 3, MemoryKind::HostPinned);
  fixture.launch();
  SessionFixture::fillPage(host, 0, 5);  // the CPU writes it between the launches
  fixture.launch();
  CHECK_EQ(fixture.device.hashedRanges.count(host), std::size_t{0});
  CHECK(fixture.device.copied.empty());
  CHECK(contains(fixture.record(1), "\"kind\":\"host-pinned\",\"label\":\"\",\"pagesBefore\":[\"" + pageBlob(5) +
                                     "\"],\"pageHashesBefore\":[" + pageHashText(5) + "]"));
}

TEST("capture memory: device memory of another context is read through a copy, not hashed in the launch's context") {
  SessionFixture fixture;
  const std::uint64_t mine = fixture.addRange(1), theirs = fixture.addRange(1, 6);
  fixture.device.contexts[mine] = 0xc0;
  fixture.device.contexts[theirs] = 0xc1;
  fixture.launch({}, 0, 0xc0);
  CHECK_EQ(fixture.device.hashedRanges[mine], std::uint64_t{2});
  CHECK_EQ(fixture.device.hashedRanges.count(theirs), std::size_t{0});
  CHECK(contains(fixture.record(0), "\"pagesBefore\":[\"" + pageBlob(6) + "\"]"));
}

TEST("capture memory: staging is bounded; when the writer falls behind, the launch waits for a buffer, nothing dropped") {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  CaptureOptions options = everyLaunchOptions();
  options.stagingBytes = 2 * kPage;  // two buffers of one page
  SessionFixture fixture(options, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    opened.wait(lock, [&] { return open; });
  });
  const std::uint64_t a = fixture.addRange(5);
  for (int page = 0; page < 5; ++page) SessionFixture::fillPage(a, page, static_cast<std::uint8_t>(10 + page));
  std::thread program([&] { fixture.launch(); });
  const PinnedStaging& staging = fixture.session->staging();
  CHECK(eventually([&] { return staging.waiting(); }));
  CHECK_EQ(staging.bufferCount(), std::size_t{2});
  CHECK_EQ(staging.inUse(), std::size_t{2});
  CHECK_EQ(fixture.device.copied.size(), std::size_t{2});  // the third page waits for a buffer
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  program.join();
  CHECK_EQ(staging.mostInUse(), std::size_t{2});
  CHECK(staging.waits() >= 1);
  CHECK_EQ(fixture.device.copied.size(), std::size_t{5});
  CHECK_EQ(fixture.device.stagingAllocations, std::uint64_t{1});
  CHECK(contains(fixture.record(0), "\"pagesBefore\":[\"" + pageBlob(10) + "\",\"" + pageBlob(11) + "\",\"" +
                                     pageBlob(12) + "\",\"" + pageBlob(13) + "\",\"" + pageBlob(14) + "\"]"));
}

TEST("capture memory: a writer failure stops the capture with a message naming the file; the manifest stays incomplete") {
  SessionFixture fixture;
  fixture.addRange(1, 42);
  const std::string id = pageBlob(42);
  const std::string blocked = fixture.directory + "/blobs/" + id.substr(0, 2);
  { std::ofstream file(blocked); }  // a file where the blob's folder would go
  fixture.launch();
  fixture.session->flush();
  CHECK(fixture.session->stopped());
  const std::string said = fixture.log.str();
  CHECK(contains(said, "[kreplay capture] writing the capture failed: [native] [capture] could not create " + blocked +
                        "/.tmp-" + id));
  CHECK(contains(said, "capturing stops here. The 0 launches captured so far are readable in " + fixture.directory));
  CHECK(!fixture.launch());
  fixture.session->finish();
  CHECK(contains(readFile(fixture.directory + "/manifest.json"), "\"complete\":false"));
}

TEST("capture memory: a forked child's exit does not wait for the writer threads it does not have") {
  SessionFixture fixture;
  fixture.addRange(1);
  fixture.launch();  // staged, perhaps not yet written
  const pid_t child = ::fork();
  if (child == 0) {
    fixture.session->finish();  // in the child: returns at once (no writer threads here)
    ::_exit(0);
  }
  int status = -1;
  bool exited = false;
  for (int i = 0; i < 20000 && !exited; ++i) {
    exited = ::waitpid(child, &status, WNOHANG) == child;
    if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!exited) ::kill(child, SIGKILL), ::waitpid(child, &status, 0);
  CHECK(exited && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  fixture.session->finish();
  CHECK(contains(readFile(fixture.directory + "/manifest.json"), "\"complete\":true"));
}
