// The capture of one program, driven by plain calls (the CUPTI glue makes them; the tests make them
// over host memory): modules loaded, allocations made and freed, texture/surface objects, the work
// between launches (memsets, copies, host functions, events), and each kernel launch before and after
// it runs. A selected launch is written to the capture folder (format version 2) with its module,
// shape, parameter buffer, stream, place in a captured sequence, the work before it, and every live
// range's pages before it ran (hashed on the device; only pages whose hash changed since the capture
// last held them are copied and stored) with their page hashes before and after. The writing happens
// on background threads (blob-writer.hpp). No CUPTI or CUDA header inside.
//   capture-session.cpp          modules, allocations, the work between launches, finish
//   capture-session-launch.cpp   a launch: selection, parameters, memory before and after, its record
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/inject/between-launch-work.hpp"
#include "capture/inject/blob-writer.hpp"
#include "capture/inject/capture-options.hpp"
#include "capture/inject/device-memory-access.hpp"
#include "capture/inject/launch-memory.hpp"
#include "capture/inject/launch-selection.hpp"
#include "capture/inject/loaded-modules.hpp"
#include "capture/inject/page-state.hpp"
#include "capture/inject/pinned-staging.hpp"
#include "capture/inject/sequence-rule.hpp"

namespace kreplay::capture {

constexpr std::uint64_t kCapturePageBytes = 65536;

enum class LaunchKind { Kernel, Cooperative, MultiDevice, Graph };

/** One launch as the program made it. */
struct LaunchRequest {
  LaunchKind kind = LaunchKind::Kernel;
  std::string function;               ///< the symbol name (mangled)
  std::uintptr_t functionHandle = 0;  ///< the CUfunction, for its module's globals
  LaunchShape shape;
  void* const* kernelParams = nullptr;
  void* const* extra = nullptr;
  std::uintptr_t stream = 0;
  std::uintptr_t context = 0;  ///< the context it was launched in (0: unknown)
  /** The collective library whose code made the launch (collective-caller.hpp), or empty. */
  std::string launchedFrom;
};

struct GraphLaunchRequest;  // graph-launch.hpp
class GraphNodeRunner;

/** A launch captured before it ran, waiting for afterLaunch. */
struct PendingLaunch;
struct PendingLaunchDeleter {
  void operator()(PendingLaunch* pending) const;
};
using PendingLaunchHandle = std::unique_ptr<PendingLaunch, PendingLaunchDeleter>;

class CaptureSession {
 public:
  /**
   * Creates the capture folder and starts the writer threads. `beforeWrite` (tests) is called by a
   * writer thread before it writes staged pages. Throws CaptureWriteError, or CaptureOptionsError
   * when the selection cannot be made (after the manifest recorded it as `selectionError`).
   */
  CaptureSession(const CaptureOptions& options, DeviceMemoryAccess& device, std::ostream& log,
                 std::function<void()> beforeWrite = {});
  ~CaptureSession();

  /**
   * A module the driver loaded; `collectiveLibrary` names the collective library (libnccl*, librccl*)
   * its image was loaded from (collective-library.hpp), whose kernels are then counted `collective`.
   */
  void moduleLoaded(std::uint32_t moduleId, const std::uint8_t* image, std::size_t bytes,
                    const std::string& collectiveLibrary = {});
  void moduleUnloaded(std::uint32_t moduleId);
  /** The driver's handle of a loaded module (cuModuleLoad* returned it while loading `moduleId`). */
  void moduleHandle(std::uintptr_t handle, std::uint32_t moduleId);
  void allocationAdded(std::uint64_t base, std::uint64_t bytes, MemoryKind kind);
  void managedAllocationAdded(std::uint64_t base, std::uint64_t bytes);
  /** The allocation at exactly `base` is gone (any kind). */
  void allocationRemoved(std::uint64_t base);
  /** Every range starting in [base, base + bytes) is gone (cuMemUnmap). */
  void rangeUnmapped(std::uint64_t base, std::uint64_t bytes);
  /** A stream began or ended capturing into a graph: while one is, nothing is synchronized or captured. */
  void streamCaptureBegan(std::uintptr_t stream);
  void streamCaptureEnded(std::uintptr_t stream);
  /** cuProfilerStart / cuProfilerStop: with profile-from-start off, launches count only in between. */
  void profilerStarted();
  void profilerStopped();
  void opaqueObjectCreated(std::uint64_t handle);
  void opaqueObjectDestroyed(std::uint64_t handle);

  // The work between launches (each at the call's exit, when it succeeded).
  /** cuMemsetD8/D16/D32: `bytes` bytes at `address`, `value` in elements of `elementBytes`. */
  void memsetIssued(std::uintptr_t stream, std::uint64_t address, std::uint64_t bytes, std::uint32_t value,
                    std::uint32_t elementBytes);
  /** A linear copy (cuMemcpy*, not peer/2D/3D): recorded as copy, upload or download by what the capture tracks. */
  void copyIssued(std::uintptr_t stream, std::uint64_t destination, std::uint64_t source, std::uint64_t bytes);
  /** cuLaunchHostFunc, cuStreamAddCallback. */
  void hostFunctionIssued(std::uintptr_t stream);
  /** cuEventRecord*: where the event was recorded. */
  void eventRecorded(std::uintptr_t event, std::uintptr_t stream);
  /** cuStreamWaitEvent. */
  void eventWaited(std::uintptr_t stream, std::uintptr_t event);
  /** A write to device memory the capture cannot bound (peer, 2D/3D and batch copies, stream memory operations). */
  void unboundedWriteIssued();

