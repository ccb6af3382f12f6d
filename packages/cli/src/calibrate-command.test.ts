import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('kreplay calibrate', () => {
  it('refuses a copy plan too small to be timed by its bandwidth, saying the minimum, before opening the driver', async () => {
    for (const size of ['1', '4096', '1048575']) {
      const io = recordingIo();
      expect(await runCli(['calibrate', '--driver', 'cuda', '--plan-bytes', size], io), size).toBe(2);
      expect(io.err()).toBe(
        `error: option '--plan-bytes <bytes>' argument '${size}' is invalid. A copy plan below 1 MiB (1048576 bytes) measures its fixed cost, not a rate; pass at least 1MiB (the empty copy plan line gives the fixed cost).\n`,
      );
    }
  });

  it('measures copy plans of the minimum size in every segment count', async () => {
    const io = recordingIo();
    expect(await runCli(['calibrate', '--driver', 'host', '--plan-bytes', '1MiB'], io)).toBe(0);
    expect(io.out()).toMatch(/copy plan 1\.0 MiB in 1 segment\(s\): [\d.]+ GB\/s\n.*1\.0 MiB in 64 segment\(s\).*\n.*1\.0 MiB in 4096 segment\(s\)/);
  });
});
