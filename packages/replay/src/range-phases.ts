import type { RangeDispatchRequest } from './range-request.js';
import type { PassScope } from './pass-provider.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { phase, type WindowPhase } from './window-phase.js';
import type { WindowTarget } from './window-phases.js';

/**
 * The phase of pass `pass` of a range: beginPass (with `scope`: how many dispatches the pass
 * runs), then per dispatch its copies before (one enqueueCopy per segment), beginDispatch, its
 * kernel, endDispatch, and endPass. One phase, so the window's recovery and timing treat the
 * sequence as one pass. The dispatches are in order, all on the target's queue.
 */
export function rangePassPhase(target: WindowTarget, dispatches: readonly RangeDispatchRequest[], scope: PassScope, pass: number): WindowPhase {
  const { provider, queue } = target;
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
