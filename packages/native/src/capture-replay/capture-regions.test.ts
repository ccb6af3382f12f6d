import { describe, expect, it } from 'vitest';
import type { CaptureLaunch, CaptureMemoryKind } from '../capture-folder-types.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { captureRegions, captureReservations, placementOrder } from './capture-regions.js';

const MiB = 2 ** 20;

function launch(sequence: number, ranges: readonly [number, number, CaptureMemoryKind][]): CaptureLaunch {
  return {
    sequence,
    file: `launches/${String(sequence).padStart(8, '0')}.json`,
    function: 'k',
    module: '0'.repeat(32) + '-1',
    shape: { grid: [1, 1, 1], block: [1, 1, 1], dynamicSharedBytes: 0, clusterDims: null, attributes: [] },
    parameterBuffer: new Uint8Array(0),
    parameters: [],
    pageBytes: 65536,
    memory: ranges.map(([base, bytes, kind]) => ({ base, bytes, kind, label: kind === 'module-global' ? 'g' : '', pagesBefore: [], pageHashesAfter: [], pageHashesBefore: null })),
    formatVersion: 1,
    stream: null,
    context: null,
    follows: null,
    sequenceBreak: null,
    workBefore: [],
    graph: null,
  };
}

describe('captureRegions', () => {
  it('merges overlapping ranges over launches, keeps touching ones apart and leaves module globals out', () => {
    const base = 0x7f00_0000_0000;
    const regions = captureRegions([
      launch(0, [
        [base, MiB, 'device'],
        [base + MiB, MiB, 'pool'],
        [base + 64 * MiB, 4096, 'host-pinned'],
        [0x1000, 64, 'module-global'],
      ]),
      // A range inside the first, and a registered host range inside the pinned one.
      launch(1, [
        [base + 4096, MiB / 2, 'vmm'],
        [base + 64 * MiB + 1024, 1024, 'host-registered'],
      ]),
    ]);
    expect(regions).toEqual([
      { address: base, bytes: MiB, placement: 'device' },
      { address: base + MiB, bytes: MiB, placement: 'device' },
      { address: base + 64 * MiB, bytes: 4096, placement: 'host' },
    ]);
    // The same allocation grown after a free overlaps its neighbour: one region.
    expect(captureRegions([launch(0, [[base, MiB, 'device'], [base + MiB, MiB, 'pool']]), launch(1, [[base, 1.5 * MiB, 'device']])])).toEqual([
      { address: base, bytes: 2 * MiB, placement: 'device' },
    ]);
  });

  it('refuses device memory overlapping host memory, naming both', () => {
    const base = 0x7f00_0000_0000;
    expect(() => captureRegions([launch(0, [[base, 8192, 'device']]), launch(1, [[base + 4096, 8192, 'host-pinned']])])).toThrow(CaptureFormatError);
    expect(() => captureRegions([launch(0, [[base, 8192, 'device']]), launch(1, [[base + 4096, 8192, 'host-pinned']])])).toThrow(
      /launches\/00000001\.json has host memory at 0x7f0000001000 \(8192 bytes\), which overlaps device memory at 0x7f0000000000 \(8192 bytes\) of launches\/00000000\.json/,
    );
  });
});

describe('captureReservations', () => {
  it('widens each region to 2 MiB, merges the windows of one kind that then meet, and marks those of device memory and of host memory beside it', () => {
    const base = 0x7f00_0000_0000;
    const reservations = captureReservations([
      launch(0, [
        [base + 4096, 4096, 'device'],
        [base + 2 * MiB - 4096, 8192, 'device'], // crosses into the next window
        [base + 10 * MiB, 4096, 'host-pinned'],
        [base + 12 * MiB, 4096, 'device'], // touches the host window: kept apart from it
      ]),
    ]);
    // The host region lies in the device regions' 32 MiB window: CUDA maps it there, so it is marked
    // too, and its reservation merges with the device region it touches.
    expect(reservations).toEqual([
      { address: BigInt(base), bytes: 4 * MiB, device: true },
      { address: BigInt(base + 10 * MiB), bytes: 4 * MiB, device: true },
    ]);
    // Host memory in a 32 MiB window of its own keeps an unmarked reservation.
    expect(captureReservations([launch(0, [[base + 4096, 4096, 'device'], [base + 40 * MiB, 4096, 'host-pinned']])])).toEqual([
      { address: BigInt(base), bytes: 2 * MiB, device: true },
      { address: BigInt(base + 40 * MiB), bytes: 2 * MiB },
    ]);
    expect(captureReservations([])).toEqual([]);
  });
});

describe('placementOrder', () => {
  it('maps host memory away from device memory first, then device memory, then host memory in its windows', () => {
    const base = 0x7f00_0000_0000;
    const regions = captureRegions([
      launch(0, [
        [base + 4 * MiB, 4096, 'host-pinned'], // in the device region's 32 MiB window
        [base + 6 * MiB, 8192, 'device'],
        [base + 64 * MiB, 4096, 'host-pinned'], // a window of its own
      ]),
    ]);
    expect(placementOrder(regions).map((region) => region.address)).toEqual([base + 64 * MiB, base + 6 * MiB, base + 4 * MiB]);
    expect(placementOrder([])).toEqual([]);
  });
});
