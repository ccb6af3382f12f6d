import { constants } from 'node:buffer';
import type { Allocation } from './allocation.js';
import { DeviceAllocation } from './device-allocation.js';
import { DriverError } from './errors/driver-error.js';
import { UnsupportedError } from './errors/unsupported-error.js';
import { packGraphSteps } from './graph-steps.js';
import { KernelGraph } from './kernel-graph.js';
import { nativeMessage } from './errors/native-message.js';
import { OutOfMemoryError } from './errors/out-of-memory-error.js';
import type { AllocationState } from './memory-registry.js';
import { Queue } from './queue.js';
import type { Runtime } from './runtime.js';
import { runtimeDisposedError, type RuntimeCore } from './runtime-core.js';
import type { AgentInfo, GraphStep, MemoryInfo } from './runtime-types.js';
import { argumentError, describeValue, requireByteCount, requireLiveRange } from './validate.js';

const component = 'agent';

/** A device of the runtime: its memory, its queues, and convenience reads and writes. */
export class Agent {
  /** Index of the agent in its runtime, 0-based. */
  readonly id: number;
  readonly info: AgentInfo;
  readonly runtime: Runtime;
  readonly #core: RuntimeCore;

  /** @internal Made by {@link openRuntime}. */
  constructor(core: RuntimeCore, runtime: Runtime, info: AgentInfo) {
    this.#core = core;
    this.runtime = runtime;
    this.info = info;
    this.id = info.id;
  }

