/**
 * runtime.profiler on the cuda driver (CUPTI's range profiler, user replay). Where libcupti.so is
 * missing (test:fake-cuda points KREPLAY_CUPTI_LIBRARY_DIR at a folder without it) it checks the
 * reason and the error; on a GPU where it loads, the counters of an idempotent fill dispatch run
 * once per pass. Skips without a CUDA device.
 */
import { describe, expect, it } from 'vitest';
import { ArgumentError, openRuntime, queryCuptiMetrics, UnsupportedError } from '../../src/index.js';
import type { Runtime } from '../../src/index.js';
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

/** Runs `body` with environment variable `name` set to `value`, then puts it back. */
async function withSetting(name: string, value: string, body: () => Promise<void>): Promise<void> {
  const previous = process.env[name];
  process.env[name] = value;
  try {
    await body();
  } finally {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  }
}

/** Counts one fill of 256 MiB through every pass of `session`, as kreplay's engine runs them, and checks the bytes it wrote. */
async function countFill(runtime: Runtime, metrics: readonly string[]): Promise<number> {
  const agent = runtime.agents[0]!;
  const bytes = 256 << 20;
  const buffer = agent.allocate(bytes);
  const queue = agent.createQueue();
  const session = await runtime.profiler!.createSession({ metrics: [...metrics], range: 'kernel' });
  for (let pass = 1; pass <= session.passCount; pass += 1) {
    session.beginPass(queue, pass);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: 7 });
    session.endPass(queue, pass);
    if (pass < session.passCount) session.afterRun(queue);
  }
  const result = await session.decode(queue);
  expect(result.values['gpu__time_duration.sum']).toBeGreaterThan(0);
  expect(result.values['dram__bytes_write.sum']!).toBeGreaterThan(0.7 * bytes);
  expect(result.values['dram__bytes_write.sum']!).toBeLessThan(1.3 * bytes);
  const passes = session.passCount;
  await session.dispose();
  await queue.dispose();
  buffer.free();
  return passes;
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

  for (const instructionCaches of ['evict', 'reload', 'off'] as const) {
    it.skipIf(profilerReason !== null || cuda.fake)(`counts a fill with KREPLAY_PROFILER_ICACHE=${instructionCaches} before each pass`, async () => {
      await withSetting('KREPLAY_PROFILER_ICACHE', instructionCaches, async () => {
        await using runtime = await openRuntime({ driver: 'cuda' });
        await countFill(runtime, ['gpu__time_duration.sum', 'dram__bytes_write.sum']);
      });
    });
  }

  for (const [name, value] of [
    ['KREPLAY_PROFILER_L2_FLUSH', 'write'],
    ['KREPLAY_PROFILER_L2_FLUSH', 'read'],
    ['KREPLAY_PROFILER_L2_FLUSH_ROUNDS', '3'],
    ['KREPLAY_PROFILER_L2_FLUSH_AT', 'restore'],
    ['KREPLAY_PROFILER_L2_DIRTY_KIB', '0'],
  ] as const) {
    it.skipIf(profilerReason !== null || cuda.fake)(`counts a fill with ${name}=${value}`, async () => {
      await withSetting(name, value, async () => {
        await using runtime = await openRuntime({ driver: 'cuda' });
        await countFill(runtime, ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'lts__throughput.avg.pct_of_peak_sustained_elapsed']);
      });
    });
  }

  it.skipIf(profilerReason !== null || cuda.fake)('refuses an L2 flush setting it does not know, naming what it takes', async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    const refused = [
      ['KREPLAY_PROFILER_L2_FLUSH_AT', 'later', /KREPLAY_PROFILER_L2_FLUSH_AT=later is not pass or restore/],
      ['KREPLAY_PROFILER_L2_FLUSH_ROUNDS', '0', /KREPLAY_PROFILER_L2_FLUSH_ROUNDS=0 is not a whole number from 1 to 16/],
      ['KREPLAY_PROFILER_L2_DIRTY_KIB', '2097152', /KREPLAY_PROFILER_L2_DIRTY_KIB=2097152 is not a whole number of KiB up to 1048576/],
      ['KREPLAY_PROFILER_L2_DIRTY_KIB', '1048576', /KREPLAY_PROFILER_L2_DIRTY_KIB=1048576 is more than the flush buffer's \d+ KiB/],
      ['KREPLAY_PROFILER_L2_FLUSH', 'twice', /KREPLAY_PROFILER_L2_FLUSH=twice is not on, write-discard, read, off, evict-last, copy, discard or write/],
    ] as const;
    for (const [name, value, message] of refused) {
      await withSetting(name, value, async () => {
        await expect(runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], range: 'kernel' })).rejects.toThrow(message);
      });
    }
  });

  it.skipIf(profilerReason !== null || cuda.fake)('refuses a KREPLAY_PROFILER_ICACHE it does not know, naming the choices', async () => {
    await withSetting('KREPLAY_PROFILER_ICACHE', 'flush', async () => {
      await using runtime = await openRuntime({ driver: 'cuda' });
      await expect(runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], range: 'kernel' })).rejects.toThrow(
        /KREPLAY_PROFILER_ICACHE=flush is not off, evict or reload/,
      );
    });
  });

  it.skipIf(profilerReason !== null || cuda.fake)('lets CUPTI replay the kernel inside one pass with KREPLAY_PROFILER_REPLAY=kernel', async () => {
    const metrics = ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 'lts__throughput.avg.pct_of_peak_sustained_elapsed'];
    await using runtime = await openRuntime({ driver: 'cuda' });
    const userPasses = await countFill(runtime, metrics);
    await withSetting('KREPLAY_PROFILER_REPLAY', 'kernel', async () => {
      expect(await countFill(runtime, metrics)).toBe(1);
    });
    expect(userPasses).toBeGreaterThan(1);
  });

  it.skipIf(profilerReason !== null || cuda.fake)('refuses KREPLAY_PROFILER_REPLAY=kernel with the dispatch range, and a replay it does not know', async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    await withSetting('KREPLAY_PROFILER_REPLAY', 'kernel', async () => {
      await expect(runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], range: 'dispatch' })).rejects.toThrow(
        /KREPLAY_PROFILER_REPLAY=kernel needs the kernel range/,
      );
    });
    await withSetting('KREPLAY_PROFILER_REPLAY', 'application', async () => {
      await expect(runtime.profiler!.createSession({ metrics: ['gpu__time_duration.sum'], range: 'kernel' })).rejects.toThrow(
        /KREPLAY_PROFILER_REPLAY=application is not user or kernel/,
      );
    });
  });

  for (const [range, cacheControl] of [['kernel', 'all'], ['kernel', 'none'], ['dispatch', 'all']] as const) {
    it.skipIf(profilerReason !== null || cuda.fake)(`counts each dispatch of a range on its own (${range} range, cache control ${cacheControl})`, async () => {
      await using runtime = await openRuntime({ driver: 'cuda' });
      const agent = runtime.agents[0]!;
      // Each larger than the L2 (50 MiB on an H200), so what a fill writes reaches DRAM within its range.
      const sizes = [256 << 20, 512 << 20, 384 << 20, 320 << 20];
      const buffers = sizes.map((bytes) => agent.allocate(bytes));
      const queue = agent.createQueue();
      const metrics = ['gpu__time_duration.sum', 'dram__bytes_write.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'];
      const session = await runtime.profiler!.createSession({ metrics, range, cacheControl });
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
