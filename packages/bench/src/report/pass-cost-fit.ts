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
  /**
   * False when the fit says nothing about the costs: a negative or non-finite coefficient, or an
   * R² below {@link meaningfulFitRSquared}. Reports and charts show such a fit as not meaningful.
   * Absent in reports written before it was added: {@link passCostFitCaveat} judges any fit.
   */
  readonly meaningful?: boolean;
  /** Why the fit is not meaningful; null when it is (absent where `meaningful` is). */
  readonly caveat?: string | null;
}

/**
 * The least R² a pass-cost fit needs to be shown as a cost: below it the pass count explains less
 * than half of the spread of the dispatch times, so the slope and intercept are mostly noise.
 */
export const meaningfulFitRSquared = 0.5;

/** The numbers of a fit that decide whether it is meaningful (a report's JSON turns NaN into null). */
export interface FitCoefficients {
  readonly fixedMs: number | null;
  readonly perPassMs: number | null;
  readonly rSquared: number | null;
}

/**
 * Why a pass-cost fit is not meaningful, or null when it is: a coefficient that is not finite or is
 * negative (a cost cannot be), or an R² below {@link meaningfulFitRSquared}. Works on fits read from
 * reports written before fits carried `meaningful`.
 */
export function passCostFitCaveat(fit: FitCoefficients): string | null {
  const { fixedMs, perPassMs, rSquared } = fit;
  if (fixedMs === null || perPassMs === null || rSquared === null || ![fixedMs, perPassMs, rSquared].every(Number.isFinite)) {
    return 'the fit is not finite (the times did not vary with the pass count)';
  }
  const reasons: string[] = [];
  if (perPassMs < 0) reasons.push(`per-pass cost is negative (${perPassMs.toPrecision(3)} ms)`);
  if (fixedMs < 0) reasons.push(`fixed cost is negative (${fixedMs.toPrecision(3)} ms)`);
  if (rSquared < meaningfulFitRSquared) reasons.push(`R² ${rSquared.toFixed(3)} below ${meaningfulFitRSquared}`);
  return reasons.length === 0 ? null : reasons.join('; ');
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

function judged(fixedMs: number, perPassMs: number, rSquared: number): { meaningful: boolean; caveat: string | null } {
  const caveat = passCostFitCaveat({ fixedMs, perPassMs, rSquared });
  return { meaningful: caveat === null, caveat };
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
      ...judged(fit.intercept, fit.slope, fit.rSquared),
    });
  }
  return fits;
}
