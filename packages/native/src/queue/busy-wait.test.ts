import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepEventLoopBusy } from './busy-wait.js';

const realSetImmediate = globalThis.setImmediate;
const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

describe('keepEventLoopBusy', () => {
  let polls = 0;
  beforeEach(() => {
    polls = 0;
    globalThis.setImmediate = ((callback: () => void) => {
      polls += 1;
      return realSetImmediate(callback);
    }) as typeof setImmediate;
  });
  afterEach(() => {
    globalThis.setImmediate = realSetImmediate;
  });

  it('keeps the loop turning while the wait runs, and stops when it settles', async () => {
    const wait = sleep(20);
    keepEventLoopBusy(wait, 1_000_000);
    await wait;
    const atSettle = polls;
    await sleep(10);
    expect(atSettle).toBeGreaterThan(10); // it polled through the 20 ms
    expect(polls - atSettle).toBeLessThanOrEqual(2); // and stopped once the wait settled
  });

  it('stops polling at its deadline while the wait goes on, and never polls for 0 microseconds', async () => {
    const never = new Promise<void>(() => undefined);
    keepEventLoopBusy(never, 2000);
    await sleep(30);
    const afterDeadline = polls;
    expect(afterDeadline).toBeGreaterThan(0);
    await sleep(20);
    expect(polls).toBe(afterDeadline);
    polls = 0;
    keepEventLoopBusy(never, 0);
    await sleep(5);
    expect(polls).toBe(0);
  });
});
