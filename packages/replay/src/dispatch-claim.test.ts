import { describe, expect, it } from 'vitest';
import type { ArgumentResolution } from '@kreplay/tracker';
import { writableRanges } from './dispatch-claim.js';

function resolution(reached: ArgumentResolution['reached']): ArgumentResolution {
  return { bounded: true, reached, reasons: [], unresolved: [] } as unknown as ArgumentResolution;
}

const reachedRange = (address: number, access: 'read' | 'write' | 'readwrite') =>
  ({ allocation: { id: address }, access, parameters: ['p'], range: { address, bytes: 64 } }) as unknown as ArgumentResolution['reached'][number];

describe('writableRanges', () => {
  it('derives the written ranges of a frozen resolution once, and a new one for another resolution', () => {
    const frozen = Object.freeze(resolution(Object.freeze([reachedRange(4096, 'read'), reachedRange(8192, 'readwrite')])));
    const writes = writableRanges(frozen);
    expect(writes).toEqual([{ address: 8192, bytes: 64 }]);
    expect(writableRanges(frozen)).toBe(writes);
    expect(Object.isFrozen(writes)).toBe(true);
    const other = Object.freeze(resolution(Object.freeze([reachedRange(8192, 'write'), reachedRange(12288, 'write')])));
    expect(writableRanges(other)).toEqual([{ address: 8192, bytes: 64 }, { address: 12288, bytes: 64 }]);
  });

  it('derives them again for a resolution that is not frozen (it may change)', () => {
    const reached = [reachedRange(4096, 'write')];
    const open = resolution(reached);
    expect(writableRanges(open)).toEqual([{ address: 4096, bytes: 64 }]);
    reached.push(reachedRange(8192, 'write'));
    expect(writableRanges(open)).toEqual([{ address: 4096, bytes: 64 }, { address: 8192, bytes: 64 }]);
  });

  it('is everything when the arguments are not bounded', () => {
    expect(writableRanges(Object.freeze({ ...resolution([]), bounded: false }))).toBe('everything');
  });
});
