#include "capture/capture-writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "capture/capture-files.hpp"
#include "capture/json-text.hpp"
#include "capture/sha256.hpp"
#include "core/page-hash.hpp"

#ifndef KREPLAY_VERSION
#define KREPLAY_VERSION "0.0.0"
#endif

namespace kreplay::capture {

const char* notCapturedReasonName(NotCapturedReason reason) {
  switch (reason) {
    case NotCapturedReason::GraphLaunch:
      return "graph-launch";
    case NotCapturedReason::CooperativeLaunch:
      return "cooperative-launch";
    case NotCapturedReason::MultiDeviceLaunch:
      return "multi-device-launch";
    case NotCapturedReason::ManagedMemory:
      return "managed-memory";
    case NotCapturedReason::TextureOrSurface:
      return "texture-or-surface";
    case NotCapturedReason::StreamCapture:
      return "stream-capture";
    case NotCapturedReason::NoParameterMetadata:
      return "no-parameter-metadata";
    case NotCapturedReason::GraphChildGraph:
      return "graph-child-graph";
    case NotCapturedReason::GraphConditionalNode:
      return "graph-conditional-node";
    case NotCapturedReason::GraphHostNode:
      return "graph-host-node";
    case NotCapturedReason::GraphEventNode:
      return "graph-event-node";
    case NotCapturedReason::DeviceGraphLaunch:
      return "device-graph-launch";
    case NotCapturedReason::Collective:
      return "collective";
    case NotCapturedReason::GraphUntrackedChange:
      return "graph-untracked-change";
    case NotCapturedReason::GraphNotCloned:
      return "graph-not-cloned";
  }
  return "unknown";
}

const char* memoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::Device:
      return "device";
    case MemoryKind::Pool:
      return "pool";
    case MemoryKind::Vmm:
      return "vmm";
    case MemoryKind::HostPinned:
      return "host-pinned";
    case MemoryKind::HostRegistered:
      return "host-registered";
    case MemoryKind::ModuleGlobal:
      return "module-global";
  }
  return "unknown";
}

std::string blobId(const std::uint8_t* data, std::size_t size) {
  return sha256Hex(data, size).substr(0, 32) + "-" + std::to_string(size);
}

CaptureWriter::CaptureWriter(std::string directory, CaptureInfo info)
    : directory_(std::move(directory)), info_(std::move(info)) {
  makeDirectory(directory_);
  if (::access((directory_ + "/manifest.json").c_str(), F_OK) == 0) {
    throw CaptureWriteError("[native] [capture] " + directory_ +
                            " already holds a capture (manifest.json). Choose an empty folder.");
  }
  makeDirectory(directory_ + "/blobs");
  makeDirectory(directory_ + "/launches");
  writeManifest();
}

std::string CaptureWriter::putBlob(const std::uint8_t* data, std::size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  return putBlobLocked(data, size);
}

std::string CaptureWriter::putBlobLocked(const std::uint8_t* data, std::size_t size) {
  std::string id = blobId(data, size);
  if (blobs_.count(id) != 0) return id;
  const std::string folder = directory_ + "/blobs/" + id.substr(0, 2);
  const std::string path = folder + "/" + id;
  struct stat existing{};
  if (::stat(path.c_str(), &existing) != 0 || static_cast<std::uint64_t>(existing.st_size) != size) {
    makeDirectory(folder);
    const std::string temporary = folder + "/" + temporaryName(id);
    writeFile(temporary, data, size, true);
    renameFile(temporary, path);
    syncDirectory(folder);
    blobsStored_ += 1;
    bytesStored_ += size;
  }
  blobs_.insert(id);
  return id;
}

std::string CaptureWriter::reuseOrPutLocked(const std::string& known, const std::uint8_t* data,
                                            std::size_t size) {
  if (!known.empty() && blobs_.count(known) != 0) return known;
  return putBlobLocked(data, size);
}

