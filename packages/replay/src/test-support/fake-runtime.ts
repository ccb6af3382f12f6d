import type { Agent, CopySegment, FaultSpec, KernelArguments, KernelDescriptor, MemoryRange, Queue, Runtime } from '@kreplay/native';
import { FakeMemory, type FakeAllocation } from './fake-memory.js';
import { fakeKernels, runFakeKernel } from './fake-kernels.js';

/** What the fake queue's failures look like: a DriverError's fields on a plain Error. */
export class FakeDriverError extends Error {
  readonly code = 'injected-fault';
  constructor(
    readonly operation: string,
    readonly operationIndex: number,
  ) {
    super(`[native] [queue] fake ${operation} failed (injected-fault). This is a test fault.`);
    this.name = 'DriverError';
  }
}

type Operation = 'copy' | 'hash' | 'kernel' | 'event';

interface ActiveFault {
  readonly spec: FaultSpec;
  seen: number;
}

/** A stand-in event: completes when the queue reaches it. */
export class FakeEvent {
  completed = false;
  time = 0;
  synchronize(): Promise<void> {
    return this.queue.drain();
  }
  constructor(private readonly queue: FakeQueue) {}
  elapsedMillisecondsSince(earlier: FakeEvent): number {
    if (!this.completed || !earlier.completed) throw new Error('fake: elapsed time of a pending event');
    return this.time - earlier.time;
  }
}

let nextQueueId = 1;

/** A stand-in queue: work runs asynchronously in order; the first failure skips the rest until synchronize. */
export class FakeQueue {
  readonly id = nextQueueId++;
  #tail: Promise<void> = Promise.resolve();
  #failure: unknown;
  #workEnqueued = 0;
  /** Every operation that ran (not skipped, events left out), in order, for tests. */
  readonly log: string[] = [];

  constructor(readonly agent: FakeAgent) {}

  /** Work operations enqueued so far, numbered as the native queues number them. */
  get workEnqueued(): number {
    return this.#workEnqueued;
  }

  #enqueue(operation: Operation, label: string, work: () => void): void {
    const index = operation === 'event' ? -1 : this.#workEnqueued++;
    this.#tail = this.#tail.then(async () => {
      if (operation === 'event') {
        // As on the native queues, events complete even when failed work before them was skipped.
        work();
        return;
      }
      if (this.#failure !== undefined) return;
      const delay = this.agent.runtime.faultFor(operation, this.agent.id);
      if (delay === 'fail') {
        this.#failure = new FakeDriverError(operation, index);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay ?? 0));
      if (this.#failure !== undefined) return;
      work();
      this.log.push(label);
    });
  }

  drain(): Promise<void> {
    return this.#tail;
  }

  enqueueCopy(plan: readonly CopySegment[]): void {
    const memory = this.agent.runtime.memory;
    this.#enqueue('copy', 'copy', () => {
      for (const segment of plan) memory.span(segment.destination, segment.bytes).set(memory.span(segment.source, segment.bytes).slice());
    });
  }

  enqueueHashPages(ranges: readonly MemoryRange[], pageBytes: number, hashesAddress: number): void {
    const memory = this.agent.runtime.memory;
    this.#enqueue('hash', 'hash', () => {
      const hashes: bigint[] = [];
      for (const range of ranges) {
        for (let offset = 0; offset < range.bytes; offset += pageBytes) {
          hashes.push(fnv(memory.span(range.address + offset, Math.min(pageBytes, range.bytes - offset))));
        }
      }
      const out = memory.span(hashesAddress, hashes.length * 8);
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      hashes.forEach((hash, index) => view.setBigUint64(index * 8, hash, true));
    });
  }

  enqueueKernel(kernel: KernelDescriptor, args: KernelArguments): void {
    this.#enqueue('kernel', `kernel ${kernel.name}`, () => runFakeKernel(this.agent.runtime.memory, kernel, args));
  }

  recordEvent(): FakeEvent {
    const event = new FakeEvent(this);
    this.#enqueue('event', 'event', () => {
      event.completed = true;
      event.time = performance.now();
    });
    return event;
  }

  async synchronize(): Promise<void> {
    await this.#tail;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  async dispose(): Promise<void> {
    await this.#tail;
  }
}

/** A stand-in agent. */
export class FakeAgent {
  readonly queues: FakeQueue[] = [];
  constructor(
    readonly runtime: FakeRuntime,
    readonly id: number,
  ) {}
  allocate(bytes: number): FakeAllocation {
    return this.runtime.memory.allocate(bytes, 'device', this.id);
  }
  createQueue(): FakeQueue {
    const queue = new FakeQueue(this);
    this.queues.push(queue);
    return queue;
  }
  async synchronize(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.drain()));
  }
  async read(address: number, bytes: number): Promise<Uint8Array> {
    await this.synchronize();
    return this.runtime.memory.span(address, bytes).slice();
  }
  async write(address: number, data: Uint8Array): Promise<void> {
    await this.synchronize();
    this.runtime.memory.span(address, data.byteLength).set(data);
  }
}

/** A stand-in runtime of one agent, for unit tests of the engine without the native addon. */
export class FakeRuntime {
  readonly driver = 'host';
  readonly memory = new FakeMemory();
  readonly agents: FakeAgent[];
  readonly kernels = fakeKernels;
  #faults: ActiveFault[] = [];

  constructor(agentCount = 1) {
    this.agents = Array.from({ length: agentCount }, (_, id) => new FakeAgent(this, id));
  }

  onMemoryEvent(listener: Parameters<FakeMemory['onMemoryEvent']>[0]): () => void {
    return this.memory.onMemoryEvent(listener);
  }
  allocateHost(bytes: number, options: { pinned: boolean }): FakeAllocation {
    return this.memory.allocate(bytes, options.pinned ? 'host-pinned' : 'host-pageable', null);
  }
  injectFault(spec: FaultSpec): void {
    this.#faults.push({ spec, seen: 0 });
  }
  clearFaults(): void {
    this.#faults = [];
  }

  /** Whether an operation now executing fails, is delayed (milliseconds) or runs (undefined). */
  faultFor(operation: Operation, agentId: number): 'fail' | number | undefined {
    let decision: 'fail' | number | undefined;
    for (const fault of this.#faults) {
      const { spec } = fault;
      if (operation === 'event' || (spec.operation !== operation && spec.operation !== 'any')) continue;
      if (spec.agentId !== undefined && spec.agentId !== agentId) continue;
      fault.seen += 1;
      const after = spec.after ?? 0;
      if (fault.seen > after && fault.seen <= after + (spec.count ?? 1) && decision !== 'fail') decision = spec.delayMilliseconds ?? 'fail';
    }
    return decision;
  }

  /** The fake as the native types, for code that takes a Runtime. */
  asRuntime(): Runtime {
    return this as unknown as Runtime;
  }
}

/** The fake types seen as the native ones. */
export const asAgent = (agent: FakeAgent): Agent => agent as unknown as Agent;
export const asQueue = (queue: FakeQueue): Queue => queue as unknown as Queue;

function fnv(bytes: Uint8Array): bigint {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < bytes.length; index += 1) {
    low = Math.imul(low ^ bytes[index]!, 0x01000193) >>> 0;
    high = Math.imul(high ^ low, 0x01000193) >>> 0;
  }
  return (BigInt(high) << 32n) | BigInt(low | 1);
}
