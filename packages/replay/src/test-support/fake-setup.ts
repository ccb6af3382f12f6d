import type { SnapshotStrategy, Staging } from '@kreplay/snapshot';
import { createTracker, type Tracker } from '@kreplay/tracker';
import { createReplayEngine, type ReplayEngine } from '../replay-engine.js';
import type { ReplayEngineOptions } from '../engine-options.js';
import { fixedPasses } from '../fixed-passes.js';
import { asQueue, FakeRuntime, type FakeAgent, type FakeQueue } from './fake-runtime.js';
import type { FakeAllocation } from './fake-memory.js';
import { testStaging, testStrategy } from './test-strategy.js';

/** A fake runtime with a tracker and staging double, and helpers to build engines and buffers. */
export interface FakeSetup {
  readonly runtime: FakeRuntime;
  readonly agent: FakeAgent;
  readonly tracker: Tracker;
  readonly staging: Staging;
  engine(options?: Partial<ReplayEngineOptions>): ReplayEngine;
  /** A device allocation filled with `value`. */
  buffer(bytes: number, value?: number): FakeAllocation;
  queue(): FakeQueue;
}

/** Builds a {@link FakeSetup}. */
export function fakeSetup(hostBytesLimit?: number): FakeSetup {
  const runtime = new FakeRuntime();
  const tracker = createTracker(runtime);
  const staging = testStaging(runtime, tracker, hostBytesLimit);
  const agent = runtime.agents[0]!;
  return {
    runtime,
    agent,
    tracker,
    staging,
    engine: (options = {}) =>
      createReplayEngine({
        runtime: runtime.asRuntime(),
        tracker,
        staging,
        strategy: testStrategy() as SnapshotStrategy,
        passes: fixedPasses(3),
        ...options,
      }),
    buffer(bytes, value = 0) {
      const allocation = agent.allocate(bytes);
      allocation.data.fill(value);
      return allocation;
    },
    queue: () => agent.createQueue(),
  };
}

/** A request of a fake kernel on a fake queue. */
export function fakeRequest(queue: FakeQueue, kernel: keyof FakeRuntime['kernels'], args: Record<string, number>) {
  return { queue: asQueue(queue), kernel: queue.agent.runtime.kernels[kernel], args };
}
