/**
 * @kreplay/native: the native runtime of kreplay. One C++ addon with the drivers host, cuda and
 * hsa, behind a typed API of agents, memory, queues, copy plans, page hashing, conditional copies,
 * kernels and events. See API.md for the contract.
 */

export { openRuntime } from './open-runtime.js';
export { Runtime } from './runtime.js';
export { Agent } from './agent.js';
export { Queue } from './queue.js';
export { KernelGraph } from './kernel-graph.js';
export { TimingEvent } from './timing-event.js';
export { Checkpoints, CheckpointSession } from './checkpoint.js';
export { planCuptiMetrics, Profilers, ProfilerSession } from './profiler.js';
export { queryCuptiMetrics } from './cupti-metric-catalog.js';
export type { CuptiMetric } from './cupti-metric-catalog.js';
export type { ProfilerCacheControl, ProfilerPassScope, ProfilerPlan, ProfilerResult } from './profiler.js';
export { DeviceAllocation } from './device-allocation.js';
export { StreamOrderedAllocation } from './stream-ordered-allocation.js';
export { HostBuffer } from './host-buffer.js';
export type { Allocation } from './allocation.js';

export { KreplayError } from './errors/kreplay-error.js';
export type { KreplayErrorOptions } from './errors/kreplay-error.js';
export { ArgumentError } from './errors/argument-error.js';
export type { ArgumentErrorOptions } from './errors/argument-error.js';
export { DriverUnavailableError } from './errors/driver-unavailable-error.js';
export type { DriverUnavailableErrorOptions } from './errors/driver-unavailable-error.js';
export { DriverError } from './errors/driver-error.js';
export type { DriverErrorOptions } from './errors/driver-error.js';
export { OutOfMemoryError } from './errors/out-of-memory-error.js';
export type { OutOfMemoryErrorOptions } from './errors/out-of-memory-error.js';
export { DisposedError } from './errors/disposed-error.js';
export type { DisposedErrorOptions } from './errors/disposed-error.js';
export { UnsupportedError } from './errors/unsupported-error.js';
export type { UnsupportedErrorOptions } from './errors/unsupported-error.js';

export { AddressRangeMap } from './address-range-map.js';
export { pageHash, mix64 } from './page-hash.js';

export type {
  Access,
  AddressReservation,
  AgentInfo,
  BuiltinKernels,
  ConditionalCopyOptions,
  CopySegment,
  DriverChoice,
  DriverName,
  FaultOperation,
  FaultSpec,
  GraphStep,
  HostDriverOptions,
  HostLinkInfo,
  KernelArguments,
  KernelDescriptor,
  KernelGlobal,
  KernelLaunch,
  KernelParameter,
  LoadKernelOptions,
  MemoryEvent,
  MemoryInfo,
  MemoryKind,
  MemoryRange,
  OpenRuntimeOptions,
  PageListCompact,
  PageListCopyOptions,
  ParameterType,
  PointerExtent,
  ProfilerInstructionCache,
  ProfilerL2Flush,
  ProfilerRange,
} from './runtime-types.js';

export { describeHostStagingBudget, hostStagingBudget } from './host-memory-limit.js';
export type { HostStagingBudget } from './host-memory-limit.js';

export { readModuleImage } from './capture-module-image.js';
export type {
  ModuleCubin,
  ModuleGlobal,
  ModuleImage,
  ModuleImageEntry,
  ModuleKernel,
  ModuleKernelParameter,
} from './capture-module-image.js';

export { readCaptureFolder } from './capture-folder.js';
export { capturedKernelCode } from './captured-kernel-code.js';
export type { CapturedKernelCode } from './captured-kernel-code.js';
export { captureLibraryPath } from './capture-library-path.js';
export { nativeAddonPath } from './load-binding.js';
export type { ReadCaptureFolderOptions } from './capture-folder.js';
export { listCaptureProcesses } from './capture-processes.js';
export type { CaptureProcess } from './capture-processes.js';
export { captureKernelNameProblem, kernelNameBases, kernelNameFilterProblem, kernelNames, matchKernelNames } from './capture-kernel-name.js';
export type { KernelNameBase, KernelNames } from './capture-kernel-name.js';
export { captureBlobId, captureBlobPath } from './capture-blob.js';
export { captureFolderJsonSchema, captureFolderSchemaId } from './capture-folder-json-schema.js';
export { jsonPointerAsPath, shortJson } from './json-field-path.js';
export { describeJsonSchemaError, jsonFieldProblemText, jsonSchemaFieldProblem } from './json-schema-problem.js';
export type { JsonFieldProblem } from './json-schema-problem.js';
export { readRegularFile } from './file-input/read-regular-file.js';
export { kernelModuleMaxBytes, readKernelModuleFile } from './kernel-module-file.js';
export type { ReadRegularFileOptions, RefusedFile, RegularFileRead, UnreadableFileReason } from './file-input/read-regular-file.js';
export { jsonNestingBeyond } from './file-input/json-nesting.js';
export type {
  CaptureCost,
  CaptureFolder,
  CaptureFormatVersion,
  CaptureGraphNode,
  CaptureLaunch,
  CaptureLaunchAttribute,
  CaptureLaunchShape,
  CaptureManifest,
  CaptureMemoryKind,
  CaptureMemoryRange,
  CaptureParameterSlot,
  CaptureSequenceBreak,
  CaptureWork,
  AlwaysCountedReason,
  DamagedCaptureLaunch,
  NotCapturedReason,
} from './capture-folder-types.js';
export { CaptureFormatError } from './errors/capture-format-error.js';
export type { CaptureFormatErrorOptions } from './errors/capture-format-error.js';

export { openCapture } from './capture-replay/open-capture.js';
export type { OpenCaptureOptions } from './capture-replay/open-capture.js';
export { CaptureReplay } from './capture-replay/capture-replay.js';
export type { CaptureAddressPolicy } from './capture-replay/capture-replay.js';
export type { CaptureRelocation } from './capture-replay/capture-relocation.js';
export type { CaptureDispatch, CaptureRange, CaptureRangeCheck, CaptureRangeLaunch, CaptureReplayRange } from './capture-replay/capture-dispatch.js';
export { captureSequences } from './capture-replay/capture-sequences.js';
export type { CaptureSequence, CaptureSequences, CaptureSequenceStart } from './capture-replay/capture-sequences.js';
export { captureRegions, captureReservations } from './capture-replay/capture-regions.js';
export type { CaptureAddressReservation, CapturePlacement, CaptureRegion } from './capture-replay/capture-regions.js';
export { checkPostLaunchHashes } from './capture-replay/post-launch-hashes.js';
export type { ExpectedPageHashes, ExpectedRangeHashes, PostLaunchCheck, PostLaunchMismatch } from './capture-replay/post-launch-hashes.js';
