import { benchArgumentError } from './argument-error.js';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import type { SnapshotStrategy, StagingTierChoice } from '@kreplay/snapshot';

/** The strategies kreplay ships, by name. */
export const strategyNames = ['full', 'write-set', 'dirty-pages'] as const;

/** A shipped strategy's name. */
export type StrategyName = (typeof strategyNames)[number];

/**
 * Makes a shipped strategy from its name.
 * @throws ArgumentError for a name that is not a shipped strategy.
 */
export function strategyByName(name: string, options: { readonly tier: StagingTierChoice }): SnapshotStrategy {
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
