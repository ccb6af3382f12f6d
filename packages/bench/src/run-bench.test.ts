import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import type { Runtime } from '@kreplay/native';
import type { CheckpointProvider } from './baselines/checkpoint-provider.js';
import { parseBenchReport } from './report/parse-bench-report.js';
import type { BenchReport } from './report/bench-report.js';
import { runBench } from './run-bench.js';
import type { BenchConfiguration } from './sweep/bench-configuration.js';
import { benchPresets } from './sweep/bench-presets.js';
import { replayVariantNames } from './sweep/replay-variants.js';

const MiB = 2 ** 20;
/** A reduced configuration: every variant and sweep, at 4 MiB and three dispatches. */
const tiny: BenchConfiguration = {
  ...benchPresets.quick,
  preset: 'test',
  footprints: [4 * MiB],
  passes: [2, 3],
  dispatches: 3,
  writeFractionSweep: { footprintBytes: 4 * MiB, values: [0.1] },
  dispatchSweep: { footprintBytes: 4 * MiB, values: [1] },
  streamSweep: { footprintBytes: 4 * MiB, values: [2] },
  ceilingRepetitions: 1,
  backgroundSoloSeconds: 0.05,
};

describe('runBench on the host driver', () => {
  let runtime: Runtime;
  let report: BenchReport;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host' });
    report = await runBench(runtime, { configuration: tiny });
  });
  afterAll(() => runtime.dispose());

  it('measures every variant with ratios to the reference and to the copy ceiling', () => {
    expect(report).toMatchObject({ schema: 'kreplay-bench-report', version: 1, complete: true, driver: 'host' });
    for (const variant of replayVariantNames) {
      const rows = report.rows.filter((row) => row.variant === variant && row.sweep === 'passes');
      expect(rows.map((row) => row.passes)).toEqual([2, 3]);
      for (const row of rows) {
        expect(row.samples).toHaveLength(row.dispatchesRun);
        expect(row.ratios.vsReference?.time).toBeGreaterThan(0);
        expect(row.ratios.vsCopyCeiling?.hostLink).toBeGreaterThan(0);
        expect(row.summary.bytesModelPerDispatch).toBe(4 * MiB * row.passes);
        expect(row.memory.rssPeakBytes).toBeGreaterThanOrEqual(row.memory.rssBaselineBytes);
      }
    }
    const reference = report.rows.find((row) => row.key === 'reference/4MiB/p3/d3/w0.01/s1')!;
    expect(reference.ratios.vsReference?.time).toBe(1);
    expect(reference.memory.stagingHostHighWaterBytes).toBe(4 * MiB);
    const dirty = report.rows.find((row) => row.key === 'dirty-pages/4MiB/p3/d3/w0.01/s1')!;
    expect(dirty.ratios.vsReference!.bytes!).toBeLessThan(1);
    expect(dirty.summary.bytesPerDispatch.hashed).toBeGreaterThan(0);
  });

  it('fits fixed and per-pass cost per variant, and records the ceiling, the machine and the side sweeps', () => {
    expect(report.fits.map((fit) => fit.variant).sort()).toEqual([...replayVariantNames].sort());
    expect(report.baselines.copyCeilings[0]!.paths.map((path) => path.path)).toContain('device-to-host-pinned');
    expect(report.baselines.checkpoint).toMatchObject({ provider: 'cupti-checkpoint', available: false });
    expect(report.baselines.checkpoint.reason).toMatch(/not available on the host driver/);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.versions.bench).toMatch(/^\d+\.\d+\.\d+/);
    const streams = report.rows.filter((row) => row.sweep === 'streams');
    expect(streams).toHaveLength(replayVariantNames.length);
    for (const row of streams) expect(Number.isFinite(row.background!.throughputLost)).toBe(true);
    expect(report.rows.some((row) => row.sweep === 'write-fraction' && row.writeFraction === 0.1)).toBe(true);
    expect(report.rows.some((row) => row.sweep === 'dispatches' && row.dispatchesRun === 1)).toBe(true);
  });

  it('round-trips through JSON and the report parser', () => {
    expect(parseBenchReport(JSON.stringify(report), 'r.json')).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('stops on abort and marks the report incomplete', async () => {
    const controller = new AbortController();
    const partial = await runBench(runtime, {
      configuration: tiny,
      signal: controller.signal,
      onProgress: ({ done }) => done === 2 && controller.abort(),
    });
    expect(partial.complete).toBe(false);
    expect(partial.rows.length).toBeGreaterThan(0);
    expect(partial.rows.length).toBeLessThan(report.rows.length);
    expect(partial.notes.some((note) => note.startsWith('interrupted after'))).toBe(true);
  });

  it('runs an available checkpoint provider as one more baseline', async () => {
    const sleep = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
    const provider: CheckpointProvider = {
      name: 'fake-checkpoint',
      unavailableReason: () => null,
      open: async () => ({ save: sleep, restore: sleep, dispose: async () => {} }),
    };
    const configuration = { ...tiny, variants: ['reference' as const], writeFractionSweep: { ...tiny.writeFractionSweep, values: [] } };
    const withProvider = await runBench(runtime, { configuration, checkpoint: provider });
    expect(withProvider.baselines.checkpoint).toEqual({ provider: 'fake-checkpoint', available: true, reason: null });
    const rows = withProvider.rows.filter((row) => row.variant === 'fake-checkpoint');
    expect(rows.map((row) => row.sweep).sort()).toEqual(['dispatches', 'passes', 'passes']);
    expect(rows.every((row) => !row.bytesMeasured && row.ratios.vsReference!.bytes === null)).toBe(true);
    expect(withProvider.fits.map((fit) => fit.variant).sort()).toEqual(['fake-checkpoint', 'reference']);
  });
});
