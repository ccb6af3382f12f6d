import { describe, expect, it } from 'vitest';
import { exactBytes, formatBytes, formatRate } from './format-units.js';

describe('formatRate', () => {
  it('prints rates in GiB/s, binary as byte sizes are, with three significant digits', () => {
    expect(formatRate(55.3e9)).toBe('51.5 GiB/s');
    expect(formatRate(2 ** 30)).toBe('1.00 GiB/s');
    expect(formatRate(3900e9)).toBe('3632 GiB/s');
    expect(formatRate(0.0123 * 2 ** 30)).toBe('0.0123 GiB/s');
    expect(formatRate(null)).toBe('-');
    expect(formatRate(Number.POSITIVE_INFINITY)).toBe('-');
  });

  it('uses the same binary units as the byte sizes beside it', () => {
    expect(formatBytes(64 * 2 ** 20)).toBe('64.0 MiB');
    expect(exactBytes(2 ** 30)).toBe('1GiB');
    expect(formatRate(64 * 2 ** 20)).toBe('0.0625 GiB/s');
  });
});
