/**
 * runtime.profiler on the cuda driver (CUPTI's range profiler, user replay). Where libcupti.so is
 * missing (test:fake-cuda points KREPLAY_CUPTI_LIBRARY_DIR at a folder without it) it checks the
 * reason and the error; on a GPU where it loads, the counters of an idempotent fill dispatch run
 * once per pass. Skips without a CUDA device.
 */
import { describe, expect, it } from 'vitest';
import { ArgumentError, openRuntime, queryCuptiMetrics, UnsupportedError } from '../../src/index.js';
import type { ProfilerInstructionCache, ProfilerL2Flush, ProfilerRange, Runtime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
async function probeProfiler(): Promise<string | null> {
  const runtime = await openRuntime({ driver: 'cuda' });
  try {
    return runtime.profiler!.unavailableReason();
  } finally {
    await runtime.dispose();
  }
}
const profilerReason = cuda.available ? await probeProfiler() : 'no CUDA device';

/** What a session does around each pass. */
interface ProfilerConditions {
  readonly l2Flush?: ProfilerL2Flush;
  readonly instructionCache?: ProfilerInstructionCache;
}

/** Counts one fill of 256 MiB through every pass of a session with `conditions`, as kreplay's engine runs them, and checks the bytes it wrote. */
async function countFill(runtime: Runtime, metrics: readonly string[], conditions: ProfilerConditions, range: ProfilerRange = 'kernel'): Promise<void> {
  const agent = runtime.agents[0]!;
  const bytes = 256 << 20;
  const buffer = agent.allocate(bytes);
  const queue = agent.createQueue();
  const session = await runtime.profiler!.createSession({ metrics: [...metrics], range, ...conditions });
  expect(session).toMatchObject(conditions);
  for (let pass = 1; pass <= session.passCount; pass += 1) {
    session.beginPass(queue, pass);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: 7 });
    session.endPass(queue, pass);
  }
  const result = await session.decode(queue);
  expect(result.values['gpu__time_duration.sum']).toBeGreaterThan(0);
  expect(result.values['dram__bytes_write.sum']!).toBeGreaterThan(0.7 * bytes);
  expect(result.values['dram__bytes_write.sum']!).toBeLessThan(1.3 * bytes);
  await session.dispose();
  await queue.dispose();
  buffer.free();
}

