import type { CopyCeiling } from '../baselines/copy-ceiling.js';
import type { RunMeasurement } from '../measure/run-measurement.js';
import { cellKey } from '../sweep/bench-cell.js';
import type { BenchRow } from './bench-report.js';
import { rowRatios } from './row-ratios.js';
import type { RatioInput } from './row-ratios.js';
import { summarizeSamples } from './row-summary.js';

/**
 * Turns runs into report rows: each summarised, with its ratios to the `reference` run of the same
 * configuration and to the copy ceiling at its footprint. Runs without a sample are left out.
 */
export function buildRows(runs: readonly RunMeasurement[], ceilings: readonly CopyCeiling[], unmeasuredBytes: ReadonlySet<string>): BenchRow[] {
  const summarized = runs
    .filter((run) => run.samples.length > 0)
    .map((run) => ({
      run,
      input: {
        footprintBytes: run.cell.footprintBytes,
        passes: run.cell.passes,
        bytesMeasured: !unmeasuredBytes.has(run.cell.variant),
        summary: summarizeSamples(run.samples, run.cell.footprintBytes, run.cell.passes),
      } satisfies RatioInput,
    }));
  const byKey = new Map(summarized.map((entry) => [entry.run.cell.key, entry.input]));
  return summarized.map(({ run, input }) => {
    const reference = byKey.get(cellKey({ ...run.cell, variant: 'reference' }));
    const ceiling = ceilings.find((measured) => measured.footprintBytes === run.cell.footprintBytes);
    return {
      ...run.cell,
      strategy: run.strategy,
      tier: run.tier,
      dispatchesRun: run.samples.length,
      seconds: run.seconds,
      stopped: run.stopped,
      bytesMeasured: input.bytesMeasured,
      summary: input.summary,
      memory: run.memory,
      background: run.background,
      ratios: rowRatios(input, reference, ceiling),
      notes: run.notes,
      samples: run.samples,
    };
  });
}
