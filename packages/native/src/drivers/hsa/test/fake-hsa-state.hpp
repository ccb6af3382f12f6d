// The state shared by the parts of the fake ROCr (fake-hsa.hpp): kept in one place so the entry
// points, the packet processors and the DMA thread see the same signals, memory and counters.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "drivers/hsa/code-object-metadata.hpp"
#include "drivers/hsa/device-kernels.hpp"
#include "drivers/hsa/hsa-api.hpp"
#include "drivers/hsa/test/fake-hsa.hpp"

namespace kreplay::hsa::test::fake {

constexpr std::uint64_t kCpuAgent = 1;
constexpr std::uint64_t kFirstGpuAgent = 2;  // GPU agents are 2, 3, ...
constexpr std::uint64_t kKernargPool = 11;
constexpr std::uint64_t kFirstDevicePool = 12;  // the device pool of GPU agent a is 10 + a
constexpr std::uint64_t kDeviceBytes = std::uint64_t{1} << 30;

struct Signal {
  std::atomic<std::int64_t> value{0};
  std::uint64_t start = 0;  // profiling timestamps of the last dispatch that completed it
  std::uint64_t end = 0;
};

struct Kernel {
  DeviceKernel kernel;
  const KernelMetadata* metadata;
};

struct Executable {
  CodeObjectMetadata metadata;
  std::uint64_t agent = 0;
  std::vector<std::unique_ptr<Kernel>> kernels;
  bool loaded = false;
  bool frozen = false;
};

struct Queue {
  hsa_queue_t queue{};
  std::vector<std::uint8_t> ring;
  std::atomic<std::uint64_t> read{0};
  std::atomic<std::uint64_t> write{0};
  QueueErrorCallback callback = nullptr;
  void* data = nullptr;
  bool profiling = false;
  std::atomic<bool> stopping{false};
  std::thread processor;
};

struct Copy {
  std::uint8_t* destination;
  const std::uint8_t* source;
  std::size_t bytes;
  std::vector<Signal*> dependencies;
  Signal* signal;
};

struct State {
  ~State() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      dmaStopping = true;
    }
    changed.notify_all();
    if (dma.joinable()) dma.join();
  }

  std::mutex mutex;                 // everything below, and every signal change
  std::condition_variable changed;  // a signal changed, a copy or packet arrived
  std::string processor = "gfx90a";
  std::uint32_t gpus = 1;
  std::uint32_t queuePackets = 64;
  int initCount = 0;
  std::map<void*, std::size_t> poolAllocations;      // ptr -> bytes, both pools
  std::map<void*, std::uint64_t> deviceAllocations;  // ptr -> owning GPU agent
  std::map<void*, std::size_t> locked;
  std::set<Signal*> signals;
  std::set<Queue*> queues;
  std::set<Executable*> executables;
  std::set<CodeObjectMetadata*> readers;
  std::deque<Copy> copies;
  std::thread dma;
  bool dmaStopping = false;
  hsa_status_t breakStatus = HSA_STATUS_SUCCESS;
  FakeHsaReport counters;
};

State& state();

/** Whether `agent` is one of the fake's GPU agents. */
bool isGpu(std::uint64_t agent);

/** Adds `delta` to a signal's value and wakes the waiters. */
void addToSignal(Signal* signal, std::int64_t delta);
/** Waits until every dependency is 0 (a null one counts as satisfied). */
void waitForZero(const std::vector<Signal*>& dependencies);
std::uint64_t nowTicks();
void problem(const std::string& what);

// The entry points, by area (fake-hsa.cpp, fake-hsa-queues.cpp).
void installSystemEntryPoints(EntryPoints& api);
void installQueueEntryPoints(EntryPoints& api);

}  // namespace kreplay::hsa::test::fake
