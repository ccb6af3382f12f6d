import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Agent, DeviceAllocation, HostBuffer, Queue, Runtime } from '../index.js';
import type { ResolvedDriverTestOptions } from './options.js';

/**
 * The runtime shared by one group of tests, and what each test borrowed from it. Allocations,
 * host buffers and queues made through it are freed and disposed after every test, and injected
 * faults cleared, so one test cannot leak into the next.
 */
export interface SuiteRuntime {
  readonly options: ResolvedDriverTestOptions;
  /** The group's runtime (opened in `beforeAll`, disposed in `afterAll`). */
  readonly runtime: Runtime;
  /** The first agent. */
  readonly agent: Agent;
  /** `agent.allocate(bytes)`, freed after the test unless the test freed it. */
  allocate(bytes: number, agent?: Agent): DeviceAllocation;
  /** `agent.allocate(bytes)` then `agent.write` of `data` (whose length is the size). */
  allocateWith(data: Uint8Array, agent?: Agent): Promise<DeviceAllocation>;
  /** `runtime.allocateHost`, freed after the test unless the test freed it. */
  allocateHost(bytes: number, pinned: boolean): HostBuffer;
  /** `agent.createQueue()`, synchronized and disposed after the test. */
  createQueue(agent?: Agent): Queue;
}

/** Registers the hooks of one group of tests and returns its {@link SuiteRuntime}. */
export function useSuiteRuntime(options: ResolvedDriverTestOptions): SuiteRuntime {
  let runtime: Runtime | undefined;
  let allocations: { free(): void; readonly freed: boolean }[] = [];
  let queues: Queue[] = [];

  beforeAll(async () => {
    runtime = await options.open();
  });

  afterEach(async () => {
    if (!runtime) return;
    if (options.capabilities.faultInjection) runtime.clearFaults();
    const borrowedQueues = queues;
    const borrowedAllocations = allocations;
    queues = [];
    allocations = [];
    for (const queue of borrowedQueues) {
      await queue.synchronize().catch(() => undefined);
      await queue.dispose();
    }
    for (const allocation of borrowedAllocations) {
      if (!allocation.freed) allocation.free();
    }
  });

  afterAll(async () => {
    const opened = runtime;
    runtime = undefined;
    await opened?.dispose();
  });

  const current = (): Runtime => {
    if (!runtime) throw new Error('[native] [test-kit] the suite runtime is not open. Use it inside a test.');
    return runtime;
  };

  const suite: SuiteRuntime = {
    options,
    get runtime() {
      return current();
    },
    get agent() {
      const first = current().agents[0];
      if (!first) throw new Error('[native] [test-kit] the runtime has no agent.');
      return first;
    },
    allocate(bytes, agent = suite.agent) {
      const allocation = agent.allocate(bytes);
      allocations.push(allocation);
      return allocation;
    },
    async allocateWith(data, agent = suite.agent) {
      const allocation = suite.allocate(data.byteLength, agent);
      await agent.write(allocation.address, data);
      return allocation;
    },
    allocateHost(bytes, pinned) {
      const buffer = current().allocateHost(bytes, { pinned });
      allocations.push(buffer);
      return buffer;
    },
    createQueue(agent = suite.agent) {
      const queue = agent.createQueue();
      queues.push(queue);
      return queue;
    },
  };
  return suite;
}
