import { exactBytes } from '../format-units.js';

/** Which sweep a cell belongs to. */
export type SweepName = 'passes' | 'write-fraction' | 'dispatches' | 'streams';

/** One run of the benchmark: a variant at one point of the sweep. */
export interface BenchCell {
  /** `variant/footprint/p<passes>/d<dispatches>/w<writeFraction>/s<streams>`: how rows are matched across reports. */
  readonly key: string;
  /** A replay variant, or a baseline provider such as `cupti-checkpoint`. */
  readonly variant: string;
  readonly footprintBytes: number;
  readonly passes: number;
  readonly dispatches: number;
  readonly writeFraction: number;
  readonly streams: number;
  readonly sweep: SweepName;
}

/** The configuration key of a cell. */
export function cellKey(cell: Omit<BenchCell, 'key' | 'sweep'>): string {
  return `${cell.variant}/${exactBytes(cell.footprintBytes)}/p${cell.passes}/d${cell.dispatches}/w${cell.writeFraction}/s${cell.streams}`;
}

/** A cell with its key filled in. */
export function makeCell(cell: Omit<BenchCell, 'key'>): BenchCell {
  return { key: cellKey(cell), ...cell };
}
