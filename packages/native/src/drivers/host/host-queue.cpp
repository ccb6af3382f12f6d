#include "drivers/host/host-queue.hpp"

#include <cstring>

#include "core/copy-segments.hpp"
#include "core/hash-pages.hpp"

namespace kreplay {

HostQueue::HostQueue(std::shared_ptr<HostContext> context, std::uint32_t agent)
    : context_(std::move(context)), agent_(agent), worker_([this] { workerLoop(); }) {}

HostQueue::~HostQueue() {
  shutdown();
}

void HostQueue::workerLoop() {
  while (std::optional<Operation> operation = operations_.take()) {
    execute(*operation);
    operation.reset();  // release what it captured before reporting progress
    operations_.completeOne();
  }
}

void HostQueue::execute(Operation& operation) {
  if (!operation.work) {
    try {
      operation.run();
    } catch (...) {
      // Control operations (events, waits, frees, markers) do not fail; nothing may escape the thread.
    }
    return;
  }
  if (error_) return;
  const char* name = operationName(operation.kind);
  try {
    if (applyFaultDecision(context_->faults.check(operation.kind, agent_))) {
      error_ = OperationError{name, "injected-fault", std::string("an injected fault failed this ") + name,
                              operation.workIndex};
      return;
    }
    operation.run();
  } catch (const OperationFailure& failure) {
    error_ = OperationError{name, failure.code(), failure.what(), operation.workIndex};
  } catch (const std::exception& exception) {
    error_ = OperationError{name, "internal", exception.what(), operation.workIndex};
  } catch (...) {
    error_ = OperationError{name, "internal", "an unknown C++ exception", operation.workIndex};
  }
}

void HostQueue::enqueueCopy(std::vector<Segment> segments) {
  // Even an empty plan is queued work: it is numbered like any other (queue.workEnqueued counts it).
  pushWork(OperationKind::Copy,
           [this, segments = std::move(segments)] { copySegments(*context_->pool, segments); });
}

void HostQueue::enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) {
  enqueueHashToHost(std::move(ranges), pageBytes, pointerOf(hashesAddress));
}

void HostQueue::enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) {
  pushWork(OperationKind::Hash, [this, ranges = std::move(ranges), pageBytes, hashes] {
    hashRanges(*context_->pool, ranges, pageBytes, hashes);
  });
}

void HostQueue::enqueueConditionalCopy(ConditionalCopy options) {
  pushWork(OperationKind::ConditionalCopy,
           [this, options = std::move(options)] { copyChangedPages(*context_->pool, options); });
}

void HostQueue::enqueuePageListCopy(PageListCopy options) {
  pushWork(OperationKind::ConditionalCopy,
           [this, options = std::move(options)] { copyPageList(*context_->pool, options); });
}

void HostQueue::enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) {
  pushWork(OperationKind::Kernel, [this, kernel, arguments = std::move(arguments)] {
    runBuiltinKernel(*context_->pool, kernel, arguments);
  });
}

void HostQueue::enqueueGraph(std::shared_ptr<KernelGraph> graph) {
  pushWork(OperationKind::Kernel, [this, graph = std::move(graph)] {
    for (const GraphStep& step : graph->steps()) {
      switch (step.kind) {
        case GraphStep::Kind::BuiltinKernel:
          runBuiltinKernel(*context_->pool, step.builtin, step.words);
          break;
        case GraphStep::Kind::Memset:
          std::memset(pointerOf(step.range.address), step.value, step.range.bytes);
          break;
        case GraphStep::Kind::Copy:
          copySegments(*context_->pool, {step.segment});
          break;
        case GraphStep::Kind::UserKernel:
          throw OperationFailure("unsupported", "the host driver runs no user kernels");
      }
    }
  });
}

AllocationResult HostQueue::enqueueAllocate(std::uint64_t bytes) {
  Arena& arena = *context_->arenas.at(agent_);
  if (context_->faults.check(OperationKind::Allocate, agent_).fail) return {0, true, arena.freeBytes()};
  return {arena.allocate(bytes), false, arena.freeBytes()};
}

void HostQueue::enqueueFree(std::uint64_t address) {
  enqueueControl([this, address] { context_->arenas.at(agent_)->release(address); });
}

std::shared_ptr<EventState> HostQueue::recordEvent() {
  auto event = std::make_shared<EventState>();
  if (!operations_.push({OperationKind::Any, false, [event] { event->complete(); }})) event->complete();
  return event;
}

void HostQueue::enqueueWait(std::shared_ptr<EventState> event) {
  enqueueControl([event = std::move(event)] { event->wait(); });
}

void HostQueue::synchronize(SynchronizeCallback done) {
  // Idle: the worker touches nothing until it takes new work, which runIfIdle holds back, so answer now.
  std::optional<OperationError> idleError;
  if (operations_.runIfIdle([&] {
        idleError = std::move(error_);
        error_.reset();
      })) {
    done(std::move(idleError));
    return;
  }
  auto callback = std::make_shared<SynchronizeCallback>(std::move(done));
  const bool queued = operations_.push({OperationKind::Any, false, [this, callback] {
                                          std::optional<OperationError> error = std::move(error_);
                                          error_.reset();
                                          (*callback)(std::move(error));
                                        }});
  if (!queued) (*callback)(std::nullopt);
}

std::function<void()> HostQueue::fence() {
  return operations_.fence(shared_from_this());
}

void HostQueue::shutdown() {
  std::lock_guard<std::mutex> serialized(shutdownMutex_);
  if (!worker_.joinable()) return;
  operations_.stop();
  worker_.join();
}

}  // namespace kreplay
