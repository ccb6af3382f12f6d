import type { MemoryInfo } from '../runtime/runtime-types.js';
/**
 * The shape of the addon (build/Release/kreplay.node) as the TypeScript layer calls it. Arguments
 * are validated before they get here; ranges and segments travel packed in typed arrays so that an
 * enqueue is one call whatever its length.
 * @internal
 */
import type { ModuleImage } from '../capture/module-image-types.js';
import type { DriverChoice, DriverName, ProfilerInstructionCache, ProfilerL2Flush, ProfilerRange } from '../runtime/runtime-types.js';

/** The outcome of an allocation attempt; address 0 means it failed. */
export interface NativeAllocationResult {
  readonly address: number;
  readonly injectedFault: boolean;
  readonly availableBytes: number;
}

/** The first failure of a queue since its previous synchronize. */
export interface NativeOperationError {
  readonly operation: string;
  readonly code: string;
  readonly message: string;
  /** Which work operation of the queue failed, from 0; -1 when unknown. */
  readonly workIndex: number;
}

export interface NativeEvent {
  completed(): boolean;
  timestampNanoseconds(): number;
  synchronize(): Promise<void>;
}

export interface NativeQueue {
  /** segments: `[source, destination, bytes, ...]`. */
  enqueueCopy(segments: Float64Array): void;
  /** ranges: `[address, bytes, ...]`. */
  enqueueHash(ranges: Float64Array, pageBytes: number, hashesAddress: number): void;
  /** Hashes into a host array the caller keeps alive until the next synchronize settles. */
  enqueueHashToHost(ranges: Float64Array, pageBytes: number, hashes: BigUint64Array): void;
  /** options: `[pageBytes, hashDestination, storedHashesAddress, updateStoredHashes, pageListAddress, pageCountAddress]`. */
  enqueueConditionalCopy(segments: Float64Array, options: Float64Array): void;
  /** storedHashesAddress 0: no hashes stored. */
  enqueuePageListCopy(
    segments: Float64Array,
    pageBytes: number,
    pageListAddress: number,
    pageCountAddress: number,
    storedHashesAddress: number,
    compactAddress: number,
    compactPages: number,
    compactIsDestination: number,
  ): void;
  /** arguments: one 64-bit word per declared parameter (floats as their bits). */
  enqueueKernel(kernel: number, args: BigUint64Array): void;
  /**
   * kernel: an id from loadKernel; shape: `[grid x, y, z, block x, y, z, sharedBytes, cluster x, y, z]`
   * (cluster 0: none); buffer: the whole parameter buffer, passed instead of the words when given.
   */
  enqueueUserKernel(kernel: number, shape: Uint32Array, args: BigUint64Array, buffer?: Uint8Array): void;
  /** Launches a graph of this queue's agent as one work operation. */
  enqueueGraph(graph: NativeGraph): void;
  enqueueAllocate(bytes: number): NativeAllocationResult;
  enqueueFree(address: number): void;
  recordEvent(): NativeEvent;
  waitForEvent(event: NativeEvent): void;
  synchronize(): Promise<NativeOperationError | null>;
  dispose(): Promise<void>;
}

/** A graph a driver made (cuda: an instantiated CUgraph); queues launch it. */
export interface NativeGraph {
  /** Drops this object's hold; launches still queued keep it until they have run. */
  dispose(): void;
}

/** One packed graph step: `kind` 0 built-in kernel, 1 user kernel, 2 memset, 3 copy, with that kind's fields. */
export interface NativeGraphStep {
  readonly kind: 0 | 1 | 2 | 3;
  readonly kernel?: number;
  readonly args?: BigUint64Array;
  readonly shape?: Uint32Array;
  readonly buffer?: Uint8Array;
  readonly address?: number;
  readonly bytes?: number;
  readonly value?: number;
  readonly source?: number;
  readonly destination?: number;
}

/** What a checkpoint step resolves to: its failure or null, and the milliseconds the step itself took. */
export interface NativeCheckpointResult {
  readonly error: { readonly operation: string; readonly code: string; readonly message: string } | null;
  readonly milliseconds: number;
}

