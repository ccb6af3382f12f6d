import { describe, expect, it } from 'vitest';
import type { HostBuffer } from '@kreplay/native';
import { layOutMirror } from './mirror-layout.js';
import { MirrorPart } from './mirror-part.js';

/** Where the made-up staging of {@link mirrorOf} starts. */
const leaseAddress = 2 ** 40;

/** A mirror part over made-up addresses: nothing is allocated or enqueued. */
function mirrorOf(rangeBytes: readonly number[], pageBytes: number, readback = new Uint8Array(0), readbackOffset = 0): MirrorPart {
  const ranges = rangeBytes.map((bytes, index) => ({ address: (index + 1) * 2 ** 30, bytes, kind: 'device' as const }));
  const layout = layOutMirror(ranges, pageBytes);
  const lease = { tier: 'device' as const, agentId: 0, address: leaseAddress, bytes: layout.bytes, release: () => undefined, [Symbol.dispose]: () => undefined };
  return new MirrorPart(ranges, layout, lease, { address: 2 ** 41, view: () => readback } as unknown as HostBuffer, readbackOffset);
}

describe('MirrorPart', () => {
  it('counts the bytes of listed pages per range, short last pages at their size', () => {
    // Ranges of 2.5, 1 and 0.25 pages: pages 0-2 (the last 2048 bytes), 3, and 4 (1024 bytes).
    const set = mirrorOf([10240, 4096, 1024], 4096);
    expect(set.layout.totalPages).toBe(5);
    expect(set.bytesPerRange(Uint32Array.of())).toEqual([0, 0, 0]);
    expect(set.bytesPerRange(Uint32Array.of(0, 1))).toEqual([8192, 0, 0]);
    expect(set.bytesPerRange(Uint32Array.of(2, 4, 3))).toEqual([2048, 4096, 1024]);
    expect(set.bytesPerRange(Uint32Array.of(4, 2, 1, 0, 3))).toEqual([10240, 4096, 1024]);
  });

  it('reads the recorded page lists from the readback buffer, each as long as its count says, at most every page', () => {
    // Two ranges of 3 and 2 pages: the control block holds two lists of 5 words, then the two counts.
    const readback = new Uint8Array(4 * 12);
    const set = mirrorOf([3 * 4096, 2 * 4096], 4096, readback);
    const words = new Uint32Array(readback.buffer);
    words.set([4, 0, 9, 9, 9], 0); // captured: pages 4 and 0
    words.set([1, 2, 3, 9, 9], 5); // learned: pages 1, 2 and 3
    words.set([2, 3], 10);
    expect([...set.recordedPages('capture')]).toEqual([4, 0]);
    expect([...set.recordedPages('learned')]).toEqual([1, 2, 3]);
    expect(set.bytesPerRange(set.recordedPages('learned'))).toEqual([8192, 4096]);
    words[10] = 0;
    words[11] = 99; // a count past the pages is held to them
    expect([...set.recordedPages('capture')]).toEqual([]);
    expect(set.recordedPages('learned')).toHaveLength(5);
  });

  it('freezes its copy segments and operations, whose addresses follow the layout', () => {
    const set = mirrorOf([10240, 4096], 4096);
    const { operations, layout } = set;
    const at = (offset: number) => leaseAddress + offset;
    for (const frozen of [set.toMirror, set.fromMirror, ...set.toMirror, operations, operations.captureKnownWriters, operations.readControlBlock]) {
      expect(Object.isFrozen(frozen)).toBe(true);
    }
    expect(operations.captureKnownWriters).toMatchObject({
      segments: set.toMirror,
      pageBytes: 4096,
      pageListAddress: at(layout.learnedListOffset),
      pageCountAddress: at(layout.countsOffset + 4),
      storedHashesAddress: at(layout.hashesOffset),
    });
    expect(operations.captureChangedPages).toMatchObject({ hashedSide: 'source', updateStoredHashes: true, pageListAddress: at(layout.captureListOffset), pageCountAddress: at(layout.countsOffset) });
    expect(operations.restoreLearning).toMatchObject({ segments: set.fromMirror, hashedSide: 'destination', updateStoredHashes: false, pageListAddress: at(layout.learnedListOffset) });
    expect(operations.restoreLearned).toEqual({ segments: set.fromMirror, pageBytes: 4096, pageListAddress: at(layout.learnedListOffset), pageCountAddress: at(layout.countsOffset + 4) });
    expect(operations.readControlBlock).toEqual([{ source: at(layout.captureListOffset), destination: 2 ** 41, bytes: layout.controlBytes }]);
  });

  it('reads its control block at its offset of a readback buffer it shares with another part', () => {
    const readback = new Uint8Array(4 * 20);
    const part = mirrorOf([2 * 4096], 4096, readback, 24);
    const words = new Uint32Array(readback.buffer);
    words.set([7, 7, 7, 7, 7, 7], 0); // the other part's control block
    words.set([1, 9, 0, 1, 1, 2], 6); // captured: page 1; learned: pages 0 and 1
    expect([...part.recordedPages('capture')]).toEqual([1]);
    expect([...part.recordedPages('learned')]).toEqual([0, 1]);
    expect(part.operations.readControlBlock[0]!.destination).toBe(2 ** 41 + 24);
  });
});
