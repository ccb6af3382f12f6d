// Page hashing and the conditional copies, planned like the driver plans them and run through the
// CPU emulation of the AMDGPU kernels, compared bit for bit with the host driver (core/).
#include <algorithm>
#include <random>
#include <vector>

#include "core/conditional-copy.hpp"
#include "core/hash-pages.hpp"
#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/test/host-operation-memory.hpp"
#include "drivers/hsa/test/kernel-emulator.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay;
using namespace kreplay::hsa;
using namespace kreplay::hsa::test;

namespace {

const CodeObjectMetadata& gfx90a() {
  static const CodeObjectMetadata metadata = [] {
    for (const auto& object : embeddedCodeObjects()) {
      if (std::string(object.processor) == "gfx90a") return readCodeObjectMetadata(object.bytes, object.size);
    }
    throw std::runtime_error("no gfx90a code object");
  }();
  return metadata;
}

std::vector<std::uint8_t> randomBytes(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::uint8_t> bytes(count);
  for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random());
  return bytes;
}

std::uint64_t address(std::vector<std::uint8_t>& bytes, std::size_t offset = 0) {
  return addressOf(bytes.data() + offset);
}

std::vector<std::uint64_t> emulatedHashes(const std::vector<Range>& ranges, std::uint64_t pageBytes,
                                          std::uint32_t groupLimit) {
  std::vector<std::uint64_t> hashes(4096, 0);
  HostOperationMemory memory;
  const OperationPlan plan = planHashPages(ranges, pageBytes, addressOf(hashes.data()), memory, sameAddress);
  emulatePlan(plan, gfx90a(), groupLimit);
  std::uint64_t pages = 0;
  for (const auto& range : ranges) pages += (range.bytes + pageBytes - 1) / pageBytes;
  hashes.resize(pages);
  return hashes;
}

std::vector<std::uint64_t> hostHashes(const std::vector<Range>& ranges, std::uint64_t pageBytes) {
  ThreadPool pool(2);
  std::uint64_t pages = 0;
  for (const auto& range : ranges) pages += (range.bytes + pageBytes - 1) / pageBytes;
  std::vector<std::uint64_t> hashes(pages);
  hashRanges(pool, ranges, pageBytes, reinterpret_cast<std::uint8_t*>(hashes.data()));
  return hashes;
}

/** Source, destination, stored hashes, page list and count of one conditional-copy scenario. */
struct Scenario {
  std::vector<std::uint8_t> source;
  std::vector<std::uint8_t> destination;
  std::vector<std::uint64_t> stored;
  std::vector<std::uint32_t> pageList;
  std::uint32_t pageCount = 0xdeadbeef;
  std::vector<Segment> segments;
  std::uint64_t pageBytes = 0;
};

/**
 * Three segments (one empty, one with a short last page) over a source and its stale copy, with the
 * stored hashes of the side that is not hashed (a mirror's hashes, or those of the memory it mirrors).
 */
Scenario scenario(std::uint64_t pageBytes, bool hashDestination = false) {
  Scenario s;
  s.pageBytes = pageBytes;
  s.source = randomBytes(20000, 1);
  s.destination = s.source;
  for (const std::size_t changed : {5u, 700u, 5000u, 12345u, 19999u}) s.destination[changed] ^= 0x5a;
  s.segments = {{address(s.source, 1), address(s.destination, 1), 9000},
                {address(s.source, 9001), address(s.destination, 9001), 0},
                {address(s.source, 9008), address(s.destination, 9008), 10992}};
  std::vector<Range> hashed;
  for (const auto& segment : s.segments)
    hashed.push_back({hashDestination ? segment.source : segment.destination, segment.bytes});
  s.stored = hostHashes(hashed, pageBytes);
  s.stored[1] ^= 1;  // a page whose stored hash is stale although the bytes agree
  s.pageList.assign(s.stored.size(), 0xffffffff);
  return s;
}

std::vector<Segment> retarget(const Scenario& from, Scenario& to) {
  std::vector<Segment> segments;
  for (const auto& segment : from.segments) {
    segments.push_back({segment.source - addressOf(from.source.data()) + address(to.source),
                        segment.destination - addressOf(from.destination.data()) + address(to.destination),
                        segment.bytes});
  }
  return segments;
}

