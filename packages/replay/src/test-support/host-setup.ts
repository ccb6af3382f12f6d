import { openRuntime, type Agent, type DeviceAllocation, type Queue, type Runtime } from '@kreplay/native';
import { createStaging, type Staging, type StagingOptions } from '@kreplay/snapshot';
import { createTracker, type Tracker } from '@kreplay/tracker';
import { afterAll, beforeAll } from 'vitest';

/** A host-driver runtime with its tracker, for integration tests. */
export interface HostSetup {
  readonly runtime: Runtime;
  readonly agent: Agent;
  readonly tracker: Tracker;
  createStaging(options?: StagingOptions): Staging;
  dispose(): Promise<void>;
}

/** Opens the host driver with small, test-sized settings (one agent unless told otherwise). */
export async function openHostSetup(agents = 1): Promise<HostSetup> {
  const runtime = await openRuntime({ driver: 'host', host: { agents, deviceMemoryBytes: 256 * 2 ** 20, threads: 2 } });
  const tracker = createTracker(runtime);
  const stagings: Staging[] = [];
  return {
    runtime,
    agent: runtime.agents[0]!,
    tracker,
    createStaging(options) {
      const staging = createStaging(runtime, tracker, options);
      stagings.push(staging);
      return staging;
    },
    async dispose() {
      for (const staging of stagings) staging.dispose();
      tracker.dispose();
      await runtime.dispose();
    },
  };
}

/** A test file's host set-up and its staging, as {@link useHostSetup} hands them out. */
export interface HostTestSetup extends Omit<HostSetup, 'dispose'> {
  readonly staging: Staging;
}

/**
 * The host set-up of the tests of a file (or a describe block): opened before the first of them,
 * with one staging, and disposed after the last. Its fields are there only while those tests run.
 */
export function useHostSetup(agents = 1): HostTestSetup {
  let opened: { readonly setup: HostSetup; readonly staging: Staging } | undefined;
  beforeAll(async () => {
    const setup = await openHostSetup(agents);
    opened = { setup, staging: setup.createStaging() };
  });
  afterAll(async () => {
    await opened?.setup.dispose();
    opened = undefined;
  });
  const current = () => {
    if (opened === undefined) throw new Error('useHostSetup: the host set-up is open only while the tests of the block that called useHostSetup run');
    return opened;
  };
  return {
    get runtime() {
      return current().setup.runtime;
    },
    get agent() {
      return current().setup.agent;
    },
    get tracker() {
      return current().setup.tracker;
    },
    get staging() {
      return current().staging;
    },
    createStaging: (options) => current().setup.createStaging(options),
  };
}

/**
 * A second host runtime for the tests of a file, opened before them and disposed after them: where
 * a sequence runs once, plainly, to compare with what the replayed one leaves.
 */
export function usePlainHostRuntime(): { readonly runtime: Runtime } {
  let runtime: Runtime | undefined;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 64 * 2 ** 20, threads: 2 } });
  });
  afterAll(async () => {
    await runtime?.dispose();
    runtime = undefined;
  });
  return {
    get runtime() {
      if (runtime === undefined) throw new Error('usePlainHostRuntime: the runtime is open only while the tests of the block that called it run');
      return runtime;
    },
  };
}

/** Allocates `data.byteLength` bytes on the agent and writes `data` there. */
export async function allocateWith(agent: Agent, data: Uint8Array): Promise<DeviceAllocation> {
  const allocation = agent.allocate(data.byteLength);
  await agent.write(allocation.address, data);
  return allocation;
}

/** Runs a kernel once, directly on the queue (no engine): the run without replay. */
export async function runDirectly(queue: Queue, kernel: Parameters<Queue['enqueueKernel']>[0], args: Parameters<Queue['enqueueKernel']>[1]): Promise<void> {
  queue.enqueueKernel(kernel, args);
  await queue.synchronize();
}

/** Every byte of each allocation, in order. */
export async function readAll(agent: Agent, allocations: readonly { address: number; bytes: number }[]): Promise<Uint8Array[]> {
  return Promise.all(allocations.map((allocation) => agent.read(allocation.address, allocation.bytes)));
}

/** Deterministic pseudo-random bytes (mulberry32). */
export function randomBytes(count: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  const bytes = new Uint8Array(count);
  for (let index = 0; index < count; index += 4) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const word = (t ^ (t >>> 14)) >>> 0;
    for (let lane = 0; lane < 4 && index + lane < count; lane += 1) bytes[index + lane] = (word >>> (8 * lane)) & 0xff;
  }
  return bytes;
}

/** Float32 values in [-1, 1) as bytes (random bytes would give NaNs and infinities). */
export function randomFloatBytes(count: number, seed: number): Uint8Array {
  const raw = randomBytes(count * 4, seed);
  const words = new Uint32Array(raw.buffer);
  const values = new Float32Array(count);
  for (let index = 0; index < count; index += 1) values[index] = words[index]! / 2 ** 31 - 1;
  return new Uint8Array(values.buffer);
}
