import type { CopySegment, KernelArguments, KernelDescriptor, KernelLaunch, Queue, Runtime } from '@kreplay/native';
import type { DispatchRequest } from './dispatch-request.js';
import { describeValue, replayArgumentError } from './validate.js';
import { validateRequest } from './validate-request.js';

/** One dispatch of a range. */
export interface RangeDispatch {
  /** Optional; when given it must be the range's queue (a range runs on one queue). */
  readonly queue?: Queue;
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
  /** The grid and block of a user kernel (runtime.loadKernel); absent for a built-in kernel. */
  readonly launch?: KernelLaunch;
  /** The kernel takes part in cross-device work: the range is run once, not replayed. */
  readonly crossDevice?: boolean;
  /** The dispatch is a graph launch: the range is run once, not replayed. */
  readonly graph?: boolean;
  /**
   * Copies enqueued on the range's queue right before this dispatch, in every run of the range
   * (every pass, warm run, or the one run of a declined range), each segment on its own (so that
   * no copy kernel runs between a pass's start and its dispatches: a profiler measuring every
   * kernel would count it). Their destinations are memory the range writes: the snapshot captures
   * and restores them, the window's lock claims them, and verification hashes them; the sources
   * are only read, and must hold the same bytes in every run (memory the range does not write,
   * e.g. staging the caller owns, excluded from the tracker).
   */
  readonly before?: readonly CopySegment[];
}

/** A dispatch of a range as the engine carries it: a dispatch request and the copies before it. */
export interface RangeDispatchRequest extends DispatchRequest {
  readonly before?: readonly CopySegment[];
}

/**
 * A sequence of dispatches on one queue, replayed as one unit: captured once before the first,
 * the whole sequence run in every pass, restored between passes.
 */
export interface RangeRequest {
  /** The queue every dispatch of the range (and its capture, passes and restores) runs on. */
  readonly queue: Queue;
  /** The dispatches, in the order they run (at least one). */
  readonly dispatches: readonly RangeDispatch[];
}

/**
 * Checks a range request at the engine's boundary and returns its dispatches as dispatch requests
 * on the range's queue (each checked like a single dispatch's request).
 * @throws {ArgumentError} when the request is not an object, has no dispatches, a dispatch names
 * another queue than the range's, or a dispatch (or its copies before) is malformed.
 */
export function rangeDispatchRequests(request: RangeRequest, runtime: Runtime): RangeDispatchRequest[] {
  if (typeof request !== 'object' || request === null) {
    throw invalid('request', `the range request is ${describeValue(request)}, not an object`, 'Pass { queue, dispatches: [{ kernel, args }, ...] }');
  }
  const { queue, dispatches } = request;
  if (!Array.isArray(dispatches) || dispatches.length === 0) {
    throw invalid('dispatches', `the dispatches of the range are ${describeValue(dispatches)}, not a non-empty array`, 'Pass at least one { kernel, args }');
  }
  return dispatches.map((dispatch: RangeDispatch, index) => {
    if (typeof dispatch !== 'object' || dispatch === null) {
      throw invalid('dispatches', `dispatch ${index} of the range is ${describeValue(dispatch)}, not an object`, 'Pass { kernel, args } for each dispatch');
    }
    const graph: unknown = (dispatch as { graph?: unknown }).graph;
    if (typeof graph === 'object' && graph !== null) {
      throw invalid(
        'dispatches',
        `dispatch ${index} of the range is a graph launch; a range replays kernel dispatches, and a graph is one workload of its own`,
        'Dispatch the graph alone with engine.dispatch({ queue, graph }), or put its kernels in the range one by one',
      );
    }
    if (dispatch.queue !== undefined && dispatch.queue !== queue) {
      throw invalid(
        'dispatches',
        `dispatch ${index} of the range names queue ${describeValue(dispatch.queue?.id)}, not the range's queue ${describeValue(queue?.id)}; a range runs on one queue`,
        'Split the dispatches into one range per queue, or leave the queue out of each dispatch',
      );
    }
    const single: RangeDispatchRequest = { ...dispatch, queue };
    validateRequest(single, runtime);
    if (dispatch.before !== undefined) validateBefore(dispatch.before, index);
    return single;
  });
}

/** @throws {ArgumentError} when `before` is not a list of segments of whole, non-negative numbers. */
function validateBefore(before: readonly CopySegment[], index: number): void {
  if (!Array.isArray(before)) {
    throw invalid('dispatches', `the copies before dispatch ${index} of the range are ${describeValue(before)}, not an array`, 'Pass before: [{ source, destination, bytes }, ...], or leave it out');
  }
  before.forEach((segment: CopySegment, position) => {
    for (const field of ['source', 'destination', 'bytes'] as const) {
      const value = (segment as unknown as Record<string, unknown> | null)?.[field];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw invalid('dispatches', `before[${position}].${field} of dispatch ${index} of the range is ${describeValue(value)}, not a whole number >= 0`, 'Pass each copy as { source, destination, bytes } in whole bytes');
      }
    }
  });
}

function invalid(argument: string, what: string, fix: string) {
  return replayArgumentError('dispatch', argument, what, fix);
}
