import { UnsupportedError } from '@kreplay/native';
import type { CaptureLaunch } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { profileEachLaunch } from './profile-capture.js';
import type { ProfileRow } from './profile-dispatches.js';

const launch = (sequence: number, name: string) => ({ sequence, function: name }) as CaptureLaunch;
const measured = (one: CaptureLaunch): ProfileRow => ({ dispatch: one.sequence, kernel: one.function, range: null, replayed: true, passes: 2, wallMs: 1, bytesCopied: 0, metrics: { 'gpu__time_duration.sum': 1000 } });

describe('profileEachLaunch', () => {
  it('gives a launch that fails a row with its error, and goes on with the next launch', async () => {
    const done: number[] = [];
    const rows = await profileEachLaunch(
      [launch(0, 'gemm'), launch(1, 'relu'), launch(2, 'gemm')],
      async (one) => {
        if (one.sequence === 1) throw new Error('[native] [capture] module abc cannot be loaded. Capture again.');
        return measured(one);
      },
      (count) => done.push(count),
    );
    expect(rows.map((row) => [row.dispatch, row.kernel, row.metrics === null, row.error ?? null])).toEqual([
      [0, 'gemm', false, null],
      [1, 'relu', true, '[native] [capture] module abc cannot be loaded. Capture again.'],
      [2, 'gemm', false, null],
    ]);
    expect(rows[1]).toMatchObject({ replayed: false, passes: 0, range: null });
    expect(done).toEqual([1, 2, 3]);
  });

  it('stops at a capture that cannot run on this device at all (another architecture), said once', async () => {
    const unsupported = new UnsupportedError({ packageName: 'native', component: 'capture', driver: 'cuda', feature: 'replay of a capture from another architecture', message: 'sm_100 on sm_90' });
    await expect(profileEachLaunch([launch(0, 'gemm'), launch(1, 'gemm')], () => Promise.reject(unsupported))).rejects.toBe(unsupported);
  });
});
