#include "drivers/hsa/hsa-queue.hpp"

#include <cstring>

namespace kreplay::hsa {

namespace {

/** How long the retire thread waits on a signal before checking whether the queue broke. */
constexpr std::uint64_t kWaitSliceNanoseconds = 50'000'000;

std::uint64_t pageCountOf(const std::vector<Range>& ranges, std::uint64_t pageBytes) {
  std::uint64_t pages = 0;
  for (const auto& range : ranges) pages += (range.bytes + pageBytes - 1) / pageBytes;
  return pages;
}

}  // namespace

HsaQueue::HsaQueue(std::shared_ptr<HsaContext> context, std::uint32_t agent)
    : context_(std::move(context)),
      agent_(agent),
      staging_(std::make_shared<ChunkCache>(context_->stagingSource())),
      dispatcher_(std::make_unique<HsaDispatcher>(context_, agent)),
      random_(std::random_device{}()) {
  submitter_ = std::thread([this] { submitLoop(); });
  retirer_ = std::thread([this] { retireLoop(); });
}

HsaQueue::~HsaQueue() {
  shutdown();
}

void HsaQueue::pushWork(OperationKind kind, std::function<Retirement()> submit) {
  push({kind, true, std::move(submit)});
}

bool HsaQueue::enqueueControl(std::function<void()> run) {
  return push({OperationKind::Any, false, [run = std::move(run)] {
                 Retirement retirement;
                 retirement.complete = [run](std::optional<OperationError>&) { run(); };
                 return retirement;
               }});
}

AddressTranslation HsaQueue::translation() const {
  const HsaMemory* memory = context_->memory.get();
  return [memory](std::uint64_t address) { return memory->toDevice(address); };
}

void HsaQueue::submitLoop() {
  while (std::optional<Operation> operation = operations_.take()) {
    Retirement retirement = submitOne(*operation);
    operation.reset();
    {
      std::lock_guard<std::mutex> lock(retireMutex_);
      retirements_.push_back(std::move(retirement));
    }
    retireWake_.notify_one();
  }
}

HsaQueue::Retirement HsaQueue::submitOne(Operation& operation) {
  if (!operation.work) {
    try {
      return operation.submit();
    } catch (...) {
      return {};  // control operations do not fail; nothing may escape the thread
    }
  }
  Retirement skipped;
  if (error_) return skipped;
  const std::string name = operationName(operation.kind);
  const std::int64_t index = operation.workIndex;
  try {
    if (applyFaultDecision(context_->faults.check(operation.kind, agent_))) {
      error_ = OperationError{name, "injected-fault", "an injected fault failed this " + name, index};
      return skipped;
    }
    const hsa_status_t broken = dispatcher_->broken();
    if (broken != HSA_STATUS_SUCCESS) {
      throw HsaError(statusName(broken), "the HSA queue stopped with " + context_->runtime.describe(broken) +
                                             "; create a new queue");
    }
    Retirement retirement = operation.submit();
    retirement.kind = operation.kind;
    retirement.workIndex = index;
    if (retirement.failure)
      error_ = OperationError{name, retirement.failure->code(), retirement.failure->what(), index};
    return retirement;
  } catch (const OperationFailure& failure) {
    error_ = OperationError{name, failure.code(), failure.what(), index};
  } catch (const HsaError& failure) {
    error_ = OperationError{name, failure.code(), failure.what(), index};
  } catch (const std::bad_alloc&) {
    error_ = OperationError{name, "out-of-memory", "the hsa driver could not allocate staging memory", index};
  } catch (const std::exception& failure) {
    error_ = OperationError{name, "internal", failure.what(), index};
  } catch (...) {
    error_ = OperationError{name, "internal", "an unknown C++ exception", index};
  }
  return skipped;
}

void HsaQueue::retireLoop() {
  for (;;) {
    Retirement retirement;
    {
      std::unique_lock<std::mutex> lock(retireMutex_);
      retireWake_.wait(lock, [this] { return submitDone_ || !retirements_.empty(); });
      if (retirements_.empty()) return;
      retirement = std::move(retirements_.front());
      retirements_.pop_front();
    }
    retire(retirement);
    operations_.completeOne();
  }
}

void HsaQueue::retire(Retirement& retirement) {
  if (retirement.submitted.signal) {
    const CompletionWait wait =
        waitForCompletion(context_->signalAccess, retirement.submitted.signal->handle, kWaitSliceNanoseconds,
                          [this] { return dispatcher_->broken() != HSA_STATUS_SUCCESS; });
    const bool failed = wait.abandoned || wait.completion == Completion::Overrun;
    if (wait.abandoned) abandoned_.push_back(retirement.submitted.signal);  // not reused while the queue lives
    if (failed && !asyncError_ && retirement.workIndex >= 0) {
      const hsa_status_t broken = dispatcher_->broken();
      asyncError_ = OperationError{
          operationName(retirement.kind), wait.abandoned ? statusName(broken) : "internal",
          wait.abandoned
              ? "the HSA queue stopped with " + context_->runtime.describe(broken) + " while this ran"
              : "a completion signal went below 0",
          retirement.workIndex};
    }
  }
  if (retirement.complete) {
    try {
      retirement.complete(asyncError_);
    } catch (...) {
      // Completions (events, frees, markers, hash copies) must not stop the retire thread.
    }
  }
  retirement = Retirement{};  // the staging memory and signals go back to their pools
}

HsaQueue::Retirement HsaQueue::runPlan(const OperationPlan& plan, std::unique_ptr<StagingMemory> memory) {
  Retirement retirement;
  retirement.submitted = dispatcher_->submitPlan(plan, *memory);
  retirement.memory = std::move(memory);
  return retirement;
}

void HsaQueue::enqueueCopy(std::vector<Segment> segments) {
  bool empty = true;
  for (const auto& segment : segments) empty = empty && segment.bytes == 0;
  if (empty && !context_->faults.armed()) return;
  pushWork(OperationKind::Copy, [this, segments = std::move(segments)] {
    Retirement retirement;
    retirement.submitted = dispatcher_->submitCopies(segments);
    return retirement;
  });
}

void HsaQueue::enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) {
  pushWork(OperationKind::Hash, [this, ranges = std::move(ranges), pageBytes, hashesAddress] {
    auto memory = newMemory();
    const OperationPlan plan = planHashPages(ranges, pageBytes, hashesAddress, *memory, translation());
    return runPlan(plan, std::move(memory));
  });
}

