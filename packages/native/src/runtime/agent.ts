import { constants } from 'node:buffer';
import type { Allocation } from '../memory/allocation.js';
import { DeviceAllocation } from '../memory/device-allocation.js';
import { deviceOutOfMemory } from '../memory/device-out-of-memory.js';
import { DriverError } from '../errors/driver-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { packGraphSteps } from '../kernels/graph-steps.js';
import { KernelGraphHandle } from '../kernels/kernel-graph.js';
import { nativeMessage } from '../errors/native-message.js';
import type { AllocationState } from '../memory/memory-registry.js';
import { QueueHandle } from '../queue/queue.js';
import { runtimeDisposedError, type RuntimeCore } from './runtime-core.js';
import type { Agent, KernelGraph, Queue, Runtime } from './runtime-objects.js';
import type { AgentInfo, GraphStep, MemoryInfo } from './runtime-types.js';
import { argumentError, describeValue, requireByteCount, requireLiveRange } from '../errors/validate.js';

const component = 'agent';

/** The {@link Agent}s of a runtime (runtime-objects.ts describes each member). @internal */
export class AgentHandle implements Agent {
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

  allocate(bytes: number): DeviceAllocation {
    this.#core.assertLive(component, 'Agent.allocate()');
    const size = requireByteCount(component, 'bytes', bytes, false);
    const result = this.#core.native.allocate(this.id, size);
    if (result.address === 0) throw deviceOutOfMemory(this.info, size, result.availableBytes, result.injectedFault);
    const state: AllocationState = { freed: false };
    const allocation = new DeviceAllocation(this.#core, this.id, result.address, size, state);
    this.#core.memory.register(allocation, state);
    return allocation;
  }

  memoryInfo(): MemoryInfo {
    this.#core.assertLive(component, 'Agent.memoryInfo()');
    return this.#core.native.memoryInfo(this.id);
  }

  createQueue(): Queue {
    this.#core.assertLive(component, 'Agent.createQueue()');
    return new QueueHandle(this.#core, this, this.#core.native.createQueue(this.id));
  }

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
    return new KernelGraphHandle(this, copies, made, frees);
  }

  #graphsUnsupported(what: string, fix: string): UnsupportedError {
    return new UnsupportedError({ packageName: 'native', component: 'graph', driver: this.#core.driver, feature: 'graphs', message: nativeMessage('graph', what, fix) });
  }

  async synchronize(): Promise<void> {
    this.#core.assertLive(component, 'Agent.synchronize()');
    const queues = [...this.#core.queues].filter(([, agentId]) => agentId === this.id).map(([queue]) => queue);
    const results = await Promise.allSettled(queues.map((queue) => queue.synchronize()));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

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
}
