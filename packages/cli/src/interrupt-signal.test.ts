import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForInterrupt, sameRequestMilliseconds } from './interrupt-signal.js';
import { recordingIo } from './test-io.js';

/** process.exit, recorded instead of run. */
function recordExits(): number[] {
  const codes: number[] = [];
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => void codes.push(code ?? 0)) as typeof process.exit);
  return codes;
}

describe('listenForInterrupt', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('aborts on SIGTERM as on SIGINT, saying which came', () => {
    const io = recordingIo();
    using interruption = listenForInterrupt(io, 'writing what was measured so far');
    process.emit('SIGTERM');
    expect(interruption.signal.aborted).toBe(true);
    expect(interruption.received).toBe('SIGTERM');
    expect(io.err()).toBe('\nkreplay: terminated; writing what was measured so far (signal again to quit now)\n');
  });

  it('takes a signal right after the first as the same request, and a later one as quit now, after saving', () => {
    let time = 0;
    const io = recordingIo({ now: () => time });
    const exits = recordExits();
    const saved: number[] = [];
    using interruption = listenForInterrupt(io, 'writing what was measured so far', { saveNow: () => void saved.push(time) });
    process.emit('SIGINT');
    time += sameRequestMilliseconds / 10;
    process.emit('SIGINT');
    expect(interruption.received).toBe('SIGINT');
    expect(exits).toEqual([]);
    expect(saved).toEqual([]);
    time += sameRequestMilliseconds;
    process.emit('SIGTERM');
    expect(saved).toEqual([time]);
    // The exit code of the first signal.
    expect(exits).toEqual([130]);
  });

  it('quits with 143 after a SIGTERM, and exits even when saving fails', () => {
    let time = 0;
    const io = recordingIo({ now: () => time });
    const exits = recordExits();
    using _interruption = listenForInterrupt(io, 'writing', {
      saveNow: () => {
        throw new Error('disk full');
      },
    });
    process.emit('SIGTERM');
    time += 2 * sameRequestMilliseconds;
    process.emit('SIGTERM');
    expect(exits).toEqual([143]);
    expect(io.err()).toMatch(/\nkreplay: what was measured could not be written: disk full\n$/);
  });

  it('stops listening when disposed', () => {
    const before = process.listenerCount('SIGTERM');
    {
      using _interruption = listenForInterrupt(recordingIo(), 'writing');
      expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    }
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
