import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '@kreplay/native';
import { dirtyPagesStrategy } from '@kreplay/snapshot';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { allocateWith, openHostSetup, randomBytes, type HostSetup } from './test-support/host-setup.js';

const lifetimes = 1000;

/** What the runtime holds: the agent's free device memory and the live allocations the tracker sees. */
async function held(setup: HostSetup) {
  await setup.agent.synchronize(); // a free takes effect once the queues ran the work enqueued before it
  return {
    freeDeviceBytes: setup.agent.memoryInfo().freeBytes,
    deviceAllocations: setup.tracker.allocations(setup.agent.id).length,
    hostBuffers: setup.tracker.hostAllocations().length,
  };
}

const scatterArgs = (buffer: DeviceAllocation, source: DeviceAllocation, seed: number) => ({
  buffer: buffer.address,
  bytes: buffer.bytes,
  pageBytes: 4096,
  fraction: 0.25,
  seed,
  source: source.address,
  sourceBytes: source.bytes,
});

describe('engine and strategy lifetimes on the host driver', () => {
  let setup: HostSetup | undefined;
  afterEach(async () => {
    await setup?.dispose();
    setup = undefined;
  });

  it(`${lifetimes} engine and dirty-pages strategy lifetimes, each disposed by its owner, end at the memory they began with`, async () => {
    const current = (setup = await openHostSetup());
    const staging = current.createStaging();
    const queue = current.agent.createQueue();
    const buffer = await allocateWith(current.agent, randomBytes(64 * 1024, 1));
    const source = await allocateWith(current.agent, randomBytes(4096, 2));
    const start = await held(current);
    let afterFirst: Awaited<ReturnType<typeof held>> | undefined;
    for (let round = 0; round < lifetimes; round += 1) {
      const strategy = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 });
      const engine = createReplayEngine({ runtime: current.runtime, tracker: current.tracker, staging, strategy, passes: fixedPasses(2), verify: 'full' });
      const result = await engine.dispatch({ queue, kernel: current.runtime.kernels.scatterWrite, args: scatterArgs(buffer, source, round) });
      expect(result).toMatchObject({ replayed: true, verified: true });
      await engine.dispose(); // the engine's own buffers
      strategy.dispose(); // the caller's: the strategy's mirrors
      if (round === 0) afterFirst = await held(current);
    }
    expect(await held(current)).toEqual(afterFirst); // staging pooled after the first round, nothing more
    staging.trim();
    expect(await held(current)).toEqual(start);
  });

  it(`${lifetimes} lifetimes over memory the program frees each round end there too, with no strategy disposed`, async () => {
    const current = (setup = await openHostSetup());
    const staging = current.createStaging();
    const queue = current.agent.createQueue();
    const start = await held(current);
    let afterFirst: Awaited<ReturnType<typeof held>> | undefined;
    for (let round = 0; round < lifetimes; round += 1) {
      const buffer = await allocateWith(current.agent, randomBytes(64 * 1024, round));
      const source = await allocateWith(current.agent, randomBytes(4096, round + 1));
      const strategy = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096, candidates: 'all' });
      const engine = createReplayEngine({ runtime: current.runtime, tracker: current.tracker, staging, strategy, passes: fixedPasses(2), verify: 'full' });
      const result = await engine.dispatch({ queue, kernel: current.runtime.kernels.scatterWrite, args: scatterArgs(buffer, source, round) });
      expect(result).toMatchObject({ replayed: true, verified: true });
      await engine.dispose();
      buffer.free(); // its mirror goes with it, and with the source's
      source.free();
      if (round === 0) afterFirst = await held(current);
    }
    expect(await held(current)).toEqual(afterFirst);
    staging.trim();
    expect(await held(current)).toEqual(start);
  });
});