/** A CUPTI checkpoint of one queue's context; every step runs in the queue's order. */
export interface NativeCheckpoint {
  save(): Promise<NativeCheckpointResult>;
  restore(): Promise<NativeCheckpointResult>;
  /** Frees what the checkpoint holds (it may save again). */
  release(): Promise<NativeCheckpointResult>;
}

/** What a list of metrics needs on a chip. */
export interface NativeProfilerPlan {
  readonly chip: string;
  readonly passCount: number;
  readonly configImageBytes: number;
  readonly units: readonly string[];
}

/** The last dispatch a profiler finished: values in metric order, or why it failed. */
export interface NativeProfilerResult {
  readonly dispatch: number;
  readonly values: readonly number[];
  /** One row of values per dispatch of the window (several in a range). */
  readonly dispatchValues: readonly (readonly number[])[];
  readonly error: { readonly operation: string; readonly code: string; readonly message: string } | null;
}

/** A CUPTI range-profiler session of one agent; beginPass/endPass enqueue on the queue given. */
export interface NativeProfiler {
  plan(): NativeProfilerPlan;
  beginPass(queue: NativeQueue, pass: number, dispatches: number, flushBetweenDispatches: boolean): void;
  beginDispatch(queue: NativeQueue, pass: number, index: number): void;
  endDispatch(queue: NativeQueue, pass: number, index: number): void;
  endPass(queue: NativeQueue, pass: number): void;
  result(): NativeProfilerResult;
  release(): Promise<void>;
}

/** A native call that could not be done: a code and a message. */
export interface NativeFailure {
  readonly code: string;
  readonly message: string;
}

export interface NativeAgentDescription {
  readonly name: string;
  readonly architecture: string;
  readonly deviceMemoryBytes: number;
  readonly hostLink: { readonly name: string; readonly bytesPerSecond: number | null } | null;
}

export interface NativeRuntime {
  describe(): {
    readonly driver: DriverName;
    readonly version: string;
    readonly agents: readonly NativeAgentDescription[];
    /** Whether loadKernel works. */
    readonly userKernels: boolean;
    /** Whether the driver has a checkpoint facility (cuda: the CUPTI Checkpoint API). */
    readonly checkpoints: boolean;
    /** Whether the driver has a counter profiler (cuda: CUPTI's range profiler). */
    readonly profiler: boolean;
    /** Whether allocateAt, allocateHostAt and kernelGlobal work. */
    readonly fixedAddresses: boolean;
    /** Whether createGraph works. */
    readonly graphs: boolean;
  };
  /** The driver's graph of the steps for an agent, or why it could not make it. */
  createGraph(agentId: number, steps: readonly NativeGraphStep[]): NativeGraph | NativeFailure;
  /** Device memory at exactly `address`; null, or why not. Freed by free(). */
  allocateAt(agentId: number, address: number, bytes: number): Promise<NativeFailure | null>;
  /** Pinned host memory at exactly `address`; null, or why not. Freed by freeHost(). */
  allocateHostAt(address: number, bytes: number): Promise<NativeFailure | null>;
  kernelGlobal(kernel: number, agentId: number, name: string): { readonly address: number; readonly bytes: number } | NativeFailure;
  /** Registers per thread of a loaded kernel on an agent, as the driver counts them; null where it does not say. */
  kernelRegisters(kernel: number, agentId: number): number | null | NativeFailure;
  allocate(agentId: number, bytes: number): NativeAllocationResult;
  memoryInfo(agentId: number): MemoryInfo;
  free(agentId: number, address: number): void;
  /** 0 when the memory is not available. */
  allocateHost(bytes: number, pinned: boolean): number;
  freeHost(address: number, bytes: number): void;
  hostView(address: number, bytes: number): ArrayBuffer;
  detachView(view: ArrayBuffer): void;
  /** operation: the number of a FaultOperation (see fault-spec.ts); agentId -1: any; delay -1: fail. */
  injectFault(operation: number, after: number, count: number, agentId: number, delayMilliseconds: number): void;
  clearFaults(): void;
  createQueue(agentId: number): NativeQueue;
  /** A user kernel's id, or why it could not be loaded. parameterBytes: each parameter's size (4 or 8). */
  loadKernel(image: Uint8Array, name: string, parameterBytes: Uint8Array): Promise<number | { readonly code: string; readonly message: string }>;
  read(agentId: number, address: number, bytes: number): Promise<Uint8Array>;
  write(agentId: number, address: number, data: Uint8Array): Promise<void>;
  /** Why checkpoints cannot be taken here (loads the library once), or null when they can. */
  checkpointUnavailableReason(): string | null;
  openCheckpoint(queue: NativeQueue): Promise<NativeCheckpoint | NativeFailure>;
  /** Why counters cannot be collected here (loads the library once), or null when they can. */
  profilerUnavailableReason(): string | null;
  /** The chip CUPTI knows an agent by (GH100), or why it cannot say. */
  profilerChipName(agentId: number): string | NativeFailure;
  createProfiler(agentId: number, metrics: readonly string[], range: ProfilerRange, l2Flush: ProfilerL2Flush, instructionCache: ProfilerInstructionCache): Promise<NativeProfiler | NativeFailure>;
  dispose(): Promise<void>;
}

