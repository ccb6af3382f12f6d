/**
 * @kreplay/native: the native runtime of kreplay. One C++ addon with the drivers host, cuda and
 * hsa, behind a typed API of agents, memory, queues, copy plans, page hashing, conditional copies,
 * kernels and events. See API.md for the contract.
 */

export { openRuntime } from './runtime/open-runtime.js';
export { Agent, Checkpoints, CheckpointSession, KernelGraph, Profilers, ProfilerSession, Queue, Runtime, TimingEvent } from './runtime/runtime-exports.js';
export type { AgentMemory } from './memory/agent-memory.js';
export type { RuntimeMemory } from './memory/runtime-memory.js';
export type { QueueWork } from './queue/queue-work.js';
export { planCuptiMetrics } from './profiler/profiler.js';
export { queryCuptiMetrics } from './profiler/cupti-metric-catalog.js';
export type { CuptiMetric } from './profiler/cupti-metric-catalog.js';
export type { ProfilerCacheControl, ProfilerPassScope, ProfilerPlan, ProfilerResult, ProfilerSessionOptions } from './profiler/profiler-types.js';
export { DeviceAllocation } from './memory/device-allocation.js';
export { StreamOrderedAllocation } from './memory/stream-ordered-allocation.js';
export { HostBuffer } from './memory/host-buffer.js';
export type { Allocation } from './memory/allocation.js';

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

export { AddressRangeMap } from './memory/address-range-map.js';
export { pageHash, mix64 } from './queue/page-hash.js';

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
} from './runtime/runtime-types.js';

export { describeHostStagingBudget, hostStagingBudget } from './memory/host-memory-limit.js';
export type { HostStagingBudget } from './memory/host-memory-limit.js';

export { readModuleImage } from './capture/capture-module-image.js';
export type {
  ModuleCubin,
  ModuleGlobal,
  ModuleImage,
  ModuleImageEntry,
  ModuleKernel,
  ModuleKernelParameter,
} from './capture/module-image-types.js';

export { readCaptureFolder } from './capture/capture-folder.js';
export { capturedKernelCode } from './capture/captured-kernel-code.js';
export type { CapturedKernelCode } from './capture/captured-kernel-code.js';
export { captureLibraryPath } from './capture/capture-library-path.js';
export { nativeAddonPath } from './addon/load-binding.js';
export type { ReadCaptureFolderOptions } from './capture/capture-folder.js';
export { listCaptureProcesses } from './capture/capture-processes.js';
export type { CaptureProcess } from './capture/capture-processes.js';
export { captureKernelNameProblem, kernelNameBases, kernelNameFilterProblem, kernelNames, matchKernelNames } from './capture/capture-kernel-name.js';
export type { KernelNameBase, KernelNames } from './capture/capture-kernel-name.js';
export { captureBlobId, captureBlobPath } from './capture/capture-blob.js';
export { captureFolderJsonSchema, captureFolderSchemaId } from './capture/capture-folder-json-schema.js';
export { jsonPointerAsPath, shortJson } from './file-input/json-field-path.js';
export { describeJsonSchemaError, jsonFieldProblemText, jsonSchemaFieldProblem } from './file-input/json-schema-problem.js';
export type { JsonFieldProblem } from './file-input/json-schema-problem.js';
export { readRegularFile } from './file-input/read-regular-file.js';
export { kernelModuleMaxBytes, readKernelModuleFile } from './kernels/kernel-module-file.js';
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
} from './capture/capture-folder-types.js';
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
