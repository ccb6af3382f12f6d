import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptureLaunch } from './capture-folder-types.js';
import { readCaptureFolder } from './capture-folder.js';

// A property of the capture library's session (src/capture/inject): over random interleavings of
// launches (captured, and of a kernel the selection leaves out), memsets, copies, uploads, allocations
// and frees on three streams, host writes, host functions and event waits (write-random-capture.cpp,
// one program per seed), every captured launch's pagesBefore is the memory the program had before it,
// its page hashes before and after are those of that memory, and a launch that follows another starts
// from exactly that launch's memory with its workBefore applied.
const program = fileURLToPath(new URL('../../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program);
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-random-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SEEDS = Array.from({ length: 24 }, (_, index) => index + 1);
const OPERATIONS = 60;
/** The reasons the seeds' launches started sequences for, and how many launches followed another. */
const seen = { reasons: new Set<string>(), follows: 0 };

interface TrueRange {
  readonly base: number;
  readonly bytes: number;
  readonly pagesBefore: readonly string[];
  readonly hashesBefore: readonly string[];
  readonly hashesAfter: readonly string[];
}
interface TrueLaunch {
  readonly stream: string;
  readonly ranges: readonly TrueRange[];
}

const hex = (hashes: readonly bigint[] | null) => (hashes ?? []).map((hash) => hash.toString(16).padStart(16, '0'));

/** Whether page `page` of a range overlaps what an item of `launch.workBefore` writes. */
function writtenByWork(launch: CaptureLaunch, range: TrueRange, page: number): boolean {
  const first = range.base + page * launch.pageBytes;
  const end = first + Math.min(launch.pageBytes, range.bytes - page * launch.pageBytes);
  return launch.workBefore.some((work) => {
    if (work.kind === 'memset') return work.address < end && first < work.address + work.bytes;
    if (work.kind === 'copy' || work.kind === 'upload') return work.destination < end && first < work.destination + work.bytes;
    return false;
  });
}

describe.skipIf(!built)('captures of random interleavings of launches and work', () => {
  it.each(SEEDS)('seed %i: every launch holds the true memory before and after it, and every follows link is right', async (seed) => {
    const directory = join(root, `seed-${seed}`);
    const result = spawnSync(program, ['--write-random-capture', directory, String(seed), String(OPERATIONS)], { encoding: 'utf8' });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    const truth = JSON.parse(result.stdout) as { readonly stopped: boolean; readonly launches: readonly TrueLaunch[] };
    expect(truth.stopped).toBe(false);
    const folder = await readCaptureFolder(directory);
    expect(folder.damaged).toEqual([]);
    expect(folder.manifest.complete).toBe(true);
    expect(folder.launches).toHaveLength(truth.launches.length);
    folder.launches.forEach((launch, index) => {
      const expected = truth.launches[index]!;
      expect(launch.stream, `launch ${index}`).toBe(expected.stream);
      expect(launch.memory.map((range) => range.base).sort()).toEqual(expected.ranges.map((range) => range.base).sort());
      for (const range of expected.ranges) {
        const recorded = launch.memory.find((candidate) => candidate.base === range.base)!;
        expect(recorded.bytes).toBe(range.bytes);
        expect(recorded.pagesBefore, `launch ${index} range ${range.base}`).toEqual(range.pagesBefore);
        expect(hex(recorded.pageHashesBefore), `launch ${index} range ${range.base}`).toEqual(range.hashesBefore);
        expect(hex(recorded.pageHashesAfter), `launch ${index} range ${range.base}`).toEqual(range.hashesAfter);
      }
      if (launch.follows === null) {
        expect(launch.sequenceBreak).not.toBeNull();
        seen.reasons.add(launch.sequenceBreak!);
        return;
      }
      seen.follows += 1;
      // It follows the launch just before it, on its stream, and starts from that launch's memory
      // with its own workBefore applied.
      expect(launch.follows).toBe(index - 1);
      const previous = truth.launches[index - 1]!;
      expect(previous.stream).toBe(expected.stream);
      for (const range of expected.ranges) {
        const before = previous.ranges.find((candidate) => candidate.base === range.base && candidate.bytes === range.bytes);
        if (!before) continue;
        range.hashesBefore.forEach((hash, page) => {
          if (!writtenByWork(launch, range, page)) expect(hash, `launch ${index} page ${page} of ${range.base}`).toBe(before.hashesAfter[page]);
        });
      }
    });
    // Every sequence but the first is counted with its reason.
    const starts = folder.launches.filter((launch) => launch.follows === null).length;
    expect(folder.manifest.sequences).toBe(starts);
    expect(Object.values(folder.manifest.sequenceBreaks ?? {}).reduce((sum, count) => sum + count, 0)).toBe(Math.max(0, starts - 1));
    rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  it('the seeds made launches that follow and every kind of sequence break these operations can cause', () => {
    expect(seen.follows).toBeGreaterThan(10);
    expect([...seen.reasons].sort()).toEqual(['cross-stream-wait', 'first-launch', 'host-function', 'host-write', 'other-stream', 'other-stream-work', 'uncaptured-launch']);
  });
});
