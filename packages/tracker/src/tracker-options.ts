import type { AllocationChange } from './allocation-change.js';
import { describeValue, trackerArgumentError } from './errors.js';

/** Options of `createTracker`. */
export interface TrackerOptions {
  /** Track host buffers (pinned and pageable) as well as device memory. Default true. */
  readonly trackHostBuffers?: boolean;
  /**
   * Called with an error an `onChange` listener threw (the other listeners still run and the
   * inventory stays correct). Default: rethrow it asynchronously (`queueMicrotask`), so it is never lost.
   */
  readonly onListenerError?: (error: unknown, change: AllocationChange) => void;
}

/** Options with every default applied. */
export interface ResolvedTrackerOptions {
  readonly trackHostBuffers: boolean;
  readonly onListenerError: (error: unknown, change: AllocationChange) => void;
}

const knownOptions = new Set(['trackHostBuffers', 'onListenerError']);

/**
 * Validates options and applies defaults.
 * @throws {ArgumentError} on an option that is unknown or of the wrong type.
 */
export function resolveTrackerOptions(options: TrackerOptions | undefined): ResolvedTrackerOptions {
  if (options === undefined) return { trackHostBuffers: true, onListenerError: rethrowLater };
  if (typeof options !== 'object' || options === null) {
    throw optionError('options', `options is ${describeValue(options)}, not an object`, 'Pass an object or nothing');
  }
  for (const key of Object.keys(options)) {
    if (!knownOptions.has(key)) {
      throw optionError(key, `option "${key}" is unknown`, `Use only ${[...knownOptions].join(', ')}`);
    }
  }
  const { trackHostBuffers = true, onListenerError = rethrowLater } = options;
  if (typeof trackHostBuffers !== 'boolean') {
    throw optionError(
      'trackHostBuffers',
      `option trackHostBuffers is ${describeValue(trackHostBuffers)}, not a boolean`,
      'Pass true or false',
    );
  }
  if (typeof onListenerError !== 'function') {
    throw optionError(
      'onListenerError',
      `option onListenerError is ${describeValue(onListenerError)}, not a function`,
      'Pass a function (error, change) => void',
    );
  }
  return { trackHostBuffers, onListenerError };
}

function optionError(argument: string, what: string, fix: string) {
  return trackerArgumentError('options', argument, what, fix);
}

function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
