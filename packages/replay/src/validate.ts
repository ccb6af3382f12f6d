import { ArgumentError } from '@kreplay/native';

/** The component names of the package's messages: `[replay] [component] ...`. */
export type ReplayComponent = 'engine' | 'dispatch' | 'fixed-passes' | 'timing-passes' | 'cupti-passes' | 'profile-conditions' | 'pass provider';

/**
 * Builds an {@link ArgumentError} with a message `[replay] [component] what happened. how to fix it.`
 * `what` and `fix` are whole sentences without the final period.
 */
export function replayArgumentError(component: ReplayComponent, argument: string, what: string, fix: string): ArgumentError {
  return new ArgumentError({
    packageName: 'replay',
    component,
    argument,
    message: `[replay] [${component}] ${what}. ${fix}.`,
  });
}

/** Shows a user-given value in a message without throwing on odd values. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Object.prototype.toString.call(value);
}

/**
 * Checks a pass count: an integer >= 1.
 * @throws {ArgumentError} when it is not.
 */
export function requirePassCount(component: ReplayComponent, value: unknown, label = 'the pass count'): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  throw replayArgumentError(component, 'count', `${label} is ${describeValue(value)}, not an integer >= 1`, 'Pass a whole number of passes, at least 1 (1 runs the dispatch once, with no snapshot)');
}

/** Whether `value` is an object whose `names` are all functions. */
export function hasMethods(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return names.every((name) => typeof record[name] === 'function');
}
