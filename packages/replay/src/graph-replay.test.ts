import { describe, expect, it } from 'vitest';
import type { DeviceAllocation, GraphStep } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy, type DispatchContext, type SnapshotStrategy } from '@kreplay/snapshot';
import { expectSameBytes, restoreNothingStrategy } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { allocateWith, openHostSetup, randomBytes, randomFloatBytes, readAll, useHostSetup } from './test-support/host-setup.js';

const setup = useHostSetup();

/** Buffers a (floats, stencilled in place), b (written by a memset, a fill, and read by a copy into a) and c (only read). */
async function buffers(seed: number): Promise<DeviceAllocation[]> {
  return Promise.all([randomFloatBytes(16384, seed), randomBytes(65536, seed + 1), randomBytes(65536, seed + 2)].map((data) => allocateWith(setup.agent, data)));
}

/** A graph whose steps are not idempotent (the stencil runs in place on what the copy wrote): passes agree only when restored between them. */
function steps([a, b, c]: readonly DeviceAllocation[]): GraphStep[] {
  const { kernels } = setup.runtime;
  return [
    { kind: 'memset', address: b!.address + 4096, bytes: 8192, value: 0x5a },
    { kind: 'copy', source: c!.address, destination: a!.address + 16384, bytes: 4096 },
    { kind: 'kernel', kernel: kernels.stencil, args: { buffer: a!.address, count: 16384 } },
    { kind: 'copy', source: a!.address, destination: b!.address + 32768, bytes: 4096 },
    { kind: 'kernel', kernel: kernels.fill, args: { destination: b!.address, bytes: 256, value: 3 } },
  ];
}

function preparedWith(strategy: SnapshotStrategy): SnapshotStrategy & { contexts: DispatchContext[] } {
  const contexts: DispatchContext[] = [];
  return { ...strategy, contexts, prepare: (context) => (contexts.push(context), strategy.prepare(context)) };
}

