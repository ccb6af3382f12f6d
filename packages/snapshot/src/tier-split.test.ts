import { describe, expect, it } from 'vitest';
import type { CandidateRange } from './candidate-ranges.js';
import { layOutRanges } from './staging-layout.js';
import { splitRanges } from './tier-split.js';

const range = (address: number, bytes: number): CandidateRange => ({ address, bytes, kind: 'device' });
const laidOut = (ranges: readonly CandidateRange[]) => layOutRanges(ranges).bytes;

describe('splitRanges', () => {
  it('puts whole ranges first, then cuts the one that crosses the room at a granule boundary', () => {
    const ranges = [range(0x10000, 5000), range(0x40000, 10 * 4096 + 7), range(0x90000, 300)];
    const split = splitRanges(ranges, 4096, 5120 + 3 * 4096, laidOut);
    expect(split.device).toEqual([range(0x10000, 5000), range(0x40000, 3 * 4096)]);
    expect(split.host).toEqual([range(0x40000 + 3 * 4096, 7 * 4096 + 7), range(0x90000, 300)]);
  });

  it('gives everything to one side when the room holds all or nothing', () => {
    const ranges = [range(0x10000, 8192), range(0x20000, 100)];
    expect(splitRanges(ranges, 4096, 1 << 20, laidOut)).toEqual({ device: ranges, host: [] });
    expect(splitRanges(ranges, 4096, 4095, laidOut)).toEqual({ device: [], host: ranges });
  });

  it('keeps every byte exactly once, in order, and the device part within the room', () => {
    const ranges = [range(0, 70_000), range(1 << 20, 4096), range(2 << 20, 1), range(3 << 20, 200_000)];
    for (const room of [0, 4096, 65_536, 100_000, 150_000, 262_144, 300_000]) {
      const { device, host } = splitRanges(ranges, 4096, room, laidOut);
      expect(laidOut(device)).toBeLessThanOrEqual(room);
      const bytes = [...device, ...host].reduce((sum, each) => sum + each.bytes, 0);
      expect(bytes).toBe(ranges.reduce((sum, each) => sum + each.bytes, 0));
      const ends = [...device, ...host].map((each) => [each.address, each.address + each.bytes]);
      ends.slice(1).forEach(([start], index) => expect(start).toBeGreaterThanOrEqual(ends[index]![1]!));
    }
  });
});