ConditionalCopy optionsOf(Scenario& s, bool hashDestination, bool update) {
  return {s.segments,
          s.pageBytes,
          hashDestination,
          addressOf(s.stored.data()),
          update,
          addressOf(s.pageList.data()),
          addressOf(&s.pageCount)};
}

std::vector<std::uint32_t> sortedList(const Scenario& s) {
  std::vector<std::uint32_t> list(s.pageList.begin(), s.pageList.begin() + s.pageCount);
  std::sort(list.begin(), list.end());
  return list;
}

}  // namespace

TEST("emulated hash: pages of several ranges and sizes hash exactly like the host driver") {
  std::vector<std::uint8_t> first = randomBytes(20000, 7);
  std::vector<std::uint8_t> second = randomBytes(13000, 8);
  const std::vector<Range> ranges{
      {address(first, 3), 10000}, {address(second), 0}, {address(second, 8), 4096 * 3 + 5}};
  for (const std::uint64_t pageBytes : {8u, 64u, 100u, 256u, 257u, 1000u, 4096u, 65536u}) {
    const auto expected = hostHashes(ranges, pageBytes);
    CHECK(emulatedHashes(ranges, pageBytes, 0) == expected);
    CHECK(emulatedHashes(ranges, pageBytes, 2) == expected);  // grid-stride over pages
  }
}

TEST("emulated hash: no pages, no dispatch") {
  HostOperationMemory memory;
  CHECK(planHashPages({{0x1000, 0}}, 4096, 0x2000, memory, sameAddress).steps.empty());
}

TEST("emulated conditional copy: source or destination hashed, with or without updates, like the host") {
  for (const bool hashDestination : {false, true}) {
    for (const bool update : {false, true}) {
      for (const std::uint64_t pageBytes : {512u, 4096u}) {
        Scenario device = scenario(pageBytes, hashDestination);
        Scenario host = scenario(pageBytes, hashDestination);
        host.segments = retarget(device, host);
        HostOperationMemory memory;
        const OperationPlan plan =
            planConditionalCopy(optionsOf(device, hashDestination, update), memory, sameAddress);
        CHECK_EQ(plan.steps.size(), 2u);
        CHECK(plan.steps[0].kernel == DeviceKernel::Fill);  // the count is set, not accumulated
        emulatePlan(plan, gfx90a(), pageBytes == 512 ? 3 : 0);
        ThreadPool pool(2);
        copyChangedPages(pool, optionsOf(host, hashDestination, update));
        CHECK_EQ(device.pageCount, host.pageCount);
        CHECK(device.pageCount >= 4);  // pages holding the five changed bytes, and the stale one
        CHECK(sortedList(device) == sortedList(host));
        CHECK(device.destination == host.destination);
        CHECK(device.stored == host.stored);
      }
    }
  }
}

TEST("emulated page-list copy: copies the recorded pages again") {
  Scenario device = scenario(1024);
  Scenario host = scenario(1024);
  host.segments = retarget(device, host);
  device.pageCount = 3;
  host.pageCount = 3;
  device.pageList[0] = host.pageList[0] = 19;
  device.pageList[1] = host.pageList[1] = 0;
  device.pageList[2] = host.pageList[2] = 4;
  const PageListCopy deviceOptions{device.segments, 1024, addressOf(device.pageList.data()),
                                   addressOf(&device.pageCount)};
  HostOperationMemory memory;
  const OperationPlan plan = planPageListCopy(deviceOptions, memory, sameAddress);
  emulatePlan(plan, gfx90a());
  CHECK(!pageListFailure(plan.pageListStatus, plan.pageCount).has_value());
  ThreadPool pool(2);
  copyPageList(pool, {host.segments, 1024, addressOf(host.pageList.data()), addressOf(&host.pageCount)});
  CHECK(device.destination == host.destination);
  CHECK(device.destination != device.source);  // only the listed pages were copied
}

