import { describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { defaultProfileConditions, profileConditions } from './profile-conditions.js';

describe('profileConditions', () => {
  it('fills what is not given from the defaults: a write-discard flush, instruction caches evicted, cache control all, no warm run, one sample', () => {
    expect(profileConditions()).toEqual({ l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 0, samples: 1 });
    expect(profileConditions({ l2Flush: 'read', warmRuns: 2 })).toEqual({ ...defaultProfileConditions, l2Flush: 'read', warmRuns: 2 });
    expect(profileConditions({ samples: 5 }, { ...defaultProfileConditions, warmRuns: 2, samples: 3 })).toMatchObject({ warmRuns: 2, samples: 5 });
  });

  it('returns a frozen copy, so a result records the conditions it was measured under', () => {
    const given = { l2Flush: 'none' as const };
    const conditions = profileConditions(given);
    expect(Object.isFrozen(conditions)).toBe(true);
    expect(conditions).not.toBe(given);
  });

  it('refuses a condition it does not know, naming what each one takes', () => {
    const refusals: [unknown, RegExp][] = [
      [{ l2Flush: 'evict-last' }, /^\[replay\] \[profile-conditions\] l2Flush is "evict-last", not one of write-discard, read, none\. /],
      [{ instructionCache: 'reload' }, /instructionCache is "reload", not one of evict, keep\. /],
      [{ cacheControl: 'some' }, /cacheControl is "some", not one of all, none\. /],
      [{ warmRuns: -1 }, /warmRuns is -1, not a whole number >= 0\. /],
      [{ warmRuns: 0.5 }, /warmRuns is 0\.5, not a whole number >= 0\. /],
      [{ samples: 0 }, /samples is 0, not a whole number >= 1\. /],
      [{ samples: Number.NaN }, /samples is NaN, not a whole number >= 1\. /],
      [{ touchStride: 4096 }, /touchStride is not a profile condition \(l2Flush, instructionCache, cacheControl, warmRuns, samples\)\. /],
      ['write-discard', /conditions is "write-discard", not an object\. /],
    ];
    for (const [given, message] of refusals) {
      const error = (() => {
        try {
          profileConditions(given as never);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error, JSON.stringify(given)).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toMatch(message);
    }
  });
});