/** What reserveAddresses found, per range. */
export interface NativeReservations {
  /** Whether each driver library was loaded in the process before the call. */
  readonly driverLoaded: { readonly cuda: boolean };
  readonly ranges: readonly {
    readonly start: number;
    readonly end: number;
    readonly reserved: boolean;
    readonly failure: string;
    /** The /proc/self/maps lines that hold the range. */
    readonly holders: readonly string[];
  }[];
}

/** A driver that cannot run here. */
export interface NativeUnavailable {
  readonly unavailable: { readonly driver: DriverName; readonly reason: string; readonly fix: string };
}

/** One metric as CUPTI's host API describes it. */
export interface NativeCuptiMetric {
  readonly name: string;
  readonly type: string;
  readonly unit: string;
  readonly hardwareUnit: string;
  readonly description: string;
  readonly subMetrics: readonly string[];
}

export interface NativeBinding {
  readonly version: string;
  /** The capture subsystem's module-image reader; throws an Error with the reader's message when malformed. */
  readModuleImage(bytes: Uint8Array): Omit<ModuleImage, 'hasPtx'>;
  /** The capture library's check of a kernel-name pattern (C++ std::regex): why it is rejected, or null. */
  kernelNamePatternProblem(pattern: string): string | null;
  /** A kernel symbol's demangled and function names, as the capture library computes them. */
  kernelNames(symbol: string): { readonly demangled: string; readonly function: string };
  /** Which symbols the capture library's kernel-name filter selects; throws for an expression std::regex rejects. */
  kernelNameFilterMatches(name: string, base: string, symbols: readonly string[]): boolean[];
  /**
   * Placeholders over `ranges` (`[address, bytes, ...]`), each widened to `granule`; synchronous, so
   * that they are in place before a driver opened afterwards initializes.
   */
  /** `device[i]` nonzero: range i is for device memory (given up just before CUDA starts, reserved by it right after). */
  reserveAddresses(ranges: Float64Array, granule: number, device?: Uint8Array): NativeReservations;
  /** CUPTI's host API without a device: what `metrics` need on `chip`. */
  planCuptiMetrics(chip: string, metrics: readonly string[]): Promise<NativeProfilerPlan | NativeFailure>;
  /** CUPTI's host API without a device: every base metric of `chip` (names null), or the named ones with their sub-metrics. */
  queryCuptiMetrics(chip: string, names: readonly string[] | null): Promise<NativeCuptiMetric[] | NativeFailure>;
  openRuntime(
    driver: DriverChoice,
    agents: number,
    deviceMemoryBytes: number,
    threads: number,
  ): Promise<NativeRuntime | NativeUnavailable>;
}
