#include "capture/inject/capture-session.hpp"

#include <unistd.h>

#include <algorithm>

#include "capture/inject/collective-library.hpp"

namespace kreplay::capture {

namespace {

CaptureInfo initialInfo(const CaptureOptions& options) {
  CaptureInfo info;
  info.driver = "cuda";
  info.command = options.command;
  info.process = options.process;
  return info;
}

BlobWriterOptions writerOptions(const CaptureOptions& options, std::function<void()> beforeWrite) {
  BlobWriterOptions writer;
  writer.threads = writerThreadCount(options.writerThreads);
  writer.beforeWrite = std::move(beforeWrite);
  return writer;
}

// The selection; when it cannot be made (a pattern std::regex rejects), the manifest says why.
LaunchSelection selectionOf(const CaptureOptions& options, CaptureWriter& writer) {
  try {
    return LaunchSelection(options);
  } catch (const CaptureOptionsError& error) {
    const std::string prefix = "[kreplay capture] ";
    const std::string message = error.what();
    writer.recordSelectionError(message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size())
                                                                             : message);
    throw;
  }
}

}  // namespace

CaptureSession::CaptureSession(const CaptureOptions& options, DeviceMemoryAccess& device, std::ostream& log,
                               std::function<void()> beforeWrite)
    : log_(log),
      device_(device),
      writer_(options.directory, initialInfo(options)),
      selection_(selectionOf(options, writer_)),
      profiling_(options.fromStart),
      staging_(device, options.stagingBytes, kCapturePageBytes),
      blobs_(writer_, staging_, writerOptions(options, std::move(beforeWrite))),
      memory_(device, staging_, blobs_, tracked_, counters_, kCapturePageBytes),
      owner_(::getpid()) {
  writer_.setCostSource([this] { return cost(); });
}

bool CaptureSession::inOwner() const {
  return ::getpid() == owner_;
}

CaptureSession::~CaptureSession() {
  writer_.setCostSource(nullptr);
}

CaptureCost CaptureSession::cost() const {
  CaptureCost cost;
  cost.deviceBytesHashed = counters_.deviceBytesHashed;
  cost.bytesCopiedToHost = counters_.bytesCopiedToHost;
  cost.programWaitSeconds = static_cast<double>(counters_.programWaitNanoseconds) / 1e9;
  return cost;
}

void CaptureSession::profilerStarted() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  profiling_ = true;
}

void CaptureSession::profilerStopped() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (profiling_) work_.captureStopped();  // what runs until cuProfilerStart is not seen
  profiling_ = false;
}

void CaptureSession::sayOnce(const std::string& key, const std::string& message) {
  if (!said_.insert(key).second) return;
  log_ << "[kreplay capture] " << message << "\n";
  log_.flush();
}

void CaptureSession::stop(const std::string& what) {
  if (stopped_) return;
  stopped_ = true;
  const std::uint64_t readable = blobs_.failure().empty() ? captured_ : blobs_.committedLaunches();
  log_ << "[kreplay capture] " << what << "; capturing stops here. The " << readable
       << " launches captured so far are readable in " << writer_.directory() << ".\n";
  log_.flush();
}

void CaptureSession::moduleLoaded(std::uint32_t moduleId, const std::uint8_t* image, std::size_t bytes,
                                  const std::string& collectiveLibrary) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stopped_ || image == nullptr || bytes == 0) return;
  try {
    modules_.add(moduleId, image, bytes, collectiveLibrary);
    if (!collectiveLibrary.empty())
      sayOnce("collective library " + collectiveLibrary,
              "modules loaded from " + collectiveLibrary +
                  ", a collective library: their kernels are counted as collective, never captured");
    if (askingForModule_) loadedWhileAsking_.push_back(moduleId);
  } catch (const std::exception& error) {
    sayOnce("module " + std::to_string(moduleId),
            "module " + std::to_string(moduleId) + " (" + std::to_string(bytes) +
                " bytes) could not be read, so its kernels will not be captured: " + error.what());
  } catch (...) {
    stop("reading module " + std::to_string(moduleId) + " failed");
  }
}

