#include "drivers/hsa/test/kernel-emulator.hpp"

#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>

#include "drivers/hsa/aql-packet.hpp"
#include "drivers/hsa/kernarg-layout.hpp"

namespace kreplay::hsa::test {

namespace {

/**
 * The work-items of one work-group as fibers (ucontext) on the calling thread: each runs until it
 * reaches a barrier or returns, then the next one runs; once all reached the barrier they all go on.
 * A work-group's items therefore meet at barriers exactly as on a GPU, without hundreds of threads.
 */
class WorkGroupFibers {
 public:
  explicit WorkGroupFibers(std::uint32_t size) : stacks_(size), contexts_(size), states_(size) {
    for (auto& stack : stacks_) stack.resize(kStackBytes);
  }

  /** Runs body(localId) on every fiber until all return. @throws what a fiber threw. */
  void run(const std::function<void(std::uint32_t)>& body) {
    instance_ = this;
    body_ = &body;
    failure_ = nullptr;
    for (std::size_t item = 0; item < contexts_.size(); ++item) {
      getcontext(&contexts_[item]);
      contexts_[item].uc_stack.ss_sp = stacks_[item].data();
      contexts_[item].uc_stack.ss_size = stacks_[item].size();
      contexts_[item].uc_link = &scheduler_;
      makecontext(&contexts_[item], entry, 0);
      states_[item] = State::Ready;
    }
    for (;;) {
      for (std::uint32_t item = 0; item < contexts_.size(); ++item) {
        if (states_[item] != State::Ready) continue;
        current_ = item;
        swapcontext(&scheduler_, &contexts_[item]);
      }
      std::size_t done = 0;
      for (const auto state : states_) done += state == State::Done ? 1 : 0;
      if (done == states_.size()) break;
      if (done != 0 && !failure_) {
        std::fprintf(stderr, "kernel emulation: some work-items returned while others wait at a barrier\n");
        std::abort();
      }
      for (auto& state : states_) state = state == State::AtBarrier ? State::Ready : state;
    }
    if (failure_) std::rethrow_exception(failure_);
  }

  /** Called by a fiber: waits until every work-item of the group called it. */
  void barrier() {
    const std::uint32_t item = current_;
    states_[item] = State::AtBarrier;
    swapcontext(&contexts_[item], &scheduler_);
  }

  std::uint32_t current() const { return current_; }

 private:
  enum class State { Ready, AtBarrier, Done };
  static constexpr std::size_t kStackBytes = 128 * 1024;

  static void entry() {
    WorkGroupFibers& self = *instance_;
    const std::uint32_t item = self.current_;
    try {
      (*self.body_)(item);
    } catch (...) {
      if (!self.failure_) self.failure_ = std::current_exception();
    }
    self.states_[item] = State::Done;
  }

  static inline WorkGroupFibers* instance_ = nullptr;
  std::vector<std::vector<char>> stacks_;
  std::vector<ucontext_t> contexts_;
  std::vector<State> states_;
  ucontext_t scheduler_{};
  const std::function<void(std::uint32_t)>* body_ = nullptr;
  std::uint32_t current_ = 0;
  std::exception_ptr failure_;
};

WorkGroupFibers& fibers() {
  static WorkGroupFibers group(kGroupSize);
  return group;
}

std::uint32_t currentGroupId = 0;
const void* currentPacket = nullptr;

}  // namespace

namespace emulation {

std::uint32_t localId() {
  return fibers().current();
}

std::uint32_t groupId() {
  return currentGroupId;
}

const void* dispatchPacket() {
  return currentPacket;
}

void barrier() {
  fibers().barrier();
}

}  // namespace emulation

void emulateDispatch(DeviceKernel kernel, const KernelMetadata& metadata,
                     const std::vector<std::uint8_t>& kernargs, std::uint32_t groups) {
  static std::mutex oneDispatch;  // the fibers, and the kernels' work-group arrays (statics), are shared
  std::lock_guard<std::mutex> lock(oneDispatch);
  KernelDispatch dispatch;
  dispatch.workgroupSize = {static_cast<std::uint16_t>(kGroupSize), 1, 1};
  dispatch.gridSize = {groups * kGroupSize, 1, 1};
  alignas(64) const PacketBytes packet = encodeKernelDispatch(dispatch);
  currentPacket = packet.data();
  for (std::uint32_t group = 0; group < groups; ++group) {
    currentGroupId = group;
    fibers().run([&](std::uint32_t) { callEmulatedKernel(kernel, metadata, kernargs.data()); });
  }
}

void emulatePlan(const OperationPlan& plan, const CodeObjectMetadata& codeObject, std::uint32_t groupLimit) {
  for (const auto& step : plan.steps) {
    const KernelMetadata* metadata = codeObject.findKernel(deviceKernel(step.kernel).name);
    if (!metadata)
      throw std::runtime_error(std::string("the code object lacks ") + deviceKernel(step.kernel).name);
    const std::uint32_t groups = groupLimit ? std::min(step.groups, groupLimit) : step.groups;
    DispatchShape shape;
    shape.workgroupSize = {kGroupSize, 1, 1};
    shape.gridSize = {groups * kGroupSize, 1, 1};
    emulateDispatch(step.kernel, *metadata, layoutKernarguments(*metadata, step.arguments, shape).bytes,
                    groups);
  }
}

}  // namespace kreplay::hsa::test
