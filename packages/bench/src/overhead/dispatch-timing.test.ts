import { describe, expect, it } from 'vitest';
import { timeDispatches, timeInterleaved } from './dispatch-timing.js';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('timeInterleaved', () => {
  it('alternates turns of the variant with as many baseline dispatches, with the same indices, until the count', async () => {
    const log: string[] = [];
    const timed = await timeInterleaved(
      8,
      async (index) => {
        log.push(`replay ${index}`);
        await sleep(30); // a turn lasts about 100 ms: a few replays each
      },
      async (index) => void log.push(`baseline ${index}`),
      60,
    );
    expect(timed.dispatches).toBe(8);
    const turns: { replays: number[]; baselines: number[] }[] = [];
    for (const entry of log) {
      const [kind, index] = entry.split(' ') as ['replay' | 'baseline', string];
      if (kind === 'replay' && (turns.length === 0 || turns.at(-1)!.baselines.length > 0)) turns.push({ replays: [], baselines: [] });
      turns.at(-1)![kind === 'replay' ? 'replays' : 'baselines'].push(Number(index));
    }
    expect(turns.length).toBeGreaterThanOrEqual(2);
    for (const turn of turns) expect(turn.baselines).toEqual(turn.replays);
    expect(turns.flatMap((turn) => turn.replays)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Replays slept 30 ms each; the baseline did nothing.
    expect(timed.replayMs).toBeGreaterThanOrEqual(25);
    expect(timed.baselineMs).toBeLessThan(timed.replayMs);
  });

  it('stops after maxSeconds, once at least one turn ran', async () => {
    const timed = await timeInterleaved(1000, () => sleep(20), async () => undefined, 0.15);
    expect(timed.dispatches).toBeGreaterThanOrEqual(1);
    expect(timed.dispatches).toBeLessThan(1000);
  });
});

describe('timeDispatches', () => {
  it('times dispatches one after another and stops after maxSeconds', async () => {
    const all = await timeDispatches(5, async () => undefined);
    expect(all.dispatches).toBe(5);
    const capped = await timeDispatches(1000, () => sleep(20), 0.1);
    expect(capped.dispatches).toBeGreaterThanOrEqual(1);
    expect(capped.dispatches).toBeLessThan(1000);
    expect(capped.milliseconds).toBeGreaterThanOrEqual(15);
  });
});
