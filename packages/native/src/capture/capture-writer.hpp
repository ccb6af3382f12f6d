// Writes a capture folder (FORMAT.md): content-addressed blobs, one record per launch, a manifest.
// Used inside the captured program, so it needs no Node.js. A launch is complete in the folder or
// absent: its blobs are on disk (written, fsynced, renamed) before its record is renamed into place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace kreplay::capture {

/** Writing the folder failed (the message names the file and the errno text). */
struct CaptureWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr int kCaptureFormatVersion = 1;

/** The ways a launch or allocation can escape a capture; FORMAT.md lists their names. */
enum class NotCapturedReason {
  GraphLaunch,
  CooperativeLaunch,
  MultiDeviceLaunch,
  ManagedMemory,
  TextureOrSurface,
  StreamCapture,        ///< launched on a stream being captured into a graph: it did not run
  NoParameterMetadata,  ///< no loaded module image describes the kernel's parameters
};
const char* notCapturedReasonName(NotCapturedReason reason);

enum class MemoryKind { Device, Pool, Vmm, HostPinned, HostRegistered, ModuleGlobal };
const char* memoryKindName(MemoryKind kind);

/** A cuLaunchKernelEx attribute other than the cluster dimensions, by its CUDA name. */
struct LaunchAttribute {
  std::string name;  ///< e.g. `CU_LAUNCH_ATTRIBUTE_PRIORITY`
  std::vector<std::int64_t> values;
};

struct LaunchShape {
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t dynamicSharedBytes = 0;
  std::optional<std::array<std::uint32_t, 3>> clusterDims;
  std::vector<LaunchAttribute> attributes;
};

struct ParameterSlot {
  std::uint32_t index = 0;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

/** One range the kernel can reach: its contents before the launch, its page hashes after. */
struct MemoryRange {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  MemoryKind kind = MemoryKind::Device;
  std::string label;                       ///< e.g. a module global's name; may be empty
  const std::uint8_t* before = nullptr;    ///< `bytes` bytes, a host copy taken before the launch
  std::vector<std::uint64_t> hashesAfter;  ///< one page hash (API.md) per page, after the launch
};

struct LaunchRecord {
  std::string function;
  const std::uint8_t* module = nullptr;  ///< the module image as loaded
  std::size_t moduleBytes = 0;
  /** Optional: the module's blob id, when this writer stored it before (skips hashing it again). */
  std::string moduleBlob;
  LaunchShape shape;
  std::vector<std::uint8_t> parameterBuffer;
  std::vector<ParameterSlot> parameters;
  std::uint64_t pageBytes = 65536;
  std::vector<MemoryRange> memory;
  /**
   * Optional, empty or one list per memory range, each empty or one entry per page: the blob id a
   * page's bytes are known to have (this writer stored it earlier), which skips hashing that page with
   * SHA-256; an empty entry is hashed.
   */
  std::vector<std::vector<std::string>> knownPageBlobs;
};

/** Which process a capture is of (the manifest's `process`). */
struct CapturedProcess {
  std::int64_t pid = 0;
  std::int64_t parentPid = 0;
};

struct CaptureInfo {
  std::string driver = "cuda";
  std::string architecture;  ///< e.g. `sm_90`
  std::string deviceName;
  std::vector<std::string> command;
  std::optional<CapturedProcess> process;
};

/** A launch whose blobs and record are on disk but whose record is not yet renamed into place. */
struct StagedLaunch {
  std::uint64_t sequence = 0;
  std::string temporaryPath;
  std::string finalPath;
  /** The module image's blob id. */
  std::string moduleBlob;
  /** The blob id of each page of each memory range, in the record's order. */
  std::vector<std::vector<std::string>> pagesBefore;
};

class CaptureWriter {
 public:
  /** Creates the folder (it may exist but must not hold a manifest) and writes the manifest. */
  CaptureWriter(std::string directory, CaptureInfo info);

  /** Stores bytes as a blob unless it is there already; returns its id (FORMAT.md). */
  std::string putBlob(const std::uint8_t* data, std::size_t size);

  /** Writes a launch's blobs and its record under a temporary name. */
  StagedLaunch stageLaunch(const LaunchRecord& record);
  /** Renames a staged record into place: from now on the launch is in the capture. */
  void commitLaunch(const StagedLaunch& staged);
  /** stageLaunch then commitLaunch; returns the launch's sequence number. */
  std::uint64_t writeLaunch(const LaunchRecord& record);

  /** Sets the manifest's device (learned after the folder was made), and rewrites the manifest. */
  void setDevice(std::string name, std::string architecture);

  /** Counts something not captured, and rewrites the manifest. */
  void countNotCaptured(NotCapturedReason reason);
  /**
   * The selection given could not be used, so nothing will be selected: the manifest says why
   * (`selectionError`), so that the capture does not pass for an empty one.
   */
  void recordSelectionError(std::string message);
  /** Marks the capture complete in the manifest (a capture killed before this is still readable). */
  void finish();

  const std::string& directory() const { return directory_; }

 private:
  void writeManifest();
  std::string putBlobLocked(const std::uint8_t* data, std::size_t size);
  /** `known` when this writer stored that blob already, else putBlobLocked. */
  std::string reuseOrPutLocked(const std::string& known, const std::uint8_t* data, std::size_t size);

  std::mutex mutex_;
  std::string directory_;
  CaptureInfo info_;
  std::uint64_t nextSequence_ = 0;
  std::set<std::string> blobs_;
  std::map<NotCapturedReason, std::uint64_t> notCaptured_;
  std::string selectionError_;
  bool complete_ = false;
};

/** The blob id of some bytes: the first 32 hex digits of their SHA-256, `-`, their length. */
std::string blobId(const std::uint8_t* data, std::size_t size);

}  // namespace kreplay::capture
