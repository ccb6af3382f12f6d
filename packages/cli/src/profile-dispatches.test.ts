import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import type { Queue } from '@kreplay/native';
import { createReplayEngine, passProviderSpecificationVersion } from '@kreplay/replay';
import type { PassProvider } from '@kreplay/replay';
import { createStaging, dirtyPagesStrategy } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { profileDispatches } from './profile-dispatches.js';
import type { ProfileWorkload } from './profile-workload.js';

/** A provider that names, per dispatch of a window, its index and how many passes reached it. */
function countingPasses(passes: number): PassProvider & { readonly calls: string[] } {
  const calls: string[] = [];
  let reached: number[] = [];
  let single = 0;
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: 'counting',
    calls,
    passCount: () => passes,
    beginPass: (pass, _queue: Queue, scope) => {
      if (pass === 1) reached = Array.from({ length: scope?.dispatches ?? 1 }, () => 0);
      calls.push(`pass ${pass} x${scope?.dispatches ?? 1}`);
      single += 1;
    },
    endPass: () => {},
    beginDispatch: (_pass, index) => {
      reached[index] = (reached[index] ?? 0) + 1;
    },
    collect: () => ({ metrics: { passes: single } }),
    collectRange: (_queue, _completed, dispatches) => Array.from({ length: dispatches }, (_, index) => ({ metrics: { index, passes: reached[index] ?? 0 } })),
  };
}

describe('profileDispatches', () => {
  it('runs ranges of K dispatches as units, one row of metrics per dispatch, and a shorter last range', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 16 << 20, threads: 2 } });
    const agent = runtime.agents[0]!;
    using tracker = createTracker(runtime);
    using staging = createStaging(runtime, tracker);
    using strategy = dirtyPagesStrategy({ tier: 'device' });
    const passes = countingPasses(3);
    await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes });
    await using queue = agent.createQueue();
    const buffer = agent.allocate(1 << 20);
    const workload: ProfileWorkload = {
      description: 'fill',
      dispatch: (index) => ({ kernel: runtime.kernels.fill, args: { destination: buffer.address + index * 4096, bytes: 4096, value: index + 1 } }),
      free: () => buffer.free(),
    };
    const progress: number[] = [];
    const { rows, ranges } = await profileDispatches(engine, queue, workload, { dispatches: 5, range: 2, onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([2, 4, 5]);
    expect(ranges.map((range) => [range.first, range.dispatches, range.replayed, range.passes, range.tier])).toEqual([
      [0, 2, true, 3, 'device'],
      [2, 2, true, 3, 'device'],
      [4, 1, true, 3, 'device'],
    ]);
    expect(ranges[0]!.bytes.deviceToDevice).toBeGreaterThan(0);
    expect(rows.map((row) => [row.dispatch, row.range, row.metrics])).toEqual([
      [0, 0, { index: 0, passes: 3 }],
      [1, 0, { index: 1, passes: 3 }],
      [2, 1, { index: 0, passes: 3 }],
      [3, 1, { index: 1, passes: 3 }],
      [4, 2, { index: 0, passes: 3 }],
    ]);
    expect(rows[0]!.wallMs * 2).toBeCloseTo(ranges[0]!.wallMs, 6);
    expect(rows.every((row) => row.launch?.registersPerThread === null)).toBe(true);
    expect(passes.calls.slice(0, 3)).toEqual(['pass 1 x2', 'pass 2 x2', 'pass 3 x2']);
    workload.free();
  });

  it('runs each dispatch on its own with a range of 1', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 16 << 20, threads: 2 } });
    const agent = runtime.agents[0]!;
    using tracker = createTracker(runtime);
    using staging = createStaging(runtime, tracker);
    using strategy = dirtyPagesStrategy({ tier: 'device' });
    const passes = countingPasses(2);
    await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes });
    await using queue = agent.createQueue();
    const buffer = agent.allocate(1 << 20);
    const workload: ProfileWorkload = {
      description: 'fill',
      dispatch: (index) => ({ kernel: runtime.kernels.fill, args: { destination: buffer.address, bytes: 4096, value: index } }),
      free: () => buffer.free(),
    };
    const { rows, ranges } = await profileDispatches(engine, queue, workload, { dispatches: 2, range: 1, registersOf: (kernel) => (kernel === runtime.kernels.fill ? 32 : null) });
    expect(ranges).toEqual([]);
    expect(rows.map((row) => row.launch?.registersPerThread)).toEqual([32, 32]);
    expect(rows.map((row) => [row.dispatch, row.range, row.passes, row.metrics])).toEqual([
      [0, null, 2, { passes: 2 }],
      [1, null, 2, { passes: 4 }],
    ]);
    expect(passes.calls).toEqual(['pass 1 x1', 'pass 2 x1', 'pass 1 x1', 'pass 2 x1']);
    workload.free();
  });
});
