// The fake ROCr's signals, queues with their packet processors, async copies and profiling (see
// fake-hsa.hpp). A packet processor checks each packet the way the hardware and loader would need
// it: geometry, segment sizes against the kernel's metadata, kernarg alignment.
#include <chrono>
#include <cstring>

#include "core/types.hpp"
#include "drivers/hsa/aql-packet.hpp"
#include "drivers/hsa/test/fake-hsa-state.hpp"
#include "drivers/hsa/test/kernel-emulator.hpp"

namespace kreplay::hsa::test::fake {

namespace {

Signal* signalOf(hsa_signal_t signal) {
  return reinterpret_cast<Signal*>(static_cast<std::uintptr_t>(signal.handle));
}

hsa_status_t signalCreate(hsa_signal_value_t initial, std::uint32_t, const hsa_agent_t*,
                          hsa_signal_t* signal) {
  auto* created = new Signal();
  created->value = initial;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().signals.insert(created);
  signal->handle = addressOf(created);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t signalDestroy(hsa_signal_t signal) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().signals.erase(signalOf(signal)) == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  delete signalOf(signal);
  return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t signalLoad(hsa_signal_t signal) {
  return signalOf(signal)->value.load();
}

void signalStore(hsa_signal_t signal, hsa_signal_value_t value) {
  std::lock_guard<std::mutex> lock(state().mutex);
  signalOf(signal)->value = value;
  state().changed.notify_all();
}

hsa_signal_value_t signalWait(hsa_signal_t signal, hsa_signal_condition_t condition,
                              hsa_signal_value_t compare, std::uint64_t timeoutTicks, hsa_wait_state_t) {
  if (condition != HSA_SIGNAL_CONDITION_LT) problem("the driver waits on a condition other than LT");
  Signal* waited = signalOf(signal);
  std::unique_lock<std::mutex> lock(state().mutex);
  state().changed.wait_for(lock, std::chrono::nanoseconds(timeoutTicks),
                           [&] { return waited->value.load() < compare; });
  return waited->value.load();
}

/** Executes one kernel dispatch packet after checking it. */
void dispatch(const std::uint8_t* slot) {
  hsa_kernel_dispatch_packet_t packet;
  std::memcpy(&packet, slot, sizeof packet);
  const auto* kernel = reinterpret_cast<const Kernel*>(static_cast<std::uintptr_t>(packet.kernel_object));
  const KernelMetadata& metadata = *kernel->metadata;
  const unsigned dimensions = packet.setup & 3;
  const std::uint64_t kernarg = addressOf(packet.kernarg_address);
  if (dimensions != 1 || packet.workgroup_size_x != kGroupSize || packet.grid_size_x % kGroupSize != 0 ||
      packet.workgroup_size_y != 1 || packet.grid_size_y != 1 || packet.grid_size_z != 1)
    problem(metadata.name + " was dispatched with a geometry the kernel does not take");
  if (packet.group_segment_size < metadata.groupSegmentFixedSize ||
      packet.private_segment_size < metadata.privateSegmentFixedSize)
    problem(metadata.name + " was dispatched with too little group or private memory");
  if (kernarg % 16 != 0 || kernarg % metadata.kernargSegmentAlign != 0)
    problem(metadata.name + " got misaligned kernargs");
  const std::uint16_t header = packet.header;
  if (((header >> 9) & 3) != 2 || ((header >> 11) & 3) != 2)
    problem(metadata.name + " lacks system-scope fences");
  std::vector<std::uint8_t> kernargs(metadata.kernargSegmentSize);
  std::memcpy(kernargs.data(), packet.kernarg_address, kernargs.size());
  emulateDispatch(kernel->kernel, metadata, kernargs, packet.grid_size_x / kGroupSize);
  std::lock_guard<std::mutex> lock(state().mutex);
  state().counters.dispatches += 1;
}

void processPackets(Queue* queue) {
  const std::uint32_t size = queue->queue.size;
  for (;;) {
    const std::uint64_t index = queue->read.load();
    std::uint8_t* slot = queue->ring.data() + 64 * (index % size);
    std::uint16_t header = __atomic_load_n(reinterpret_cast<std::uint16_t*>(slot), __ATOMIC_ACQUIRE);
    const auto type = static_cast<hsa_packet_type_t>(header & 0xff);
    if (type == HSA_PACKET_TYPE_INVALID) {
      std::unique_lock<std::mutex> lock(state().mutex);
      if (queue->stopping) return;
      state().changed.wait_for(lock, std::chrono::milliseconds(1));
      continue;
    }
    hsa_status_t broken;
    {
      std::lock_guard<std::mutex> lock(state().mutex);
      broken = state().breakStatus;
    }
    if (broken != HSA_STATUS_SUCCESS) {
      queue->callback(broken, &queue->queue, queue->data);  // the queue processes nothing more
      return;
    }
    if (((header >> 8) & 1) == 0)
      problem("a packet without the barrier bit (the driver relies on in-order packets)");
    const std::uint64_t start = nowTicks();
    hsa_signal_t completion{0};
    if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
      dispatch(slot);
      std::memcpy(&completion, slot + 56, 8);
    } else if (type == HSA_PACKET_TYPE_BARRIER_AND) {
      hsa_barrier_and_packet_t barrier;
      std::memcpy(&barrier, slot, sizeof barrier);
      std::vector<Signal*> dependencies;
      for (const auto dependency : barrier.dep_signal)
        dependencies.push_back(dependency.handle ? signalOf(dependency) : nullptr);
      waitForZero(dependencies);
      completion = barrier.completion_signal;
      std::lock_guard<std::mutex> lock(state().mutex);
      state().counters.barrierPackets += 1;
    } else {
      problem("an unexpected packet type " + std::to_string(type));
    }
    if (completion.handle) {
      Signal* signal = signalOf(completion);
      if (queue->profiling) {
        signal->start = start;
        signal->end = nowTicks();
      }
      addToSignal(signal, -1);
    }
    __atomic_store_n(reinterpret_cast<std::uint16_t*>(slot), invalidPacketHeader(), __ATOMIC_RELEASE);
    queue->read.store(index + 1);
    addToSignal(signalOf(queue->queue.doorbell_signal), 0);  // wakes producers waiting for room
  }
}

hsa_status_t queueCreate(hsa_agent_t agent, std::uint32_t size, hsa_queue_type32_t,
                         QueueErrorCallback callback, void* data, std::uint32_t, std::uint32_t,
                         hsa_queue_t** created) {
  if (!isGpu(agent.handle) || size == 0 || (size & (size - 1)) != 0 || size > state().queuePackets)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* queue = new Queue();
  queue->ring.resize(64 * size);
  for (std::uint32_t slot = 0; slot < size; ++slot) {
    const std::uint16_t invalid = invalidPacketHeader();
    std::memcpy(queue->ring.data() + 64 * slot, &invalid, 2);
  }
  queue->queue.base_address = queue->ring.data();
  queue->queue.size = size;
  signalCreate(0, 0, nullptr, &queue->queue.doorbell_signal);
  queue->callback = callback;
  queue->data = data;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().queues.insert(queue);
  }
  queue->processor = std::thread(processPackets, queue);
  *created = &queue->queue;
  return HSA_STATUS_SUCCESS;
}

Queue* queueOf(const hsa_queue_t* handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  for (Queue* queue : state().queues) {
    if (&queue->queue == handle) return queue;
  }
  return nullptr;
}

hsa_status_t queueDestroy(hsa_queue_t* handle) {
  Queue* queue = queueOf(handle);
  if (!queue) return HSA_STATUS_ERROR_INVALID_QUEUE;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (state().queues.erase(queue) == 0) return HSA_STATUS_ERROR_INVALID_QUEUE;
    queue->stopping = true;
    state().changed.notify_all();
  }
  queue->processor.join();
  signalDestroy(queue->queue.doorbell_signal);
  delete queue;
  return HSA_STATUS_SUCCESS;
}

