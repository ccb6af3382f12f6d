import type { Agent } from './agent.js';
import { packConditionalCopy, packPageListCopy, type PackedConditionalCopy, type PackedPageListCopy } from './conditional-copy-options.js';
import { keepEventLoopBusy } from './busy-wait.js';
import { DisposedError } from './errors/disposed-error.js';
import { DriverError } from './errors/driver-error.js';
import { nativeMessage } from './errors/native-message.js';
import { OutOfMemoryError } from './errors/out-of-memory-error.js';
import { UnsupportedError } from './errors/unsupported-error.js';
import { FrozenOptionsMemo } from './frozen-options-memo.js';
import { packGraphSteps } from './graph-steps.js';
import { KernelGraph, nativeGraphOf } from './kernel-graph.js';
import { packKernelLaunch } from './kernel-launch.js';
import type { AllocationState } from './memory-registry.js';
import type { NativeOperationError, NativeQueue } from './native-binding.js';
import { countPages, packRanges, packSegments, type RangeScope } from './packed-ranges.js';
import type { RuntimeCore } from './runtime-core.js';
import type {
  ConditionalCopyOptions,
  CopySegment,
  KernelArguments,
  KernelDescriptor,
  KernelLaunch,
  MemoryRange,
  PageListCopyOptions,
} from './runtime-types.js';
import { StreamOrderedAllocation, streamOrderedStates } from './stream-ordered-allocation.js';
import { nativeEventOf, TimingEvent } from './timing-event.js';
import { argumentError, describeValue, formatAddress, requireByteCount, requireLiveRange, requirePageBytes } from './validate.js';

const component = 'queue';
const nativeQueues = new WeakMap<Queue, NativeQueue>();

/** The addon's queue behind a Queue, for checkpoints and profilers. @internal */
export function nativeQueueOf(queue: Queue): NativeQueue | undefined {
  return nativeQueues.get(queue);
}

/**
 * An ordered stream of work on one agent (a CUDA stream, an HSA queue, a worker thread on host).
 * Every `enqueue*` validates its arguments, then returns at once; the work runs in order. When an
 * operation fails, the queue keeps that first error and skips later work until {@link synchronize},
 * which rejects with it and clears it.
 */
export class Queue implements AsyncDisposable {
  /** Unique within the runtime. */
  readonly id: number;
  readonly agent: Agent;
  readonly #core: RuntimeCore;
  readonly #native: NativeQueue;
  #workEnqueued = 0;
  readonly #scope: RangeScope;
  readonly #packedPlans = new FrozenOptionsMemo<Float64Array>();
  readonly #packedConditionalCopies = new FrozenOptionsMemo<PackedConditionalCopy>();
  readonly #packedPageListCopies = new FrozenOptionsMemo<PackedPageListCopy>();
  #disposal: Promise<void> | undefined;

  /**
   * How many work operations (copies, hashes, conditional and page-list copies, kernels) were
   * enqueued on this queue so far. A `DriverError`'s `operationIndex` counts the same way, so a
   * caller that notes this count between phases knows which phase failed.
   */
  get workEnqueued(): number {
    return this.#workEnqueued;
  }

