/**
 * The objects of an open runtime as their users see them: the runtime, its agents, their queues,
 * events and kernel graphs, and the checkpoint and profiler facilities. They point at each other
 * both ways (a queue knows its agent, an agent its queues), so their types live together here; the
 * classes that implement them (runtime.ts, agent.ts, queue/queue.ts, queue/timing-event.ts,
 * kernels/kernel-graph.ts, memory/checkpoint.ts, profiler/profiler.ts) import this module and the
 * shared state of runtime-core.ts, and never each other upwards.
 */
import type { AgentMemory } from '../memory/agent-memory.js';
import type { RuntimeMemory } from '../memory/runtime-memory.js';
import type { ProfilerPassScope, ProfilerPlan, ProfilerResult, ProfilerCacheControl, ProfilerSessionOptions } from '../profiler/profiler-types.js';
import type { QueueWork } from '../queue/queue-work.js';
import type {
  AgentInfo,
  BuiltinKernels,
  DriverName,
  FaultSpec,
  GraphStep,
  KernelDescriptor,
  LoadKernelOptions,
  ProfilerInstructionCache,
  ProfilerL2Flush,
  ProfilerRange,
} from './runtime-types.js';

/**
 * An open driver: its agents, built-in kernels, host memory and memory events ({@link RuntimeMemory}),
 * user kernels and fault injection. From `openRuntime()`.
 */
export interface Runtime extends RuntimeMemory, AsyncDisposable {
  readonly driver: DriverName;
  readonly agents: readonly Agent[];
  readonly kernels: BuiltinKernels;
  readonly versions: { readonly addon: string; readonly driver: string };
  /**
   * The driver's checkpoint facility (cuda: the CUPTI Checkpoint API; see {@link Checkpoints}), or
   * undefined on a driver without one (host, hsa).
   */
  readonly checkpoint: Checkpoints | undefined;
  /**
   * The driver's hardware-counter profiler (cuda: CUPTI's range profiler in user replay; see
   * {@link Profilers}), or undefined on a driver without one (host, hsa).
   */
  readonly profiler: Profilers | undefined;
  /**
   * Whether {@link Queue.enqueueCopyPageList} takes a `compact` buffer (host and cuda; the hsa
   * driver's page-list kernel has no compact side).
   */
  readonly compactPageLists: boolean;
  /**
   * How many operations that may write memory were issued so far, over every queue and agent of the
   * runtime: queue work (as `queue.workEnqueued` counts it), `agent.write` and checkpoint restores.
   * A caller that notes it can tell later whether anything could have written memory since.
   */
  readonly workIssued: number;

  /**
   * Loads a user kernel from a module file or image (cuda: PTX text, a cubin or a fatbin) on every
   * agent, for queue.enqueueKernel(kernel, args, { grid, block }). Pointer parameters declare access
   * and extent like the built-in kernels' (an absent extent means to the end of the pointer's
   * allocation); a `bytes` parameter, the kernel's only one, takes the whole parameter buffer.
   * @throws {ArgumentError} (as a rejection) for invalid options (both or neither of path and image
   * included), a file that cannot be read, or parameters that pass less than the module's cubin
   * metadata or PTX declares for the kernel (fewer parameters, a smaller bytes parameter).
   * @throws {UnsupportedError} (as a rejection) when the driver runs no user kernels (the host driver).
   * @throws {DriverError} (as a rejection) when the module does not load or has no such kernel.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  loadKernel(options: LoadKernelOptions): Promise<KernelDescriptor>;

  /**
   * Registers per thread of a kernel from {@link loadKernel} as the driver loaded it on `agentId`
   * (cuda: CU_FUNC_ATTRIBUTE_NUM_REGS of the function), which is what profilers report as
   * `launch__registers_per_thread`; it can differ from the count in the module's cubin. Null where
   * the driver does not say.
   * @throws {ArgumentError} for a kernel this runtime did not load, or an agent it does not have.
   * @throws {DriverError} when the driver cannot say for that kernel.
   * @throws {DisposedError} when the runtime was disposed.
   */
  kernelRegisters(kernel: KernelDescriptor, agentId: number): number | null;

  /**
   * Fails (or delays) matching operations, counted when they execute: the (after+1)-th to
   * (after+count)-th fail with DriverError code `injected-fault` at the next synchronize of their
   * queue, or are delayed by `delayMilliseconds` and then succeed. `allocate` faults make
   * allocate/enqueueAllocate throw OutOfMemoryError (a delay does not apply to them). Page-list
   * copies count as `conditional-copy`; `any` matches every queue operation (copy, hash,
   * conditional-copy, kernel) but not allocations.
   * @throws {ArgumentError} for an invalid fault.
   * @throws {DisposedError} when the runtime was disposed.
   */
  injectFault(fault: FaultSpec): void;

