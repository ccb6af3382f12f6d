import type { QuiesceMode } from '@kreplay/replay';
import type { StagingTierChoice } from '@kreplay/snapshot';
import type { StrategyName } from '../strategy-by-name.js';

/** The replay configurations a benchmark compares, by name. */
export const replayVariantNames = ['reference', 'full/pinned', 'full/device', 'write-set', 'dirty-pages'] as const;

/** A replay configuration's name. */
export type ReplayVariantName = (typeof replayVariantNames)[number];

/** How one variant replays: strategy, staging tier, staging reuse and quiesce scope. */
export interface ReplayVariant {
  readonly name: ReplayVariantName;
  readonly strategy: StrategyName;
  readonly tier: StagingTierChoice;
  readonly reuse: 'pooled' | 'per-dispatch';
  readonly quiesce: QuiesceMode;
  readonly description: string;
}

/**
 * The variants. `reference` emulates the reference design (rocprofiler-sdk kernel replay): the whole
 * footprint to pageable host memory allocated per dispatch, after draining every queue of the agent.
 */
export const replayVariants: Readonly<Record<ReplayVariantName, ReplayVariant>> = {
  reference: {
    name: 'reference', strategy: 'full', tier: 'host-pageable', reuse: 'per-dispatch', quiesce: 'agent',
    description: 'full + host-pageable + staging allocated per dispatch + agent-wide quiesce (the reference design)',
  },
  'full/pinned': {
    name: 'full/pinned', strategy: 'full', tier: 'host-pinned', reuse: 'pooled', quiesce: 'queue',
    description: 'the whole footprint, to pooled pinned host memory',
  },
  'full/device': {
    name: 'full/device', strategy: 'full', tier: 'device', reuse: 'pooled', quiesce: 'queue',
    description: 'the whole footprint, to pooled spare device memory',
  },
  'write-set': {
    name: 'write-set', strategy: 'write-set', tier: 'auto', reuse: 'pooled', quiesce: 'queue',
    description: 'only the allocations the kernel can write, staged on device while it fits',
  },
  'dirty-pages': {
    name: 'dirty-pages', strategy: 'dirty-pages', tier: 'auto', reuse: 'pooled', quiesce: 'queue',
    description: 'only the pages that changed, found by hashing a retained mirror',
  },
};

/** Whether `name` is a {@link ReplayVariantName}. */
export function isReplayVariantName(name: unknown): name is ReplayVariantName {
  return (replayVariantNames as readonly unknown[]).includes(name);
}
