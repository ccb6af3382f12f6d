import { Option } from 'commander';
import type { ProfilerCacheControl, ProfilerInstructionCache, ProfilerL2Flush } from '@kreplay/native';
import type { ProfileConditions, ProfileConditionsInput } from '@kreplay/replay';

/** The parsed flags of `kreplay profile` that set its measurement conditions. */
export interface ConditionFlags {
  readonly l2Flush: ProfilerL2Flush;
  readonly instructionCache: ProfilerInstructionCache;
  readonly cacheControl?: ProfilerCacheControl;
  /** Absent: the workload's default. */
  readonly warmRuns?: number;
  /** Absent: the workload's default. */
  readonly samples?: number;
}

/** `--l2-flush` and `--instruction-cache`, as ncu's `--cache-control` (docs/measurement-conditions.md says what each does). */
export function conditionFlags(): { readonly l2Flush: Option; readonly instructionCache: Option } {
  return {
    l2Flush: new Option('--l2-flush <how>', 'the L2 before each pass: write-discard (written and its lines dropped, empty as ncu leaves it), read (full of clean lines), or none').choices(['write-discard', 'read', 'none']).default('write-discard'),
    instructionCache: new Option('--instruction-cache <state>', "the instruction caches before each pass: evict (other code run on every multiprocessor, as under ncu's cache control) or keep").choices(['evict', 'keep']).default('evict'),
  };
}

/** The conditions the flags name; warm runs and samples only where given, so the workload's defaults hold otherwise. */
export function conditionsFromFlags(flags: ConditionFlags): ProfileConditionsInput {
  return {
    l2Flush: flags.l2Flush,
    instructionCache: flags.instructionCache,
    ...(flags.cacheControl === undefined ? {} : { cacheControl: flags.cacheControl }),
    ...(flags.warmRuns === undefined ? {} : { warmRuns: flags.warmRuns }),
    ...(flags.samples === undefined ? {} : { samples: flags.samples }),
  };
}

/** The L2 and instruction-cache conditions in words, for the terminal report. */
export function describeConditions(conditions: ProfileConditions): string {
  const flush = conditions.l2Flush === 'none' ? 'no L2 flush' : `L2 ${conditions.l2Flush} flush`;
  return `${flush}, instruction caches ${conditions.instructionCache === 'evict' ? 'evicted' : 'kept'}`;
}
