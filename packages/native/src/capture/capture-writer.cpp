#include "capture/capture-writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "capture/json-text.hpp"
#include "capture/sha256.hpp"

#ifndef KREPLAY_VERSION
#define KREPLAY_VERSION "0.0.0"
#endif

namespace kreplay::capture {

namespace {

[[noreturn]] void failWith(const std::string& what, const std::string& path) {
  throw CaptureWriteError("[native] [capture] could not " + what + " " + path + ": " + std::strerror(errno) +
                          ". Check that the capture folder is writable and its disk has space.");
}

void makeDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) failWith("create the folder", path);
}

void syncDirectory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) failWith("open the folder", path);
  const int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) failWith("sync the folder", path);
}

/** Writes bytes to `path` and syncs them; nothing is renamed. */
void writeSynced(const std::string& path, const std::uint8_t* data, std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) failWith("create", path);
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      ::close(fd);
      failWith("write", path);
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    failWith("sync", path);
  }
  if (::close(fd) != 0) failWith("close", path);
}

void renameInto(const std::string& from, const std::string& to, const std::string& directory) {
  if (::rename(from.c_str(), to.c_str()) != 0) failWith("rename into place", to);
  syncDirectory(directory);
}

std::string temporaryName(const std::string& name) {
  return ".tmp-" + name + "-" + std::to_string(::getpid());
}

std::string sequenceName(std::uint64_t sequence) {
  char text[32];
  std::snprintf(text, sizeof text, "%08llu", static_cast<unsigned long long>(sequence));
  return text;
}

template <class T, class Show>
std::string jsonList(const T& items, Show show) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ",";
    first = false;
    out += show(item);
  }
  return out + "]";
}

std::string triple(const std::array<std::uint32_t, 3>& value) {
  return "[" + std::to_string(value[0]) + "," + std::to_string(value[1]) + "," + std::to_string(value[2]) +
         "]";
}

}  // namespace

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
    writeSynced(temporary, data, size);
    renameInto(temporary, path, folder);
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
}

}  // namespace

