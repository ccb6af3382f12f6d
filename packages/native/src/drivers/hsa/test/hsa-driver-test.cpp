// The hsa driver end to end on the fake ROCr (fake-hsa.hpp): its HSA calls, AQL packets, async
// copies, signals, retirement, events, errors and cleanup, with the kernels run by the emulator and
// every result compared with the host driver's (core/).
#include <algorithm>
#include <future>
#include <random>

#include "core/conditional-copy.hpp"
#include "core/hash-pages.hpp"
#include "drivers/hsa/hsa-driver.hpp"
#include "drivers/hsa/test/fake-hsa.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay;
using namespace kreplay::hsa;
using kreplay::hsa::test::FakeHsa;

namespace {

/** A driver on a freshly reset fake; shut down (and checked for leaks by the tests) at the end. */
struct FakeDriver {
  explicit FakeDriver(const std::string& processor = "gfx90a", std::uint32_t queuePackets = 64) {
    FakeHsa::reset(processor, queuePackets);
    runtime = FakeHsa::runtime();
    driver = std::make_unique<HsaDriver>(*runtime);
  }
  ~FakeDriver() { driver.reset(); }

  std::unique_ptr<HsaRuntime> runtime;
  std::unique_ptr<HsaDriver> driver;
};

std::optional<OperationError> synchronize(Queue& queue) {
  std::promise<std::optional<OperationError>> result;
  queue.synchronize([&](std::optional<OperationError> error) { result.set_value(std::move(error)); });
  return result.get_future().get();
}

std::vector<std::uint8_t> randomBytes(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::uint8_t> bytes(count);
  for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random());
  return bytes;
}

std::vector<std::uint8_t> readBack(Driver& driver, std::uint64_t address, std::size_t bytes) {
  std::vector<std::uint8_t> result(bytes);
  driver.read(0, address, bytes, result.data());
  return result;
}

void checkClean() {
  const auto report = FakeHsa::report();
  std::string problems;
  for (const auto& problem : report.problems) problems += problem + "; ";
  CHECK_EQ(problems, "");
  CHECK_EQ(report.initCount, 0);
  CHECK_EQ(report.liveQueues, 0u);
  CHECK_EQ(report.liveAllocations, 0u);
  CHECK_EQ(report.liveExecutables, 0u);
  CHECK_EQ(report.liveSignals, 0);
}

}  // namespace

TEST("driver on fake ROCr: describes its GPU agent, and releases everything at shutdown") {
  {
    FakeDriver fake;
    CHECK_EQ(fake.driver->agents().size(), 1u);
    CHECK_EQ(fake.driver->agents()[0].name, "Fake AMD GPU");
    CHECK_EQ(fake.driver->agents()[0].architecture, "gfx90a");
    CHECK_EQ(fake.driver->agents()[0].deviceMemoryBytes, std::uint64_t{1} << 30);
    CHECK_EQ(fake.driver->version(), "hsa 1.1 (fake ROCr)");
    const auto queue = fake.driver->createQueue(0);
    const AllocationResult memory = fake.driver->allocate(0, 4096);
    CHECK(memory.address != 0);
    CHECK_EQ(fake.driver->memoryInfo(0).freeBytes, (std::uint64_t{1} << 30) - 4096);
    CHECK(fake.driver->allocateHost(1000, true) != 0);
  }
  checkClean();
}

TEST("driver on fake ROCr: a GPU without a code object in this build is refused") {
  FakeHsa::reset("gfx1030");
  const auto runtime = FakeHsa::runtime();
  CHECK_THROWS(HsaDriver driver(*runtime), "no GPU agent has a code object");
  checkClean();
}

TEST("driver on fake ROCr: device memory written and read through locked host memory") {
  {
    FakeDriver fake;
    const auto data = randomBytes(100003, 1);
    const std::uint64_t device = fake.driver->allocate(0, data.size()).address;
    fake.driver->write(0, device, data.data(), data.size());
    CHECK(readBack(*fake.driver, device, data.size()) == data);
    CHECK(readBack(*fake.driver, device + 17, 100) ==
          std::vector<std::uint8_t>(data.begin() + 17, data.begin() + 117));
  }
  checkClean();
}

