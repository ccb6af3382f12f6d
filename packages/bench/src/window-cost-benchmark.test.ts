import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { measureWindowCost } from './window-cost-benchmark.js';

describe('measureWindowCost', () => {
  it('reports a window cost per shipped strategy against a bare dispatch', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await measureWindowCost(runtime, { dispatches: 20, repetitions: 1 });
    expect(result).toMatchObject({ driver: 'host', passes: 2, footprintBytes: 4096 });
    expect(result.bareDispatchMicroseconds).toBeGreaterThan(0);
    expect(result.strategies.map((cost) => `${cost.strategy}/${cost.phaseTimings}`)).toEqual([
      'full/true', 'full/false', 'write-set/true', 'write-set/false', 'dirty-pages/true', 'dirty-pages/false',
    ]);
    for (const cost of result.strategies) {
      expect(cost.windowMicroseconds).toBeGreaterThan(0);
      expect(cost.ratioToBareDispatch).toBeCloseTo(cost.windowMicroseconds / result.bareDispatchMicroseconds);
    }
  });
});
