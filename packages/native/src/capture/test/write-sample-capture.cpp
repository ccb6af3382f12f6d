#include "capture/test/write-sample-capture.hpp"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/test/synthetic-images.hpp"
#include "core/page-hash.hpp"

namespace kreplay::capture::test {

namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kBase = 0x7f1200000000ull;

Bytes fills(const std::vector<int>& values, std::uint64_t pageBytes = kPage) {
  Bytes out;
  for (int value : values) out.insert(out.end(), pageBytes, static_cast<std::uint8_t>(value));
  return out;
}

std::vector<std::uint64_t> hashes(const Bytes& contents, std::uint64_t pageBytes = kPage) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t at = 0; at < contents.size(); at += pageBytes)
    out.push_back(pageHash(contents.data() + at, std::min<std::uint64_t>(pageBytes, contents.size() - at)));
  return out;
}

LaunchRecord scaleLaunch(const Bytes& module, std::uint64_t base, std::uint32_t count) {
  LaunchRecord record;
  record.function = "scale";
  record.module = module.data();
  record.moduleBytes = module.size();
  record.shape.grid = {4, 1, 1};
  record.shape.block = {256, 1, 1};
  record.parameterBuffer.assign(16, 0);
  for (int i = 0; i < 8; ++i) record.parameterBuffer[i] = static_cast<std::uint8_t>(base >> (8 * i));
  for (int i = 0; i < 4; ++i) record.parameterBuffer[8 + i] = static_cast<std::uint8_t>(count >> (8 * i));
  record.parameters = {{0, 0, 8}, {1, 8, 4}};
  record.pageBytes = kPage;
  return record;
}

std::string blobPath(const std::string& directory, const std::string& id) {
  return directory + "/blobs/" + id.substr(0, 2) + "/" + id;
}

}  // namespace

int writeSampleCapture(const char* directory, std::ostream& out) {
  try {
    const Bytes module = syntheticCubin().bytes;
    CaptureWriter writer(directory, {"cuda", "sm_90", "synthetic device", {"python", "train.py"}, {}});

    const Bytes before0 = fills({10, 11, 10}), after0 = fills({11, 12, 11});
    const Bytes counter = fills({20}, 4);
    LaunchRecord launch0 = scaleLaunch(module, kBase, 3072);
    launch0.memory.push_back({kBase, before0.size(), MemoryKind::Device, "", before0.data(), hashes(after0)});
    launch0.memory.push_back(
        {0x7f1300000004ull, 4, MemoryKind::ModuleGlobal, "counter", counter.data(), hashes(counter)});
    writer.writeLaunch(launch0);

    const Bytes before1 = fills({11, 13});
    LaunchRecord launch1 = scaleLaunch(module, kBase, 2048);
    launch1.place.follows = 0;  // it continues launch 0's captured sequence, after a memset of its page 1
    launch1.place.workBefore.push_back({WorkKind::Memset, 0, kBase + kPage, 0, kPage, 13, 1});
    launch1.place.workBefore.push_back({WorkKind::Allocation, 0, kBase + 0x300000, 0, 8192, 0, 1, MemoryKind::Pool});
    launch1.shape.clusterDims = std::array<std::uint32_t, 3>{2, 1, 1};
    launch1.shape.attributes.push_back({"CU_LAUNCH_ATTRIBUTE_PRIORITY", {1}});
    launch1.shape.dynamicSharedBytes = 1024;
    launch1.memory.push_back({kBase, before1.size(), MemoryKind::Pool, "", before1.data(), hashes(before1)});
    writer.writeLaunch(launch1);

    const Bytes before2 = fills({14});
    LaunchRecord launch2 = scaleLaunch(module, kBase + 0x100000, 1024);
    launch2.place.stream = 0x5000;
    launch2.place.context = 0xc0;
    launch2.place.sequenceBreak = "other-stream";
    launch2.place.workBefore.push_back({WorkKind::Upload, 0x5000, kBase + 0x100000, 0, 4096});
    launch2.place.workBefore.push_back({WorkKind::Copy, 0x5000, kBase + 0x100000, kBase, 16});
    launch2.place.workBefore.push_back({WorkKind::Download, 0x5000, kBase, 0, 64});
    launch2.place.workBefore.push_back({WorkKind::Free, 0, kBase + 0x300000});
    launch2.memory.push_back(
        {kBase + 0x100000, before2.size(), MemoryKind::HostPinned, "", before2.data(), hashes(before2)});
    writer.writeLaunch(launch2);
    const std::string truncated = blobId(before2.data(), before2.size());
    if (::truncate(blobPath(directory, truncated).c_str(), 100) != 0)
      throw std::runtime_error("truncate failed");

    LaunchRecord launch3 = scaleLaunch(module, kBase, 1);
    launch3.place.follows = 1;
    const StagedLaunch staged = writer.stageLaunch(launch3);  // and then the process "dies"

    const Bytes before4 = fills({15});
    LaunchRecord launch4 = scaleLaunch(module, kBase + 0x200000, 1024);
    launch4.place.sequenceBreak = "uncaptured-launch";
    launch4.memory.push_back(
        {kBase + 0x200000, before4.size(), MemoryKind::Vmm, "", before4.data(), hashes(before4)});
    writer.writeLaunch(launch4);
    const std::string missing = blobId(before4.data(), before4.size());
    if (::unlink(blobPath(directory, missing).c_str()) != 0) throw std::runtime_error("unlink failed");

    writer.countNotCaptured(NotCapturedReason::GraphLaunch);
    writer.countNotCaptured(NotCapturedReason::GraphLaunch);
    writer.countNotCaptured(NotCapturedReason::CooperativeLaunch);

    out << "{\"module\":\"" << blobId(module.data(), module.size()) << "\",\"truncatedBlob\":\"" << truncated
        << "\",\"missingBlob\":\"" << missing << "\",\"staged\":\"" << staged.temporaryPath << "\"}\n";
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
}

}  // namespace kreplay::capture::test
