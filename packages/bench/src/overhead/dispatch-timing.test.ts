import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timeDispatches, timeInterleaved } from './dispatch-timing.js';

// The loops read performance.now(); a clock the test moves makes every turn and stop exact,
// whatever the machine's load: each callback says how long it "took" by advancing it.
let clock = 0;
const takes = (milliseconds: number) => async () => void (clock += milliseconds);

beforeEach(() => {
  clock = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('timeInterleaved', () => {
  it('alternates turns of the variant with as many baseline dispatches, with the same indices, until the count', async () => {
    const log: string[] = [];
    const timed = await timeInterleaved(
      8,
      async (index) => {
        log.push(`replay ${index}`);
        clock += 30; // a turn lasts 100 ms: 4 replays of 30 ms reach it
      },
      async (index) => {
        log.push(`baseline ${index}`);
        clock += 1;
      },
      60,
    );
    expect(log).toEqual([
      'replay 0', 'replay 1', 'replay 2', 'replay 3', 'baseline 0', 'baseline 1', 'baseline 2', 'baseline 3',
      'replay 4', 'replay 5', 'replay 6', 'replay 7', 'baseline 4', 'baseline 5', 'baseline 6', 'baseline 7',
    ]);
    expect(timed).toEqual({ dispatches: 8, replayMs: 30, baselineMs: 1 });
  });

  it('stops after maxSeconds, once at least one turn ran', async () => {
    // Turns of 5 replays (100 ms each turn); the second ends at 200 ms, past the 150 ms limit.
    expect(await timeInterleaved(1000, takes(20), async () => undefined, 0.15)).toEqual({ dispatches: 10, replayMs: 20, baselineMs: 0 });
    // A limit already passed still runs one whole turn.
    clock = 0;
    expect((await timeInterleaved(1000, takes(50), async () => undefined, 0)).dispatches).toBe(2);
  });
});

describe('timeDispatches', () => {
  it('times dispatches one after another and stops after maxSeconds', async () => {
    const indices: number[] = [];
    const all = await timeDispatches(5, async (index) => {
      indices.push(index);
      clock += 2;
    });
    expect(indices).toEqual([0, 1, 2, 3, 4]);
    expect(all).toEqual({ dispatches: 5, milliseconds: 2 });
    clock = 0;
    // 20 ms each: the limit of 100 ms is reached after the fifth.
    expect(await timeDispatches(1000, takes(20), 0.1)).toEqual({ dispatches: 5, milliseconds: 20 });
    clock = 0;
    expect(await timeDispatches(1000, takes(20), 0)).toEqual({ dispatches: 1, milliseconds: 20 });
  });
});
