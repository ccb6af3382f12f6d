import { describe, expect, it } from 'vitest';
import { validateScatterWorkloadOptions } from './scatter-workload.js';

describe('validateScatterWorkloadOptions', () => {
  it('returns the options with their defaults, without an agent', () => {
    expect(validateScatterWorkloadOptions({ footprintBytes: 2 ** 20, writeFraction: 0.1 })).toEqual({ footprintBytes: 2 ** 20, writeFraction: 0.1, stateShare: 0.8, inputShare: 0.15, pageBytes: 65536 });
  });

  it('names the option at fault', () => {
    expect(() => validateScatterWorkloadOptions({ footprintBytes: 2 ** 20, writeFraction: 0.1, inputShare: 0.5 })).toThrow(expect.objectContaining({ argument: 'stateShare' }));
    expect(() => validateScatterWorkloadOptions({ footprintBytes: 65536, writeFraction: 0.1 })).toThrow(/footprintBytes must be a whole number >= 262144, got 65536/);
    expect(() => validateScatterWorkloadOptions({ footprintBytes: 2 ** 20, writeFraction: Number.NaN })).toThrow(expect.objectContaining({ argument: 'writeFraction' }));
  });
});
