// SHA-256, blob ids and the capture writer's files. The crash cases (a launch staged but never
// committed, a truncated blob) are written by --write-capture and read by capture-folder.test.ts.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "capture/capture-writer.hpp"
#include "capture/sha256.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;

namespace {

std::string text(const std::string& value) {
  return value;
}

std::string sha(const std::string& value) {
  return sha256Hex(reinterpret_cast<const std::uint8_t*>(value.data()), value.size());
}

std::string temporaryFolder() {
  char pattern[] = "/tmp/kreplay-capture-test-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  if (made == nullptr) throw std::runtime_error("mkdtemp failed");
  return made;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST("sha256: the FIPS 180-4 examples and a message across many blocks") {
  CHECK_EQ(sha(""), text("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  CHECK_EQ(sha("abc"), text("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  CHECK_EQ(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
           text("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  CHECK_EQ(sha(std::string(1000000, 'a')),
           text("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

TEST("sha256: the SHA-NI code gives the FIPS 180-4 digests, and the same as the portable code on every length") {
  if (!sha256ShaNiSupported()) throw kreplay::hsa::test::Skip("this CPU has no SHA-NI");
  const auto with = [](const std::string& value, Sha256Code code) {
    return sha256Hex(reinterpret_cast<const std::uint8_t*>(value.data()), value.size(), code);
  };
  for (const Sha256Code code : {Sha256Code::Portable, Sha256Code::ShaNi}) {
    CHECK_EQ(with("", code), text("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    CHECK_EQ(with("abc", code), text("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    CHECK_EQ(with("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", code),
             text("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    CHECK_EQ(with(std::string(1000000, 'a'), code),
             text("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
  }
  std::string message;
  for (int i = 0; i < 300; ++i) message += static_cast<char>(i * 37 + 11);
  for (std::size_t length = 0; length <= message.size(); ++length) {
    const std::string part = message.substr(0, length);
    CHECK_EQ(with(part, Sha256Code::ShaNi), with(part, Sha256Code::Portable));
  }
  CHECK(fastestSha256Code() == Sha256Code::ShaNi);
}

TEST("sha256: asking for SHA-NI on a CPU without it is refused, and the default is the portable code there") {
  if (sha256ShaNiSupported()) {
    CHECK(fastestSha256Code() == Sha256Code::ShaNi);
    return;
  }
  CHECK(fastestSha256Code() == Sha256Code::Portable);
  CHECK_THROWS(Sha256(Sha256Code::ShaNi), "this CPU has no SHA-NI");
}

TEST("sha256: fed in pieces of every size it is the same digest") {
  const std::string message(300, 'x');
  for (std::size_t piece = 1; piece <= 130; ++piece) {
    Sha256 hash;
    for (std::size_t at = 0; at < message.size(); at += piece) {
      hash.update(reinterpret_cast<const std::uint8_t*>(message.data()) + at,
                  std::min(piece, message.size() - at));
    }
    const auto digest = hash.finish();
    char hex[65];
    for (int i = 0; i < 32; ++i) std::snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    CHECK_EQ(std::string(hex), sha(message));
  }
}

TEST("capture writer: a blob is stored once under its id, and a second writer refuses the folder") {
  const std::string folder = temporaryFolder();
  CaptureWriter writer(folder, {"cuda", "sm_90", "test device", {"program", "--flag"}, {}});
  const std::string content = "page contents";
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(content.data());
  const std::string id = writer.putBlob(bytes, content.size());
  CHECK_EQ(id, sha(content).substr(0, 32) + "-13");
  CHECK_EQ(writer.putBlob(bytes, content.size()), id);
  CHECK_EQ(readFile(folder + "/blobs/" + id.substr(0, 2) + "/" + id), content);
  CHECK_THROWS(CaptureWriter(folder, {}), "already holds a capture");
  const std::string manifest = readFile(folder + "/manifest.json");
  CHECK(manifest.find("\"complete\":false") != std::string::npos);
  writer.countNotCaptured(NotCapturedReason::GraphLaunch);
  writer.countNotCaptured(NotCapturedReason::GraphLaunch);
  writer.finish();
  const std::string finished = readFile(folder + "/manifest.json");
  CHECK(finished.find("\"graph-launch\":2") != std::string::npos);
  CHECK(finished.find("\"complete\":true") != std::string::npos);
}

TEST("capture writer: a folder it cannot create is an error naming it") {
  CHECK_THROWS(CaptureWriter("/proc/kreplay-no-such/capture", {}),
               "could not create the folder /proc/kreplay-no-such/capture");
}

TEST("capture writer: a record a reader would find inconsistent is refused before anything is written") {
  const std::string folder = temporaryFolder();
  CaptureWriter writer(folder, {});
  const std::uint8_t module[4] = {1, 2, 3, 4};
  const std::uint8_t page[8] = {};
  LaunchRecord record;
  record.function = "k";
  record.module = module;
  record.moduleBytes = sizeof module;
  record.pageBytes = 4;
  record.parameterBuffer.assign(8, 0);
  record.parameters = {{0, 4, 8}};
  CHECK_THROWS(writer.writeLaunch(record), "parameter 0 lies outside the 8-byte parameter buffer");
  record.parameters = {{0, 0, 8}};
  record.memory.push_back({0x1000, 8, MemoryKind::Device, "", page, {1}});
  CHECK_THROWS(writer.writeLaunch(record), "a memory range of 2 pages has 1 page hashes");
  record.pageBytes = 0;
  CHECK_THROWS(writer.writeLaunch(record), "its page size is 0");
  CHECK(::access((folder + "/blobs/" + blobId(module, 4).substr(0, 2)).c_str(), F_OK) != 0);
  record.pageBytes = 4;
  record.memory[0].hashesAfter = {1, 2};
  CHECK_EQ(writer.writeLaunch(record), std::uint64_t{0});  // refused records take no sequence number
}

TEST("capture writer: launches written from several threads get distinct sequences and share blobs") {
  const std::string folder = temporaryFolder();
  CaptureWriter writer(folder, {});
  const std::vector<std::uint8_t> module(64, 7), pages(3 * 16, 9);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        LaunchRecord record;
        record.function = "k";
        record.module = module.data();
        record.moduleBytes = module.size();
        record.pageBytes = 16;
        record.memory.push_back({0x1000, pages.size(), MemoryKind::Device, "", pages.data(), {1, 2, 3}});
        writer.writeLaunch(record);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::string> records;
  for (const auto& entry : std::filesystem::directory_iterator(folder + "/launches")) {
    records.insert(entry.path().filename().string());
  }
  CHECK_EQ(records.size(), std::size_t{40});
  CHECK(records.count("00000000.json") == 1 && records.count("00000039.json") == 1);
  std::size_t blobs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder + "/blobs")) {
    blobs += entry.is_regular_file() ? 1 : 0;
  }
  CHECK_EQ(blobs, std::size_t{2});  // the module and the one page content
}