  /**
   * Removes every injected fault.
   * @throws {DisposedError} when the runtime was disposed.
   */
  clearFaults(): void;

  /**
   * Runs the work already enqueued, stops every queue, frees all memory (allocations become
   * `freed`, host views are detached; no free events are emitted) and joins the threads.
   * Idempotent: a second call returns the first call's Promise.
   */
  dispose(): Promise<void>;
}

/** A device of the runtime: its memory and convenience reads and writes ({@link AgentMemory}), and its queues. */
export interface Agent extends AgentMemory {
  /** Index of the agent in its runtime, 0-based. */
  readonly id: number;
  readonly info: AgentInfo;
  readonly runtime: Runtime;

  /**
   * A new queue on this agent.
   * @throws {DisposedError} when the runtime was disposed.
   */
  createQueue(): Queue;

  /**
   * A graph of `steps` (kernel launches, memsets, copies), in order, for this agent's queues to
   * launch as one unit with {@link Queue.enqueueGraph}. The steps are checked as the queue checks
   * each kind of work, and copied (later changes to the caller's objects do not reach the graph).
   * The cuda driver builds and instantiates a CUDA graph of user kernels, memsets and copies; the
   * host driver runs the steps one after another.
   * @throws {UnsupportedError} on a driver without graphs (hsa), or for a kernel the driver cannot put in a graph (cuda: the built-in kernels).
   * @throws {ArgumentError} for steps that are not a non-empty array of valid steps.
   * @throws {DriverError} when the driver fails to build the graph.
   * @throws {DisposedError} when the runtime was disposed.
   */
  createGraph(steps: readonly GraphStep[]): KernelGraph;

  /**
   * Waits for every queue of the agent, like each queue's synchronize.
   * @throws {DriverError} (as a rejection) with the first failure of the lowest-numbered failed queue; every queue's error is cleared.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  synchronize(): Promise<void>;

}

/**
 * An ordered stream of work on one agent (a CUDA stream, an HSA queue, a worker thread on host).
 * Every `enqueue*` ({@link QueueWork}) validates its arguments, then returns at once; the work runs
 * in order. When an operation fails, the queue keeps that first error and skips later work until
 * {@link Queue.synchronize}, which rejects with it and clears it.
 */
export interface Queue extends QueueWork, AsyncDisposable {
  /** Unique within the runtime. */
  readonly id: number;
  readonly agent: Agent;
  /**
   * How many work operations (copies, hashes, conditional and page-list copies, kernels) were
   * enqueued on this queue so far. A `DriverError`'s `operationIndex` counts the same way, so a
   * caller that notes this count between phases knows which phase failed.
   */
  readonly workEnqueued: number;

  /**
   * Launches a graph of this queue's agent ({@link Agent.createGraph}) as one work operation (one
   * `kernel` operation for fault injection and {@link Queue.workEnqueued}): its steps run in order.
   * When memory was freed since the graph was made, its steps are checked again.
   * @throws {ArgumentError} when `graph` is not a KernelGraph of this queue's agent, or a step now reaches memory that was freed.
   * @throws {DisposedError} when the queue, the runtime or the graph was disposed.
   */
  enqueueGraph(graph: KernelGraph): void;

  /**
   * An event that completes when the queue reaches this point.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  recordEvent(): TimingEvent;

  /**
   * Later work of this queue waits until `event` (of any queue of the runtime) completes.
   * @throws {ArgumentError} when `event` is not a TimingEvent of this runtime.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  waitForEvent(event: TimingEvent): void;

  /**
   * Resolves when the work enqueued so far has run.
   * @throws {DriverError} (as a rejection) with the first failure since the previous synchronize; the error is then cleared.
   * @throws {DisposedError} (as a rejection) when the queue or runtime was disposed.
   */
  synchronize(): Promise<void>;

  /** Runs the remaining work, then releases the queue. A pending error is dropped. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Kernel launches, memsets and copies recorded once ({@link Agent.createGraph}) and launched as one
 * unit ({@link Queue.enqueueGraph}), in order, each step after the one before. On the cuda driver it
 * is an instantiated CUDA graph; on the host driver its steps run one after another on the queue.
 */
export interface KernelGraph extends Disposable {
  /** The agent whose queues launch it. */
  readonly agent: Agent;
  /** The steps, as given (frozen copies). */
  readonly steps: readonly GraphStep[];
  /** Whether {@link KernelGraph.dispose} was called. */
  readonly disposed: boolean;

