import { fitLine } from '../least-squares-fit.js';
import { exactBytes } from '../format-units.js';
import type { DispatchSample } from './dispatch-sample.js';

/** Per-dispatch cost split by least squares over the pass sweep: time per dispatch = fixed + perPass x passes. */
export interface PassCostFit {
  /** `variant/footprint/d<dispatches>/w<writeFraction>/s<streams>`: the rows' key without passes. */
  readonly key: string;
  readonly variant: string;
  readonly footprintBytes: number;
  readonly dispatches: number;
  readonly writeFraction: number;
  readonly streams: number;
  /** The pass counts fitted. */
  readonly passes: readonly number[];
  readonly fixedMs: number;
  readonly perPassMs: number;
  /** Standard errors of the two coefficients; null when there are only two points. */
  readonly fixedStandardErrorMs: number | null;
  readonly perPassStandardErrorMs: number | null;
  readonly rSquared: number;
  /** Dispatch samples fitted (after the first of each run, when a run has more than one). */
  readonly points: number;
}

/** What the fit needs of a row. */
export interface FitInput {
  readonly variant: string;
  readonly sweep: string;
  readonly footprintBytes: number;
  readonly dispatches: number;
  readonly writeFraction: number;
  readonly streams: number;
  readonly passes: number;
  readonly samples: readonly DispatchSample[];
}

/** Fits the pass-sweep rows of each configuration that has at least two pass counts. */
export function fitPassCosts(rows: readonly FitInput[]): PassCostFit[] {
  const groups = new Map<string, FitInput[]>();
  for (const row of rows) {
    if (row.sweep !== 'passes' || row.samples.length === 0) continue;
    const key = `${row.variant}/${exactBytes(row.footprintBytes)}/d${row.dispatches}/w${row.writeFraction}/s${row.streams}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const fits: PassCostFit[] = [];
  for (const [key, group] of groups) {
    if (new Set(group.map((row) => row.passes)).size < 2) continue;
    const x: number[] = [];
    const y: number[] = [];
    for (const row of group) {
      for (const sample of row.samples.length > 1 ? row.samples.slice(1) : row.samples) {
        x.push(row.passes);
        y.push(sample.wallMs);
      }
    }
    const fit = fitLine(x, y);
    const { variant, footprintBytes, dispatches, writeFraction, streams } = group[0]!;
    fits.push({
      key, variant, footprintBytes, dispatches, writeFraction, streams,
      passes: [...new Set(x)].sort((a, b) => a - b),
      fixedMs: fit.intercept,
      perPassMs: fit.slope,
      fixedStandardErrorMs: fit.interceptStandardError,
      perPassStandardErrorMs: fit.slopeStandardError,
      rSquared: fit.rSquared,
      points: fit.points,
    });
  }
  return fits;
}
