import { afterEach, describe, expect, it } from 'vitest';
import { fullStrategy, type StagingOptions } from '@kreplay/snapshot';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { allocateWith, openHostSetup, randomBytes, type HostSetup } from './test-support/host-setup.js';

describe('replay on several agents at once (host driver)', () => {
  let setup: HostSetup | undefined;
  afterEach(async () => setup?.dispose());

  async function twoAgents(stagingOptions: StagingOptions = {}) {
    setup = await openHostSetup(2);
    const staging = setup.createStaging(stagingOptions);
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy: fullStrategy({ tier: 'host-pinned' }), passes: fixedPasses(3) });
    const agents = setup.runtime.agents;
    const buffers = await Promise.all(agents.map((agent, index) => allocateWith(agent, randomBytes(1 << 20, index + 1))));
    const queues = agents.map((agent) => agent.createQueue());
    const request = (index: number) => ({
      queue: queues[index]!,
      kernel: setup!.runtime.kernels.scatterWrite,
      args: { buffer: buffers[index]!.address, bytes: buffers[index]!.bytes, pageBytes: 4096, fraction: 0.5, seed: 9, source: 0, sourceBytes: 0 },
    });
    return { setup, staging, engine, agents, buffers, queues, request };
  }

  it('runs the windows of different agents side by side: a slow window on agent 0 does not hold agent 1 back', async () => {
    const { setup, engine, request } = await twoAgents();
    setup.runtime.injectFault({ operation: 'copy', agentId: 0, count: 1000, delayMilliseconds: 40 });
    const finished: number[] = [];
    const results = await Promise.all([0, 1].map((index) => engine.dispatch(request(index)).then((result) => (finished.push(index), result))));
    expect(finished).toEqual([1, 0]);
    for (const result of results) expect(result).toMatchObject({ replayed: true, passes: 3 });
    await engine.dispose();
  });

  it('shares one host budget: staging never holds more than the limit, and what does not fit is declined with the reason', async () => {
    const { staging, engine, request } = await twoAgents({ hostBytesLimit: 3 * 2 ** 20 / 2 });
    const results = await Promise.all([0, 1].map((index) => engine.dispatch(request(index))));
    expect(results.filter((result) => result.replayed)).toHaveLength(1);
    const declined = results.find((result) => !result.replayed)!;
    expect(declined.declineReason).toMatch(/host limit/);
    expect(declined.passes).toBe(1);
    expect(staging.usage().hostHighWaterBytes).toBeLessThanOrEqual(3 * 2 ** 20 / 2);
    await engine.dispose();
  });

  it('keeps staging pools per agent', async () => {
    const { staging, engine, request } = await twoAgents();
    await Promise.all([0, 1].map((index) => engine.dispatch(request(index))));
    await engine.dispose();
    expect(staging.usage().leasedBytes).toBe(0);
    expect(staging.usage().pooledBytes).toBeGreaterThanOrEqual(2 * (1 << 20));
  });

  it('refuses to run a kernel whose pointer reaches another agent, since the host driver has no peer access', async () => {
    const { setup, engine, buffers, queues } = await twoAgents();
    const dispatch = engine.dispatch({
      queue: queues[0]!,
      kernel: setup.runtime.kernels.scatterWrite,
      args: { buffer: buffers[0]!.address, bytes: buffers[0]!.bytes, pageBytes: 4096, fraction: 0.5, seed: 3, source: buffers[1]!.address, sourceBytes: 0 },
    });
    await expect(dispatch).rejects.toThrow(/agent 1, which agent 0 cannot reach/);
    await engine.dispose();
  });
});
