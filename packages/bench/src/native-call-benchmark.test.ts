import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { measureNativeCalls, splitPlan } from './native-call-benchmark.js';
import { median } from './statistics.js';

describe('splitPlan', () => {
  it('covers every byte once, in order, with the remainder in the last segment', () => {
    const plan = splitPlan(1000, 5000, 103, 4);
    expect(plan.map((segment) => segment.bytes)).toEqual([25, 25, 25, 28]);
    expect(plan[3]).toEqual({ source: 1075, destination: 5075, bytes: 28 });
  });
});

describe('median', () => {
  it('takes the middle sample, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('measureNativeCalls', () => {
  it('reports positive call costs and throughputs on the host driver', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await measureNativeCalls(runtime, { planBytes: 2 ** 20, segmentCounts: [1, 16], repetitions: 2, emptyCalls: 200 });
    expect(result.driver).toBe('host');
    expect(result.emptyPlanEnqueueMicroseconds).toBeGreaterThan(0);
    expect(result.emptyPlanRoundTripMicroseconds).toBeGreaterThan(0);
    expect(result.copyPlans.map((plan) => plan.segments)).toEqual([1, 16]);
    for (const plan of result.copyPlans) expect(plan.bytesPerSecond).toBeGreaterThan(0);
  });
});