  /** Counts one work operation, on this queue and in the runtime's {@link Runtime.workIssued}. */
  #counted(): void {
    this.#workEnqueued += 1;
    this.#core.workIssued += 1;
  }

  /** @internal Made by {@link Agent.createQueue}. */
  constructor(core: RuntimeCore, agent: Agent, native: NativeQueue) {
    this.#core = core;
    this.agent = agent;
    this.#native = native;
    this.id = core.nextQueueId();
    this.#scope = { component, memory: core.memory, agentId: agent.id };
    core.queues.set(this, agent.id);
    nativeQueues.set(this, native);
  }

  /**
   * Copies every segment, in one native call. Segments of one plan run concurrently: a segment's
   * destination must not overlap another segment of the plan. A deeply frozen plan (as the options
   * of the conditional and page-list copies) is checked once and used again while nothing was freed.
   * @throws {ArgumentError} when the plan is not an array of segments or a range is outside live memory this agent reaches.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopy(plan: readonly CopySegment[]): void {
    this.#assertLive('enqueueCopy()');
    this.#native.enqueueCopy(this.#packedPlans.packed(plan, this.#core.memory.frees, () => packSegments(this.#scope, 'plan', plan)));
    this.#counted();
  }

  /**
   * Hashes the pages of `ranges` (see API.md "Page hash"; pages numbered per range in order, each
   * contributing ceil(bytes / pageBytes)) and writes one uint64 per page at `hashesAddress`.
   * @throws {ArgumentError} for bad ranges or page size, or a hashes array outside live memory or too small.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueHashPages(ranges: readonly MemoryRange[], pageBytes: number, hashesAddress: number): void {
    this.#assertLive('enqueueHashPages()');
    const packed = packRanges(this.#scope, 'ranges', ranges);
    const bytes = requirePageBytes(component, 'pageBytes', pageBytes);
    const pages = countPages(this.#scope, 'ranges', packed, 2, bytes);
    requireLiveRange(component, 'hashesAddress', this.#core.memory, this.agent.id, hashesAddress, pages * 8);
    this.#native.enqueueHash(packed, bytes, hashesAddress);
    this.#counted();
  }

  /**
   * Copies the pages whose hash differs from the stored one (see {@link ConditionalCopyOptions}).
   * Counts as a `conditional-copy` operation for fault injection.
   * @throws {ArgumentError} for bad options or arrays outside live memory.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopyChangedPages(options: ConditionalCopyOptions): void {
    this.#assertLive('enqueueCopyChangedPages()');
    const packed = this.#packedConditionalCopies.packed(options, this.#core.memory.frees, () => packConditionalCopy(this.#scope, options));
    this.#native.enqueueConditionalCopy(packed.segments, packed.options);
    this.#counted();
  }

  /**
   * Copies again the pages a conditional copy recorded (and, with `storedHashesAddress`, stores each
   * copied page's hash, so a mirror's hashes follow a copy into it). Counts as a `conditional-copy` operation for
   * fault injection; a count or index out of range fails it with code `invalid-page-list`. With
   * `compact`, the first listed pages go to or come from a buffer in list order (see {@link PageListCopyOptions.compact}).
   * @throws {ArgumentError} for bad options or arrays outside live memory.
   * @throws {UnsupportedError} for `compact` on a driver without it ({@link Runtime.compactPageLists}).
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopyPageList(options: PageListCopyOptions): void {
    this.#assertLive('enqueueCopyPageList()');
    if (typeof options === 'object' && options !== null && options.compact !== undefined && !this.#core.compactPageLists) {
      throw new UnsupportedError({
        packageName: 'native',
        component,
        driver: this.#core.driver,
        feature: 'compact page lists',
        message: nativeMessage(component, `the ${this.#core.driver} driver's page-list copies take no compact buffer`, 'Check runtime.compactPageLists before passing options.compact'),
      });
    }
    const packed = this.#packedPageListCopies.packed(options, this.#core.memory.frees, () => packPageListCopy(this.#scope, options));
    const [compactAddress, compactPages, compactIsDestination] = packed.compact;
    this.#native.enqueuePageListCopy(
      packed.segments,
      packed.pageBytes,
      packed.pageListAddress,
      packed.pageCountAddress,
      packed.storedHashesAddress,
      compactAddress,
      compactPages,
      compactIsDestination,
    );
    this.#counted();
  }

  /**
   * Launches a kernel with arguments by parameter name: a built-in kernel (runtime.kernels, which
   * chooses its own grid), or a user kernel from runtime.loadKernel with its `launch` shape.
   * @throws {UnsupportedError} when the kernel is not one this driver runs (the host driver runs the built-in ones).
   * @throws {ArgumentError} for a kernel of another runtime, a missing or unexpected launch shape,
   * missing, unknown or mistyped arguments, or pointers whose extent is outside live memory.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueKernel(kernel: KernelDescriptor, args: KernelArguments, launch?: KernelLaunch): void {
    this.#assertLive('enqueueKernel()');
    const packed = packKernelLaunch(this.#scope, this.#core, kernel, args, launch);
    if (packed.kind === 'user') this.#native.enqueueUserKernel(packed.kernel, packed.shape, packed.args, packed.buffer);
    else this.#native.enqueueKernel(packed.kernel, packed.args);
    this.#counted();
  }

  /**
   * Launches a graph of this queue's agent ({@link Agent.createGraph}) as one work operation (one
   * `kernel` operation for fault injection and {@link workEnqueued}): its steps run in order.
   * When memory was freed since the graph was made, its steps are checked again.
   * @throws {ArgumentError} when `graph` is not a KernelGraph of this queue's agent, or a step now reaches memory that was freed.
   * @throws {DisposedError} when the queue, the runtime or the graph was disposed.
   */
  enqueueGraph(graph: KernelGraph): void {
    this.#assertLive('enqueueGraph()');
    if (!(graph instanceof KernelGraph) || graph.agent !== this.agent) {
      const what = graph instanceof KernelGraph ? `the graph belongs to agent ${graph.agent.id} of ${graph.agent.runtime === this.agent.runtime ? 'this' : 'another'} runtime, not agent ${this.agent.id}` : `graph is ${describeValue(graph)}, not a KernelGraph`;
      throw argumentError(component, 'graph', what, "Make the graph with agent.createGraph() of this queue's agent");
    }
    const state = nativeGraphOf(graph);
    if (state.frees !== this.#core.memory.frees) {
      packGraphSteps(this.#scope, this.#core, graph.steps);
      state.frees = this.#core.memory.frees;
    }
    this.#native.enqueueGraph(state.native);
    this.#counted();
  }

  /**
   * Allocates device memory ordered on this queue: the address is reserved now, so later work (of
   * any queue of the agent) may use it. Emits an `allocate` memory event with this queue's id.
   * @throws {ArgumentError} when bytes is not a positive safe integer.
   * @throws {OutOfMemoryError} when it does not fit, or an `allocate` fault is injected.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueAllocate(bytes: number): StreamOrderedAllocation {
    this.#assertLive('enqueueAllocate()');
    const size = requireByteCount(component, 'bytes', bytes, false);
    const result = this.#native.enqueueAllocate(size);
    if (result.address === 0) throw this.agent.outOfMemory(size, result.availableBytes, result.injectedFault);
    const state: AllocationState = { freed: false };
    const allocation = new StreamOrderedAllocation(this.agent.id, this.id, result.address, size, state);
    streamOrderedStates.set(allocation, state);
    this.#core.memory.register(allocation, state, this.id);
    return allocation;
  }

  /**
   * Frees a stream-ordered allocation of this agent when the queue reaches this point. It counts as
   * freed at once (later calls may not use it) and emits a `free` memory event with this queue's id.
   * @throws {ArgumentError} when it is not a live stream-ordered allocation of this agent.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueFree(allocation: StreamOrderedAllocation): void {
    this.#assertLive('enqueueFree()');
    const state = allocation instanceof StreamOrderedAllocation ? streamOrderedStates.get(allocation) : undefined;
    if (state === undefined || allocation.agentId !== this.agent.id || state.freed) {
      const what =
        state === undefined
          ? 'enqueueFree() needs a StreamOrderedAllocation (free device allocations with allocation.free())'
          : state.freed
            ? `the stream-ordered allocation at ${formatAddress(allocation.address)} was already freed`
            : `the stream-ordered allocation belongs to agent ${allocation.agentId}, not agent ${this.agent.id}`;
      throw argumentError(component, 'allocation', what, 'Free each stream-ordered allocation once, on a queue of its agent');
    }
    this.#native.enqueueFree(allocation.address);
    this.#core.memory.unregister(allocation, state, this.id);
  }

  /**
   * An event that completes when the queue reaches this point.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  recordEvent(): TimingEvent {
    this.#assertLive('recordEvent()');
    return new TimingEvent(this.#core, this.agent, this.#native.recordEvent());
  }

  /**
   * Later work of this queue waits until `event` (of any queue of the runtime) completes.
   * @throws {ArgumentError} when `event` is not a TimingEvent of this runtime.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  waitForEvent(event: TimingEvent): void {
    this.#assertLive('waitForEvent()');
    const native = event instanceof TimingEvent && event.agent.runtime === this.agent.runtime ? nativeEventOf(event) : undefined;
    if (native === undefined) {
      throw argumentError(component, 'event', 'waitForEvent() needs a TimingEvent of this runtime', 'Pass an event from queue.recordEvent()');
    }
    this.#native.waitForEvent(native);
  }

  /**
   * Resolves when the work enqueued so far has run.
   * @throws {DriverError} (as a rejection) with the first failure since the previous synchronize; the error is then cleared.
   * @throws {DisposedError} (as a rejection) when the queue or runtime was disposed.
   */
  async synchronize(): Promise<void> {
    this.#assertLive('synchronize()');
    const waiting = this.#native.synchronize();
    keepEventLoopBusy(waiting, this.#core.waitSpinMicroseconds);
    const error = await waiting;
    if (error) throw this.#driverError(error);
  }

  /**
   * Enqueues a hash of the pages of `ranges` into host memory, waits, and returns the hashes.
   * @throws {ArgumentError} for bad ranges or page size.
   * @throws {DriverError} (as a rejection) when this or earlier work failed (see {@link synchronize}).
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  async hashPages(ranges: readonly MemoryRange[], pageBytes: number): Promise<BigUint64Array> {
    this.#assertLive('hashPages()');
    const packed = packRanges(this.#scope, 'ranges', ranges);
    const bytes = requirePageBytes(component, 'pageBytes', pageBytes);
    const hashes = new BigUint64Array(countPages(this.#scope, 'ranges', packed, 2, bytes));
    this.#native.enqueueHashToHost(packed, bytes, hashes);
    this.#counted();
    await this.synchronize(); // `hashes` stays referenced here until the queue has written it
    return hashes;
  }

  /**
   * Runs the remaining work, then releases the queue. A pending error is dropped. Idempotent.
   */
  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    this.#core.queues.delete(this);
    this.#disposal = this.#core.disposed ? Promise.resolve() : this.#native.dispose();
    return this.#disposal;
  }

  /** Same as {@link dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #assertLive(call: string): void {
    this.#core.assertLive(component, `Queue.${call}`);
    if (this.#disposal) {
      throw new DisposedError({
        packageName: 'native',
        component,
        objectName: 'Queue',
        message: nativeMessage(component, `${call} was called on disposed queue ${this.id}`, 'Create a new queue with agent.createQueue()'),
      });
    }
  }

  #driverError(error: NativeOperationError): DriverError {
    const fix =
      error.code === 'injected-fault'
        ? 'It was injected with runtime.injectFault(); clear it with runtime.clearFaults()'
        : error.code === 'invalid-page-list'
          ? 'Pass the page list and count a conditional copy wrote for the same segments and page size'
          : error.workIndex < 0 && error.code.startsWith('CUDA_ERROR_')
            ? 'The device failed while running queued work (e.g. a kernel accessed memory outside its buffers); CUDA keeps such a context unusable, so dispose the runtime and restart the process'
            : 'Check the operation\'s arguments; the work after it was skipped, enqueue it again';
    return new DriverError({
      packageName: 'native',
      component,
      driver: this.#core.driver,
      agentId: this.agent.id,
      operation: error.operation,
      code: error.code,
      operationIndex: error.workIndex >= 0 ? error.workIndex : null,
      message: nativeMessage(
        component,
        `a ${error.operation} on queue ${this.id} of agent ${this.agent.id} (${this.#core.driver} driver) failed with ${error.code}: ${error.message}`,
        fix,
      ),
    });
  }
}
