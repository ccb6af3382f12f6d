import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCaptureFolder } from '../capture/capture-folder.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { pageHash } from '../queue/page-hash.js';
import type { Runtime } from '../runtime/runtime-objects.js';
import { writeTestCapture } from '../test/capture-folder-writer.js';
import { CapturePageState } from './capture-memory.js';
import { pagesOf } from './capture-pages.js';
import { checkPostLaunchHashes } from './post-launch-hashes.js';

// Page contents kept across launches and the post-launch check, on the host driver: the captured
// ranges are placed in ordinary allocations (fixed addresses are the cuda driver's; see
// test/gpu/cuda-capture-replay.test.ts for the whole replay).
const pageBytes = 4096;
const pattern = (seed: number, bytes = 3 * pageBytes) => Uint8Array.from({ length: bytes }, (_, index) => (index * 31 + seed * 7) & 0xff);

let root = '';
let runtime: Runtime;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'kreplay-capture-memory-'));
  runtime = await openRuntime({ driver: 'host' });
});
afterEach(async () => {
  await runtime.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** A capture of two launches over one 3-page range at `base`: the second changed page 1 only. */
async function twoLaunches(base: number) {
  const first = pattern(1);
  const second = first.slice();
  second.fill(9, pageBytes, 2 * pageBytes);
  const after = second.slice();
  after.fill(5, 0, 100);
  const launch = (before: Uint8Array, afterLaunch: Uint8Array) => ({
    function: 'k',
    module: new Uint8Array([1, 2, 3]),
    grid: [1, 1, 1] as const,
    block: [1, 1, 1] as const,
    parameters: new Uint8Array(0),
    pageBytes,
    memory: [{ base, kind: 'device' as const, before, after: afterLaunch }],
  });
  const directory = writeTestCapture(join(root, 'capture'), { launches: [launch(first, second), launch(second, after)] });
  return { folder: await readCaptureFolder(directory), first, second, after };
}

describe('CapturePageState', () => {
  it('writes every page first, then only the pages whose blob changed or whose memory was written since', async () => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const allocation = agent.allocate(3 * pageBytes);
    const { folder, first, second } = await twoLaunches(allocation.address);
    const state = new CapturePageState(folder.directory, agent, queue);
    const pagesFor = (index: number) => pagesOf(allocation.address, 3 * pageBytes, pageBytes, folder.launches[index]!.memory[0]!.pagesBefore);

    expect(await state.bringUpToDate(pagesFor(0), pageBytes)).toEqual({ pagesWritten: 3, bytesWritten: 3 * pageBytes, pagesKept: 0 });
    expect(await agent.read(allocation.address, 3 * pageBytes)).toEqual(first);
    expect(await state.bringUpToDate(pagesFor(0), pageBytes)).toEqual({ pagesWritten: 0, bytesWritten: 0, pagesKept: 3 });

    // Something wrote page 2 (as a replayed kernel would): it is written again though its blob is the same.
    await agent.write(allocation.address + 2 * pageBytes + 10, new Uint8Array([0xee]));
    expect(await state.bringUpToDate(pagesFor(1), pageBytes)).toEqual({ pagesWritten: 2, bytesWritten: 2 * pageBytes, pagesKept: 1 });
    expect(await agent.read(allocation.address, 3 * pageBytes)).toEqual(second);
    await queue.dispose();
  });
});

describe('checkPostLaunchHashes', () => {
  it('reproduced when every page hashes as the program left it; else the ranges and pages that differ', async () => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const allocation = agent.allocate(3 * pageBytes);
    const { folder, second, after } = await twoLaunches(allocation.address);
    const expected = {
      pageBytes,
      ranges: [{ address: allocation.address, bytes: 3 * pageBytes, kind: 'device' as const, label: '', hashes: folder.launches[1]!.memory[0]!.pageHashesAfter }],
    };
    expect(expected.ranges[0]!.hashes[0]).toBe(pageHash(after.subarray(0, pageBytes)));
    await agent.write(allocation.address, second);
    expect(await checkPostLaunchHashes(queue, expected)).toEqual({
      reproduced: false,
      pagesCompared: 3,
      pagesMismatched: 1,
      mismatches: [{ address: allocation.address, bytes: 3 * pageBytes, kind: 'device', label: '', pages: [0] }],
    });
    await agent.write(allocation.address, after);
    expect(await checkPostLaunchHashes(queue, expected)).toEqual({ reproduced: true, pagesCompared: 3, pagesMismatched: 0, mismatches: [] });
    await queue.dispose();
  });

  it('refuses an expectation whose hashes do not cover its pages', async () => {
    const queue = runtime.agents[0]!.createQueue();
    await expect(checkPostLaunchHashes(queue, { pageBytes, ranges: [{ address: 0, bytes: 2 * pageBytes, kind: 'device', label: '', hashes: [1n] }] })).rejects.toThrow(
      /lists 1 hashes for 2 pages/,
    );
    await queue.dispose();
  });
});
