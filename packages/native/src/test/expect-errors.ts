import { expect } from 'vitest';

type ErrorClass<T> = abstract new (...args: any[]) => T;

/** Every error of the package reads `[native] [component] what happened. how to fix it.` */
const messageForm = /^\[native\] \[[^\]]+\] \S/;

function expectKreplayForm(error: unknown, kind: ErrorClass<Error>, what: string): void {
  expect(error, `${what}: expected ${kind.name}, got ${String(error)}`).toBeInstanceOf(kind);
  expect((error as Error).message, `${what}: message form`).toMatch(messageForm);
}

/**
 * Calls `action`, expects it to throw synchronously an instance of `kind` whose message has the
 * package's form, and returns the error.
 */
export function expectThrows<T extends Error>(action: () => unknown, kind: ErrorClass<T>, what = 'the call'): T {
  let thrown: unknown;
  let threw = false;
  try {
    action();
  } catch (error) {
    threw = true;
    thrown = error;
  }
  expect(threw, `${what}: expected ${kind.name} to be thrown, but the call returned`).toBe(true);
  expectKreplayForm(thrown, kind, what);
  return thrown as T;
}

/**
 * Calls a Promise-returning `action`, expects it to return a Promise (not to throw synchronously)
 * that rejects with an instance of `kind` whose message has the package's form, and returns the error.
 */
export async function expectRejects<T extends Error>(action: () => Promise<unknown>, kind: ErrorClass<T>, what = 'the call'): Promise<T> {
  let promise: Promise<unknown>;
  try {
    promise = action();
  } catch (error) {
    throw new Error(`${what}: expected a Promise rejecting with ${kind.name}, but the call threw synchronously: ${String(error)}`);
  }
  let rejected = false;
  let reason: unknown;
  try {
    await promise;
  } catch (error) {
    rejected = true;
    reason = error;
  }
  expect(rejected, `${what}: expected a rejection with ${kind.name}, but the Promise resolved`).toBe(true);
  expectKreplayForm(reason, kind, what);
  return reason as T;
}
