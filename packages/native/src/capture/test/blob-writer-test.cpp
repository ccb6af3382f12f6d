// The capture's background writer on its own: records renamed into place in the order launches were
// handed over, each after the blobs it names; staging buffers released once written; a failure kept
// with the file it names, and drain refusing afterwards.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "capture/inject/blob-writer.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

constexpr std::uint64_t kPage = 4096;

bool exists(const std::string& path) {
  struct stat info{};
  return ::stat(path.c_str(), &info) == 0;
}

/** A record of one one-page range whose page is `page`, module `module`. */
PendingRecord recordOf(std::uint64_t sequence, BlobRef module, BlobRef page) {
  PendingRecord record;
  record.fields.sequence = sequence;
  record.fields.function = "k";
  record.fields.pageBytes = kPage;
  record.fields.memory.push_back({0x1000, kPage, MemoryKind::Device, "", {}, {1}, {2}});
  record.module = std::move(module);
  record.pages = {{std::move(page)}};
  return record;
}

/** Stages a page of `fill` bytes; its blob slot. */
BlobRef stagePage(PinnedStaging& staging, BlobWriter& writer, std::uint8_t fill) {
  std::uint8_t* buffer = staging.acquire();
  std::memset(buffer, fill, kPage);
  auto blob = std::make_shared<BlobSlot>();
  writer.addPages(buffer, {{0, kPage, blob}});
  return blob;
}

/** A capture folder, two pages of staging, and a writer of one thread over them. */
struct WriterFixture {
  std::string directory = temporaryFolder();
  CaptureWriter folder{directory, {}};
  FakeDeviceMemory device;
  PinnedStaging staging{device, 2 * kPage, kPage};
  BlobWriter writer{folder, staging, {}};
};

}  // namespace

TEST("blob writer: a record is renamed after the blobs it names, and records in the order they were handed over") {
  const std::string directory = temporaryFolder();
  CaptureWriter folder(directory, {});
  FakeDeviceMemory device;
  PinnedStaging staging(device, 4 * kPage, kPage);
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false, first = true;
  std::vector<std::string> renamed;
  BlobWriterOptions options;
  options.threads = 2;
  options.beforeWrite = [&] {  // holds back the first batch only
    std::unique_lock<std::mutex> lock(mutex);
    if (!first) return;
    first = false;
    opened.wait(lock, [&] { return open; });
  };
  options.afterRename = [&](const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex);
    renamed.push_back(path);
  };
  BlobWriter writer(folder, staging, options);
  const auto module = std::make_shared<const std::vector<std::uint8_t>>(64, 9);
  auto moduleBlob = std::make_shared<BlobSlot>();
  const BlobRef a = stagePage(staging, writer, 'a');
  writer.addBytes(module, moduleBlob);
  writer.addRecord(recordOf(0, moduleBlob, a));
  const BlobRef b = stagePage(staging, writer, 'b');
  writer.addRecord(recordOf(1, moduleBlob, b));
  // Launch 1's page is written (its buffer free again) while launch 0's is held back: nothing is committed.
  for (int i = 0; i < 20000 && staging.inUse() > 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK_EQ(staging.inUse(), std::size_t{1});
  CHECK(!exists(directory + "/launches/00000001.json"));
  CHECK(!exists(directory + "/launches/00000000.json"));
  {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  writer.drain();
  CHECK_EQ(writer.committedLaunches(), std::uint64_t{2});
  CHECK_EQ(staging.inUse(), std::size_t{0});
  auto position = [&](const std::string& path) {
    return std::find(renamed.begin(), renamed.end(), path) - renamed.begin();
  };
  auto blobPath = [&](const BlobRef& blob) { return directory + "/blobs/" + blob->id.substr(0, 2) + "/" + blob->id; };
  const auto record0 = position(directory + "/launches/00000000.json");
  const auto record1 = position(directory + "/launches/00000001.json");
  CHECK(record0 < record1 && record1 < static_cast<std::ptrdiff_t>(renamed.size()));
  CHECK(position(blobPath(a)) < record0);
  CHECK(position(blobPath(moduleBlob)) < record0);
  CHECK(position(blobPath(b)) < record1);
  CHECK(contains(readFile(directory + "/launches/00000001.json"), "\"pagesBefore\":[\"" + b->id + "\"]"));
  CHECK(contains(readFile(directory + "/manifest.json"), "\"launches\":2,"));
}

TEST("blob writer: a page content seen twice is stored once; a launch without a record still stores its pages") {
  WriterFixture fixture;
  const std::string& directory = fixture.directory;
  PinnedStaging& staging = fixture.staging;
  BlobWriter& writer = fixture.writer;
  const BlobRef first = stagePage(staging, writer, 'x');
  writer.closeGroup();
  const BlobRef second = stagePage(staging, writer, 'x');
  writer.drain();
  CHECK_EQ(first->id, second->id);
  CHECK(exists(directory + "/blobs/" + first->id.substr(0, 2) + "/" + first->id));
  CHECK(contains(readFile(directory + "/manifest.json"), "\"bytesStored\":4096,\"blobsStored\":1,\"launches\":0"));
}

TEST("blob writer: a failure is kept with the file it names, frees the staging, and drain refuses afterwards") {
  WriterFixture fixture;
  const std::string& directory = fixture.directory;
  PinnedStaging& staging = fixture.staging;
  BlobWriter& writer = fixture.writer;
  const std::vector<std::uint8_t> page(kPage, 'f');
  const std::string id = blobId(page.data(), page.size());
  { std::ofstream blocker(directory + "/blobs/" + id.substr(0, 2)); }
  stagePage(staging, writer, 'f');
  CHECK_THROWS(writer.drain(), "could not create " + directory + "/blobs/" + id.substr(0, 2) + "/.tmp-" + id);
  CHECK(contains(writer.failure(), "Not a directory"));
  CHECK_EQ(staging.inUse(), std::size_t{0});
  CHECK_THROWS(staging.acquire(), "could not create");
  CHECK_THROWS(writer.addRecord(recordOf(0, nullptr, nullptr)), "could not create");
}

TEST("blob writer: auto writer threads are min(8, hardware threads - 1), at least 1; a number is kept") {
  const unsigned hardware = std::thread::hardware_concurrency();
  CHECK_EQ(writerThreadCount(0), std::clamp(hardware > 1 ? hardware - 1 : 1u, 1u, 8u));
  CHECK_EQ(writerThreadCount(3), 3u);
  CHECK_EQ(stagingBufferBytes(256ull << 20, 65536), std::uint64_t{16} << 20);
  CHECK_EQ(stagingBufferBytes(2 * 65536, 65536), std::uint64_t{65536});
  CHECK_EQ(stagingBufferBytes(8ull << 20, 65536), std::uint64_t{1} << 20);
}
