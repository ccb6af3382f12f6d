import { describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { fixedPasses } from './fixed-passes.js';
import { passProviderSpecificationVersion } from './pass-provider.js';
import { timingPasses } from './timing-passes.js';
import { asQueue, FakeRuntime } from './test-support/fake-runtime.js';

describe('pass providers', () => {
  it('fixedPasses gives every dispatch n passes', () => {
    const provider = fixedPasses(5);
    expect(provider).toMatchObject({ specificationVersion: passProviderSpecificationVersion, name: 'fixed(5)' });
    expect(provider.passCount({} as never)).toBe(5);
  });

  it('refuses pass counts that are not integers >= 1', () => {
    for (const count of [0, -1, 1.5, Number.NaN, '2' as never]) {
      expect(() => fixedPasses(count)).toThrow(ArgumentError);
      expect(() => timingPasses(count)).toThrow(/\[replay\] \[timing-passes\] the pass count is .* not an integer >= 1/);
    }
  });

  it('timingPasses measures each pass between its own events, per queue', async () => {
    const runtime = new FakeRuntime();
    const [first, second] = [runtime.agents[0]!.createQueue(), runtime.agents[0]!.createQueue()];
    const provider = timingPasses(2);
    for (const queue of [first, second]) {
      for (const pass of [1, 2]) {
        provider.beginPass(pass, asQueue(queue));
        provider.endPass(pass, asQueue(queue));
      }
    }
    await Promise.all([first.synchronize(), second.synchronize()]);
    const firstTimes = provider.collect(asQueue(first), [1, 2]);
    expect(firstTimes).toHaveLength(2);
    for (const milliseconds of firstTimes) expect(milliseconds).toBeGreaterThanOrEqual(0);
    expect(provider.collect(asQueue(second), [1])).toEqual([expect.any(Number), null]);
    expect(provider.collect(asQueue(second), [1, 2])).toEqual([]);
  });

  it('timingPasses times each dispatch of a range in each pass, null where the pass did not complete', async () => {
    const runtime = new FakeRuntime();
    const queue = asQueue(runtime.agents[0]!.createQueue());
    const provider = timingPasses(2);
    for (const pass of [1, 2]) {
      provider.beginPass(pass, queue, { dispatches: 3 });
      for (const index of [0, 1, 2]) {
        provider.beginDispatch(pass, index, queue);
        provider.endDispatch(pass, index, queue);
      }
      provider.endPass(pass, queue);
    }
    await queue.synchronize();
    const times = provider.collectRange(queue, [1], 3);
    expect(times).toEqual([
      [expect.any(Number), null],
      [expect.any(Number), null],
      [expect.any(Number), null],
    ]);
    expect(provider.collectRange(queue, [1, 2], 3)).toEqual([[], [], []]);
  });
});
