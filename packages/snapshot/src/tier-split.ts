import type { CandidateRange } from './candidate-ranges.js';

/** Candidate ranges cut in two at a granule boundary: the first part for the device, the rest for the host. */
export interface RangeSplit {
  readonly device: readonly CandidateRange[];
  readonly host: readonly CandidateRange[];
}

/**
 * The largest prefix of `ranges` (in whole granules, a range cut at a granule boundary from its
 * start) whose staging, as `stagingBytes` lays it out, fits in `roomBytes`; the rest goes to the
 * host part. `stagingBytes` must grow with the ranges it is given (a binary search relies on it).
 */
export function splitRanges(
  ranges: readonly CandidateRange[],
  granule: number,
  roomBytes: number,
  stagingBytes: (ranges: readonly CandidateRange[]) => number,
): RangeSplit {
  const granules = ranges.map((range) => Math.ceil(range.bytes / granule));
  const total = granules.reduce((sum, count) => sum + count, 0);
  let low = 0; // fits
  let high = total + 1; // does not fit
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (stagingBytes(cutRanges(ranges, granules, granule, middle).device) <= roomBytes) low = middle;
    else high = middle;
  }
  return cutRanges(ranges, granules, granule, low);
}

function cutRanges(ranges: readonly CandidateRange[], granules: readonly number[], granule: number, deviceGranules: number): RangeSplit {
  const device: CandidateRange[] = [];
  const host: CandidateRange[] = [];
  let left = deviceGranules;
  ranges.forEach((range, index) => {
    const count = granules[index]!;
    if (left >= count) device.push(range);
    else if (left === 0) host.push(range);
    else {
      const bytes = left * granule;
      device.push({ address: range.address, bytes, kind: range.kind });
      host.push({ address: range.address + bytes, bytes: range.bytes - bytes, kind: range.kind });
    }
    left = Math.max(0, left - count);
  });
  return { device, host };
}
