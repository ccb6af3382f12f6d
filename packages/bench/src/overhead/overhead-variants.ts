import type { StagingTierChoice } from '@kreplay/snapshot';

/** A way to replay: a strategy in a tier, or the vendor checkpoint baseline. */
export interface OverheadVariant {
  readonly name: string;
  readonly strategy: 'full' | 'write-set' | 'dirty-pages' | 'checkpoint';
  readonly tier: StagingTierChoice;
  /** Staging allocated per dispatch (the reference design) instead of pooled. */
  readonly perDispatchStaging?: boolean;
}

/** The variants issue 4 asks for, in the order they are reported. */
export const overheadVariants: readonly OverheadVariant[] = [
  { name: 'full/pageable', strategy: 'full', tier: 'host-pageable', perDispatchStaging: true },
  { name: 'full/pinned', strategy: 'full', tier: 'host-pinned' },
  { name: 'full/device', strategy: 'full', tier: 'device' },
  { name: 'write-set', strategy: 'write-set', tier: 'auto' },
  { name: 'dirty-pages', strategy: 'dirty-pages', tier: 'auto' },
  { name: 'cupti-checkpoint', strategy: 'checkpoint', tier: 'device' },
];