  /**
   * Allocates device memory (4096-byte aligned) and emits an `allocate` memory event.
   * @throws {ArgumentError} when bytes is not a positive safe integer.
   * @throws {OutOfMemoryError} when it does not fit, or an `allocate` fault is injected.
   * @throws {DisposedError} when the runtime was disposed.
   */
  allocate(bytes: number): DeviceAllocation {
    this.#core.assertLive(component, 'Agent.allocate()');
    const size = requireByteCount(component, 'bytes', bytes, false);
    const result = this.#core.native.allocate(this.id, size);
    if (result.address === 0) throw this.outOfMemory(size, result.availableBytes, result.injectedFault);
    const state: AllocationState = { freed: false };
    const allocation = new DeviceAllocation(this.#core, this.id, result.address, size, state);
    this.#core.memory.register(allocation, state);
    return allocation;
  }

  /**
   * Free and total device memory of this agent, in bytes.
   * @throws {DisposedError} when the runtime was disposed.
   */
  memoryInfo(): MemoryInfo {
    this.#core.assertLive(component, 'Agent.memoryInfo()');
    return this.#core.native.memoryInfo(this.id);
  }

  /**
   * A new queue on this agent.
   * @throws {DisposedError} when the runtime was disposed.
   */
  createQueue(): Queue {
    this.#core.assertLive(component, 'Agent.createQueue()');
    return new Queue(this.#core, this, this.#core.native.createQueue(this.id));
  }

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
  createGraph(steps: readonly GraphStep[]): KernelGraph {
    this.#core.assertLive(component, 'Agent.createGraph()');
    const { driver } = this.#core;
    if (!this.#core.graphs) throw this.#graphsUnsupported(`the ${driver} driver runs no graphs`, 'Launch the steps one by one on a queue, or use the host or cuda driver');
    const scope = { component: 'graph', memory: this.#core.memory, agentId: this.id };
    const frees = this.#core.memory.frees;
    const { packed, steps: copies } = packGraphSteps(scope, this.#core, steps);
    const made = this.#core.native.createGraph(this.id, packed);
    if ('code' in made) {
      if (made.code === 'unsupported') throw this.#graphsUnsupported(`the ${driver} driver cannot make this graph: ${made.message}`, 'Launch the steps one by one on a queue instead');
      throw new DriverError({
        packageName: 'native',
        component: 'graph',
        driver,
        agentId: this.id,
        operation: 'create-graph',
        code: made.code,
        message: nativeMessage('graph', `the ${driver} driver failed to build a graph of ${packed.length} steps on agent ${this.id}: ${made.message}`, 'Check the steps; launch them one by one to find the one at fault'),
      });
    }
    return new KernelGraph(this, copies, made, frees);
  }

  #graphsUnsupported(what: string, fix: string): UnsupportedError {
    return new UnsupportedError({ packageName: 'native', component: 'graph', driver: this.#core.driver, feature: 'graphs', message: nativeMessage('graph', what, fix) });
  }

  /**
   * Waits for every queue of the agent, like each queue's synchronize.
   * @throws {DriverError} (as a rejection) with the first failure of the lowest-numbered failed queue; every queue's error is cleared.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  async synchronize(): Promise<void> {
    this.#core.assertLive(component, 'Agent.synchronize()');
    const queues = [...this.#core.queues].filter(([, agentId]) => agentId === this.id).map(([queue]) => queue);
    const results = await Promise.allSettled(queues.map((queue) => queue.synchronize()));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Copies `bytes` at `address` (device memory of this agent or a host buffer) to a new array, after
   * the work already enqueued on this agent's queues has run. For tests and tools.
   * @throws {ArgumentError} (as a rejection) when the range is not inside live memory this agent
   * reaches, or is larger than a typed array can be.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed, also while the read waited.
   */
  async read(address: number, bytes: number): Promise<Uint8Array> {
    this.#core.assertLive(component, 'Agent.read()');
    requireLiveRange(component, 'range', this.#core.memory, this.id, address, bytes);
    if (bytes > constants.MAX_LENGTH) {
      throw argumentError(component, 'bytes', `a read of ${bytes} bytes exceeds the largest typed array (${constants.MAX_LENGTH})`, 'Read in parts');
    }
    return this.#core.native.read(this.id, address, bytes).catch((error: unknown) => {
      throw this.#nativeFailure('read', error);
    });
  }

  /**
   * Copies `data` to `address` (device memory of this agent or a host buffer), after the work
   * already enqueued on this agent's queues has run. `data` is copied when called. Await it before
   * enqueuing work that reads the range. For tests and tools.
   * @throws {ArgumentError} (as a rejection) when data is not a Uint8Array or the range is not inside live memory this agent reaches.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed, also while the write waited.
   */
  async write(address: number, data: Uint8Array): Promise<void> {
    this.#core.assertLive(component, 'Agent.write()');
    if (!(data instanceof Uint8Array)) {
      throw argumentError(component, 'data', `data is ${describeValue(data)}, not a Uint8Array`, 'Pass the bytes as a Uint8Array');
    }
    requireLiveRange(component, 'range', this.#core.memory, this.id, address, data.byteLength);
    this.#core.workIssued += 1;
    await this.#core.native.write(this.id, address, data).catch((error: unknown) => {
      throw this.#nativeFailure('write', error);
    });
  }

  /**
   * The live allocation holding `address` (any interior address) that this agent reaches: its
   * device or stream-ordered memory, or a host buffer.
   * @throws {ArgumentError} when address is not a number.
   * @throws {DisposedError} when the runtime was disposed.
   */
  findAllocation(address: number): Allocation | undefined {
    this.#core.assertLive(component, 'Agent.findAllocation()');
    if (typeof address !== 'number' || Number.isNaN(address)) {
      throw argumentError(component, 'address', `address is ${describeValue(address)}, not a number`, 'Pass an address');
    }
    return this.#core.memory.reachable(this.id, address);
  }

  /** A read or write the addon refused: the runtime was disposed meanwhile, or an internal failure. */
  #nativeFailure(operation: 'read' | 'write', error: unknown): Error {
    if (this.#core.disposed) return runtimeDisposedError(component, `Agent.${operation}()`);
    return new DriverError({
      packageName: 'native',
      component,
      driver: this.#core.driver,
      agentId: this.id,
      operation,
      code: 'internal',
      cause: error,
      message: nativeMessage(component, `the ${operation} on agent ${this.id} failed: ${(error as Error).message}`, 'Report this as a bug of @kreplay/native'),
    });
  }

  /** The error of a failed device allocation. @internal */
  outOfMemory(bytes: number, availableBytes: number, injected: boolean): OutOfMemoryError {
    return new OutOfMemoryError({
      packageName: 'native',
      component: 'memory',
      agentId: this.id,
      bytes,
      availableBytes,
      message: nativeMessage(
        'memory',
        injected
          ? `an injected allocate fault refused ${bytes} bytes on agent ${this.id}`
          : `agent ${this.id} has no free block of ${bytes} bytes (${availableBytes} of ${this.info.deviceMemoryBytes} bytes free)`,
        injected
          ? 'Clear injected faults with runtime.clearFaults()'
          : 'Free memory first, or open the runtime with more device memory (host: deviceMemoryBytes)',
      ),
    });
  }
}
