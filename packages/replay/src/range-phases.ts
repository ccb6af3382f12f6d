import type { RangeDispatchRequest } from './range-request.js';
import type { PassScope } from './pass-provider.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { phase, type WindowPhase } from './window-phase.js';
import type { PassTarget } from './window-phases.js';

/** What a range's pass enqueues: the whole sequence, with the provider's hooks around each dispatch. */
export interface RangeTarget extends PassTarget {
  /** The range's dispatches, in order, all on `queue`, each with the copies enqueued before it. */
  readonly dispatches: readonly RangeDispatchRequest[];
  /** Handed to `beginPass`: how many dispatches each pass runs. */
  readonly scope: PassScope;
}

/**
 * The phase of pass `pass` of a range: beginPass, then per dispatch its copies before (one
 * enqueueCopy per segment), beginDispatch, its kernel, endDispatch, and endPass. One phase, so the
 * window's recovery and timing treat the sequence as one pass.
 */
export function rangePassPhase(target: RangeTarget, pass: number): WindowPhase {
  const { provider, queue, dispatches, scope } = target;
  const identity: PluginIdentity = { kind: 'pass provider', name: provider.name };
  return phase('pass', pass, () => {
    runPluginHook(identity, 'beginPass', () => provider.beginPass(pass, queue, scope));
    for (let index = 0; index < dispatches.length; index += 1) {
      const { kernel, args, launch, before } = dispatches[index]!;
      // A segment alone goes through the driver's copy call, never a copy kernel (see RangeDispatch.before).
      for (const segment of before ?? []) if (segment.bytes > 0) queue.enqueueCopy([segment]);
      if (provider.beginDispatch !== undefined) runPluginHook(identity, 'beginDispatch', () => provider.beginDispatch!(pass, index, queue));
      if (launch === undefined) queue.enqueueKernel(kernel, args);
      else queue.enqueueKernel(kernel, args, launch);
      if (provider.endDispatch !== undefined) runPluginHook(identity, 'endDispatch', () => provider.endDispatch!(pass, index, queue));
    }
    runPluginHook(identity, 'endPass', () => provider.endPass(pass, queue));
  });
}
