import { snapshotArgumentError } from './argument-error.js';
import type { StagingTierChoice } from './staging-types.js';

const tierChoices: readonly StagingTierChoice[] = ['auto', 'device', 'host-pinned', 'host-pageable'];

/**
 * Checks a strategy's tier option.
 * @throws ArgumentError naming the strategy and the valid tiers.
 */
export function validateTierChoice(tier: string, strategy: string): StagingTierChoice {
  if ((tierChoices as readonly string[]).includes(tier)) return tier as StagingTierChoice;
  throw snapshotArgumentError(strategy, 'tier', `unknown staging tier "${tier}"`, `Choose one of ${tierChoices.join(', ')}`);
}

/**
 * Checks a page size: a power of two from 256 bytes to 64 MiB.
 * @throws ArgumentError naming the strategy.
 */
export function validatePageBytes(pageBytes: number, strategy: string): number {
  const isPowerOfTwo = Number.isSafeInteger(pageBytes) && pageBytes > 0 && (pageBytes & (pageBytes - 1)) === 0;
  if (isPowerOfTwo && pageBytes >= 256 && pageBytes <= 64 * 2 ** 20) return pageBytes;
  throw snapshotArgumentError(
    strategy,
    'pageBytes',
    `pageBytes must be a power of two from 256 to 64 MiB, got ${String(pageBytes)}`,
    'The default, 65536, suits GPUs',
  );
}
