import type { CaptureLaunch } from '@kreplay/native';
import type { RangeResult } from '@kreplay/replay';
import { addByteAccounts } from '@kreplay/snapshot';
import { profileRow, type CollectedMetrics, type ProfileRange, type ProfileRow } from './profile-dispatches.js';
import { medianOfSamples } from './profile-samples.js';
import { graphField } from './graph-profiling.js';

/** One sample of a range of captured launches: the range prepared from its captured memory, then all its passes. */
export interface CaptureRangeSample {
  readonly result: RangeResult;
  /** Bytes written to make memory as before its first launch. */
  readonly bytesPrepared: number;
  /** Bytes the copies before its launches write in one run. */
  readonly bytesBefore: number;
}

/**
 * The rows and the range entry of a range of captured launches profiled `samples.length` times:
 * per launch, the median of its metrics over the samples (medianOfSamples, each sample's row
 * holding its share of the range's wall time and bytes), named by its sequence and function and
 * by the range's index; the range's passes, wall time (all samples, and per launch), bytes
 * restored and prepared summed over the samples, the copies before its launches of one run.
 * @throws {Error} when there is no sample (a caller's bug).
 */
export function assembleCaptureRange(launches: readonly CaptureLaunch[], index: number, samples: readonly CaptureRangeSample[]): { readonly rows: ProfileRow[]; readonly range: ProfileRange } {
  const last = samples.at(-1);
  if (last === undefined) throw new Error('[cli] [profile] a range needs at least one sample');
  const count = launches.length;
  const rows = launches.map((launch, position) =>
    medianOfSamples(
      samples.map(({ result }) => ({
        ...profileRow(launch.sequence, index, result, result.dispatches[position]?.collected as CollectedMetrics | undefined, count),
        kernel: launch.function,
        ...graphField(launch),
      })),
    ),
  );
  const wallMs = samples.reduce((sum, sample) => sum + sample.result.timings.wallMs, 0);
  const failed = samples.find((sample) => sample.result.failure !== undefined)?.result.failure;
  const declined = samples.find((sample) => sample.result.declineReason !== undefined)?.result.declineReason;
  const range: ProfileRange = {
    first: launches[0]!.sequence,
    dispatches: count,
    launches: launches.map((launch) => launch.sequence),
    replayed: samples.every((sample) => sample.result.replayed),
    passes: last.result.passes,
    wallMs,
    wallMsPerDispatch: wallMs / count,
    bytesCopied: samples.reduce((sum, sample) => sum + sample.result.bytesCopied, 0),
    bytesBefore: last.bytesBefore,
    bytesPrepared: samples.reduce((sum, sample) => sum + sample.bytesPrepared, 0),
    tier: last.result.tier,
    bytes: samples.map((sample) => sample.result.bytes).reduce(addByteAccounts),
    ...(declined !== undefined && { declineReason: declined }),
    ...(failed !== undefined && { error: `${failed.phase}: ${failed.error.message}` }),
  };
  return { rows, range };
}
