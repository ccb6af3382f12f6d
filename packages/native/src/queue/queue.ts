import { packConditionalCopy, packPageListCopy, type PackedConditionalCopy, type PackedPageListCopy } from './conditional-copy-options.js';
import { keepEventLoopBusy } from './busy-wait.js';
import { DisposedError } from '../errors/disposed-error.js';
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { FrozenOptionsMemo } from './frozen-options-memo.js';
import { packGraphSteps } from '../kernels/graph-steps.js';
import { KernelGraphHandle, nativeGraphOf } from '../kernels/kernel-graph.js';
import { packKernelLaunch } from '../kernels/kernel-launch.js';
import type { AllocationState } from '../memory/memory-registry.js';
import type { NativeOperationError, NativeQueue } from '../addon/native-binding.js';
import { countPages, packRanges, packSegments, type RangeScope } from './packed-ranges.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { Agent, KernelGraph, Queue, TimingEvent } from '../runtime/runtime-objects.js';
import { deviceOutOfMemory } from '../memory/device-out-of-memory.js';
import type {
  ConditionalCopyOptions,
  CopySegment,
  KernelArguments,
  KernelDescriptor,
  KernelLaunch,
  MemoryRange,
  PageListCopyOptions,
} from '../runtime/runtime-types.js';
import { StreamOrderedAllocation, streamOrderedStates } from '../memory/stream-ordered-allocation.js';
import { TimingEventHandle } from './timing-event.js';
import { argumentError, describeValue, formatAddress, requireByteCount, requireLiveRange, requirePageBytes } from '../errors/validate.js';

const component = 'queue';

/**
 * The {@link Queue}s of an agent, over the addon's queues (runtime-objects.ts and queue-work.ts
 * describe each member).
 * @internal
 */
export class QueueHandle implements Queue {
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

  get workEnqueued(): number {
    return this.#workEnqueued;
  }

  /** Counts one work operation, on this queue and in the runtime's `workIssued`. */
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
    core.nativeQueues.set(this, native);
  }

  enqueueCopy(plan: readonly CopySegment[]): void {
    this.#assertLive('enqueueCopy()');
    this.#native.enqueueCopy(this.#packedPlans.packed(plan, this.#core.memory.frees, () => packSegments(this.#scope, 'plan', plan)));
    this.#counted();
  }

  enqueueHashPages(ranges: readonly MemoryRange[], pageBytes: number, hashesAddress: number): void {
    this.#assertLive('enqueueHashPages()');
    const packed = packRanges(this.#scope, 'ranges', ranges);
    const bytes = requirePageBytes(component, 'pageBytes', pageBytes);
    const pages = countPages(this.#scope, 'ranges', packed, 2, bytes);
    requireLiveRange(component, 'hashesAddress', this.#core.memory, this.agent.id, hashesAddress, pages * 8);
    this.#native.enqueueHash(packed, bytes, hashesAddress);
    this.#counted();
  }

  enqueueCopyChangedPages(options: ConditionalCopyOptions): void {
    this.#assertLive('enqueueCopyChangedPages()');
    const packed = this.#packedConditionalCopies.packed(options, this.#core.memory.frees, () => packConditionalCopy(this.#scope, options));
    this.#native.enqueueConditionalCopy(packed.segments, packed.options);
    this.#counted();
  }

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

  enqueueKernel(kernel: KernelDescriptor, args: KernelArguments, launch?: KernelLaunch): void {
    this.#assertLive('enqueueKernel()');
    const packed = packKernelLaunch(this.#scope, this.#core, kernel, args, launch);
    if (packed.kind === 'user') this.#native.enqueueUserKernel(packed.kernel, packed.shape, packed.args, packed.buffer);
    else this.#native.enqueueKernel(packed.kernel, packed.args);
    this.#counted();
  }

  enqueueGraph(graph: KernelGraph): void {
    this.#assertLive('enqueueGraph()');
    if (!(graph instanceof KernelGraphHandle) || graph.agent !== this.agent) {
      const what = graph instanceof KernelGraphHandle ? `the graph belongs to agent ${graph.agent.id} of ${graph.agent.runtime === this.agent.runtime ? 'this' : 'another'} runtime, not agent ${this.agent.id}` : `graph is ${describeValue(graph)}, not a KernelGraph`;
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

  enqueueAllocate(bytes: number): StreamOrderedAllocation {
    this.#assertLive('enqueueAllocate()');
    const size = requireByteCount(component, 'bytes', bytes, false);
    const result = this.#native.enqueueAllocate(size);
    if (result.address === 0) throw deviceOutOfMemory(this.agent.info, size, result.availableBytes, result.injectedFault);
    const state: AllocationState = { freed: false };
    const allocation = new StreamOrderedAllocation(this.agent.id, this.id, result.address, size, state);
    streamOrderedStates.set(allocation, state);
    this.#core.memory.register(allocation, state, this.id);
    return allocation;
  }

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

  recordEvent(): TimingEvent {
    this.#assertLive('recordEvent()');
    return new TimingEventHandle(this.#core, this.agent, this.#native.recordEvent());
  }

  waitForEvent(event: TimingEvent): void {
    this.#assertLive('waitForEvent()');
    const native = this.#core.nativeEvents.get(event);
    if (native === undefined) {
      throw argumentError(component, 'event', 'waitForEvent() needs a TimingEvent of this runtime', 'Pass an event from queue.recordEvent()');
    }
    this.#native.waitForEvent(native);
  }

  async synchronize(): Promise<void> {
    this.#assertLive('synchronize()');
    const waiting = this.#native.synchronize();
    keepEventLoopBusy(waiting, this.#core.waitSpinMicroseconds);
    const error = await waiting;
    if (error) throw this.#driverError(error);
  }

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

  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    this.#core.queues.delete(this);
    this.#disposal = this.#core.disposed ? Promise.resolve() : this.#native.dispose();
    return this.#disposal;
  }

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
