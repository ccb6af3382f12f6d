import type { ProfilerCacheControl, ProfilerInstructionCache, ProfilerL2Flush } from '@kreplay/native';
import { describeValue, replayArgumentError } from './validate.js';

/**
 * What the profiler does around each profiled pass: the conditions a counter was measured under,
 * chosen by the user, validated once by {@link profileConditions} and recorded in every result.
 * docs/measurement-conditions.md says what each does to the counters and why its default is the default.
 */
export interface ProfileConditions {
  /**
   * The L2 at a pass's start: `write-discard` (default) writes a buffer twice the L2's size and drops
   * its lines, so the L2 holds no valid line, as ncu's invalidation leaves it; `read` reads that
   * buffer, leaving the L2 full of its clean lines; `none` flushes nothing (compare with
   * `ncu --cache-control none`). After a flush 2560 KiB of the buffer are written, as ncu's passes
   * start with about 2.5 MB of dirty lines that are not the kernel's.
   */
  readonly l2Flush: ProfilerL2Flush;
  /** The instruction caches at a pass's start: `evict` (default) runs a kernel of 384 KiB of other code on every multiprocessor first; `keep` leaves them as the run before left them. */
  readonly instructionCache: ProfilerInstructionCache;
  /** In a range of dispatches: `all` (default) flushes the L2 before every dispatch, as ncu's `--cache-control all`; `none` only before each pass. */
  readonly cacheControl: ProfilerCacheControl;
  /** Unprofiled runs of each dispatch before its passes, restored like a pass (default 0). */
  readonly warmRuns: number;
  /**
   * Times the caller profiles each dispatch, each metric's median reported (default 1): a pass
   * provider profiles a dispatch once; `kreplay profile capture:` starts each sample again from the
   * launch's captured memory.
   */
  readonly samples: number;
}

/** Conditions as a caller gives them: any left out take the defaults. */
export type ProfileConditionsInput = Partial<ProfileConditions>;

/** The conditions of a profile nothing else was chosen for. */
export const defaultProfileConditions: ProfileConditions = Object.freeze({
  l2Flush: 'write-discard',
  instructionCache: 'evict',
  cacheControl: 'all',
  warmRuns: 0,
  samples: 1,
});

const names = ['l2Flush', 'instructionCache', 'cacheControl', 'warmRuns', 'samples'] as const;
const choices = {
  l2Flush: ['write-discard', 'read', 'none'],
  instructionCache: ['evict', 'keep'],
  cacheControl: ['all', 'none'],
} as const;
const fixes: Record<(typeof names)[number], string> = {
  l2Flush: 'Pass write-discard (the L2 left empty, as ncu leaves it), read, or none',
  instructionCache: 'Pass evict (as ncu leaves them) or keep',
  cacheControl: 'Pass all (flush before every dispatch of a range) or none',
  warmRuns: 'Pass 0 (profile the first run) or the number of unprofiled runs before the passes, e.g. 2',
  samples: 'Pass 1, or the number of times each dispatch is profiled, e.g. 3',
};

function refuse(name: string, what: string, fix: string): never {
  throw replayArgumentError('profile-conditions', name, what, fix);
}

function requireChoice<Name extends keyof typeof choices>(name: Name, value: unknown): (typeof choices)[Name][number] {
  const allowed: readonly string[] = choices[name];
  if (typeof value === 'string' && allowed.includes(value)) return value as (typeof choices)[Name][number];
  return refuse(name, `${name} is ${describeValue(value)}, not one of ${allowed.join(', ')}`, fixes[name]);
}

function requireCount(name: 'warmRuns' | 'samples', value: unknown, least: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= least) return value;
  return refuse(name, `${name} is ${describeValue(value)}, not a whole number >= ${least}`, fixes[name]);
}

/**
 * The conditions `given` names, each one left out taken from `defaults`, checked and frozen.
 * @throws {ArgumentError} for a value a condition does not take, or a name that is no condition.
 */
export function profileConditions(given: ProfileConditionsInput = {}, defaults: ProfileConditions = defaultProfileConditions): ProfileConditions {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    refuse('conditions', `conditions is ${describeValue(given)}, not an object`, `Pass an object of ${names.join(', ')}`);
  }
  for (const name of Object.keys(given)) {
    if (!(names as readonly string[]).includes(name)) refuse(name, `${name} is not a profile condition (${names.join(', ')})`, 'Leave it out');
  }
  const value = <Name extends keyof ProfileConditions>(name: Name) => given[name] ?? defaults[name];
  return Object.freeze({
    l2Flush: requireChoice('l2Flush', value('l2Flush')),
    instructionCache: requireChoice('instructionCache', value('instructionCache')),
    cacheControl: requireChoice('cacheControl', value('cacheControl')),
    warmRuns: requireCount('warmRuns', value('warmRuns'), 0),
    samples: requireCount('samples', value('samples'), 1),
  });
}
