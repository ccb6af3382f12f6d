import { UnsupportedError } from '@kreplay/native';
import type { CaptureLaunch } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { profileEachRange } from './profile-capture.js';
import type { ProfileRow } from './profile-dispatches.js';

const launch = (sequence: number, name: string) => ({ sequence, function: name }) as CaptureLaunch;
const measured = (one: CaptureLaunch): ProfileRow => ({ dispatch: one.sequence, kernel: one.function, range: null, replayed: true, passes: 2, wallMs: 1, bytesCopied: 0, metrics: { 'gpu__time_duration.sum': 1000 } });

describe('profileEachRange', () => {
  it('gives each launch of a range that fails a row with its error, and goes on with the next range', async () => {
    const done: number[] = [];
    const { rows, ranges } = await profileEachRange(
      [[launch(0, 'gemm')], [launch(1, 'relu'), launch(2, 'gemm')], [launch(3, 'gemm')]],
      async (launches) => {
        if (launches.length > 1) throw new Error('[native] [capture] module abc cannot be loaded. Capture again.');
        return { rows: launches.map(measured) };
      },
      (count) => done.push(count),
    );
    expect(rows.map((row) => [row.dispatch, row.kernel, row.metrics === null, row.error ?? null])).toEqual([
      [0, 'gemm', false, null],
      [1, 'relu', true, '[native] [capture] module abc cannot be loaded. Capture again.'],
      [2, 'gemm', true, '[native] [capture] module abc cannot be loaded. Capture again.'],
      [3, 'gemm', false, null],
    ]);
    expect(rows[1]).toMatchObject({ replayed: false, passes: 0, range: null });
    expect(ranges).toEqual([]);
    expect(done).toEqual([1, 3, 4]);
  });

  it('stops at a capture that cannot run on this device at all (another architecture), said once', async () => {
    const unsupported = new UnsupportedError({ packageName: 'native', component: 'capture', driver: 'cuda', feature: 'replay of a capture from another architecture', message: 'sm_100 on sm_90' });
    await expect(profileEachRange([[launch(0, 'gemm')], [launch(1, 'gemm')]], () => Promise.reject(unsupported))).rejects.toBe(unsupported);
  });
});