  /** Releases the graph; launches already enqueued still run. Idempotent. */
  dispose(): void;
}

/**
 * A point in a queue's work, from {@link Queue.recordEvent}: it completes (with a device
 * timestamp) when the queue reaches it, even when the queue skipped failed work before it.
 */
export interface TimingEvent {
  /** The agent of the queue that recorded it. */
  readonly agent: Agent;
  /** Whether the queue has reached the event. */
  readonly completed: boolean;

  /**
   * Resolves when the event completes (at once if it has).
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  synchronize(): Promise<void>;

  /**
   * Milliseconds from `earlier` to this event, by the device clock (negative if `earlier` completed later).
   * @throws {ArgumentError} when `earlier` is not a TimingEvent of the same agent, or either event has not completed.
   */
  elapsedMillisecondsSince(earlier: TimingEvent): number;
}

/**
 * The checkpoint facility of a runtime (`runtime.checkpoint`): on the cuda driver, the CUPTI
 * Checkpoint API (libcheckpoint.so, loaded at first use). Absent on drivers without one.
 */
export interface Checkpoints {
  /**
   * Why checkpoints cannot be taken in this process (e.g. `libcheckpoint.so was not found (...)`), or
   * null when they can. Loads CUPTI's libraries the first time (a few milliseconds, once per process).
   * @throws {DisposedError} when the runtime was disposed.
   */
  unavailableReason(): string | null;

  /**
   * Opens a checkpoint session on `queue`'s context.
   * @throws {ArgumentError} (as a rejection) when queue is not a live Queue of this runtime.
   * @throws {UnsupportedError} (as a rejection) when CUPTI's checkpoint library cannot be loaded; the message says why.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  open(queue: Queue): Promise<CheckpointSession>;
}

/**
 * A checkpoint of every allocation of one queue's context (the CUPTI Checkpoint API on the cuda
 * driver), from {@link Checkpoints.open}. Each step is enqueued on the queue: it runs after the work
 * enqueued before it, once the whole context is idle, and work enqueued after it waits for it.
 */
export interface CheckpointSession extends AsyncDisposable {
  /** The queue whose context it saves. */
  readonly queue: Queue;
  /** Whether a save was enqueued since the session opened or was last released. */
  readonly saved: boolean;
  /**
   * Milliseconds the last completed step took inside CUPTI (host clock; not counting the wait for
   * earlier work and an idle context).
   */
  readonly lastStepMilliseconds: number;

  /**
   * Saves every allocation of the context (device memory first, then host), replacing an earlier save.
   * @throws {DriverError} (as a rejection) when CUPTI or CUDA fails, e.g. code `CUPTI_ERROR_OUT_OF_MEMORY`.
   * @throws {DisposedError} (as a rejection) when the session, its queue or its runtime was disposed.
   */
  save(): Promise<void>;

  /**
   * Puts every allocation of the context back as the last save found it.
   * @throws {ArgumentError} (as a rejection) when nothing was saved.
   * @throws {DriverError} (as a rejection) when CUPTI or CUDA fails.
   * @throws {DisposedError} (as a rejection) when the session, its queue or its runtime was disposed.
   */
  restore(): Promise<void>;

  /**
   * Frees what the checkpoint holds (cuptiCheckpointFree), after the queue's earlier work. Idempotent.
   * @throws {DriverError} (as a rejection) when CUPTI fails to free it.
   */
  dispose(): Promise<void>;
}

/**
 * The counter profiler of a runtime (`runtime.profiler`): on the cuda driver, CUPTI's range profiler
 * (libcupti.so, loaded at first use). Absent on drivers without one.
 */
export interface Profilers {
  /**
   * Why counters cannot be collected in this process (e.g. `libcupti.so was not found (...)`), or null.
   * @throws {DisposedError} when the runtime was disposed.
   */
  unavailableReason(): string | null;

  /**
   * The chip CUPTI knows agent `agentId` (default 0) by, e.g. `GH100`: what `planCuptiMetrics`
   * and `queryCuptiMetrics` take.
   * @throws {ArgumentError} for an agent that does not exist.
   * @throws {UnsupportedError} when CUPTI cannot be loaded.
   * @throws {DriverError} when CUPTI cannot name the device's chip.
   * @throws {DisposedError} when the runtime was disposed.
   */
  chipName(agentId?: number): string;

