import { benchArgumentError } from './argument-error.js';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import type { DisposableSnapshotStrategy, StagingTierChoice } from '@kreplay/snapshot';

/** The strategies kreplay ships, by name. */
export const strategyNames = ['full', 'write-set', 'dirty-pages'] as const;

/** A shipped strategy's name. */
export type StrategyName = (typeof strategyNames)[number];

/**
 * Makes a shipped strategy from its name; the caller disposes it (`using`, or `dispose()` after the
 * engines that use it).
 * @throws ArgumentError for a name that is not a shipped strategy.
 */
export function strategyByName(name: string, options: { readonly tier: StagingTierChoice }): DisposableSnapshotStrategy {
  switch (name) {
    case 'full':
      return fullStrategy(options);
    case 'write-set':
      return writeSetStrategy(options);
    case 'dirty-pages':
      return dirtyPagesStrategy(options);
    default:
      throw benchArgumentError('strategy', 'strategy', `unknown strategy "${name}"`, `Choose one of ${strategyNames.join(', ')}`);
  }
}
