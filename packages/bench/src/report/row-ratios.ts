import type { CeilingPath, CopyCeiling } from '../baselines/copy-ceiling.js';
import type { RowSummary } from './row-summary.js';

/** A row's ratios to the baselines measured in the same run: row / baseline, so lower is better for times and bytes. */
export interface RowRatios {
  /** Against the `reference` row of the same configuration; null when there is none. */
  readonly vsReference: {
    /** Mean wall time per dispatch. */
    readonly time: number;
    /** Capture + restore time per dispatch; null when the reference's is 0. */
    readonly snapshotTime: number | null;
    /** Bytes copied per dispatch; null when the row's bytes were not measured. */
    readonly bytes: number | null;
  } | null;
  /**
   * Snapshot time against plain copy plans of the footprint at the ceiling's rates, captured once
   * and restored passes - 1 times: through pinned host memory (`hostLink`) or device to device
   * (`device`). Null when no ceiling was measured at the footprint.
   */
  readonly vsCopyCeiling: { readonly hostLink: number | null; readonly device: number | null } | null;
  /** The time the row's own bytes (copied and hashed) take at the ceiling's rates, over its snapshot time. */
  readonly ceilingEfficiency: number | null;
}

/** What a row contributes to its ratios. */
export interface RatioInput {
  readonly footprintBytes: number;
  readonly passes: number;
  readonly bytesMeasured: boolean;
  readonly summary: RowSummary;
}

const divide = (numerator: number, denominator: number) => (denominator > 0 && Number.isFinite(numerator) ? numerator / denominator : null);

/** The ratios of `row` to its reference row (if any) and the ceiling at its footprint (if any). */
export function rowRatios(row: RatioInput, reference: RatioInput | undefined, ceiling: CopyCeiling | undefined): RowRatios {
  const { summary } = row;
  const vsReference = reference
    ? {
        time: summary.meanDispatchMs / reference.summary.meanDispatchMs,
        snapshotTime: divide(summary.snapshotMs, reference.summary.snapshotMs),
        bytes: row.bytesMeasured ? divide(summary.bytesPerDispatch.copied, reference.summary.bytesPerDispatch.copied) : null,
      }
    : null;
  if (!ceiling) return { vsReference, vsCopyCeiling: null, ceilingEfficiency: null };
  const seconds = (path: CeilingPath, bytes: number) => {
    const rate = ceiling.paths.find((measured) => measured.path === path)?.bytesPerSecond;
    return bytes === 0 ? 0 : rate ? bytes / rate : Number.NaN;
  };
  const footprint = row.footprintBytes;
  const restores = row.passes - 1;
  const hostLinkMs = 1000 * (seconds('device-to-host-pinned', footprint) + restores * seconds('host-pinned-to-device', footprint));
  const deviceMs = 1000 * seconds('device-to-device', footprint) * row.passes;
  const bytes = summary.bytesPerDispatch;
  const idealMs =
    1000 *
    (seconds('device-to-device', bytes.deviceToDevice) +
      seconds('device-to-host-pinned', bytes.deviceToHost) +
      seconds('host-pinned-to-device', bytes.hostToDevice) +
      seconds('hash', bytes.hashed));
  return {
    vsReference,
    vsCopyCeiling: { hostLink: divide(summary.snapshotMs, hostLinkMs), device: divide(summary.snapshotMs, deviceMs) },
    ceilingEfficiency: row.bytesMeasured ? divide(idealMs, summary.snapshotMs) : null,
  };
}
