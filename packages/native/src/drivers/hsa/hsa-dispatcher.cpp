#include "drivers/hsa/hsa-dispatcher.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

#include "drivers/hsa/kernarg-layout.hpp"

namespace kreplay::hsa {

namespace {

constexpr std::uint32_t kQueuePackets = 4096;
constexpr PacketControl kOrdered{true, FenceScope::System, FenceScope::System};

}  // namespace

HsaDispatcher::HsaDispatcher(std::shared_ptr<HsaContext> context, std::uint32_t agent)
    : context_(std::move(context)), agent_(agent) {
  const HsaRuntime& runtime = context_->runtime;
  const GpuAgent& gpu = context_->system.gpus.at(agent);
  const std::uint32_t size = std::min(kQueuePackets, gpu.queueMaxSize);
  check(runtime,
        runtime.api().hsa_queue_create(gpu.agent, size, HSA_QUEUE_TYPE_MULTI, onQueueError, this, UINT32_MAX,
                                       UINT32_MAX, &queue_),
        "hsa_queue_create");
  const hsa_status_t profiling = runtime.api().hsa_amd_profiling_set_profiler_enabled(queue_, 1);
  if (profiling != HSA_STATUS_SUCCESS) {
    runtime.api().hsa_queue_destroy(queue_);
    check(runtime, profiling, "hsa_amd_profiling_set_profiler_enabled");
  }
  ring_ = std::make_unique<HsaRing>(runtime, queue_);
}

HsaDispatcher::~HsaDispatcher() {
  lastPacket_.reset();
  lastCopy_.reset();
  if (queue_) context_->runtime.api().hsa_queue_destroy(queue_);
}

void HsaDispatcher::onQueueError(hsa_status_t status, hsa_queue_t*, void* data) {
  int expected = HSA_STATUS_SUCCESS;
  static_cast<HsaDispatcher*>(data)->broken_.compare_exchange_strong(expected, status);
}

void HsaDispatcher::checkSubmission(hsa_status_t status, const char* what) {
  if (status == HSA_STATUS_SUCCESS) return;
  int expected = HSA_STATUS_SUCCESS;
  broken_.compare_exchange_strong(expected, status);
  check(context_->runtime, status, what);
}

void HsaDispatcher::submit(const PacketBytes& packet) {
  submitPacket(*ring_, packet, [this] {
    // A full ring drains unless the queue stopped: then the packet processor never reads again.
    if (broken() != HSA_STATUS_SUCCESS)
      throw HsaError(statusName(broken()), "the HSA queue stopped while its ring was full");
    std::this_thread::yield();
  });
}

Submitted HsaDispatcher::submitPlan(const OperationPlan& plan, OperationMemory& memory) {
  Submitted submitted;
  if (plan.steps.empty()) return submitted;
  const HsaExecutable& executable = *context_->executables.at(agent_);
  // Lay out every packet first: a failure then leaves nothing half submitted.
  std::vector<PacketBytes> packets;
  submitted.signal = context_->signals->acquire(1);
  for (std::size_t index = 0; index < plan.steps.size(); ++index) {
    const KernelStep& step = plan.steps[index];
    const LoadedKernel& kernel = executable.kernel(step.kernel);
    DispatchShape shape;
    shape.workgroupSize = {kGroupSize, 1, 1};
    shape.gridSize = {step.groups * kGroupSize, 1, 1};
    shape.queueAddress = addressOf(queue_);
    const Kernarguments kernargs = layoutKernarguments(*kernel.metadata, step.arguments, shape);
    std::uint8_t* place =
        memory.allocate(std::max<std::size_t>(kernargs.bytes.size(), 16), kernargs.alignment);
    if (!kernargs.bytes.empty()) std::memcpy(place, kernargs.bytes.data(), kernargs.bytes.size());
    KernelDispatch dispatch;
    dispatch.control = kOrdered;
    dispatch.workgroupSize = {static_cast<std::uint16_t>(kGroupSize), 1, 1};
    dispatch.gridSize = shape.gridSize;
    dispatch.privateSegmentBytes = kernel.privateSegmentBytes;
    dispatch.groupSegmentBytes = kernel.groupSegmentBytes;
    dispatch.kernelObject = kernel.kernelObject;
    dispatch.kernargAddress = addressOf(place);
    dispatch.completionSignal = index + 1 == plan.steps.size() ? submitted.signal->handle : 0;
    packets.push_back(encodeKernelDispatch(dispatch));
  }
  if (lastCopy_) {
    BarrierAnd barrier;
    barrier.control = kOrdered;
    barrier.dependencies[0] = lastCopy_->handle;
    submit(encodeBarrierAnd(barrier));
    submitted.dependencies.push_back(std::move(lastCopy_));
    lastCopy_.reset();
  }
  for (const auto& packet : packets) submit(packet);
  lastPacket_ = submitted.signal;
  return submitted;
}

Submitted HsaDispatcher::submitCopies(const std::vector<Segment>& segments) {
  Submitted submitted;
  std::int64_t count = 0;
  for (const auto& segment : segments) count += segment.bytes > 0 ? 1 : 0;
  if (count == 0) return submitted;
  const HsaMemory& memory = *context_->memory;
  const hsa_agent_t self = context_->system.gpus.at(agent_).agent;
  const SignalReference dependency = lastCopy_ ? lastCopy_ : lastPacket_;
  const hsa_signal_t dependencies[1] = {{dependency ? dependency->handle : 0}};
  submitted.signal = context_->signals->acquire(count);  // each copy decrements it once
  if (dependency) submitted.dependencies.push_back(dependency);
  for (const auto& segment : segments) {
    if (segment.bytes == 0) continue;
    const hsa_status_t status = context_->runtime.api().hsa_amd_memory_async_copy(
        pointerOf(memory.toDevice(segment.destination)), memory.copyAgentOf(segment.destination, self),
        pointerOf(memory.toDevice(segment.source)), memory.copyAgentOf(segment.source, self), segment.bytes,
        dependency ? 1 : 0, dependency ? dependencies : nullptr, {submitted.signal->handle});
    if (status != HSA_STATUS_SUCCESS)
      quarantine_.push_back(submitted.signal);  // earlier copies still count it down
    checkSubmission(status, "hsa_amd_memory_async_copy");
  }
  lastCopy_ = submitted.signal;
  return submitted;
}

}  // namespace kreplay::hsa
