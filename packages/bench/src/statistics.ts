/** The median of some samples (the mean of the middle two for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The arithmetic mean of some samples (NaN when there are none). */
export function mean(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  let total = 0;
  for (const sample of samples) total += sample;
  return total / samples.length;
}

/** Seconds elapsed since `start` (a value of `process.hrtime.bigint()`). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