void CaptureSession::moduleUnloaded(std::uint32_t moduleId) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  modules_.remove(moduleId);
  for (auto handle = moduleIds_.begin(); handle != moduleIds_.end();) {
    if (handle->second != moduleId) {
      ++handle;
      continue;
    }
    moduleGlobals_.erase(handle->first);
    handle = moduleIds_.erase(handle);
  }
}

void CaptureSession::moduleHandle(std::uintptr_t handle, std::uint32_t moduleId) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (handle == 0) return;
  moduleIds_[handle] = moduleId;
  moduleGlobals_.erase(handle);  // a handle the driver reuses for a new module
}

std::uintptr_t CaptureSession::functionModule(std::uintptr_t functionHandle) {
  if (functionHandle == 0) return 0;
  askingForModule_ = true;
  loadedWhileAsking_.clear();
  std::uintptr_t module = 0;
  try {
    module = device_.functionModule(functionHandle);
  } catch (...) {
    askingForModule_ = false;
    throw;
  }
  askingForModule_ = false;
  if (module != 0 && loadedWhileAsking_.size() == 1) moduleIds_[module] = loadedWhileAsking_[0];
  return module;
}

std::optional<KernelDefinition> CaptureSession::definitionOf(const std::string& function,
                                                             std::uintptr_t module) const {
  const auto known = moduleIds_.find(module);
  return modules_.find(function,
                       known == moduleIds_.end() ? std::nullopt : std::optional<std::uint32_t>(known->second));
}

std::optional<std::string> CaptureSession::collectiveLaunch(const LaunchRequest& request) {
  if (auto named = whyCollective(request.function, "", request.launchedFrom)) return named;
  const auto definition = definitionOf(request.function, functionModule(request.functionHandle));
  return definition ? whyCollective(request.function, definition->module->collectiveLibrary) : std::nullopt;
}

void CaptureSession::allocationAdded(std::uint64_t base, std::uint64_t bytes, MemoryKind kind) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  tracked_.addAllocation(base, bytes, kind);
  managed_.erase(base);
  RecordedWork work;
  work.kind = WorkKind::Allocation;
  work.address = base;
  work.bytes = bytes;
  work.memoryKind = kind;
  work_.record(work);
}

void CaptureSession::managedAllocationAdded(std::uint64_t base, std::uint64_t bytes) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  managed_[base] = bytes;
  tracked_.removeAllocation(base);
}

void CaptureSession::allocationRemoved(std::uint64_t base) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const auto& allocations = tracked_.allocations();
  if (allocations.count(base) != 0) {
    RecordedWork work;
    work.kind = WorkKind::Free;
    work.address = base;
    work_.record(work);
  }
  tracked_.removeAllocation(base);
  managed_.erase(base);
}

void CaptureSession::rangeUnmapped(std::uint64_t base, std::uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto& allocations = tracked_.allocations();
  for (auto at = allocations.lower_bound(base); at != allocations.end() && at->first < base + bytes; ++at) {
    RecordedWork work;
    work.kind = WorkKind::Free;
    work.address = at->first;
    work_.record(work);
  }
  tracked_.removeAllocationsIn(base, bytes);
}

void CaptureSession::streamCaptureBegan(std::uintptr_t stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  capturingStreams_.insert(stream);
}

void CaptureSession::streamCaptureEnded(std::uintptr_t stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  capturingStreams_.erase(stream);
}

void CaptureSession::opaqueObjectCreated(std::uint64_t handle) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  opaqueObjects_.insert(handle);
}

void CaptureSession::opaqueObjectDestroyed(std::uint64_t handle) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  opaqueObjects_.erase(handle);
}