TEST("driver on fake ROCr: page hashes on the queue equal the host driver's, to device or host memory") {
  {
    FakeDriver fake;
    const auto data = randomBytes(50000, 2);
    const std::uint64_t device = fake.driver->allocate(0, data.size()).address;
    const std::uint64_t hashes = fake.driver->allocate(0, 8 * 1000).address;
    fake.driver->write(0, device, data.data(), data.size());
    const auto queue = fake.driver->createQueue(0);
    const std::vector<Range> ranges{{device + 3, 20000}, {device + 30000, 0}, {device + 30008, 19992}};
    std::vector<std::uint64_t> toHost(1000, 0);
    for (const std::uint64_t pageBytes : {100u, 4096u}) {
      queue->enqueueHash(ranges, pageBytes, hashes);
      queue->enqueueHashToHost(ranges, pageBytes, reinterpret_cast<std::uint8_t*>(toHost.data()));
      CHECK(!synchronize(*queue).has_value());
      std::vector<Range> hostRanges;
      for (const auto& range : ranges)
        hostRanges.push_back({addressOf(data.data()) + range.address - device, range.bytes});
      const std::uint64_t pages = 2 * ((20000 + pageBytes - 1) / pageBytes);
      std::vector<std::uint64_t> expected(1000, 0);
      ThreadPool pool(1);
      hashRanges(pool, hostRanges, pageBytes, reinterpret_cast<std::uint8_t*>(expected.data()));
      const auto onDevice = readBack(*fake.driver, hashes, 8 * pages);
      CHECK(std::memcmp(onDevice.data(), expected.data(), 8 * pages) == 0);
      CHECK(std::memcmp(toHost.data(), expected.data(), 8 * pages) == 0);
    }
  }
  checkClean();
}

TEST("driver on fake ROCr: copies and kernels run in queue order (barrier-AND after async copies)") {
  {
    FakeDriver fake;
    const std::uint64_t bytes = 1 << 16;
    const auto data = randomBytes(bytes, 3);
    const std::uint64_t host = fake.driver->allocateHost(bytes, true);
    std::memcpy(pointerOf(host), data.data(), bytes);
    const std::uint64_t first = fake.driver->allocate(0, bytes).address;
    const std::uint64_t second = fake.driver->allocate(0, bytes).address;
    const std::uint64_t result = fake.driver->allocateHost(bytes, false);
    const auto queue = fake.driver->createQueue(0);
    queue->enqueueCopy({{host, first, bytes / 2},
                        {host + bytes / 2, first + bytes / 2, bytes / 2}});       // one plan, two copies
    queue->enqueueKernel(BuiltinKernel::Fill, {first + 1000, 3000, 0x01020304});  // after the copies
    queue->enqueueCopy({{first, second, bytes}});                                 // after the kernel
    double fraction = 0.5;
    std::uint64_t fractionBits;
    std::memcpy(&fractionBits, &fraction, 8);
    queue->enqueueKernel(BuiltinKernel::ScatterWrite, {second, bytes, 4096, fractionBits, 99, host, 64});
    queue->enqueueCopy({{second, result, bytes}});
    CHECK(!synchronize(*queue).has_value());

    std::vector<std::uint8_t> expected = data;
    ThreadPool pool(1);
    fillKernel(pool, addressOf(expected.data()) + 1000, 3000, 0x01020304);
    scatterWriteKernel(pool, addressOf(expected.data()), bytes, 4096, fraction, 99, host, 64);
    CHECK(std::memcmp(pointerOf(result), expected.data(), bytes) == 0);
    const auto report = FakeHsa::report();
    CHECK_EQ(report.asyncCopies, 4u);
    CHECK_EQ(report.barrierPackets, 2u);  // before each kernel that follows copies
  }
  checkClean();
}