std::uint64_t loadReadIndex(const hsa_queue_t* queue) {
  return queueOf(queue)->read.load();
}

std::uint64_t addWriteIndex(const hsa_queue_t* queue, std::uint64_t count) {
  return queueOf(queue)->write.fetch_add(count);
}

hsa_status_t setProfiling(hsa_queue_t* queue, int enable) {
  queueOf(queue)->profiling = enable != 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t dispatchTime(hsa_agent_t agent, hsa_signal_t signal, hsa_amd_profiling_dispatch_time_t* time) {
  if (!isGpu(agent.handle) || signalOf(signal)->end == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  time->start = signalOf(signal)->start;
  time->end = signalOf(signal)->end;
  return HSA_STATUS_SUCCESS;
}

/** Which agent a copy must name for `pointer`: its GPU for device memory, the CPU for locked host memory. */
std::uint64_t agentFor(const void* pointer) {
  std::lock_guard<std::mutex> lock(state().mutex);
  for (const auto& [allocation, agent] : state().deviceAllocations) {
    const auto start = addressOf(allocation);
    if (addressOf(pointer) >= start && addressOf(pointer) < start + state().poolAllocations[allocation])
      return agent;
  }
  return kCpuAgent;
}

void runCopies() {
  for (;;) {
    Copy copy;
    {
      std::unique_lock<std::mutex> lock(state().mutex);
      state().changed.wait(lock, [] { return state().dmaStopping || !state().copies.empty(); });
      if (state().copies.empty()) return;
      copy = state().copies.front();
      state().copies.pop_front();
    }
    waitForZero(copy.dependencies);
    std::memmove(copy.destination, copy.source, copy.bytes);
    {
      std::lock_guard<std::mutex> lock(state().mutex);
      state().counters.asyncCopies += 1;
    }
    addToSignal(copy.signal, -1);
  }
}

hsa_status_t asyncCopy(void* destination, hsa_agent_t destinationAgent, const void* source,
                       hsa_agent_t sourceAgent, std::size_t bytes, std::uint32_t dependencyCount,
                       const hsa_signal_t* dependencies, hsa_signal_t completion) {
  if (!destination || !source || completion.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (destinationAgent.handle != agentFor(destination) || sourceAgent.handle != agentFor(source))
    problem("an async copy names the wrong agent for its memory");
  Copy copy{static_cast<std::uint8_t*>(destination),
            static_cast<const std::uint8_t*>(source),
            bytes,
            {},
            signalOf(completion)};
  for (std::uint32_t index = 0; index < dependencyCount; ++index)
    copy.dependencies.push_back(signalOf(dependencies[index]));
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!state().dma.joinable()) {
    state().dmaStopping = false;
    state().dma = std::thread(runCopies);
  }
  state().copies.push_back(std::move(copy));
  state().changed.notify_all();
  return HSA_STATUS_SUCCESS;
}

}  // namespace

void installQueueEntryPoints(EntryPoints& api) {
  api.hsa_signal_create = signalCreate;
  api.hsa_signal_destroy = signalDestroy;
  api.hsa_signal_load_scacquire = signalLoad;
  api.hsa_signal_store_screlease = signalStore;
  api.hsa_signal_store_relaxed = signalStore;
  api.hsa_signal_wait_scacquire = signalWait;
  api.hsa_queue_create = queueCreate;
  api.hsa_queue_destroy = queueDestroy;
  api.hsa_queue_load_read_index_scacquire = loadReadIndex;
  api.hsa_queue_add_write_index_screlease = addWriteIndex;
  api.hsa_amd_memory_async_copy = asyncCopy;
  api.hsa_amd_profiling_set_profiler_enabled = setProfiling;
  api.hsa_amd_profiling_get_dispatch_time = dispatchTime;
}

}  // namespace kreplay::hsa::test::fake
