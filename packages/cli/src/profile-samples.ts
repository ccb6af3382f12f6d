import { median } from '@kreplay/bench';
import type { ProfileRow } from './profile-dispatches.js';

/**
 * The row of one dispatch measured `rows.length` times (each a sample: every pass, from the same
 * memory): each metric's median over the samples, their wall time and bytes summed, and (for more
 * than one) each sample's values in `sampleMetrics`. A sample that collected nothing (declined,
 * failed, no values) makes the row carry its error and no metrics, so that a median is never taken
 * over fewer samples than were asked for.
 * @throws {Error} when `rows` is empty or its rows are of different dispatches (a caller's bug).
 */
export function medianOfSamples(rows: readonly ProfileRow[]): ProfileRow {
  const first = rows[0];
  if (first === undefined) throw new Error('[cli] [profile] medianOfSamples needs at least one sample');
  if (rows.some((row) => row.dispatch !== first.dispatch)) throw new Error(`[cli] [profile] samples of dispatches ${rows.map((row) => row.dispatch).join(', ')} cannot be combined into one row`);
  const combined = {
    ...first,
    ...(rows.length > 1 && { sampleMetrics: rows.map((row) => row.metrics) }),
    wallMs: rows.reduce((sum, row) => sum + row.wallMs, 0),
    bytesCopied: rows.reduce((sum, row) => sum + row.bytesCopied, 0),
    replayed: rows.every((row) => row.replayed),
  };
  const failed = rows.findIndex((row) => row.metrics === null || row.error !== undefined || row.declineReason !== undefined);
  if (failed !== -1) {
    const row = rows[failed]!;
    const why = row.error ?? (row.declineReason === undefined ? 'no values' : `declined: ${row.declineReason}`);
    return { ...combined, ...(row.declineReason && { declineReason: row.declineReason }), metrics: null, error: `sample ${failed + 1} of ${rows.length}: ${why}` };
  }
  const metrics = Object.fromEntries(Object.keys(first.metrics!).map((metric) => [metric, median(rows.map((row) => row.metrics![metric] ?? Number.NaN))]));
  return { ...combined, metrics };
}

/**
 * Runs `profileOnce` (one sample: the dispatch made ready from its memory, then every pass)
 * `samples` times, one after another, and returns {@link medianOfSamples} of their rows.
 * @throws {Error} when `samples` is not a whole number >= 1 (the command line checked it first).
 */
export async function profileSamples(samples: number, profileOnce: (sample: number) => Promise<ProfileRow>): Promise<ProfileRow> {
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`[cli] [profile] samples is ${samples}, not a whole number >= 1`);
  const rows: ProfileRow[] = [];
  while (rows.length < samples) rows.push(await profileOnce(rows.length));
  return medianOfSamples(rows);
}