TEST("driver on fake ROCr: conditional and page-list copies match the host driver") {
  {
    FakeDriver fake;
    const std::uint64_t bytes = 40000;
    const std::uint64_t pageBytes = 1024;
    const std::uint64_t pages = (bytes + pageBytes - 1) / pageBytes;
    auto memoryBytes = randomBytes(bytes, 4);
    auto mirrorBytes = memoryBytes;
    for (const std::size_t changed : {10u, 5000u, 39999u}) memoryBytes[changed] ^= 1;
    const std::uint64_t memory = fake.driver->allocate(0, bytes).address;
    const std::uint64_t mirror = fake.driver->allocate(0, bytes).address;
    const std::uint64_t stored = fake.driver->allocate(0, 8 * pages).address;
    const std::uint64_t list = fake.driver->allocate(0, 4 * pages).address;
    const std::uint64_t count = fake.driver->allocateHost(4, true);
    fake.driver->write(0, memory, memoryBytes.data(), bytes);
    fake.driver->write(0, mirror, mirrorBytes.data(), bytes);
    const auto queue = fake.driver->createQueue(0);
    queue->enqueueHash({{mirror, bytes}}, pageBytes, stored);  // the mirror's hashes
    queue->enqueueConditionalCopy({{{memory, mirror, bytes}}, pageBytes, false, stored, true, list, count});
    CHECK(!synchronize(*queue).has_value());
    CHECK_EQ(*reinterpret_cast<std::uint32_t*>(pointerOf(count)), 3u);
    CHECK(readBack(*fake.driver, mirror, bytes) == memoryBytes);

    // The recorded pages copied again, onto a third buffer that starts as the old mirror, their
    // hashes stored into a host buffer (which the plan translates like every other address).
    const std::uint64_t third = fake.driver->allocate(0, bytes).address;
    fake.driver->write(0, third, mirrorBytes.data(), bytes);
    const std::uint64_t thirdHashes = fake.driver->allocateHost(8 * pages, false);
    auto* thirdHashWords = reinterpret_cast<std::uint64_t*>(pointerOf(thirdHashes));
    std::fill(thirdHashWords, thirdHashWords + pages, 0xababababababababull);
    queue->enqueuePageListCopy({{{memory, third, bytes}}, pageBytes, list, count, thirdHashes});
    CHECK(!synchronize(*queue).has_value());
    CHECK(readBack(*fake.driver, third, bytes) == memoryBytes);

    std::vector<std::uint64_t> hostHashes(pages);
    ThreadPool pool(1);
    hashRanges(pool, {{addressOf(memoryBytes.data()), bytes}}, pageBytes,
               reinterpret_cast<std::uint8_t*>(hostHashes.data()));
    CHECK(readBack(*fake.driver, stored, 8 * pages) ==
          std::vector<std::uint8_t>(reinterpret_cast<std::uint8_t*>(hostHashes.data()),
                                    reinterpret_cast<std::uint8_t*>(hostHashes.data()) + 8 * pages));
    for (std::uint64_t page = 0; page < pages; ++page) {
      const bool recorded = page == 0 || page == 4 || page == 39;  // the pages holding the changed bytes
      CHECK_EQ(thirdHashWords[page], recorded ? hostHashes[page] : 0xababababababababull);
    }
  }
  checkClean();
}

TEST("driver on fake ROCr: events take the packet processor's timestamps, in queue order") {
  {
    FakeDriver fake;
    const auto queue = fake.driver->createQueue(0);
    const std::uint64_t memory = fake.driver->allocate(0, 1 << 20).address;
    const auto start = queue->recordEvent();
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 1 << 20, 7});
    const auto end = queue->recordEvent();
    CHECK(!synchronize(*queue).has_value());
    CHECK(start->completed() && end->completed());
    CHECK(end->timestampNanoseconds() > start->timestampNanoseconds());
    const auto other = fake.driver->createQueue(0);
    other->enqueueWait(end);
    const auto after = other->recordEvent();
    CHECK(!synchronize(*other).has_value());
    CHECK(after->timestampNanoseconds() >= end->timestampNanoseconds());
  }
  checkClean();
}

TEST("driver on fake ROCr: an invalid page list fails its operation; later work waits for synchronize") {
  {
    FakeDriver fake;
    const std::uint64_t memory = fake.driver->allocate(0, 8192).address;
    const std::uint64_t copy = fake.driver->allocate(0, 8192).address;
    const std::uint64_t list = fake.driver->allocateHost(64, true);
    const std::uint64_t count = fake.driver->allocateHost(4, true);
    *reinterpret_cast<std::uint32_t*>(pointerOf(count)) = 1;
    *reinterpret_cast<std::uint32_t*>(pointerOf(list)) = 2;  // there are two pages
    const auto queue = fake.driver->createQueue(0);
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 8192, 1});
    queue->enqueuePageListCopy({{{memory, copy, 8192}}, 4096, list, count});
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 8192, 2});  // skipped
    const auto error = synchronize(*queue);
    CHECK(error.has_value());
    CHECK_EQ(error->code, "invalid-page-list");
    CHECK_EQ(error->operation, "conditional-copy");
    CHECK_EQ(error->workIndex, 1);
    CHECK_EQ(error->message, "page index 2 at position 0 is not below the page count 2");
    CHECK_EQ(readBack(*fake.driver, memory, 4)[0], 1);
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 8192, 3});
    CHECK(!synchronize(*queue).has_value());
    CHECK_EQ(readBack(*fake.driver, memory, 4)[0], 3);
  }
  checkClean();
}