void CaptureSession::memsetIssued(std::uintptr_t stream, std::uint64_t address, std::uint64_t bytes,
                                  std::uint32_t value, std::uint32_t elementBytes) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (capturingStreams_.count(stream) != 0) return;  // captured into a graph: it did not run
  RecordedWork work;
  work.kind = WorkKind::Memset;
  work.stream = stream;
  work.address = address;
  work.bytes = bytes;
  work.value = value;
  work.elementBytes = elementBytes;
  work_.record(work);
  tracked_.invalidate(address, bytes);
}

void CaptureSession::copyIssued(std::uintptr_t stream, std::uint64_t destination, std::uint64_t source,
                                std::uint64_t bytes) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (capturingStreams_.count(stream) != 0) return;  // captured into a graph: it did not run
  RecordedWork work;
  work.stream = stream;
  work.bytes = bytes;
  if (tracked_.overlaps(destination, bytes)) {
    // From tracked memory the capture holds the bytes; from elsewhere, the next launch's pages hold them.
    work.kind = tracked_.tracks(source, bytes) ? WorkKind::Copy : WorkKind::Upload;
    work.address = destination;
    work.source = work.kind == WorkKind::Copy ? source : 0;
    tracked_.invalidate(destination, bytes);
  } else if (tracked_.overlaps(source, bytes)) {
    work.kind = WorkKind::Download;
    work.address = source;
  } else {
    return;  // between memory the capture does not track: nothing it holds changes
  }
  work_.record(work);
}

void CaptureSession::hostFunctionIssued(std::uintptr_t stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  work_.hostFunction(stream);
}

void CaptureSession::eventRecorded(std::uintptr_t event, std::uintptr_t stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  work_.eventRecorded(event, stream);
}

void CaptureSession::eventWaited(std::uintptr_t stream, std::uintptr_t event) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  work_.streamWaited(stream, event);
}

void CaptureSession::unboundedWriteIssued() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  work_.unboundedWrite();
  tracked_.invalidateAll();
}

void CaptureSession::notCaptured(NotCapturedReason reason, const std::string& function,
                                 const std::string& detail) {
  writer_.countNotCaptured(reason);
  sayOnce(std::string(notCapturedReasonName(reason)) + " " + function,
          "not captured (" + std::string(notCapturedReasonName(reason)) +
              "): " + (function.empty() ? std::string("a launch") : function) +
              (detail.empty() ? "" : ": " + detail) +
              " (said once per kernel and reason; the manifest counts them all)");
}

const std::vector<std::uint64_t>& CaptureSession::moduleGlobals(const KernelDefinition& definition,
                                                                std::uintptr_t module) {
  static const std::vector<std::uint64_t> none;
  if (module == 0) {
    if (!definition.cubin->globals.empty()) {
      sayOnce("no module of " + definition.kernel->name,
              "the module of " + definition.kernel->name + " is unknown, so its globals are not captured");
    }
    return none;
  }
  const auto known = moduleGlobals_.find(module);
  if (known != moduleGlobals_.end()) return known->second;
  std::vector<std::uint64_t> bases;
  for (const GlobalInfo& global : definition.cubin->globals) {
    const std::optional<GlobalAddress> address = device_.moduleGlobal(module, global.name);
    if (!address || address->bytes == 0) continue;
    tracked_.addGlobal(address->address, address->bytes, global.name);
    bases.push_back(address->address);
  }
  return moduleGlobals_[module] = std::move(bases);
}

void CaptureSession::flush() {
  if (!inOwner()) return;  // a forked child: the lock and the writer threads are the parent's
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  try {
    blobs_.drain();
  } catch (const std::exception& error) {
    stop(std::string("writing the capture failed: ") + error.what());
  }
}

void CaptureSession::finish() {
  if (!inOwner()) return;
  const auto started = std::chrono::steady_clock::now();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  flush();
  counters_.programWaitNanoseconds += static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count());
  try {
    if (stopped_)
      writer_.rewriteManifest();
    else
      writer_.finish();
  } catch (const std::exception& error) {
    log_ << "[kreplay capture] could not mark the capture finished: " << error.what() << "\n";
  }
}

}  // namespace kreplay::capture