TEST("emulated page-list copy: stores the hash of each copied page, and only those, like the host") {
  for (const std::uint32_t groupLimit : {0u, 2u}) {  // 2: the grid-stride loop over the list
    Scenario device = scenario(1024);
    Scenario host = scenario(1024);
    host.segments = retarget(device, host);
    const std::vector<std::uint64_t> before = device.stored;
    device.pageCount = host.pageCount = 3;
    device.pageList[0] = host.pageList[0] = 19;  // a short last page
    device.pageList[1] = host.pageList[1] = 1;   // its stored hash is stale though the bytes agree
    device.pageList[2] = host.pageList[2] = 4;
    PageListCopy deviceOptions{device.segments, 1024, addressOf(device.pageList.data()),
                               addressOf(&device.pageCount)};
    deviceOptions.storedHashesAddress = addressOf(device.stored.data());
    HostOperationMemory memory;
    const OperationPlan plan = planPageListCopy(deviceOptions, memory, sameAddress);
    emulatePlan(plan, gfx90a(), groupLimit);
    CHECK(!pageListFailure(plan.pageListStatus, plan.pageCount).has_value());
    ThreadPool pool(2);
    PageListCopy hostOptions{host.segments, 1024, addressOf(host.pageList.data()),
                             addressOf(&host.pageCount)};
    hostOptions.storedHashesAddress = addressOf(host.stored.data());
    copyPageList(pool, hostOptions);
    CHECK(device.destination == host.destination);
    CHECK(device.stored == host.stored);
    // The listed pages' hashes are those of the destination after the copy; the others are untouched.
    std::vector<Range> copied;
    for (const auto& segment : device.segments) copied.push_back({segment.destination, segment.bytes});
    const std::vector<std::uint64_t> after = hostHashes(copied, 1024);
    for (std::size_t page = 0; page < before.size(); ++page) {
      const bool listed = page == 19 || page == 1 || page == 4;
      CHECK_EQ(device.stored[page], listed ? after[page] : before[page]);
    }
    CHECK(device.stored[1] != before[1]);
  }
}

TEST("emulated page-list copy: without stored hashes the kernel gets null and stores none") {
  Scenario device = scenario(1024);
  device.pageCount = 1;
  device.pageList[0] = 1;
  const std::vector<std::uint64_t> before = device.stored;
  const PageListCopy options{device.segments, 1024, addressOf(device.pageList.data()),
                             addressOf(&device.pageCount)};
  HostOperationMemory memory;
  const OperationPlan plan =
      planPageListCopy(options, memory, [](std::uint64_t address) { return address + 1; });
  CHECK_EQ(plan.steps.size(), 2u);
  CHECK(plan.steps[1].kernel == DeviceKernel::CopyPageList);
  CHECK_EQ(plan.steps[1].arguments.at(5), 0u);  // not translated: 0 means none
  const OperationPlan run = planPageListCopy(options, memory, sameAddress);
  emulatePlan(run, gfx90a());
  CHECK(device.stored == before);
}

TEST("emulated page-list copy: an invalid list copies nothing and fails like the host driver") {
  for (const bool badCount : {true, false}) {
    Scenario device = scenario(1024);
    const std::vector<std::uint8_t> before = device.destination;
    device.pageCount = badCount ? 21 : 3;  // the segments have 20 pages
    device.pageList[0] = 1;
    device.pageList[1] = 20;
    device.pageList[2] = 25;
    const std::vector<std::uint64_t> storedBefore = device.stored;
    PageListCopy options{device.segments, 1024, addressOf(device.pageList.data()),
                         addressOf(&device.pageCount)};
    options.storedHashesAddress = addressOf(device.stored.data());
    HostOperationMemory memory;
    const OperationPlan plan = planPageListCopy(options, memory, sameAddress);
    emulatePlan(plan, gfx90a());
    const auto failure = pageListFailure(plan.pageListStatus, plan.pageCount);
    CHECK(failure.has_value());
    CHECK(device.destination == before);
    CHECK(device.stored == storedBefore);  // no hash stored either
    ThreadPool pool(2);
    std::string expected;
    try {
      copyPageList(pool, options);
    } catch (const OperationFailure& hostFailure) {
      CHECK_EQ(hostFailure.code(), failure->code());
      expected = hostFailure.what();
    }
    CHECK_EQ(std::string(failure->what()), expected);
    CHECK_EQ(expected, badCount ? "the page count 21 exceeds the 20 pages of the segments"
                                : "page index 20 at position 1 is not below the page count 20");
  }
}