void HsaQueue::enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) {
  pushWork(OperationKind::Hash, [this, ranges = std::move(ranges), pageBytes, hashes] {
    const std::uint64_t bytes = 8 * pageCountOf(ranges, pageBytes);
    if (bytes == 0) return Retirement{};
    auto memory = newMemory();
    std::uint8_t* staged = memory->allocate(bytes, 8);  // the GPU cannot write pageable memory
    const OperationPlan plan = planHashPages(ranges, pageBytes, addressOf(staged), *memory, translation());
    Retirement retirement = runPlan(plan, std::move(memory));
    retirement.complete = [staged, hashes, bytes](std::optional<OperationError>&) {
      std::memcpy(hashes, staged, bytes);
    };
    return retirement;
  });
}

void HsaQueue::enqueueConditionalCopy(ConditionalCopy options) {
  pushWork(OperationKind::ConditionalCopy, [this, options = std::move(options)] {
    auto memory = newMemory();
    const OperationPlan plan = planConditionalCopy(options, *memory, translation());
    return runPlan(plan, std::move(memory));
  });
}

void HsaQueue::enqueuePageListCopy(PageListCopy options) {
  pushWork(OperationKind::ConditionalCopy, [this, options = std::move(options)] {
    auto memory = newMemory();
    const OperationPlan plan = planPageListCopy(options, *memory, translation());
    Retirement retirement = runPlan(plan, std::move(memory));
    // An invalid list fails this operation before the next one runs, as on the host driver, so the
    // submit thread waits for this one (the status words are in retirement.memory).
    const CompletionWait wait =
        waitForCompletion(context_->signalAccess, retirement.submitted.signal->handle, kWaitSliceNanoseconds,
                          [this] { return dispatcher_->broken() != HSA_STATUS_SUCCESS; });
    if (!wait.abandoned) retirement.failure = pageListFailure(plan.pageListStatus, plan.pageCount);
    return retirement;
  });
}

void HsaQueue::enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) {
  pushWork(OperationKind::Kernel, [this, kernel, arguments = std::move(arguments)] {
    auto memory = newMemory();
    const OperationPlan plan = planBuiltinKernel(kernel, arguments, *memory, translation(), random_());
    return runPlan(plan, std::move(memory));
  });
}

AllocationResult HsaQueue::enqueueAllocate(std::uint64_t bytes) {
  if (!context_->memory) return {};
  if (context_->faults.check(OperationKind::Allocate, agent_).fail)
    return {0, true, context_->memory->info(agent_).freeBytes};
  return context_->memory->allocate(agent_, bytes);
}

void HsaQueue::enqueueFree(std::uint64_t address) {
  enqueueControl([context = context_, address] {
    if (context->memory) context->memory->free(address);
  });
}

std::shared_ptr<EventState> HsaQueue::recordEvent() {
  auto event = std::make_shared<EventState>();
  const bool queued = push({OperationKind::Any, false, [this, event] {
                              Retirement retirement;
                              if (dispatcher_->broken() == HSA_STATUS_SUCCESS) {
                                try {
                                  retirement = runPlan(planMarker(), newMemory());
                                } catch (...) {
                                  retirement = Retirement{};
                                }
                              }
                              const SignalReference signal = retirement.submitted.signal;
                              retirement.complete = [this, event, signal](std::optional<OperationError>&) {
                                if (signal && dispatcher_->broken() == HSA_STATUS_SUCCESS) {
                                  event->complete(context_->dispatchEndNanoseconds(agent_, signal));
                                } else {
                                  event->complete();
                                }
                              };
                              return retirement;
                            }});
  if (!queued) event->complete();
  return event;
}

void HsaQueue::enqueueWait(std::shared_ptr<EventState> event) {
  // The submit thread holds later work back until the event completes (on whichever queue).
  push({OperationKind::Any, false, [event = std::move(event)] {
          event->wait();
          return Retirement{};
        }});
}

void HsaQueue::synchronize(SynchronizeCallback done) {
  auto callback = std::make_shared<SynchronizeCallback>(std::move(done));
  const bool queued =
      push({OperationKind::Any, false, [this, callback] {
              std::optional<OperationError> submitted = std::move(error_);
              error_.reset();
              Retirement retirement;
              retirement.complete = [callback, submitted](std::optional<OperationError>& asyncError) {
                std::optional<OperationError> first = submitted ? submitted : asyncError;
                asyncError.reset();
                (*callback)(std::move(first));
              };
              return retirement;
            }});
  if (!queued) (*callback)(std::nullopt);
}

std::function<void()> HsaQueue::fence() {
  return operations_.fence(shared_from_this());
}

void HsaQueue::shutdown() {
  std::lock_guard<std::mutex> serialized(shutdownMutex_);
  if (!submitter_.joinable()) return;
  operations_.stop();
  submitter_.join();
  {
    std::lock_guard<std::mutex> lock(retireMutex_);
    submitDone_ = true;
  }
  retireWake_.notify_all();
  retirer_.join();
  dispatcher_.reset();  // destroys the HSA queue
}

}  // namespace kreplay::hsa