namespace {

/** Refuses a record that a reader would find inconsistent (FORMAT.md), before anything is written. */
void checkRecord(const LaunchRecord& record) {
  auto refuse = [&](const std::string& what) {
    throw CaptureWriteError("[native] [capture] the launch of " + record.function +
                            " cannot be recorded: " + what + ".");
  };
  if (record.function.empty()) refuse("it has no function name");
  if (record.module == nullptr || record.moduleBytes == 0) refuse("it has no module image");
  if (record.pageBytes == 0) refuse("its page size is 0");
  for (const ParameterSlot& slot : record.parameters) {
    if (slot.size == 0 || std::uint64_t{slot.offset} + slot.size > record.parameterBuffer.size()) {
      refuse("parameter " + std::to_string(slot.index) + " lies outside the " +
             std::to_string(record.parameterBuffer.size()) + "-byte parameter buffer");
    }
  }
  if (!record.knownPageBlobs.empty() && record.knownPageBlobs.size() != record.memory.size()) {
    refuse("it has known page blobs for " + std::to_string(record.knownPageBlobs.size()) + " of " +
           std::to_string(record.memory.size()) + " memory ranges");
  }
  for (std::size_t r = 0; r < record.memory.size(); ++r) {
    const MemoryRange& range = record.memory[r];
    const std::uint64_t pages = (range.bytes + record.pageBytes - 1) / record.pageBytes;
    if (range.bytes == 0 || range.before == nullptr) refuse("a memory range has no contents");
    const std::size_t known = record.knownPageBlobs.empty() ? 0 : record.knownPageBlobs[r].size();
    if (known != 0 && known != pages) {
      refuse("a memory range of " + std::to_string(pages) + " pages has " + std::to_string(known) +
             " known page blobs");
    }
    if (range.hashesAfter.size() != pages) {
      refuse("a memory range of " + std::to_string(pages) + " pages has " +
             std::to_string(range.hashesAfter.size()) + " page hashes after the launch");
    }
  }
  if (!record.place.follows && record.place.sequenceBreak.empty())
    refuse("it neither follows a launch nor names why it starts a captured sequence");
}

}  // namespace

StagedLaunch CaptureWriter::stageLaunch(const LaunchRecord& record) {
  checkRecord(record);
  std::lock_guard<std::mutex> lock(mutex_);
  if (record.place.follows && *record.place.follows >= nextSequence_) {
    throw CaptureWriteError("[native] [capture] the launch of " + record.function + " cannot follow launch " +
                            std::to_string(*record.place.follows) + ", which is not an earlier one.");
  }
  StagedLaunch staged;
  staged.sequence = nextSequence_++;
  staged.sequenceBreak = record.place.follows ? std::string() : record.place.sequenceBreak;
  RecordFields fields;
  fields.sequence = staged.sequence;
  fields.function = record.function;
  fields.moduleBlob = reuseOrPutLocked(record.moduleBlob, record.module, record.moduleBytes);
  staged.moduleBlob = fields.moduleBlob;
  fields.shape = record.shape;
  fields.parameterBuffer = record.parameterBuffer;
  fields.parameters = record.parameters;
  fields.pageBytes = record.pageBytes;
  fields.place = record.place;
  for (std::size_t r = 0; r < record.memory.size(); ++r) {
    const MemoryRange& range = record.memory[r];
    RecordedRange recorded{range.base, range.bytes, range.kind, range.label, {}, {}, range.hashesAfter};
    static const std::vector<std::string> noneKnown;
    const std::vector<std::string>& knownPages =
        record.knownPageBlobs.empty() ? noneKnown : record.knownPageBlobs[r];
    for (std::uint64_t at = 0, page = 0; at < range.bytes; at += record.pageBytes, ++page) {
      const std::string& known = knownPages.empty() ? std::string() : knownPages[page];
      const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(record.pageBytes, range.bytes - at));
      recorded.pagesBefore.push_back(reuseOrPutLocked(known, range.before + at, length));
      recorded.hashesBefore.push_back(pageHash(range.before + at, length));
    }
    staged.pagesBefore.push_back(recorded.pagesBefore);
    fields.memory.push_back(std::move(recorded));
  }
  const std::string text = launchRecordJson(fields);
  const std::string name = sequenceName(staged.sequence) + ".json";
  staged.finalPath = directory_ + "/launches/" + name;
  staged.temporaryPath = directory_ + "/launches/" + temporaryName(name);
  writeFile(staged.temporaryPath, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), true);
  return staged;
}

void CaptureWriter::commitLaunch(const StagedLaunch& staged) {
  std::lock_guard<std::mutex> lock(mutex_);
  renameFile(staged.temporaryPath, staged.finalPath);
  syncDirectory(directory_ + "/launches");
  countLaunchLocked(staged.sequenceBreak);
  writeManifest();
}

void CaptureWriter::countLaunchLocked(const std::string& sequenceBreak) {
  launches_ += 1;
  if (sequenceBreak.empty()) return;
  sequences_ += 1;
  if (sequenceBreak != "first-launch") sequenceBreaks_[sequenceBreak] += 1;
  if (sequenceBreak == "graph-launch") graphLaunches_ += 1;
}

void CaptureWriter::launchCommitted(const std::string& sequenceBreak) {
  std::lock_guard<std::mutex> lock(mutex_);
  countLaunchLocked(sequenceBreak);
}

void CaptureWriter::blobStored(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  blobsStored_ += 1;
  bytesStored_ += bytes;
}

void CaptureWriter::setCostSource(std::function<CaptureCost()> source) {
  std::lock_guard<std::mutex> lock(mutex_);
  costSource_ = std::move(source);
}

void CaptureWriter::rewriteManifest() {
  std::lock_guard<std::mutex> lock(mutex_);
  writeManifest();
}

std::uint64_t CaptureWriter::writeLaunch(const LaunchRecord& record) {
  const StagedLaunch staged = stageLaunch(record);
  commitLaunch(staged);
  return staged.sequence;
}

