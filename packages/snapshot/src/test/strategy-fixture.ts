import { openRuntime } from '@kreplay/native';
import type { Agent, KernelArguments, KernelDescriptor, Queue, Runtime } from '@kreplay/native';
import { createTracker } from '@kreplay/tracker';
import type { Tracker } from '@kreplay/tracker';
import { createStaging } from '../staging/create-staging.js';
import type { DispatchContext } from '../snapshot-strategy.js';
import type { Staging, StagingOptions } from '../staging-types.js';

/** A runtime, tracker, staging and queue for exercising one strategy. */
export interface StrategyFixture {
  readonly runtime: Runtime;
  readonly agent: Agent;
  readonly queue: Queue;
  readonly tracker: Tracker;
  readonly staging: Staging;
  dispatch(kernel: KernelDescriptor, args: KernelArguments): DispatchContext;
  dispose(): Promise<void>;
}

/** Opens a fixture on `open()` (default: the host driver with one 256 MiB agent). */
export async function openStrategyFixture(
  open: () => Promise<Runtime> = () => openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 256 * 2 ** 20 } }),
  stagingOptions: StagingOptions = {},
): Promise<StrategyFixture> {
  const runtime = await open();
  const tracker = createTracker(runtime);
  const staging = createStaging(runtime, tracker, stagingOptions);
  const agent = runtime.agents[0]!;
  const queue = agent.createQueue();
  return {
    runtime,
    agent,
    queue,
    tracker,
    staging,
    dispatch: (kernel, args) => ({
      runtime,
      agent,
      queue,
      kernel,
      args,
      tracker,
      staging,
      resolution: tracker.resolveArguments(agent.id, kernel, args),
    }),
    async dispose() {
      await queue.synchronize().catch(() => undefined);
      staging.dispose();
      tracker.dispose();
      await runtime.dispose();
    },
  };
}

/** Deterministic pseudo-random bytes. */
export function randomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}
