#include "capture/inject/capture-session.hpp"

#include <algorithm>
#include <cstring>

#include "capture/inject/parameter-buffer.hpp"
#include "core/page-hash.hpp"

namespace kreplay::capture {

namespace {

constexpr std::uint64_t kHashChunkPages = 256;  // after-launch copies go through 16 MiB at a time

CaptureInfo initialInfo(const CaptureOptions& options) {
  CaptureInfo info;
  info.driver = "cuda";
  info.command = options.command;
  info.process = options.process;
  return info;
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

/** One range of a pending launch: its bytes before the launch, and the page blobs known unchanged. */
struct PendingRange {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  MemoryKind kind = MemoryKind::Device;
  std::string label;
  std::vector<std::uint8_t> before;
  std::vector<std::string> knownBlobs;
  bool global = false;
};

struct PendingLaunch {
  std::unique_lock<std::recursive_mutex> lock;  // held from before the launch to after it: ranges stay put
  std::string function;
  std::shared_ptr<LoadedModule> module;
  LaunchShape shape;
  ParameterBuffer parameters;
  std::vector<PendingRange> ranges;
};

void PendingLaunchDeleter::operator()(PendingLaunch* pending) const {
  delete pending;
}

CaptureSession::CaptureSession(const CaptureOptions& options, DeviceMemoryAccess& device, std::ostream& log)
    : log_(log),
      device_(device),
      writer_(options.directory, initialInfo(options)),
      selection_(selectionOf(options, writer_)),
      profiling_(options.fromStart) {}

void CaptureSession::profilerStarted() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  profiling_ = true;
}

void CaptureSession::profilerStopped() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  profiling_ = false;
}

CaptureSession::~CaptureSession() = default;

void CaptureSession::sayOnce(const std::string& key, const std::string& message) {
  if (!said_.insert(key).second) return;
  log_ << "[kreplay capture] " << message << "\n";
  log_.flush();
}

void CaptureSession::stop(const std::string& what) {
  if (stopped_) return;
  stopped_ = true;
  log_ << "[kreplay capture] " << what << "; capturing stops here. The " << captured_
       << " launches captured so far are readable in " << writer_.directory() << ".\n";
  log_.flush();
}

void CaptureSession::moduleLoaded(std::uint32_t moduleId, const std::uint8_t* image, std::size_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stopped_ || image == nullptr || bytes == 0) return;
  try {
    modules_.add(moduleId, image, bytes);
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

void CaptureSession::allocationAdded(std::uint64_t base, std::uint64_t bytes, MemoryKind kind) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  TrackedRange range;
  range.bytes = bytes;
  range.kind = kind;
  ranges_[base] = std::move(range);
  managed_.erase(base);
}

void CaptureSession::managedAllocationAdded(std::uint64_t base, std::uint64_t bytes) {
  if (bytes == 0) return;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  managed_[base] = bytes;
  ranges_.erase(base);
}

void CaptureSession::allocationRemoved(std::uint64_t base) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ranges_.erase(base);
  managed_.erase(base);
}

void CaptureSession::rangeUnmapped(std::uint64_t base, std::uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ranges_.erase(ranges_.lower_bound(base), ranges_.lower_bound(base + bytes));
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
    TrackedRange& range = globals_[address->address];
    if (range.bytes != address->bytes || range.label != global.name) {
      range = TrackedRange{};
      range.bytes = address->bytes;
      range.kind = MemoryKind::ModuleGlobal;
      range.label = global.name;
    }
    bases.push_back(address->address);
  }
  return moduleGlobals_[module] = std::move(bases);
}

PendingLaunchHandle CaptureSession::beforeLaunch(const LaunchRequest& request) {
  std::unique_lock<std::recursive_mutex> lock(mutex_);
  if (stopped_ || !profiling_) return nullptr;
  try {
    return prepare(request, lock);
  } catch (const std::exception& error) {
    stop("capturing a launch of " + request.function + " failed: " + error.what());
  } catch (...) {
    stop("capturing a launch of " + request.function + " failed");
  }
  return nullptr;
}

