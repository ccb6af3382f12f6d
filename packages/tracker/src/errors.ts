import { ArgumentError, DisposedError } from '@kreplay/native';

/** The component names the tracker uses in its messages: `[tracker] [component] ...`. */
export type TrackerComponent = 'tracker' | 'tags' | 'lookup' | 'resolve-arguments' | 'options';

/**
 * Builds an {@link ArgumentError} with a message `[tracker] [component] what happened. how to fix it.`
 * `what` and `fix` are whole sentences without the final period.
 */
export function trackerArgumentError(
  component: TrackerComponent,
  argument: string,
  what: string,
  fix: string,
): ArgumentError {
  return new ArgumentError({
    packageName: 'tracker',
    component,
    argument,
    message: `[tracker] [${component}] ${what}. ${fix}.`,
  });
}

/** Builds the {@link DisposedError} of a call on a disposed tracker. */
export function trackerDisposedError(method: string): DisposedError {
  return new DisposedError({
    packageName: 'tracker',
    component: 'tracker',
    objectName: 'Tracker',
    message: `[tracker] [tracker] ${method}() was called on a disposed tracker. Create a new tracker with createTracker(runtime).`,
  });
}

/** Formats an address the way every tracker message shows it. */
export function formatAddress(address: number): string {
  return `0x${address.toString(16)}`;
}

/** Shows a user-given value in a message without throwing on odd values. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Object.prototype.toString.call(value);
}
