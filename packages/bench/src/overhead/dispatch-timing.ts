/**
 * Timing loops of the overhead benchmark: dispatches one after another, and a variant in turns
 * with its baseline.
 */

/** Milliseconds per dispatch over up to `count` dispatches, stopping after `maxSeconds`. */
export async function timeDispatches(
  count: number,
  dispatch: (index: number) => Promise<unknown>,
  maxSeconds = Infinity,
): Promise<{ milliseconds: number; dispatches: number }> {
  const start = performance.now();
  let done = 0;
  while (done < count && (done === 0 || performance.now() - start < maxSeconds * 1000)) {
    await dispatch(done);
    done += 1;
  }
  return { milliseconds: (performance.now() - start) / done, dispatches: done };
}

/** How long each turn of a variant runs before the passes without replay take their turn (see {@link timeInterleaved}). */
const turnMilliseconds = 100;

/**
 * Milliseconds per dispatch of `replay` and of `baseline` (the same passes without replay), timed in
 * turns: replay dispatches for about {@link turnMilliseconds}, then as many baseline dispatches, until
 * `count` replays ran or `maxSeconds` passed. Both see the machine in the same state, so a machine
 * that speeds up or slows down between the two does not enter the overhead. The baseline's work
 * runs outside the engine, so the first window of each turn cannot rely on knowing what wrote
 * memory since the last one (dirty-pages hashes the candidates at its capture once per turn).
 */
export async function timeInterleaved(
  count: number,
  replay: (index: number) => Promise<unknown>,
  baseline: (index: number) => Promise<unknown>,
  maxSeconds: number,
): Promise<{ replayMs: number; baselineMs: number; dispatches: number }> {
  const start = performance.now();
  let replayTotal = 0;
  let baselineTotal = 0;
  let done = 0;
  while (done < count && (done === 0 || performance.now() - start < maxSeconds * 1000)) {
    const turnStart = performance.now();
    let turn = 0;
    do {
      await replay(done + turn);
      turn += 1;
    } while (done + turn < count && performance.now() - turnStart < turnMilliseconds);
    const baselineStart = performance.now();
    replayTotal += baselineStart - turnStart;
    for (let index = 0; index < turn; index += 1) await baseline(done + index);
    baselineTotal += performance.now() - baselineStart;
    done += turn;
  }
  return { replayMs: replayTotal / done, baselineMs: baselineTotal / done, dispatches: done };
}
