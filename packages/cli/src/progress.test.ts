import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';
import { recordingIo } from './test-io.js';

/** A recording io whose clock the test moves. */
function fakeClockIo(interactive = false) {
  let time = 1000;
  const io = recordingIo({ interactive, now: () => time, progressIntervalMs: 5000 });
  return { io, advance: (milliseconds: number) => void (time += milliseconds) };
}

describe('progress when stderr is not a terminal', () => {
  it('prints a line once per interval with done/total, rate and ETA, and one at the end', () => {
    const { io, advance } = fakeClockIo();
    const progress = createProgress(io, { label: 'bench quick', total: 120, unit: 'runs' });
    progress.update(0);
    advance(4000);
    progress.update(20);
    expect(io.err()).toBe('');
    advance(1000);
    progress.update(30);
    expect(io.err()).toBe('bench quick: 30/120 runs (25%), 6.00 runs/s, ETA 15 s\n');
    advance(2000);
    progress.update(40);
    expect(io.err().split('\n')).toHaveLength(2);
    advance(3000);
    progress.update(60);
    advance(110_000);
    progress.update(120);
    progress.done();
    expect(io.err().split('\n').slice(1)).toEqual([
      'bench quick: 60/120 runs (50%), 6.00 runs/s, ETA 10 s',
      'bench quick: 120/120 runs (100%), 1.00 runs/s, ETA 0 s',
      'bench quick: 120/120 runs (100%) in 2 min 00 s, 1.00 runs/s',
      '',
    ]);
  });

  it('says when the work stopped before its end, and that the ETA is unknown before anything is done', () => {
    const { io, advance } = fakeClockIo();
    const progress = createProgress(io, { label: 'overhead', total: 10, unit: 'variants' });
    advance(6000);
    progress.update(0);
    advance(6000);
    progress.update(3);
    progress.done();
    expect(io.err()).toBe(
      [
        'overhead: 0/10 variants (0%), 0.00 variants/s, ETA unknown',
        'overhead: 3/10 variants (30%), 0.250 variants/s, ETA 28 s',
        'overhead: stopped at 3/10 variants (30%) after 12 s, 0.250 variants/s',
        '',
      ].join('\n'),
    );
  });

  it('stays silent for work shorter than the interval', () => {
    const { io, advance } = fakeClockIo();
    const progress = createProgress(io, { label: 'replay', total: 20, unit: 'dispatches' });
    for (let done = 1; done <= 20; done += 1) {
      advance(200);
      progress.update(done);
    }
    progress.done();
    expect(io.err()).toBe('');
  });
});

describe('progress on a terminal', () => {
  it('redraws one bar with rate and ETA at most every 100 ms, and clears it at the end', () => {
    const { io, advance } = fakeClockIo(true);
    const progress = createProgress(io, { label: 'replay', total: 4, unit: 'dispatches' });
    advance(500);
    progress.update(1);
    advance(50);
    progress.update(2);
    advance(50);
    progress.update(2);
    expect(io.err()).toBe(
      '\r\x1b[Kreplay [#######.......................] 1/4 dispatches, 2.00 dispatches/s, ETA 2 s' +
        '\r\x1b[Kreplay [###############...............] 2/4 dispatches, 3.33 dispatches/s, ETA 1 s',
    );
    progress.done();
    expect(io.err().endsWith('\r\x1b[K')).toBe(true);
    expect(io.err()).not.toContain('\n');
  });
});
