import { calibrateResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
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

  it('measures copy plans of the minimum size in every segment count, in GiB/s, with a progress line per step on stderr', async () => {
    // A clock that moves 6 s at every reading: each step is a progress line.
    let time = 0;
    const io = recordingIo({ now: () => (time += 6000), progressIntervalMs: 5000 });
    expect(await runCli(['calibrate', '--driver', 'host', '--plan-bytes', '1MiB'], io)).toBe(0);
    expect(io.out()).toMatch(/copy plan 1\.0 MiB in 1 segment\(s\): [\d.]+ GiB\/s\n.*1\.0 MiB in 64 segment\(s\).*\n.*1\.0 MiB in 4096 segment\(s\)/);
    expect(io.out()).not.toMatch(/GB\/s|calibrate:/);
    const lines = io.err().trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([1, 2, 3, 4, 5].map((done) => expect.stringMatching(new RegExp(`^calibrate: ${done}/5 steps \\(${done * 20}%\\), [\\d.]+ steps/s, ETA \\d+ (s|min)`))));
    expect(lines.at(-1)).toMatch(/^calibrate: 5\/5 steps \(100%\) in \d+ (s|min \d+ s), [\d.]+ steps\/s$/);
  });

  it('prints only JSON on stdout with --json, the progress going to stderr', async () => {
    let time = 0;
    const io = recordingIo({ now: () => (time += 6000), progressIntervalMs: 5000 });
    expect(await runCli(['calibrate', '--driver', 'host', '--plan-bytes', '1MiB', '--json'], io)).toBe(0);
    const printed = JSON.parse(io.out()) as unknown;
    expect(printed).toMatchObject({ schema: 'urn:kreplay:schema:calibrate-result:1', schemaVersion: 1, driver: 'host', copyPlans: expect.any(Array), window: { passes: 2 } });
    expect(jsonSchemaProblem(calibrateResultJsonSchema, printed)).toBeNull();
    expect(io.err()).toMatch(/^calibrate: 1\/5 steps/);
  });
});
