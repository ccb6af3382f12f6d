import type { KernelDescriptor, Queue } from '@kreplay/native';
import type { DispatchContext } from '@kreplay/snapshot';
import { mergeResolutions, type ArgumentResolution } from '@kreplay/tracker';
import { resolveRangeDispatch, type AcceptedRange } from './accept-range.js';
import { collectRangePasses } from './collect-passes.js';
import type { DispatchRequest } from './dispatch-request.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { PassProvider, PassScope } from './pass-provider.js';
import { declineRange } from './range-declines.js';
import { rangePassPhase } from './range-phases.js';
import type { RangeResult } from './range-result.js';
import type { WindowPhase } from './window-phase.js';
import type { WindowTarget } from './window-phases.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/** What a range reaches: the merge of its dispatches' resolutions, and each of them. */
export interface RangeReach extends WindowReach {
  /** Each dispatch's resolution, made when the range's window is prepared. */
  readonly resolutions: readonly ArgumentResolution[];
}

/** What a range's passes collected: `collect`'s one value, or `collectRange`'s value per dispatch. */
export interface RangeCollected extends WindowCollected {
  readonly perDispatch: readonly unknown[] | undefined;
}

/**
 * A range as a window's unit: one snapshot of the whole sequence, every pass running it all.
 *
 * A range is one list given up front and the engine enqueues its dispatches back to back, so the
 * program cannot allocate or free memory between them. What can change is the memory the list was
 * made for: between `dispatchRange()` and this window (the windows queued before it on the queue
 * run first) an allocation a dispatch reached may have been freed, or its address allocated again.
 * Then the list no longer describes the memory, and the range is declined (`allocations-changed`)
 * and runs once on the memory that is there now; when a pointer now lands in no live allocation at
 * all, it cannot run even once, and the range is refused.
 */
export class RangeUnit implements WindowUnit<RangeReach, RangeCollected, RangeResult> {
  readonly #range: AcceptedRange;
  readonly #scope: PassScope;

  constructor(range: AcceptedRange) {
    this.#range = range;
    this.#scope = Object.freeze({ dispatches: range.dispatches.length });
  }

  get queue(): Queue {
    return this.first.queue;
  }

  /** The first dispatch: the pass provider is asked the pass count with it, and every dispatch gets that count. */
  get first(): DispatchRequest {
    return this.#range.dispatches[0]!;
  }

  get kernel(): KernelDescriptor {
    return rangeKernel(this.#range.dispatches);
  }

  /**
   * Resolves each dispatch again, merges them (what the whole sequence reaches), and finds the
   * first decline a dispatch calls for.
   * @throws {ArgumentError} when the tracker refuses the arguments, or a dispatch reaches memory
   * freed since the range was requested.
   */
  reach(engine: ResolvedEngineOptions): RangeReach {
    const { dispatches, requested } = this.#range;
    const resolutions = dispatches.map((dispatch) => resolveRangeDispatch(engine, dispatch));
    const resolution = mergeResolutions(resolutions);
    return { resolution, resolutions, decline: declineRange(dispatches, requested, resolutions) };
  }

  /** The range as one dispatch context: its first dispatch's kernel and arguments, the merged resolution, and `dispatches` listing each. */
  strategyContext(engine: ResolvedEngineOptions, { resolution, resolutions }: RangeReach): DispatchContext {
    const { queue, kernel, args } = this.first;
    return {
      runtime: engine.runtime,
      agent: queue.agent,
      queue,
      kernel,
      args,
      tracker: engine.tracker,
      resolution,
      staging: engine.staging,
      dispatches: this.#range.dispatches.map(({ kernel, args }, index) => ({ kernel, args, resolution: resolutions[index]! })),
    };
  }

  snapshotDeclineReason(reason: string): string {
    return `${reason} (for a range of ${this.#range.dispatches.length} dispatches)`;
  }

  passPhase(target: WindowTarget, pass: number): WindowPhase {
    return rangePassPhase(target, this.#range.dispatches, this.#scope, pass);
  }

  /** @throws {ReplayPluginError} when `collectRange` or `collect` throws, or `collectRange` breaks its contract. */
  collect(provider: PassProvider, queue: Queue, phases: readonly WindowPhase[]): RangeCollected {
    return collectRangePasses(provider, queue, phases, this.#range.dispatches.length);
  }

  /** The window's result with each dispatch's name and, from `collectRange`, its value. */
  shape(result: DispatchResult, { perDispatch }: RangeCollected): RangeResult {
    return {
      ...result,
      dispatches: this.#range.dispatches.map((dispatch, index) => ({
        kernelName: dispatch.kernel.name,
        ...(perDispatch === undefined ? {} : { collected: perDispatch[index] }),
      })),
    };
  }
}

/** A descriptor naming the range, for notes about the sequence as a whole. */
export function rangeKernel(dispatches: readonly DispatchRequest[]): KernelDescriptor {
  const names = dispatches.map((dispatch) => dispatch.kernel.name);
  return {
    name: `range (${names.length > 4 ? `${names.slice(0, 4).join(', ')}, ... ${names.length} dispatches` : names.join(', ')})`,
    deterministic: dispatches.every((dispatch) => dispatch.kernel.deterministic),
    parameters: [],
  };
}