  /**
   * Before the launch runs: decides whether to capture it; when so, synchronizes and copies every
   * live range. Returns null for a launch that is not captured (counted with its reason when the
   * selection wanted it). Never throws: a failure is said on the log and stops capturing.
   */
  PendingLaunchHandle beforeLaunch(const LaunchRequest& request);
  /** After the launch: when it was launched, synchronizes, hashes every range and writes the record. */
  void afterLaunch(PendingLaunchHandle pending, bool launched);
  /**
   * Before the program's graph launch (capture-session-graph.cpp): when the graph holds a selected
   * kernel node and nothing the capture cannot run alone, runs its nodes one at a time in topological
   * order through `runner` (kernel nodes selected and captured as if launched alone, in that order),
   * then puts back the memory they could reach, so that the program's own launch, which runs next,
   * starts from the memory it would have had. Else counts why not (or nothing, when no kernel node is
   * selected), counts its kernel nodes as launches seen but not captured, and leaves the graph
   * untouched. Never throws.
   */
  void graphLaunch(const GraphLaunchRequest& request, GraphNodeRunner& runner);
  /** Waits until every launch captured so far is in the folder; a writer failure stops capturing. */
  void flush();
  /**
   * The program ends: waits for the writer, then the manifest says the capture is complete (unless
   * capturing stopped on a failure). In a child forked from the program it does nothing.
   */
  void finish();

  bool stopped() const { return stopped_; }
  std::uint64_t capturedLaunches() const { return captured_; }
  const std::string& directory() const { return writer_.directory(); }
  /** For tests: the pinned staging pool. */
  const PinnedStaging& staging() const { return staging_; }

 private:
  PendingLaunchHandle prepare(const LaunchRequest& request, std::unique_lock<std::recursive_mutex>& lock);
  /** A launch that is not captured ran: it may have written any device memory. */
  void launchNotCaptured();
  /** Hashes and stages the launch's memory, decides its captured sequence. */
  void snapshotBefore(PendingLaunch& pending, const LaunchRequest& request, const std::vector<std::uint64_t>& globals);
  void record(PendingLaunch& pending);
  CaptureCost cost() const;
  void notCaptured(NotCapturedReason reason, const std::string& function, const std::string& detail);
  void stop(const std::string& what);
  /** Stops capturing after a launch of `function` failed with `why`, or after the writer failed. */
  void failed(const std::string& function, const std::string& why);
  /** The bases (in globals_) of the globals of a module (its handle; 0: unknown). */
  const std::vector<std::uint64_t>& moduleGlobals(const KernelDefinition& definition, std::uintptr_t module);
  /** The module handle of a function, learning which loaded module it is when the driver loads it now. */
  std::uintptr_t functionModule(std::uintptr_t functionHandle);
  /** The loaded module defining a launch's function: the one its module handle is, when known, else the latest. */
  std::optional<KernelDefinition> definitionOf(const std::string& function, std::uintptr_t module) const;
  /** Why a launch takes part in a collective (its name, the library its module came from or whose code launched it), or nothing. */
  std::optional<std::string> collectiveLaunch(const LaunchRequest& request);
  void sayOnce(const std::string& key, const std::string& message);
  /**
   * Whether a graph can run node by node (else counts why not, per node that cannot), and in
   * `kernels` the functions of its kernel nodes in `order`, as the selection counts them.
   */
  bool graphNodesRunAlone(const GraphLaunchRequest& request, const std::vector<std::size_t>& order,
                          std::vector<std::string>& kernels);
  /** Runs the nodes in `order`, each kernel node selected as it runs; false when they could not run. */
  bool runGraphNodes(const GraphLaunchRequest& request, const std::vector<std::size_t>& order, GraphNodeRunner& runner);

  // Recursive: a module the driver loads lazily while the session asks about a function reports itself
  // (moduleLoaded) on the same thread, inside the session's call.
  std::recursive_mutex mutex_;
  std::ostream& log_;
  DeviceMemoryAccess& device_;
  CaptureWriter writer_;
  LaunchSelection selection_;
  LoadedModules modules_;
  TrackedRanges tracked_;
  std::map<std::uint64_t, std::uint64_t> managed_;  ///< base -> bytes
  std::set<std::uint64_t> opaqueObjects_;
  std::set<std::uintptr_t> capturingStreams_;
  std::map<std::uintptr_t, std::uint32_t> moduleIds_;  ///< module handle -> module id, where known
  bool askingForModule_ = false;                       ///< inside functionModule: note modules loaded
  std::vector<std::uint32_t> loadedWhileAsking_;
  std::map<std::uintptr_t, std::vector<std::uint64_t>> moduleGlobals_;  ///< by module handle
  std::set<std::string> said_;
  bool deviceDescribed_ = false;
  bool stopped_ = false;
  bool profiling_ = true;  ///< false outside cuProfilerStart..cuProfilerStop with profile-from-start off
  bool finished_ = false;
  std::uint64_t captured_ = 0;
  CaptureCounters counters_;
  PinnedStaging staging_;
  BlobWriter blobs_;
  LaunchMemory memory_;
  BetweenLaunchWork work_;
  std::optional<PreviousLaunch> previous_;
  std::uint64_t nextSequence_ = 0;
  std::uint64_t graphLaunches_ = 0;         ///< the program's graph launches so far
  std::optional<GraphNodePlace> graphNode_;  ///< while a graph's kernel node runs
  bool graphStarts_ = false;                 ///< the kernel node being captured is its graph launch's first
  /** The process capturing: a child forked from it has no writer threads, so it neither captures nor waits. */
  long owner_;
  bool inOwner() const;
};

}  // namespace kreplay::capture
