import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemaProblem, overheadResultJsonSchema } from '@kreplay/bench';
import type { OverheadResult } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';
import { spawnCli } from './test-spawn-cli.js';

const tiny = ['overhead', '--driver', 'host', '--shape', 'A', '--footprint', '4MiB', '--dispatches', '3', '--passes', '2', '--variant', 'dirty-pages'];

describe('kreplay overhead', () => {
  it('warms each variant up before timing it and says how many dispatches that took and what each cost', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--warmup', '4'], io)).toBe(0);
    expect(io.err()).toBe('');
    expect(io.out()).toMatch(/3 dispatches after up to 4 warm-up \(2 s\)/);
    expect(io.out()).toMatch(/dirty-pages +overhead .* over 3 after 4 warm-up at [\d.]+ ms\)/);
  });

  it('prints one JSON document of its schema, the results per shape under results', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--warmup', '2', '--variant', 'full/pinned', '--variant', 'cupti-checkpoint', '--json'], io)).toBe(0);
    const printed = JSON.parse(io.out()) as unknown;
    expect(printed).toMatchObject({ schema: 'urn:kreplay:schema:overhead-result:1', schemaVersion: 1, results: [{ shape: 'A', driver: 'host', rows: expect.arrayContaining([expect.objectContaining({ variant: 'cupti-checkpoint', available: false })]) }] });
    expect(jsonSchemaProblem(overheadResultJsonSchema, printed)).toBeNull();
  });

  it('reports the warm-up in its JSON, and none with --warmup 0', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--warmup', '0', '--json'], io)).toBe(0);
    const {
      results: [result],
    } = JSON.parse(io.out()) as { results: [{ warmup: unknown; rows: { warmupDispatches: number; warmupMs: number | null; dispatchesTimed: number }[] }] };
    expect(result.warmup).toEqual({ dispatches: 0, maxSeconds: 2 });
    expect(result.rows[0]).toMatchObject({ warmupDispatches: 0, warmupMs: null, dispatchesTimed: 3 });
  });

  it('refuses a warm-up that is not a whole number of dispatches or seconds', async () => {
    for (const args of [
      ['--warmup', '-1'],
      ['--warmup', '1.5'],
      ['--warmup-seconds', '0'],
    ]) {
      const io = recordingIo();
      expect(await runCli([...tiny, ...args], io)).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
  });

  it('refuses a shape or a variant outside its choices with exit 2, as commander words it, before opening the driver', async () => {
    for (const [args, pattern] of [
      [['--shape', 'C'], /^error: option '--shape <shape>' argument 'C' is invalid\. Allowed choices are A, B\.\n$/],
      [['--shape', 'A', '--shape', 'b'], /^error: option '--shape <shape>' argument 'b' is invalid\. Allowed choices are A, B\.\n$/],
      [['--variant', 'bogus'], /^error: option '--variant <name>' argument 'bogus' is invalid\. Allowed choices are [a-z-/]+(, [a-z-/]+)+\.\n$/],
    ] as const) {
      const io = recordingIo();
      expect(await runCli([...tiny, '--driver', 'cuda', ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(pattern);
      expect(io.out()).toBe('');
    }
  });

  it('still takes several shapes and variants, each measured once', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--warmup', '0', '--shape', 'B', '--variant', 'full/pinned', '--json'], io)).toBe(0);
    const { results } = JSON.parse(io.out()) as { results: { shape: string; rows: { variant: string }[] }[] };
    expect(results.map((result) => result.shape)).toEqual(['A', 'B']);
    expect(results.map((result) => result.rows.map((row) => row.variant).sort())).toEqual([
      ['dirty-pages', 'full/pinned'],
      ['dirty-pages', 'full/pinned'],
    ]);
  });

  it('says nothing verified with one pass, not verified false', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--passes', '1', '--warmup', '0'], io)).toBe(0);
    expect(io.out()).toMatch(/dirty-pages +overhead .*, nothing verified/);
    expect(io.out()).not.toMatch(/verified (false|null)/);
  });

  it('refuses --warmup-seconds with --warmup 0, which would ignore it', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--driver', 'cuda', '--warmup', '0', '--warmup-seconds', '5'], io)).toBe(2);
    expect(io.err()).toBe('kreplay: [cli] [overhead] --warmup-seconds only applies with a warm-up, not --warmup 0. Leave out --warmup-seconds, or pass --warmup N.\n');
  });

  it('prints a progress line per variant on stderr when it is not a terminal, and pure JSON on stdout with --json', async () => {
    // A clock that moves 6 s at every reading: every update is a line.
    let time = 0;
    const io = recordingIo({ now: () => (time += 6000), progressIntervalMs: 5000 });
    expect(await runCli(['overhead', '--driver', 'host', '--shape', 'A', '--shape', 'B', '--footprint', '4MiB', '--dispatches', '2', '--passes', '2', '--warmup', '0', '--variant', 'dirty-pages', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out()) as { results: unknown[] }).results.length).toBe(2);
    const lines = io.err().trim().split('\n');
    expect(lines[0]).toBe('overhead: 0/2 variants (0%), 0.00 variants/s, ETA unknown');
    expect(lines).toContainEqual(expect.stringMatching(/^overhead: 1\/2 variants \(50%\), [\d.]+ variants\/s, ETA \d+ s$/));
    expect(lines.at(-1)).toMatch(/^overhead: 2\/2 variants \(100%\) in \d+ s, [\d.]+ variants\/s$/);
  });

  it('prints the rates it measured in GiB/s', async () => {
    const io = recordingIo();
    expect(await runCli([...tiny, '--warmup', '0'], io)).toBe(0);
    expect(io.out()).toMatch(/hash [\d.]+ GiB\/s, copy [\d.]+ GiB\/s, pinned [\d.]+ GiB\/s D2H \/ [\d.]+ GiB\/s H2D; floor/);
    expect(io.out()).not.toContain('GB/s');
  });

  it('runs each footprint of a comma list, a share of the device memory written 0.7x, with the first dispatch and the staging by tier', async () => {
    const io = recordingIo();
    const args = ['overhead', '--driver', 'host', '--device-memory', '16MiB', '--shape', 'B', '--footprint', '0.5x,0.7x,2MiB', '--dispatches', '2', '--passes', '2', '--warmup', '0', '--variant', 'dirty-pages'];
    expect(await runCli([...args, '--json'], io)).toBe(0);
    const { results } = JSON.parse(io.out()) as { results: { footprintBytes: number; rows: { firstDispatchMs: number; stagingBytesByTier: Record<string, number> }[] }[] };
    expect(results.map((result) => result.footprintBytes)).toEqual([8 * 2 ** 20, Math.floor((0.7 * 16 * 2 ** 20) / 65536) * 65536, 2 * 2 ** 20]);
    expect(results[1]!.rows[0]!.firstDispatchMs).toBeGreaterThan(0);
    expect(results[1]!.rows[0]!.stagingBytesByTier.device).toBeGreaterThan(0);
    expect(results[1]!.rows[0]!.stagingBytesByTier['host-pinned']).toBeGreaterThan(0);
    const text = recordingIo();
    expect(await runCli(args, text)).toBe(0);
    expect(text.out()).toMatch(/\(0\.70x the device memory\)/);
    expect(text.out()).toMatch(/first dispatch [\d.]+ ms; staged [\d.]+ [KM]iB device, [\d.]+ [KM]iB pinned, 0 B pageable; host staging high-water [\d.]+ [KM]iB \([\d.]+x the host tier\)/);
  });

  it('refuses a share of the device memory outside (0, 1) with exit 2', async () => {
    for (const footprint of ['1.2x', '0x', '0.5x,bogus']) {
      const io = recordingIo();
      expect(await runCli([...tiny, '--footprint', footprint], io), footprint).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
  });

  it('stops before the next variant on SIGTERM, writes what it measured and exits 143', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'kreplay-overhead-sigterm-')), 'overhead.json');
    const variants = ['full/device', 'write-set', 'dirty-pages'].flatMap((variant) => ['--variant', variant]);
    // Each timing runs for its 4 s, so the first progress line (after 5 s) comes when the first or second variant starts.
    const args = ['overhead', '--driver', 'host', '--shape', 'A', '--footprint', '4MiB', '--dispatches', '1000000', '--max-seconds', '4', '--warmup', '0', ...variants, '-o', out];
    let terminated = false;
    const { exit, stderr } = await spawnCli(args, {
      onStderr: (text, child) => {
        if (terminated || !/^overhead: /m.test(text)) return;
        terminated = true;
        child.kill('SIGTERM');
      },
    });
    expect(stderr).toMatch(/^kreplay: \[cli\] \[overhead\] terminated: wrote the 1 result\(s\) measured so far to .*overhead\.json\./m);
    expect(exit).toBe('143');
    const written = JSON.parse(await readFile(out, 'utf8')) as { results: OverheadResult[] };
    expect(jsonSchemaProblem(overheadResultJsonSchema, written)).toBeNull();
    const [result, ...more] = written.results;
    expect(more).toEqual([]);
    expect(result!.rows.length).toBeLessThan(3);
  }, 120_000);
});