TEST("driver on fake ROCr: injected faults fail the matching operation") {
  {
    FakeDriver fake;
    const std::uint64_t memory = fake.driver->allocate(0, 4096).address;
    const auto queue = fake.driver->createQueue(0);
    fake.driver->faults().add({OperationKind::Kernel, 1, 1, -1, -1});
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 4096, 1});
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 4096, 2});
    const auto error = synchronize(*queue);
    CHECK(error.has_value());
    CHECK_EQ(error->code, "injected-fault");
    CHECK_EQ(error->workIndex, 1);
    CHECK_EQ(readBack(*fake.driver, memory, 1)[0], 1);
    fake.driver->faults().add({OperationKind::Allocate, 0, 1, -1, -1});
    CHECK(fake.driver->allocate(0, 4096).injectedFault);
  }
  checkClean();
}

TEST("driver on fake ROCr: a queue the runtime stops reports its status, and events still complete") {
  {
    FakeDriver fake;
    const std::uint64_t memory = fake.driver->allocate(0, 4096).address;
    const auto queue = fake.driver->createQueue(0);
    FakeHsa::breakQueues(static_cast<hsa_status_t>(41));  // HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 4096, 1});
    const auto event = queue->recordEvent();
    auto error = synchronize(*queue);
    CHECK(error.has_value());
    CHECK_EQ(error->code, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION");
    CHECK_EQ(error->workIndex, 0);
    CHECK(event->completed());
    queue->enqueueKernel(BuiltinKernel::Fill, {memory, 4096, 1});
    error = synchronize(*queue);
    CHECK(error.has_value());
    CHECK(error->message.find("create a new queue") != std::string::npos);
  }
  checkClean();
}

TEST("driver on fake ROCr: more packets than the ring holds wrap around it") {
  {
    FakeDriver fake("gfx942", 16);
    const std::uint64_t memory = fake.driver->allocate(0, 4096).address;
    const auto queue = fake.driver->createQueue(0);
    for (std::uint32_t round = 1; round <= 60; ++round) {
      queue->enqueueKernel(BuiltinKernel::Fill, {memory + 4 * (round % 8), 4, round});
      queue->enqueueKernel(BuiltinKernel::Accumulate, {memory, 8, memory + 64});  // two packets each
    }
    CHECK(!synchronize(*queue).has_value());
    const auto bytes = readBack(*fake.driver, memory, 32);
    CHECK_EQ(bytes[4 * 4], 60);  // the last fill of slot 4 (60 % 8 == 4)
    CHECK(FakeHsa::report().dispatches >= 180);
  }
  checkClean();
}

TEST(
    "driver on fake ROCr: two GPU agents, each with its memory, queues and code object, copy to each other") {
  {
    FakeHsa::reset("gfx90a", 64, 2);
    const auto runtime = FakeHsa::runtime();
    HsaDriver driver(*runtime);
    CHECK_EQ(driver.agents().size(), 2u);
    const std::uint64_t first = driver.allocate(0, 8192).address;
    const std::uint64_t second = driver.allocate(1, 8192).address;
    const auto queue0 = driver.createQueue(0);
    const auto queue1 = driver.createQueue(1);
    queue0->enqueueKernel(BuiltinKernel::Fill, {first, 8192, 0x0a0b0c0d});
    const auto filled = queue0->recordEvent();
    queue1->enqueueWait(filled);
    queue1->enqueueCopy({{first, second, 8192}});  // a peer copy, named with both GPU agents
    queue1->enqueueKernel(BuiltinKernel::Fill, {second, 4, 0x01020304});
    CHECK(!synchronize(*queue1).has_value());
    std::vector<std::uint8_t> bytes(8);
    driver.read(1, second, 8, bytes.data());
    CHECK(bytes == (std::vector<std::uint8_t>{4, 3, 2, 1, 0x0d, 0x0c, 0x0b, 0x0a}));
    CHECK_EQ(driver.memoryInfo(1).freeBytes, (std::uint64_t{1} << 30) - 8192);
  }
  checkClean();
}
