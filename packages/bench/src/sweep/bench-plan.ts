import { exactBytes } from '../format-units.js';
import type { BenchConfiguration, SideSweep } from './bench-configuration.js';
import { makeCell } from './bench-cell.js';
import type { BenchCell, SweepName } from './bench-cell.js';
import { memoryNeed, whyNotFits } from './memory-bounds.js';
import type { MemoryBounds } from './memory-bounds.js';

/** A cell left out, and why. */
export interface SkippedCell {
  readonly key: string;
  readonly reason: string;
}

/** The runs of a benchmark, in order, and what was left out. */
export interface BenchPlan {
  readonly cells: readonly BenchCell[];
  readonly skipped: readonly SkippedCell[];
  readonly notes: readonly string[];
}

/**
 * Expands a configuration into cells: the main sweep (variant x footprint x passes), then the
 * write-fraction, dispatch-count and stream sweeps. Cells the machine cannot hold are skipped with
 * the reason; `extraVariants` (baseline providers) join every sweep but the stream sweep.
 */
export function planBench(configuration: BenchConfiguration, bounds: MemoryBounds, extraVariants: readonly string[] = []): BenchPlan {
  const variants = [...configuration.variants, ...extraVariants];
  const cells = new Map<string, BenchCell>();
  const skipped = new Map<string, SkippedCell>();
  const notes: string[] = [];
  const add = (variant: string, sweep: SweepName, footprintBytes: number, passes: number, dispatches: number, writeFraction: number, streams: number) => {
    const cell = makeCell({ variant, sweep, footprintBytes, passes, dispatches, writeFraction, streams });
    if (cells.has(cell.key) || skipped.has(cell.key)) return;
    const reason = whyNotFits(memoryNeed(variant, footprintBytes, streams), bounds);
    if (reason === null) cells.set(cell.key, cell);
    else skipped.set(cell.key, { key: cell.key, reason });
  };
  const { dispatches, writeFraction, sweepPasses } = configuration;
  const granule = 65536;
  const shares = (configuration.footprintsOfDevice ?? []).map((share) => Math.max(4 * granule, Math.floor((share * bounds.deviceFreeBytes) / granule) * granule));
  for (const footprint of [...configuration.footprints, ...shares]) {
    for (const variant of variants) {
      for (const passes of configuration.passes) add(variant, 'passes', footprint, passes, dispatches, writeFraction, 1);
    }
  }
  const at = (name: string, sweep: SideSweep<number>) => sideFootprint(name, sweep, configuration.footprints, bounds, notes);
  const writeFootprint = at('write-fraction', configuration.writeFractionSweep);
  const dispatchFootprint = at('dispatch-count', configuration.dispatchSweep);
  const streamFootprint = at('stream', configuration.streamSweep);
  for (const variant of variants) {
    for (const fraction of configuration.writeFractionSweep.values) add(variant, 'write-fraction', writeFootprint, sweepPasses, dispatches, fraction, 1);
    for (const count of configuration.dispatchSweep.values) add(variant, 'dispatches', dispatchFootprint, sweepPasses, count, writeFraction, 1);
  }
  for (const variant of configuration.variants) {
    for (const streams of configuration.streamSweep.values) add(variant, 'streams', streamFootprint, sweepPasses, dispatches, writeFraction, streams);
  }
  return { cells: [...cells.values()], skipped: [...skipped.values()], notes };
}

/** The sweep's footprint, or the largest smaller footprint that fits when it does not. */
function sideFootprint(name: string, sweep: SideSweep<number>, footprints: readonly number[], bounds: MemoryBounds, notes: string[]): number {
  const fits = (bytes: number) => whyNotFits(memoryNeed('full/device', bytes, 1), bounds) === null;
  if (fits(sweep.footprintBytes)) return sweep.footprintBytes;
  const smaller = [...footprints, 16 * 2 ** 20].filter((bytes) => bytes < sweep.footprintBytes && fits(bytes));
  const chosen = smaller.length > 0 ? Math.max(...smaller) : sweep.footprintBytes;
  if (chosen !== sweep.footprintBytes) notes.push(`the ${name} sweep ran at ${exactBytes(chosen)}: ${exactBytes(sweep.footprintBytes)} does not fit on this machine`);
  return chosen;
}