void CaptureWriter::countNotCaptured(NotCapturedReason reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++notCaptured_[reason];
  writeManifest();
}

void CaptureWriter::setDevice(std::string name, std::string architecture) {
  std::lock_guard<std::mutex> lock(mutex_);
  info_.deviceName = std::move(name);
  info_.architecture = std::move(architecture);
  writeManifest();
}

void CaptureWriter::recordSelectionError(std::string message) {
  std::lock_guard<std::mutex> lock(mutex_);
  selectionError_ = std::move(message);
  writeManifest();
}

void CaptureWriter::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  complete_ = true;
  writeManifest();
}

void CaptureWriter::writeManifest() {
  auto counts = [](const auto& pairs) {
    std::string out = "{";
    for (const auto& [name, count] : pairs) out += (out.size() > 1 ? ",\"" : "\"") + name + "\":" + std::to_string(count);
    return out + "}";
  };
  std::vector<std::pair<std::string, std::uint64_t>> notCaptured;
  for (const NotCapturedReason reason :
       {NotCapturedReason::GraphLaunch, NotCapturedReason::CooperativeLaunch, NotCapturedReason::MultiDeviceLaunch,
        NotCapturedReason::ManagedMemory, NotCapturedReason::TextureOrSurface, NotCapturedReason::StreamCapture,
        NotCapturedReason::NoParameterMetadata, NotCapturedReason::GraphChildGraph,
        NotCapturedReason::GraphConditionalNode, NotCapturedReason::GraphHostNode, NotCapturedReason::GraphEventNode,
        NotCapturedReason::DeviceGraphLaunch, NotCapturedReason::Collective,
        NotCapturedReason::GraphUntrackedChange, NotCapturedReason::GraphNotCloned}) {
    const auto found = notCaptured_.find(reason);
    notCaptured.emplace_back(notCapturedReasonName(reason), found == notCaptured_.end() ? 0 : found->second);
  }
  std::vector<std::pair<std::string, std::uint64_t>> breaks;
  for (std::size_t i = 0; i < kSequenceBreakReasonCount; ++i) breaks.emplace_back(kSequenceBreakReasons[i], 0);
  for (const auto& [reason, count] : sequenceBreaks_) {
    const auto known = std::find_if(breaks.begin(), breaks.end(), [&](const auto& pair) { return pair.first == reason; });
    if (known != breaks.end())
      known->second = count;
    else
      breaks.emplace_back(reason, count);
  }
  CaptureCost cost = costSource_ ? costSource_() : CaptureCost{};
  cost.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  cost.bytesStored = bytesStored_;
  cost.blobsStored = blobsStored_;
  cost.launches = launches_;
  char wall[48], wait[48];
  std::snprintf(wall, sizeof wall, "%.6f", cost.wallSeconds);
  std::snprintf(wait, sizeof wait, "%.6f", cost.programWaitSeconds);
  const std::string costText = std::string("{\"wallSeconds\":") + wall +
                               ",\"deviceBytesHashed\":" + std::to_string(cost.deviceBytesHashed) +
                               ",\"bytesCopiedToHost\":" + std::to_string(cost.bytesCopiedToHost) +
                               ",\"bytesStored\":" + std::to_string(cost.bytesStored) +
                               ",\"blobsStored\":" + std::to_string(cost.blobsStored) +
                               ",\"launches\":" + std::to_string(cost.launches) + ",\"programWaitSeconds\":" + wait +
                               "}";
  const std::string process =
      info_.process ? ",\"process\":{\"pid\":" + std::to_string(info_.process->pid) +
                          ",\"parentPid\":" + std::to_string(info_.process->parentPid) + "}"
                    : std::string();
  const std::string text =
      "{\"format\":\"kreplay-capture\",\"formatVersion\":" + std::to_string(kCaptureFormatVersion) +
      ",\"writer\":{\"name\":\"kreplay\",\"version\":" + jsonString(KREPLAY_VERSION) +
      "},\"driver\":" + jsonString(info_.driver) + ",\"device\":{\"name\":" + jsonString(info_.deviceName) +
      ",\"architecture\":" + jsonString(info_.architecture) + "},\"command\":" + jsonStringList(info_.command) +
      ",\"complete\":" + (complete_ ? "true" : "false") + ",\"notCaptured\":" + counts(notCaptured) + process +
      (selectionError_.empty() ? std::string() : ",\"selectionError\":" + jsonString(selectionError_)) +
      ",\"sequences\":" + std::to_string(sequences_) + ",\"sequenceBreaks\":" + counts(breaks) +
      ",\"graphLaunches\":" + std::to_string(graphLaunches_) +
      ",\"cost\":" + costText + "}\n";
  const std::string temporary = directory_ + "/" + temporaryName("manifest.json");
  writeFile(temporary, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), true);
  renameFile(temporary, directory_ + "/manifest.json");
  syncDirectory(directory_);
}

}  // namespace kreplay::capture
