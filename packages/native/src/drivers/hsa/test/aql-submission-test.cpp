// Packet submission on a fake user-mode queue in memory: slot choice, write-index reservation,
// header published last, doorbell values, wrap-around, and waiting while the ring is full.
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "drivers/hsa/aql-submission.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

namespace {

/** A queue in memory; a test plays the packet processor by advancing the read index. */
class FakeRing : public AqlRing {
 public:
  explicit FakeRing(std::uint32_t size) : size_(size), ring_(64 * size) {
    for (std::uint32_t slot = 0; slot < size; ++slot) {
      const std::uint16_t invalid = invalidPacketHeader();
      std::memcpy(ring_.data() + 64 * slot, &invalid, 2);
    }
  }
  std::uint8_t* slots() override { return ring_.data(); }
  std::uint32_t size() const override { return size_; }
  std::uint64_t loadReadIndex() override { return read.load(std::memory_order_acquire); }
  std::uint64_t addWriteIndex(std::uint64_t count) override {
    return write.fetch_add(count, std::memory_order_release);
  }
  void ringDoorbell(std::uint64_t index) override {
    // The packet must be complete, header included, when the doorbell rings.
    std::uint16_t header;
    std::memcpy(&header, ring_.data() + 64 * (index % size_), 2);
    std::lock_guard<std::mutex> lock(mutex_);
    headersAtDoorbell.push_back(header);
    doorbells.push_back(index);
  }
  const std::uint8_t* slot(std::uint64_t index) const { return ring_.data() + 64 * (index % size_); }

  std::atomic<std::uint64_t> read{0};
  std::atomic<std::uint64_t> write{0};
  std::vector<std::uint64_t> doorbells;
  std::vector<std::uint16_t> headersAtDoorbell;

 private:
  std::uint32_t size_;
  std::vector<std::uint8_t> ring_;
  std::mutex mutex_;
};

PacketBytes dispatchWithSignal(std::uint64_t signal) {
  KernelDispatch dispatch;
  dispatch.workgroupSize = {256, 1, 1};
  dispatch.gridSize = {256, 1, 1};
  dispatch.completionSignal = signal;
  return encodeKernelDispatch(dispatch);
}

}  // namespace

TEST("submission: packets go to slot index % size, the doorbell gets each index") {
  FakeRing ring(4);
  for (std::uint64_t packet = 0; packet < 3; ++packet)
    CHECK_EQ(submitPacket(ring, dispatchWithSignal(packet + 1), {}), packet);
  CHECK_EQ(ring.write.load(), 3u);
  CHECK(ring.doorbells == (std::vector<std::uint64_t>{0, 1, 2}));
  for (std::uint64_t packet = 0; packet < 3; ++packet) {
    CHECK(std::memcmp(ring.slot(packet), dispatchWithSignal(packet + 1).data(), 64) == 0);
    CHECK_EQ(ring.headersAtDoorbell[packet], 0x1502);
  }
  std::uint16_t untouched;
  std::memcpy(&untouched, ring.slot(3), 2);
  CHECK_EQ(untouched, invalidPacketHeader());
}

TEST("submission: the ring wraps around once the packet processor consumed the slot") {
  FakeRing ring(2);
  ring.read = 5;
  ring.write = 5;
  CHECK_EQ(submitPacket(ring, dispatchWithSignal(7), {}), 5u);
  CHECK(std::memcmp(ring.slot(5), dispatchWithSignal(7).data(), 64) == 0);
  CHECK(ring.slot(5) == ring.slots() + 64);
  CHECK_EQ(ring.doorbells.back(), 5u);
}

TEST("submission: a full ring waits until the read index moves, then writes the freed slot") {
  FakeRing ring(2);
  submitPacket(ring, dispatchWithSignal(1), {});
  submitPacket(ring, dispatchWithSignal(2), {});
  std::atomic<int> waits{0};
  std::thread processor([&] {
    while (waits.load() < 3) std::this_thread::yield();
    ring.read.store(1, std::memory_order_release);  // packet 0 consumed
  });
  const std::uint64_t index = submitPacket(ring, dispatchWithSignal(3), [&] {
    waits.fetch_add(1);
    std::this_thread::yield();
  });
  processor.join();
  CHECK_EQ(index, 2u);
  CHECK(waits.load() >= 3);
  CHECK(ring.slot(2) == ring.slots());  // slot 0 reused
  CHECK(std::memcmp(ring.slot(2), dispatchWithSignal(3).data(), 64) == 0);
  CHECK_EQ(ring.doorbells.size(), 3u);
}

TEST("submission: concurrent producers each get their own slot") {
  FakeRing ring(64);
  std::vector<std::thread> producers;
  for (int producer = 0; producer < 4; ++producer) {
    producers.emplace_back([&, producer] {
      for (int packet = 0; packet < 8; ++packet)
        submitPacket(ring, dispatchWithSignal(100 * producer + packet), {});
    });
  }
  for (auto& producer : producers) producer.join();
  std::vector<bool> seen(400, false);
  for (std::uint64_t index = 0; index < 32; ++index) {
    std::uint64_t signal;
    std::memcpy(&signal, ring.slot(index) + 56, 8);
    CHECK(signal < 400 && !seen[signal]);
    seen[signal] = true;
  }
}