PendingLaunchHandle CaptureSession::prepare(const LaunchRequest& request,
                                            std::unique_lock<std::recursive_mutex>& lock) {
  if (request.kind == LaunchKind::Graph) {
    notCaptured(NotCapturedReason::GraphLaunch, "", "a graph launch");
    return nullptr;
  }
  if (request.kind == LaunchKind::MultiDevice) {
    notCaptured(NotCapturedReason::MultiDeviceLaunch, request.function, "a multi-device launch");
    return nullptr;
  }
  if (selection_.exhausted() || !selection_.matches(request.function) ||
      !selection_.select(request.function)) {
    return nullptr;
  }
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
  // Asking for the function's module makes a driver that loads modules lazily load it now, before the
  // launch: its module-loaded callback then reaches moduleLoaded on this thread, which tells which
  // loaded module the handle is (as cuModuleLoad* does for modules loaded eagerly).
  const std::uintptr_t module = functionModule(request.functionHandle);
  const auto known = moduleIds_.find(module);
  const std::optional<KernelDefinition> definition =
      modules_.find(request.function,
                    known == moduleIds_.end() ? std::nullopt : std::optional<std::uint32_t>(known->second));
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
  const std::vector<std::uint64_t>& globals = moduleGlobals(*definition, module);

  device_.synchronize();
  auto snapshot = [&](std::uint64_t base, const TrackedRange& range, bool global) {
    PendingRange taken;
    taken.base = base;
    taken.bytes = range.bytes;
    taken.kind = range.kind;
    taken.label = range.label;
    taken.global = global;
    taken.before.resize(range.bytes);
    device_.copyToHost(base, taken.before.data(), range.bytes);
    if (range.lastBefore.size() == range.bytes) {
      for (std::uint64_t at = 0, page = 0; at < range.bytes; at += kCapturePageBytes, ++page) {
        const std::uint64_t length = std::min(kCapturePageBytes, range.bytes - at);
        const bool same = std::memcmp(taken.before.data() + at, range.lastBefore.data() + at, length) == 0;
        taken.knownBlobs.push_back(same ? range.lastBlobs[page] : std::string());
      }
    }
    pending->ranges.push_back(std::move(taken));
  };
  for (const auto& [base, range] : ranges_) snapshot(base, range, false);
  for (const std::uint64_t base : globals) snapshot(base, globals_.at(base), true);
  pending->lock = std::move(lock);
  return pending;
}

void CaptureSession::afterLaunch(PendingLaunchHandle pending, bool launched) {
  if (!pending) return;
  if (!launched || stopped_) return;  // the launch failed: nothing ran, nothing to record
  try {
    device_.synchronize();
    LaunchRecord record;
    record.function = pending->function;
    record.module = pending->module->image.data();
    record.moduleBytes = pending->module->image.size();
    record.moduleBlob = pending->module->blobId;
    record.shape = pending->shape;
    record.parameterBuffer = pending->parameters.bytes;
    record.parameters = pending->parameters.slots;
    record.pageBytes = kCapturePageBytes;
    std::vector<std::uint8_t> chunk;
    for (PendingRange& range : pending->ranges) {
      MemoryRange memory;
      memory.base = range.base;
      memory.bytes = range.bytes;
      memory.kind = range.kind;
      memory.label = range.label;
      memory.before = range.before.data();
      record.knownPageBlobs.push_back(range.knownBlobs);
      chunk.resize(std::min(range.bytes, kHashChunkPages * kCapturePageBytes));
      for (std::uint64_t at = 0; at < range.bytes; at += chunk.size()) {
        const std::uint64_t length = std::min<std::uint64_t>(chunk.size(), range.bytes - at);
        device_.copyToHost(range.base + at, chunk.data(), length);
        for (std::uint64_t page = 0; page < length; page += kCapturePageBytes)
          memory.hashesAfter.push_back(
              pageHash(chunk.data() + page, std::min(kCapturePageBytes, length - page)));
      }
      record.memory.push_back(std::move(memory));
    }
    const StagedLaunch staged = writer_.stageLaunch(record);
    writer_.commitLaunch(staged);
    pending->module->blobId = staged.moduleBlob;
    for (std::size_t r = 0; r < pending->ranges.size(); ++r) {
      PendingRange& range = pending->ranges[r];
      auto& owner = range.global ? globals_ : ranges_;
      const auto found = owner.find(range.base);
      if (found == owner.end() || found->second.bytes != range.bytes) continue;
      found->second.lastBefore = std::move(range.before);
      found->second.lastBlobs = staged.pagesBefore[r];
    }
    selection_.markCaptured(pending->function);
    captured_ += 1;
  } catch (const std::exception& error) {
    stop("capturing a launch of " + pending->function + " failed: " + error.what());
  } catch (...) {
    stop("capturing a launch of " + pending->function + " failed");
  }
}

void CaptureSession::finish() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (finished_ || stopped_) return;
  finished_ = true;
  try {
    writer_.finish();
  } catch (const std::exception& error) {
    log_ << "[kreplay capture] could not mark the capture finished: " << error.what() << "\n";
  }
}

}  // namespace kreplay::capture
