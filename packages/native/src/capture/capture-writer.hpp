// Writes a capture folder (FORMAT.md): content-addressed blobs, one record per launch, a manifest.
// Used inside the captured program, so it needs no Node.js. A launch is complete in the folder or
// absent: its blobs are on disk (written, fsynced, renamed) before its record is renamed into place.
// writeLaunch does all of it at once on the calling thread; the capture library's background writer
// (inject/blob-writer.*) does the same steps for many launches at a time and tells the writer each
// launch it committed (launchCommitted), which the manifest counts.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
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

constexpr int kCaptureFormatVersion = 2;

/** The ways a launch or allocation can escape a capture; FORMAT.md lists their names. */
enum class NotCapturedReason {
  GraphLaunch,
  CooperativeLaunch,
  MultiDeviceLaunch,
  ManagedMemory,
  TextureOrSurface,
  StreamCapture,        ///< launched on a stream being captured into a graph: it did not run
  NoParameterMetadata,  ///< no loaded module image describes the kernel's parameters
  // A graph launch holding a node that cannot be captured (the graph runs untouched), by the node's kind.
  GraphChildGraph,
  GraphConditionalNode,
  GraphHostNode,
  GraphEventNode,  ///< event record or wait (across streams)
  DeviceGraphLaunch,  ///< a graph that may launch graphs from the device
  Collective,  ///< a kernel taking part in a collective (NCCL's, RCCL's): never replayed alone
  GraphUntrackedChange,  ///< a graph launch after a change to its executable graph the capture could not follow
  GraphNotCloned,  ///< a graph launch of an executable graph whose graph libcuda would not clone (memory nodes)
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

/** What a program did between two captured launches (FORMAT.md, `workBefore`). */
enum class WorkKind { Memset, Copy, Upload, Download, Allocation, Free };
const char* workKindName(WorkKind kind);

struct RecordedWork {
  WorkKind kind = WorkKind::Memset;
  std::uintptr_t stream = 0;        ///< memset, copy, upload, download
  std::uint64_t address = 0;        ///< memset, allocation, free: the address; copy, upload: the destination;
                                    ///< download: the source
  std::uint64_t source = 0;         ///< copy
  std::uint64_t bytes = 0;          ///< all but free
  std::uint32_t value = 0;          ///< memset
  std::uint32_t elementBytes = 1;   ///< memset: 1, 2 or 4
  MemoryKind memoryKind = MemoryKind::Device;  ///< allocation

  /** How many bytes it may write at `address`: 0 for a download or a free. */
  std::uint64_t writtenBytes() const;
};

/** Where a launch stands among captured sequences (FORMAT.md). */
struct SequencePlace {
  std::uintptr_t stream = 0;
  std::uintptr_t context = 0;
  std::optional<std::uint64_t> follows;  ///< the previous launch of its captured sequence
  std::string sequenceBreak = "first-launch";  ///< why it starts one (not written when `follows` is set)
  std::vector<RecordedWork> workBefore;
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
  /** Format version 2: its stream, captured sequence and the work before it. */
  SequencePlace place;
};

/** One memory range of a record as written: blob ids and page hashes. */
struct RecordedRange {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  MemoryKind kind = MemoryKind::Device;
  std::string label;
  std::vector<std::string> pagesBefore;
  std::vector<std::uint64_t> hashesBefore;
  std::vector<std::uint64_t> hashesAfter;
};

/** Everything of a launch record, blob ids known: what launchRecordJson writes. */
/** Where a launch captured as a kernel node of a graph launch stands in it (FORMAT.md `graph`). */
struct GraphNodePlace {
  std::uint64_t graph = 0;        ///< the graph the executable graph was instantiated from
  std::uint64_t node = 0;         ///< the node in that graph
  std::uint64_t nodeIndex = 0;    ///< in the topological order the capture ran the nodes in
  std::uint64_t graphLaunch = 0;  ///< the program's graph launches, from 0, per process
};

struct RecordFields {
  std::uint64_t sequence = 0;
  std::string function;
  std::string moduleBlob;
  LaunchShape shape;
  std::vector<std::uint8_t> parameterBuffer;
  std::vector<ParameterSlot> parameters;
  std::uint64_t pageBytes = 65536;
  std::vector<RecordedRange> memory;
  SequencePlace place;
  std::optional<GraphNodePlace> graph;  ///< a kernel node of a graph launch
};

/** The JSON text of a launch record, format version 2 (FORMAT.md), with a final newline. */
std::string launchRecordJson(const RecordFields& fields);

/** What capturing cost, for the manifest (FORMAT.md `cost`); the writer adds its own counts. */
struct CaptureCost {
  double wallSeconds = 0;
  std::uint64_t deviceBytesHashed = 0;
  std::uint64_t bytesCopiedToHost = 0;
  std::uint64_t bytesStored = 0;
  std::uint64_t blobsStored = 0;
  std::uint64_t launches = 0;
  double programWaitSeconds = 0;
};

/** The sequence-break reasons the manifest always lists (FORMAT.md); a later writer may add reasons. */
extern const char* const kSequenceBreakReasons[];
extern const std::size_t kSequenceBreakReasonCount;

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
  /** Why it starts a captured sequence (empty: it continues one). */
  std::string sequenceBreak;
};

class CaptureWriter {
 public:
  /** Creates the folder (it may exist but must not hold a manifest) and writes the manifest. */
  CaptureWriter(std::string directory, CaptureInfo info);

  /** Stores bytes as a blob unless it is there already; returns its id (FORMAT.md). */
  std::string putBlob(const std::uint8_t* data, std::size_t size);

  /** Writes a launch's blobs and its record under a temporary name (its sequence: the next number). */
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
   * A launch's record is in place (the background writer renamed it): the manifest counts it, and a
   * sequence when `sequenceBreak` is not empty. The manifest is rewritten by the next rewriteManifest.
   */
  void launchCommitted(const std::string& sequenceBreak);
  /** A new blob of `bytes` bytes is in place (counted in the manifest's cost). */
  void blobStored(std::uint64_t bytes);
  /** Where the manifest's cost gets the session's counts (device bytes hashed, copied, program wait). */
  void setCostSource(std::function<CaptureCost()> source);
  /** Rewrites the manifest with the counts as they are. */
  void rewriteManifest();
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
  void countLaunchLocked(const std::string& sequenceBreak);
  std::string putBlobLocked(const std::uint8_t* data, std::size_t size);
  /** `known` when this writer stored that blob already, else putBlobLocked. */
  std::string reuseOrPutLocked(const std::string& known, const std::uint8_t* data, std::size_t size);

  std::mutex mutex_;
  std::string directory_;
  CaptureInfo info_;
  std::uint64_t nextSequence_ = 0;
  std::set<std::string> blobs_;
  std::map<NotCapturedReason, std::uint64_t> notCaptured_;
  std::map<std::string, std::uint64_t> sequenceBreaks_;
  std::uint64_t sequences_ = 0;
  std::uint64_t graphLaunches_ = 0;  ///< sequences that start at a graph launch
  std::uint64_t launches_ = 0;
  std::uint64_t blobsStored_ = 0;
  std::uint64_t bytesStored_ = 0;
  std::function<CaptureCost()> costSource_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::string selectionError_;
  bool complete_ = false;
};

/** The blob id of some bytes: the first 32 hex digits of their SHA-256, `-`, their length. */
std::string blobId(const std::uint8_t* data, std::size_t size);

}  // namespace kreplay::capture