describe.skipIf(!cuda.available)(`cuda profiler${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  it.skipIf(profilerReason === null)('says why CUPTI cannot run', async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    expect(runtime.profiler!.unavailableReason()).toMatch(/libcupti\.so was not found|does not export/);
    const error = await runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'] }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ driver: 'cuda', feature: 'counters' });
    await expect(runtime.profiler!.createSession({ metrics: [] })).rejects.toBeInstanceOf(ArgumentError);
    const unknownRange = runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], range: 'everything' as never });
    await expect(unknownRange).rejects.toThrow(/options.range is "everything", not one of kernel, dispatch/);
    const unknownFlush = runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], l2Flush: 'evict-last' as never });
    await expect(unknownFlush).rejects.toThrow(/options.l2Flush is "evict-last", not one of write-discard, read, none/);
    const unknownInstructionCache = runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], instructionCache: 'reload' as never });
    await expect(unknownInstructionCache).rejects.toThrow(/options.instructionCache is "reload", not one of evict, keep/);
  });

  it.skipIf(profilerReason !== null || cuda.fake)("names the device's chip as a session's plan does, and lists its metrics", async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    const chip = runtime.profiler!.chipName();
    await using session = await runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'] });
    expect(chip).toBe(session.plan.chip);
    const metrics = await queryCuptiMetrics({ chip });
    expect(metrics.find((metric) => metric.name === 'gpu__time_duration')).toMatchObject({ type: 'counter', unit: 'nanosecond' });
    expect(() => runtime.profiler!.chipName(99)).toThrow(/agentId/);
  });

  for (const range of ['kernel', 'dispatch'] as const) {
    it.skipIf(profilerReason !== null || cuda.fake)(`counts the bytes a fill writes, over every pass CUPTI asks for (${range} range)`, async () => {
      await using runtime = await openRuntime({ driver: 'cuda' });
      const agent = runtime.agents[0]!;
      const bytes = 256 << 20;
      const buffer = agent.allocate(bytes);
      const queue = agent.createQueue();
      const metrics = ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 'lts__throughput.avg.pct_of_peak_sustained_elapsed'];
      const session = await runtime.profiler!.createSession({ metrics, range });
      expect(session.range).toBe(range);
      expect(session).toMatchObject({ cacheControl: 'all', l2Flush: 'write-discard', instructionCache: 'evict' });
      expect(session.passCount).toBeGreaterThanOrEqual(1);
      expect(session.plan.units[0]).toBe('nanosecond');
      for (let dispatch = 1; dispatch <= 2; dispatch += 1) {
        for (let pass = 1; pass <= session.passCount; pass += 1) {
          session.beginPass(queue, pass);
          queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: dispatch });
          session.endPass(queue, pass);
        }
        const result = await session.decode(queue);
        expect(result.dispatch).toBe(dispatch);
        expect(result.values['gpu__time_duration.sum']).toBeGreaterThan(0);
        const written = result.values['dram__bytes_write.sum']!;
        expect(written).toBeGreaterThan(0.7 * bytes); // up to an L2 of dirty lines may be written back after the range
        expect(written).toBeLessThan(1.3 * bytes);
      }
      if (session.passCount > 1) {
        // A dispatch left after its first pass; the next one still counts from a fresh start.
        session.beginPass(queue, 1);
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: 3 });
        session.endPass(queue, 1);
        for (let pass = 1; pass <= session.passCount; pass += 1) {
          session.beginPass(queue, pass);
          queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: 4 });
          session.endPass(queue, pass);
        }
        const result = await session.decode(queue);
        expect(result.dispatch).toBe(4);
        expect(result.values['dram__bytes_write.sum']!).toBeGreaterThan(0.7 * bytes);
        expect(result.values['dram__bytes_write.sum']!).toBeLessThan(1.3 * bytes);
      }
      expect(() => session.beginPass(queue, session.passCount + 1)).toThrow(ArgumentError);
      await session.dispose();
      await queue.dispose();
      buffer.free();
    });
  }

  for (const range of ['kernel', 'dispatch'] as const) {
    for (const conditions of [
      { l2Flush: 'write-discard', instructionCache: 'evict' },
      { l2Flush: 'read', instructionCache: 'evict' },
      { l2Flush: 'none', instructionCache: 'keep' },
      { l2Flush: 'write-discard', instructionCache: 'keep' },
    ] as const) {
      it.skipIf(profilerReason !== null || cuda.fake)(`counts a fill with the L2 flush ${conditions.l2Flush} and instruction caches ${conditions.instructionCache} (${range} range)`, async () => {
        await using runtime = await openRuntime({ driver: 'cuda' });
        await countFill(runtime, ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'lts__throughput.avg.pct_of_peak_sustained_elapsed'], conditions, range);
      });
    }
  }

  for (const [range, cacheControl, l2Flush] of [['kernel', 'all', 'write-discard'], ['kernel', 'none', 'write-discard'], ['dispatch', 'all', 'write-discard'], ['kernel', 'all', 'none']] as const) {
    it.skipIf(profilerReason !== null || cuda.fake)(`counts each dispatch of a range on its own (${range} range, cache control ${cacheControl}, L2 flush ${l2Flush})`, async () => {
      await using runtime = await openRuntime({ driver: 'cuda' });
      const agent = runtime.agents[0]!;
      // Each larger than the L2 (50 MiB on an H200), so what a fill writes reaches DRAM within its range.
      const sizes = [256 << 20, 512 << 20, 384 << 20, 320 << 20];
      const buffers = sizes.map((bytes) => agent.allocate(bytes));
      const queue = agent.createQueue();
      const metrics = ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'];
      const session = await runtime.profiler!.createSession({ metrics, range, cacheControl, l2Flush });
      expect(session.cacheControl).toBe(cacheControl);
      for (let pass = 1; pass <= session.passCount; pass += 1) {
        session.beginPass(queue, pass, { dispatches: sizes.length });
        sizes.forEach((bytes, index) => {
          session.beginDispatch(queue, pass, index);
          queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[index]!.address, bytes, value: index + 1 });
          session.endDispatch(queue, pass, index);
        });
        session.endPass(queue, pass);
      }
      const result = await session.decode(queue);
      expect(result.dispatches).toHaveLength(sizes.length);
      sizes.forEach((bytes, index) => {
        const written = result.dispatches[index]!['dram__bytes_write.sum']!;
        expect(written).toBeGreaterThan(0.7 * bytes);
        expect(written).toBeLessThan(1.3 * bytes);
        expect(result.dispatches[index]!['gpu__time_duration.sum']).toBeGreaterThan(0);
      });
      expect(result.values).toEqual(result.dispatches[0]);
      expect(() => session.beginDispatch(queue, 1, sizes.length)).toThrow(ArgumentError);
      await session.dispose();
      await queue.dispose();
      for (const buffer of buffers) buffer.free();
    });
  }
});
