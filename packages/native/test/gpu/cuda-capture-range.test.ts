/**
 * A captured sequence replayed as a range (CaptureReplay.prepareRange, checkRange): a capture of
 * format version 2 of three launches of the fixture kernel (y = a * x + y,
 * test/capture-fixtures/axpy.cu, its committed PTX) over y in device memory and x in pinned host
 * memory, with work between launches 0 and 1 (an upload into x's second page) and between 1 and 2
 * (a memset of y's first page). Skips without a CUDA device (or the fake libcuda).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCapture, openRuntime, type Runtime } from '../../src/index.js';
import { captureFixtureAxpyParameters, writeTestCapture, type TestCaptureLaunch } from '../../src/test.js';
import { probeCudaForTests } from './cuda-availability.js';
import { candidateAddresses, unmapped } from './fixed-address-ranges.js';

const cuda = await probeCudaForTests();
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-range-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ptx = readFileSync(fileURLToPath(new URL('./kernels/capture-fixture-axpy.ptx', import.meta.url)));

const count = 20_000; // two 64 KiB pages, the second one short
const pageBytes = 65536;
const bytesOf = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
const axpy = (a: number, x: Float32Array, y: Float32Array) => y.map((value, index) => Math.fround(Math.fround(Math.fround(a) * x[index]!) + value));

function freeWindow(): number {
  const found = candidateAddresses().find((address) => unmapped(address, address + 2n ** 30n));
  if (found === undefined) throw new Error('no candidate address range is free in this process');
  return Number(found);
}

/**
 * Three launches, y and x as the program had them before each. `wrongAfter`: the program's y after
 * launch 1 is recorded as if x had not been uploaded (what the replay of launch 1 cannot match).
 */
function writeSequence(directory: string, base: number, wrongAfter = false): { readonly y: number; readonly x: number } {
  const y = base + 6 * 2 ** 20;
  const x = base + 64 * 2 ** 20;
  const y0 = Float32Array.from({ length: count }, (_, index) => (index % 97) * 0.5 - 3);
  const x0 = Float32Array.from({ length: count }, (_, index) => ((index * 7) % 101) * 0.25);
  const x1 = x0.slice();
  x1.fill(1.5, 16384 + 10, 16384 + 20); // uploaded between launches 0 and 1: x's second page
  const y1 = axpy(2.5, x0, y0);
  const y2 = axpy(-1, wrongAfter ? x0 : x1, y1);
  const y2set = y2.slice();
  y2set.fill(0, 0, 100); // a memset between launches 1 and 2: y's first page
  const y3 = axpy(0.5, x1, y2set);
  const launch = (a: number, xs: Float32Array, before: Float32Array, after: Float32Array, extra: Partial<TestCaptureLaunch> = {}): TestCaptureLaunch => ({
    function: 'kreplay_capture_fixture_axpy',
    module: ptx,
    grid: [Math.ceil(count / 256), 1, 1],
    block: [256, 1, 1],
    parameters: captureFixtureAxpyParameters(y, x, a, count),
    pageBytes,
    memory: [
      { base: y, kind: 'device', before: bytesOf(before), after: bytesOf(after) },
      { base: x, kind: 'host-pinned', before: bytesOf(xs) },
    ],
    ...extra,
  });
  writeTestCapture(directory, {
    formatVersion: 2,
    device: { name: 'The captured GPU', architecture: 'sm_90' },
    launches: [
      launch(2.5, x0, y0, y1),
      launch(-1, x1, y1, y2, { workBefore: [{ kind: 'upload', stream: '0x0', destination: x + 16384 * 4, bytes: 40 }] }),
      launch(0.5, x1, y2set, y3, { workBefore: [{ kind: 'memset', stream: '0x0', address: y, bytes: 400, value: 0, elementBytes: 4 }] }),
    ],
  });
  return { y, x };
}

describe.skipIf(!cuda.available)(`CaptureReplay ranges on the cuda driver${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
  });
  afterAll(() => runtime?.dispose());

  it('prepares memory as before the first launch, and copies before each later launch only the pages the work between changed', async () => {
    const { y, x } = writeSequence(join(root, 'sequence'), freeWindow());
    await using replay = await openCapture(join(root, 'sequence'), { runtime });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const range = await replay.prepareRange([0, 1, 2]);
    expect(range.launches.map((launch) => launch.dispatch.sequence)).toEqual([0, 1, 2]);
    // y's and x's two pages each, before the range; then x's second page, then y's first.
    expect(range.pagesWritten).toBe(4);
    expect(range.launches.map((launch) => [launch.pagesBefore, launch.bytesBefore])).toEqual([
      [0, 0],
      [1, count * 4 - pageBytes],
      [1, pageBytes],
    ]);
    expect(range.launches[1]!.before).toEqual([{ source: range.staging!.address, destination: x + pageBytes, bytes: count * 4 - pageBytes }]);
    expect(range.launches[2]!.before).toEqual([{ source: range.staging!.address + count * 4 - pageBytes, destination: y, bytes: pageBytes }]);
    expect(range.bytesStaged).toBe(count * 4);
    expect(range.notes).toEqual([]);
    // Run as the engine would: each launch's copies, then its kernel.
    for (const { dispatch, before } of range.launches) {
      for (const segment of before) queue.enqueueCopy([segment]);
      queue.enqueueKernel(dispatch.kernel, dispatch.args, dispatch.launch);
    }
    await queue.synchronize();
    const check = await replay.checkRange([0, 1, 2], queue);
    expect(check.launches.map((launch) => launch.reproduced)).toEqual([true, true, true]);
    expect(check.pagesRepaired).toBe(0);
    // Prepared again: the staging holds the range already.
    const again = await replay.prepareRange([0, 1, 2]);
    expect(again.staging).toEqual(range.staging);
    expect(again.pagesWritten).toBe(3); // y's pages, which the launches wrote, and x's second, which a copy wrote
    await queue.dispose();
  });

  it('checkRange names the launch that does not reproduce the program, and checks the next one from the program\'s memory', async () => {
    writeSequence(join(root, 'wrong'), freeWindow(), true);
    await using replay = await openCapture(join(root, 'wrong'), { runtime });
    const queue = runtime.agents[0]!.createQueue();
    const check = await replay.checkRange([0, 1, 2], queue);
    expect(check.launches.map((launch) => [launch.reproduced, launch.pagesMismatched])).toEqual([
      [true, 0],
      [false, 1],
      [true, 0],
    ]);
    // y's second page, wrong after launch 1 (its first is set by the memset's copy anyway).
    expect(check.pagesRepaired).toBe(1);
    await queue.dispose();
  });
});