StagedLaunch CaptureWriter::stageLaunch(const LaunchRecord& record) {
  checkRecord(record);
  std::lock_guard<std::mutex> lock(mutex_);
  StagedLaunch staged;
  staged.sequence = nextSequence_++;
  const std::string moduleId = reuseOrPutLocked(record.moduleBlob, record.module, record.moduleBytes);
  staged.moduleBlob = moduleId;

  std::string memory = "[";
  for (std::size_t r = 0; r < record.memory.size(); ++r) {
    const MemoryRange& range = record.memory[r];
    std::vector<std::string> pages;
    static const std::vector<std::string> noneKnown;
    const std::vector<std::string>& knownPages =
        record.knownPageBlobs.empty() ? noneKnown : record.knownPageBlobs[r];
    for (std::uint64_t at = 0, page = 0; at < range.bytes; at += record.pageBytes, ++page) {
      const std::string& known = knownPages.empty() ? std::string() : knownPages[page];
      pages.push_back(reuseOrPutLocked(
          known, range.before + at,
          static_cast<std::size_t>(std::min<std::uint64_t>(record.pageBytes, range.bytes - at))));
    }
    if (r > 0) memory += ",";
    memory += "{\"base\":" + jsonAddress(range.base) + ",\"bytes\":" + std::to_string(range.bytes) +
              ",\"kind\":\"" + memoryKindName(range.kind) + "\",\"label\":" + jsonString(range.label) +
              ",\"pagesBefore\":" + jsonList(pages, jsonString) +
              ",\"pageHashesAfter\":" + jsonList(range.hashesAfter, jsonHash) + "}";
    staged.pagesBefore.push_back(std::move(pages));
  }
  memory += "]";

  const LaunchShape& shape = record.shape;
  const std::string attributes = jsonList(shape.attributes, [](const LaunchAttribute& attribute) {
    return "{\"name\":" + jsonString(attribute.name) + ",\"values\":" +
           jsonList(attribute.values, [](std::int64_t value) { return std::to_string(value); }) + "}";
  });
  const std::string slots = jsonList(record.parameters, [](const ParameterSlot& slot) {
    return "{\"index\":" + std::to_string(slot.index) + ",\"offset\":" + std::to_string(slot.offset) +
           ",\"size\":" + std::to_string(slot.size) + "}";
  });
  const std::string text =
      "{\"formatVersion\":" + std::to_string(kCaptureFormatVersion) +
      ",\"sequence\":" + std::to_string(staged.sequence) + ",\"function\":" + jsonString(record.function) +
      ",\"module\":" + jsonString(moduleId) + ",\"shape\":{\"grid\":" + triple(shape.grid) +
      ",\"block\":" + triple(shape.block) +
      ",\"dynamicSharedBytes\":" + std::to_string(shape.dynamicSharedBytes) +
      ",\"clusterDims\":" + (shape.clusterDims ? triple(*shape.clusterDims) : std::string("null")) +
      ",\"attributes\":" + attributes +
      "},\"parameters\":{\"size\":" + std::to_string(record.parameterBuffer.size()) +
      ",\"buffer\":" + jsonHexBytes(record.parameterBuffer.data(), record.parameterBuffer.size()) +
      ",\"slots\":" + slots + "},\"pageBytes\":" + std::to_string(record.pageBytes) +
      ",\"memory\":" + memory + "}\n";

  const std::string name = sequenceName(staged.sequence) + ".json";
  staged.finalPath = directory_ + "/launches/" + name;
  staged.temporaryPath = directory_ + "/launches/" + temporaryName(name);
  writeSynced(staged.temporaryPath, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  return staged;
}

void CaptureWriter::commitLaunch(const StagedLaunch& staged) {
  std::lock_guard<std::mutex> lock(mutex_);
  renameInto(staged.temporaryPath, staged.finalPath, directory_ + "/launches");
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
  std::string counts = "{";
  const NotCapturedReason reasons[] = {
      NotCapturedReason::GraphLaunch,        NotCapturedReason::CooperativeLaunch,
      NotCapturedReason::MultiDeviceLaunch,  NotCapturedReason::ManagedMemory,
      NotCapturedReason::TextureOrSurface,   NotCapturedReason::StreamCapture,
      NotCapturedReason::NoParameterMetadata};
  for (std::size_t i = 0; i < sizeof reasons / sizeof reasons[0]; ++i) {
    if (i > 0) counts += ",";
    const auto found = notCaptured_.find(reasons[i]);
    counts += std::string("\"") + notCapturedReasonName(reasons[i]) +
              "\":" + std::to_string(found == notCaptured_.end() ? 0 : found->second);
  }
  counts += "}";
  const std::string process =
      info_.process ? ",\"process\":{\"pid\":" + std::to_string(info_.process->pid) +
                          ",\"parentPid\":" + std::to_string(info_.process->parentPid) + "}"
                    : std::string();
  const std::string text =
      "{\"format\":\"kreplay-capture\",\"formatVersion\":" + std::to_string(kCaptureFormatVersion) +
      ",\"writer\":{\"name\":\"kreplay\",\"version\":" + jsonString(KREPLAY_VERSION) +
      "},\"driver\":" + jsonString(info_.driver) + ",\"device\":{\"name\":" + jsonString(info_.deviceName) +
      ",\"architecture\":" + jsonString(info_.architecture) +
      "},\"command\":" + jsonList(info_.command, jsonString) +
      ",\"complete\":" + (complete_ ? "true" : "false") + ",\"notCaptured\":" + counts + process +
      (selectionError_.empty() ? std::string() : ",\"selectionError\":" + jsonString(selectionError_)) +
      "}\n";
  const std::string temporary = directory_ + "/" + temporaryName("manifest.json");
  writeSynced(temporary, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  renameInto(temporary, directory_ + "/manifest.json", directory_);
}

}  // namespace kreplay::capture
