import { describe, expect, it } from 'vitest';
import { accessBits, accessFromBits, mayWrite } from './access.js';

describe('access', () => {
  it('combines accesses: unknown is readwrite, read plus write is readwrite', () => {
    const combine = (...accesses: Parameters<typeof accessBits>[0][]) =>
      accessFromBits(accesses.reduce((bits, access) => bits | accessBits(access), 0));
    expect(combine('read')).toBe('read');
    expect(combine('write', 'write')).toBe('write');
    expect(combine('read', 'write')).toBe('readwrite');
    expect(combine('read', 'unknown')).toBe('readwrite');
    expect(combine(undefined)).toBe('readwrite');
    expect([mayWrite('read'), mayWrite('write'), mayWrite('unknown'), mayWrite(undefined)]).toEqual([false, true, true, true]);
  });
});