  /**
   * A profiler session for `metrics` on agent `agentId` (default 0), each pass measuring `range`
   * (default `kernel`, as Nsight Compute does; see {@link ProfilerRange}), with the L2 flushed as
   * `l2Flush` says (default `write-discard`) and the instruction caches as `instructionCache` says
   * (default `evict`): CUPTI's plan (config image, passes) is computed off the JavaScript thread, and
   * the session holds an L2-flush buffer twice the L2's size.
   * @throws {ArgumentError} (as a rejection) for bad options.
   * @throws {UnsupportedError} (as a rejection) when CUPTI cannot be loaded.
   * @throws {DriverError} (as a rejection) for an unknown metric or a device CUPTI cannot profile.
   */
  createSession(options: ProfilerSessionOptions): Promise<ProfilerSession>;
}

/**
 * Hardware counters of one agent for `metrics`, collected in user replay (CUPTI's range profiler on
 * the cuda driver, one range per dispatch: its kernel, or a user range around it): the caller runs the dispatch
 * {@link ProfilerSession.passCount} times, restoring memory between runs, and brackets each run with
 * {@link ProfilerSession.beginPass} and {@link ProfilerSession.endPass} on the dispatch's queue. Each
 * pass starts with an idle device context, the L2 as {@link ProfilerSession.l2Flush} leaves it and the
 * instruction caches as {@link ProfilerSession.instructionCache} says. From {@link Profilers.createSession}.
 */
export interface ProfilerSession extends AsyncDisposable {
  readonly agent: Agent;
  readonly metrics: readonly string[];
  /** What each pass measures: the dispatch's kernel, or a range around the dispatch. */
  readonly range: ProfilerRange;
  /** Whether the L2 is flushed before every dispatch of a range. */
  readonly cacheControl: ProfilerCacheControl;
  /** How the L2 is flushed. */
  readonly l2Flush: ProfilerL2Flush;
  /** What becomes of the instruction caches before each pass. */
  readonly instructionCache: ProfilerInstructionCache;
  /** How many passes collect every metric; 1 means the dispatch needs no replay. */
  readonly passCount: number;
  /** The plan: chip, passes, config image size, units. */
  readonly plan: ProfilerPlan;

  /**
   * Enqueues the start of pass `pass` (1-based) on `queue`, right before the dispatch's kernel: L2
   * flush, wait for an idle context, and on pass 1 the range profiler's setup. Returns at once. A pass
   * begun again (after a failed restore) is collected again. `scope.dispatches` (read on pass 1,
   * default 1) runs a range: that many dispatches in each pass, each bracketed by
   * {@link ProfilerSession.beginDispatch} and {@link ProfilerSession.endDispatch}, each its own CUPTI
   * range, all in one pass.
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or a bad scope.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  beginPass(queue: Queue, pass: number, scope?: ProfilerPassScope): void;

  /**
   * In a range: enqueues what goes right before dispatch `index` (0-based) of pass `pass` on
   * `queue` (the L2 flush with cache control `all`; the user range's push with range `dispatch`).
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or an index outside the range.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  beginDispatch(queue: Queue, pass: number, index: number): void;

  /**
   * In a range: enqueues what goes right after dispatch `index` of pass `pass` (the user range's pop).
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or an index outside the range.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  endDispatch(queue: Queue, pass: number, index: number): void;

  /**
   * Enqueues the end of pass `pass` on `queue`, right after the dispatch's kernel; after the last
   * pass, the decode of the dispatch's counters. Returns at once.
   * @throws {ArgumentError} for a queue of another agent or a pass outside 1..passCount.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  endPass(queue: Queue, pass: number): void;

  /**
   * The values of the last dispatch whose last pass the queue has run (synchronize the queue first),
   * or null before the first.
   * @throws {DriverError} when that dispatch's collection failed (its code names the CUPTI error).
   * @throws {DisposedError} when the session was disposed.
   */
  lastResult(): ProfilerResult | null;

  /**
   * Waits for `queue` (the queue of the last pass), then returns the last dispatch's values.
   * @throws {DriverError} (as a rejection) when the queue or the collection failed, or no dispatch finished.
   */
  decode(queue: Queue): Promise<ProfilerResult>;

  /** Stops profiling and frees the session's device memory. Idempotent. */
  dispose(): Promise<void>;
}
