import { describe, expect, it } from 'vitest';
import { fullStrategy } from '@kreplay/snapshot';
import type { QuiesceMode } from './engine-options.js';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { passProviderSpecificationVersion, type PassProvider } from './pass-provider.js';
import { runtimeWindowLockUsers } from './runtime-window-locks.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { useHostSetup } from './test-support/host-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

const setup = useHostSetup();

const allocationBytes = 8 * 2 ** 20;
const halfBytes = allocationBytes / 2;

/** Words of `bytes` that are not `value`. */
function wordsOtherThan(bytes: Uint8Array, value: number): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  let wrong = 0;
  for (const word of words) if (word !== value) wrong += 1;
  return wrong;
}

describe('two replay engines on one runtime (host driver)', () => {
  it.each<QuiesceMode>(['queue', 'agent'])(
    'quiesce %s: two queues filling different halves of one allocation through two engines leave exactly what a plain run leaves',
    async (quiesce) => {
      const strategies = [fullStrategy({ tier: 'device' }), fullStrategy({ tier: 'device' })];
      const engines = strategies.map((strategy) =>
        createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(6), verify: 'full', quiesce }),
      );
      const allocation = setup.agent.allocate(allocationBytes);
      const queues = [setup.agent.createQueue(), setup.agent.createQueue()];
      const fill = setup.runtime.kernels.fill;
      try {
        for (let round = 0; round < 8; round += 1) {
          const values = [2 * round + 1, 2 * round + 2];
          const results = await Promise.all(
            [0, 1].map((half) =>
              engines[half]!.dispatch({
                queue: queues[half]!,
                kernel: fill,
                args: { destination: allocation.address + half * halfBytes, bytes: halfBytes, value: values[half]! },
              }),
            ),
          );
          for (const result of results) {
            expect(result.failure).toBeUndefined();
            expect(result).toMatchObject({ replayed: true, passes: 6, verified: true });
          }
          const memory = await setup.agent.read(allocation.address, allocationBytes);
          expect(wordsOtherThan(memory.subarray(0, halfBytes), values[0]!)).toBe(0);
          expect(wordsOtherThan(memory.subarray(halfBytes), values[1]!)).toBe(0);
        }
      } finally {
        for (const queue of queues) await queue.dispose();
        for (const engine of engines) await engine.dispose();
        for (const strategy of strategies) strategy.dispose?.();
        allocation.free();
      }
      expect(setup.staging.usage().leasedBytes).toBe(0);
    },
    60_000,
  );
});

/** A provider of `count` passes that notes `name pass` in `log` when each pass is enqueued. */
function loggingPasses(name: string, count: number, log: string[]): PassProvider {
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `logging(${name})`,
    passCount: () => count,
    beginPass: (pass) => log.push(`${name} pass ${pass}`),
    endPass() {},
  };
}

describe('engines over one runtime share its window lock (fake runtime)', () => {
  it.each<[QuiesceMode, QuiesceMode]>([
    ['agent', 'queue'],
    ['queue', 'agent'],
  ])('a window of an engine quiescing %s and one of an engine quiescing %s on another queue, on disjoint memory, do not overlap', async (first, second) => {
    const setup = fakeSetup();
    const log: string[] = [];
    const engines = [first, second].map((quiesce, index) => setup.engine({ strategy: testStrategy(), passes: loggingPasses(`engine ${index}`, 2, log), quiesce }));
    const buffers = [setup.buffer(1000, 0), setup.buffer(1000, 0)];
    const queues = [setup.queue(), setup.queue()];
    const done = engines.map((engine, index) =>
      engine
        .dispatch(fakeRequest(queues[index]!, 'increment', { buffer: buffers[index]!.address, bytes: 1000 }))
        .then((result) => (log.push(`engine ${index} done`), result)),
    );
    const results = await Promise.all(done);
    // Whichever engine holds the whole agent, the other engine's window runs wholly before or after it.
    expect(log).toEqual(['engine 0 pass 1', 'engine 0 pass 2', 'engine 0 done', 'engine 1 pass 1', 'engine 1 pass 2', 'engine 1 done']);
    expect(results.map((result) => result.replayed)).toEqual([true, true]);
    expect(buffers.map((buffer) => buffer.data[0])).toEqual([1, 1]);
    for (const engine of engines) await engine.dispose();
  });

  it('orders the windows of two engines on one queue, and on disjoint memory of other queues lets them run side by side', async () => {
    const setup = fakeSetup();
    const log: string[] = [];
    const engines = [0, 1].map((index) => setup.engine({ strategy: testStrategy(), passes: loggingPasses(`engine ${index}`, 2, log) }));
    const buffers = [setup.buffer(1000, 0), setup.buffer(1000, 0)];
    const queue = setup.queue();
    await Promise.all(
      engines.map((engine, index) =>
        engine.dispatch(fakeRequest(queue, 'increment', { buffer: buffers[index]!.address, bytes: 1000 })).then(() => log.push(`engine ${index} done`)),
      ),
    );
    expect(log).toEqual(['engine 0 pass 1', 'engine 0 pass 2', 'engine 0 done', 'engine 1 pass 1', 'engine 1 pass 2', 'engine 1 done']);
    log.length = 0;
    const queues = [setup.queue(), setup.queue()];
    await Promise.all(
      engines.map((engine, index) =>
        engine.dispatch(fakeRequest(queues[index]!, 'increment', { buffer: buffers[index]!.address, bytes: 1000 })).then(() => log.push(`engine ${index} done`)),
      ),
    );
    // Disjoint windows on other queues are both enqueued before either completes.
    expect(log.slice(0, 4).sort()).toEqual(['engine 0 pass 1', 'engine 0 pass 2', 'engine 1 pass 1', 'engine 1 pass 2']);
    for (const engine of engines) await engine.dispose();
  });

  it('holds the shared lock while an engine lives, and drops it with the last one disposed', async () => {
    const setup = fakeSetup();
    const runtime = setup.runtime.asRuntime();
    const engines = [setup.engine(), setup.engine({ strategy: testStrategy({ ranges: 'all' }) })];
    expect(runtimeWindowLockUsers(runtime)).toBe(2);
    await engines[0]!.dispose();
    await engines[0]!.dispose();
    expect(runtimeWindowLockUsers(runtime)).toBe(1);
    await engines[1]!.dispose();
    expect(runtimeWindowLockUsers(runtime)).toBe(0);
  });
});
