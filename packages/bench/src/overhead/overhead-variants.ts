import { replayVariants } from '../sweep/replay-variants.js';
import type { ReplayVariant } from '../sweep/replay-variants.js';

/** A way to replay: one of the benchmark's replay variants, or the vendor checkpoint baseline. */
export type OverheadVariant =
  | { readonly name: string; readonly kind: 'replay'; readonly replay: ReplayVariant }
  | { readonly name: string; readonly kind: 'checkpoint' };

/**
 * The variants issue 4 asks for, in the order they are reported: the benchmark's replay variants
 * (the reference design is reported as `full/pageable`), then the CUPTI Checkpoint API.
 */
export const overheadVariants: readonly OverheadVariant[] = [
  { name: 'full/pageable', kind: 'replay', replay: replayVariants.reference },
  { name: 'full/pinned', kind: 'replay', replay: replayVariants['full/pinned'] },
  { name: 'full/device', kind: 'replay', replay: replayVariants['full/device'] },
  { name: 'write-set', kind: 'replay', replay: replayVariants['write-set'] },
  { name: 'dirty-pages', kind: 'replay', replay: replayVariants['dirty-pages'] },
  { name: 'cupti-checkpoint', kind: 'checkpoint' },
];