describe('graph launches through the engine, on the host driver', () => {
  for (const [name, make] of [['full', fullStrategy], ['write-set', writeSetStrategy], ['dirty-pages', dirtyPagesStrategy]] as const) {
    it(`${name}: a graph replayed with 4 passes, restored between them, leaves the memory of one launch`, async () => {
      const strategy = make();
      await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(4), verify: 'full' });
      const replayed = await buffers(7);
      const once = await buffers(7);
      await using queue = setup.agent.createQueue();
      using graph = setup.agent.createGraph(steps(replayed));
      using onceGraph = setup.agent.createGraph(steps(once));
      for (let launch = 0; launch < 2; launch += 1) {
        const result = await engine.dispatch({ queue, graph });
        queue.enqueueGraph(onceGraph);
        await queue.synchronize();
        expect(result).toMatchObject({ replayed: true, passes: 4, verified: true, strategy: name });
        expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true });
        expect(result.timings.restoreMs).toHaveLength(3);
      }
      expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, once));
      for (const allocation of [...replayed, ...once]) allocation.free();
    });
  }

  it('random graphs of kernels, memsets and copies replay (dirty-pages, 3 passes) to the memory a plain launch of the graph leaves', async () => {
    await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: dirtyPagesStrategy(), passes: fixedPasses(3), verify: 'full' });
    await using queue = setup.agent.createQueue();
    for (let seed = 1; seed <= 8; seed += 1) {
      const random = randomBytes(64, seed);
      const replayed = await buffers(seed * 10);
      const once = await buffers(seed * 10);
      const make = (on: readonly DeviceAllocation[]): GraphStep[] =>
        Array.from({ length: 3 + (seed % 4) }, (_, index): GraphStep => {
          const [a, b, c] = on;
          const choice = (random[index]! + seed) % 4;
          const offset = 4096 * ((random[index + 8]! % 8));
          if (choice === 0) return { kind: 'memset', address: b!.address + offset, bytes: 4096, value: random[index + 16]! };
          if (choice === 1) return { kind: 'copy', source: [b, c][index % 2]!.address + offset, destination: a!.address + offset, bytes: 4096 };
          if (choice === 2) return { kind: 'kernel', kernel: setup.runtime.kernels.stencil, args: { buffer: a!.address, count: 16384 } };
          return { kind: 'kernel', kernel: setup.runtime.kernels.fill, args: { destination: b!.address + offset, bytes: 1024, value: seed } };
        });
      using graph = setup.agent.createGraph(make(replayed));
      using plain = setup.agent.createGraph(make(once));
      const result = await engine.dispatch({ queue, graph });
      queue.enqueueGraph(plain);
      await queue.synchronize();
      expect(result, `seed ${seed}`).toMatchObject({ replayed: true, passes: 3, verified: true });
      expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, once));
      for (const allocation of [...replayed, ...once]) allocation.free();
    }
  });

  it('finds the passes differ when nothing is restored between them: the graph\'s steps are not idempotent', async () => {
    await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: restoreNothingStrategy(writeSetStrategy()), passes: fixedPasses(3), verify: 'full' });
    const allocations = await buffers(5);
    await using queue = setup.agent.createQueue();
    using graph = setup.agent.createGraph(steps(allocations));
    const result = await engine.dispatch({ queue, graph });
    expect(result.verification.status).toBe('mismatch');
    expect(result.verified).toBe(false);
    for (const allocation of allocations) allocation.free();
  });

  it('hands the strategy what every step may write: kernels by their arguments, memsets and copies by their destinations', async () => {
    const strategy = preparedWith(writeSetStrategy());
    await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(2) });
    const [a, b, c] = await buffers(11);
    await using queue = setup.agent.createQueue();
    using graph = setup.agent.createGraph(steps([a!, b!, c!]));
    const result = await engine.dispatch({ queue, graph });
    expect(result.replayed).toBe(true);
    const [context] = strategy.contexts;
    expect(context!.kernel.name).toBe('graph (stencil, fill; 5 steps)');
    expect(context!.dispatches?.map((dispatch) => dispatch.kernel.name)).toEqual(['stencil', 'fill']);
    const written = context!.resolution.reached.filter((reached) => reached.access !== 'read').map((reached) => reached.allocation.address);
    expect(new Set(written)).toEqual(new Set([a!.address, b!.address]));
    // c is only a copy's source: read, never written.
    expect(context!.resolution.reached.find((reached) => reached.allocation.address === c!.address)?.access ?? 'read').toBe('read');
    for (const allocation of [a, b, c]) allocation!.free();
  });

  it('runs a graph marked cross-device once, unreplayed', async () => {
    await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: writeSetStrategy(), passes: fixedPasses(3) });
    const allocations = await buffers(3);
    await using queue = setup.agent.createQueue();
    using graph = setup.agent.createGraph(steps(allocations));
    const result = await engine.dispatch({ queue, graph, crossDevice: true });
    expect(result).toMatchObject({ replayed: false, declineCode: 'cross-device', passes: 1 });
    for (const allocation of allocations) allocation.free();
  });

  it('refuses a graph of another agent, a disposed graph, and a graph inside a range', async () => {
    const two = await openHostSetup(2);
    try {
      await using engine = createReplayEngine({ runtime: two.runtime, tracker: two.tracker, staging: two.createStaging(), strategy: fullStrategy(), passes: fixedPasses(2) });
      const a = two.agent.allocate(4096);
      await using queue = two.runtime.agents[1]!.createQueue();
      const graph = two.agent.createGraph([{ kind: 'memset', address: a.address, bytes: 4096, value: 1 }]);
      await expect(engine.dispatch({ queue, graph })).rejects.toThrow(/\[replay\] \[dispatch\] the graph belongs to agent 0, not the queue's agent 1/);
      await using own = two.agent.createQueue();
      await expect(engine.dispatchRange({ queue: own, dispatches: [{ graph } as never] })).rejects.toThrow(/dispatch 0 of the range is a graph launch.*engine\.dispatch\(\{ queue, graph \}\)/);
      graph.dispose();
      await expect(engine.dispatch({ queue: own, graph })).rejects.toThrow(/the graph was disposed/);
    } finally {
      await two.dispose();
    }
  });
});
