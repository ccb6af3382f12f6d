// A launch of the capture session: whether it is captured, its parameter buffer, its memory before
// (hashed, changed pages staged) and after, its place in a captured sequence, and its record.
#include <chrono>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/collective-library.hpp"
#include "capture/inject/parameter-buffer.hpp"

namespace kreplay::capture {

namespace {

/** Adds the time from its creation to its end to the program's wait. */
class WaitTimer {
 public:
  explicit WaitTimer(std::atomic<std::uint64_t>& total) : total_(total) {}
  ~WaitTimer() {
    total_ += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started_).count());
  }

 private:
  std::atomic<std::uint64_t>& total_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace

struct PendingLaunch {
  std::unique_lock<std::recursive_mutex> lock;  // held from before the launch to after it: ranges stay put
  std::string function;
  std::shared_ptr<LoadedModule> module;
  LaunchShape shape;
  ParameterBuffer parameters;
  std::uintptr_t context = 0;
  std::vector<LaunchRange> ranges;
  SequencePlace place;
  std::optional<GraphNodePlace> graph;
};

void PendingLaunchDeleter::operator()(PendingLaunch* pending) const {
  delete pending;
}

void CaptureSession::launchNotCaptured() {
  tracked_.invalidateAll();
  work_.uncapturedLaunch();
}

PendingLaunchHandle CaptureSession::beforeLaunch(const LaunchRequest& request) {
  if (!inOwner()) return nullptr;  // a forked child captures nothing (its writer threads are not there)
  WaitTimer timer(counters_.programWaitNanoseconds);
  std::unique_lock<std::recursive_mutex> lock(mutex_);
  PendingLaunchHandle pending;
  if (!stopped_ && profiling_) {
    try {
      if (!blobs_.failure().empty()) throw CaptureWriteError(blobs_.failure());
      pending = prepare(request, lock);
    } catch (const std::exception& error) {
      failed(request.function, error.what());
    } catch (...) {
      failed(request.function, "");
    }
  }
  if (!pending) launchNotCaptured();
  return pending;
}

PendingLaunchHandle CaptureSession::prepare(const LaunchRequest& request,
                                            std::unique_lock<std::recursive_mutex>& lock) {
  if (request.kind == LaunchKind::Graph) {
    // A graph the capture could not read: its kernel nodes cannot be listed, so the selection does not
    // count them (FORMAT.md, "Kernel nodes of graph launches").
    notCaptured(NotCapturedReason::GraphLaunch, "", "a graph launch");
    return nullptr;
  }
  if (request.kind == LaunchKind::MultiDevice) {
    notCaptured(NotCapturedReason::MultiDeviceLaunch, request.function, "a multi-device launch");
    return nullptr;
  }
  // Asking for the function's module makes a driver that loads modules lazily load it now, before the
  // launch: its module-loaded callback then reaches moduleLoaded on this thread, which tells which
  // loaded module the handle is (as cuModuleLoad* does for modules loaded eagerly), and whether it
  // came from a collective library (or the launch was made by one's code: launchedFrom).
  const std::uintptr_t module = functionModule(request.functionHandle);
  const std::optional<KernelDefinition> definition = definitionOf(request.function, module);
  if (const auto why = whyCollective(request.function, definition ? definition->module->collectiveLibrary : "",
                                     request.launchedFrom)) {
    notCaptured(NotCapturedReason::Collective, request.function, *why);
    return nullptr;
  }
  if (selection_.exhausted() || !selection_.matches(request.function) || !selection_.select(request.function))
    return nullptr;
  if (request.kind == LaunchKind::Cooperative) {
    notCaptured(NotCapturedReason::CooperativeLaunch, request.function, "a cooperative launch");
    return nullptr;
  }
  // Synchronizing while any stream captures would invalidate that capture (in the global mode).
  if (!capturingStreams_.empty()) {
    notCaptured(NotCapturedReason::StreamCapture, request.function,
                "a stream is being captured into a graph, and synchronizing now would break that capture");
    return nullptr;
  }
  if (device_.streamCapturing(request.stream)) {
    notCaptured(NotCapturedReason::StreamCapture, request.function,
                "its stream is being captured into a graph, so it does not run now");
    return nullptr;
  }
  if (!definition) {
    notCaptured(NotCapturedReason::NoParameterMetadata, request.function,
                "no loaded module image (of " + std::to_string(modules_.size()) + ") describes this kernel");
    return nullptr;
  }
  if (definition->definitions > 1 && !definition->preferred) {
    sayOnce("several " + request.function, std::to_string(definition->definitions) +
                                               " loaded modules define " + request.function +
                                               "; the capture uses the most recently loaded one (module " +
                                               std::to_string(definition->module->id) + ")");
  }

  PendingLaunchHandle pending(new PendingLaunch);
  pending->function = request.function;
  pending->module = definition->module;
  pending->shape = request.shape;
  try {
    if (const auto extra = extraParameterBuffer(request.extra)) {
      pending->parameters.bytes = *extra;
      if (extra->size() == definition->kernel->parameterBufferBytes)
        pending->parameters.slots = parameterSlots(*definition->kernel);
    } else {
      pending->parameters = layOutKernelParams(*definition->kernel, request.kernelParams);
    }
  } catch (const ParameterBufferError& error) {
    notCaptured(NotCapturedReason::NoParameterMetadata, request.function,
                std::string("its parameters cannot be read: ") + error.what());
    return nullptr;
  }

  // A parameter naming managed memory or a live texture/surface object cannot be re-created.
  for (const std::uint64_t word : alignedWords(pending->parameters.bytes)) {
    auto managed = managed_.upper_bound(word);
    if (managed != managed_.begin() && word < std::prev(managed)->first + std::prev(managed)->second) {
      notCaptured(NotCapturedReason::ManagedMemory, request.function,
                  "a parameter points into managed memory");
      return nullptr;
    }
    if (opaqueObjects_.count(word) != 0) {
      notCaptured(NotCapturedReason::TextureOrSurface, request.function,
                  "a parameter holds a live texture or surface object");
      return nullptr;
    }
  }

  if (!deviceDescribed_) {
    const DeviceDescription description = device_.describeDevice();
    writer_.setDevice(description.name, description.architecture);
    deviceDescribed_ = true;
  }
  pending->context = request.context;
  pending->graph = graphNode_;
  snapshotBefore(*pending, request, moduleGlobals(*definition, module));
  pending->lock = std::move(lock);
  return pending;
}

void CaptureSession::snapshotBefore(PendingLaunch& pending, const LaunchRequest& request,
                                    const std::vector<std::uint64_t>& globals) {
  device_.synchronize();
  for (auto& [base, range] : tracked_.allocations()) pending.ranges.push_back({base, &range, {}, {}, {}});
  for (const std::uint64_t base : globals) pending.ranges.push_back({base, &tracked_.global(base), {}, {}, {}});
  memory_.before(pending.ranges, request.context);

  const WorkBefore work = work_.takeForLaunch(request.stream);
  std::vector<RangeHashes> hashes;
  for (const LaunchRange& launch : pending.ranges) {
    const TrackedRange& range = *launch.range;
    const bool listed = previous_ && range.listedBy == previous_->sequence;
    hashes.push_back({launch.base, range.bytes, range.host(), &launch.before, listed ? &range.hashes : nullptr});
  }
  pending.place = decideSequence(previous_, request.stream, request.context, work, hashes, kCapturePageBytes);
  pending.place.workBefore = work.work;
  if (graphNode_ && graphStarts_) {  // a graph launch's first captured node starts a sequence
    pending.place.follows.reset();
    pending.place.sequenceBreak = "graph-launch";
  }

  LoadedModule& module = *pending.module;
  if (!module.blob) {
    module.blob = std::make_shared<BlobSlot>();
    blobs_.addBytes(std::shared_ptr<const std::vector<std::uint8_t>>(pending.module, &module.image), module.blob);
  }
}

void CaptureSession::afterLaunch(PendingLaunchHandle pending, bool launched) {
  if (!pending) return;
  WaitTimer timer(counters_.programWaitNanoseconds);
  if (stopped_) return;
  if (!launched) {  // nothing ran: nothing to record; its pages staged are stored all the same
    blobs_.closeGroup();
    launchNotCaptured();
    return;
  }
  try {
    device_.synchronize();
    memory_.after(pending->ranges, pending->context);
    record(*pending);
  } catch (const std::exception& error) {
    failed(pending->function, error.what());
  } catch (...) {
    failed(pending->function, "");
  }
}

void CaptureSession::failed(const std::string& function, const std::string& why) {
  // The writer's own failure (a staging wait or a record it refused) is said as such, naming the file.
  if (const std::string failure = blobs_.failure(); !failure.empty()) return stop("writing the capture failed: " + failure);
  stop("capturing a launch of " + function + " failed" + (why.empty() ? "" : ": " + why));
}

void CaptureSession::record(PendingLaunch& pending) {
  const std::uint64_t sequence = nextSequence_++;
  // The launch's ranges are now as it left them, hashed; the rest may have been written by it.
  tracked_.invalidateAll();
  PendingRecord record;
  RecordFields& fields = record.fields;
  fields.sequence = sequence;
  fields.function = pending.function;
  fields.shape = pending.shape;
  fields.parameterBuffer = pending.parameters.bytes;
  fields.parameters = pending.parameters.slots;
  fields.pageBytes = kCapturePageBytes;
  fields.place = std::move(pending.place);
  fields.graph = pending.graph;
  record.module = pending.module->blob;
  for (LaunchRange& launch : pending.ranges) {
    TrackedRange& range = *launch.range;
    tracked_.markCurrent(range);
    range.hashes = launch.after;
    range.listedBy = sequence;
    fields.memory.push_back({launch.base, range.bytes, range.kind, range.label, {}, std::move(launch.before),
                             std::move(launch.after)});
    record.pages.push_back(std::move(launch.pages));
  }
  previous_ = PreviousLaunch{sequence, fields.place.stream, fields.place.context};
  blobs_.addRecord(std::move(record));
  selection_.markCaptured(pending.function);
  captured_ += 1;
}

}  // namespace kreplay::capture
