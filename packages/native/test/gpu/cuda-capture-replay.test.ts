/**
 * A capture replayed at its own addresses (openCapture): a capture folder of the fixture kernel
 * (y = a * x + y, test/capture-fixtures/axpy.cu) written from TypeScript with y and x at fixed
 * addresses free in this process and one module global, each launch made ready, run, and its
 * memory after checked against the hashes the "program" left (checkPostLaunchHashes). The module is
 * a cubin nvcc builds from axpy.cu, else the committed PTX. Skips without a CUDA device (or the
 * fake libcuda).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc } from '../../src/capture/nvcc.js';
import { checkPostLaunchHashes, openCapture, openRuntime, UnsupportedError, type CaptureReplay, type Runtime } from '../../src/index.js';
import { captureFixtureAxpyParameters, captureFixtureBlockSums, captureFixtureBlockSumsParameters, captureFixtureBlockThreads, writeTestCapture, type TestCaptureLaunch } from '../../src/test.js';
import { probeCudaForTests } from './cuda-availability.js';
import { candidateAddresses, unmapped } from './fixed-address-ranges.js';

const cuda = await probeCudaForTests();
const nvcc = findNvcc();
// In the repository, or beside the GPU test bundle (scripts/bundle-gpu-tests.mjs copies it there).
const source = [fileURLToPath(new URL('../capture-fixtures/axpy.cu', import.meta.url)), fileURLToPath(new URL('./axpy.cu', import.meta.url))].find((path) => existsSync(path));
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-replay-'));

/** The fixture's module: a cubin for `architecture` when nvcc is here, else the committed PTX. */
function axpyModule(architecture: string): Uint8Array {
  if ('missing' in nvcc || source === undefined) return readFileSync(fileURLToPath(new URL('./kernels/capture-fixture-axpy.ptx', import.meta.url)));
  const output = join(root, `axpy-${architecture}.cubin`);
  execFileSync(nvcc.path, ['-cubin', `-arch=${architecture}`, '-o', output, source]);
  return readFileSync(output);
}

const bytesOf = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
/** y = a * x + y rounded as the fixture does: a product, then a sum, each to float32. */
const axpy = (a: number, x: Float32Array, y: Float32Array) => y.map((value, index) => Math.fround(Math.fround(Math.fround(a) * x[index]!) + value));

/** Addresses for the captured ranges: a 1 GiB window free in this process. */
function freeWindow(): number {
  const found = candidateAddresses().find((address) => unmapped(address, address + 2n ** 30n));
  if (found === undefined) throw new Error('no candidate address range is free in this process');
  return Number(found);
}

const count = 20_000; // 80,000 bytes: two 64 KiB pages, the second one short
const pageBytes = 65536;
const table = Uint8Array.from({ length: 256 }, (_, index) => index);

/**
 * Two launches of the fixture over device memory y (at `base` + 6 MiB: 2 MiB-aligned, as CUDA's
 * allocations are, but not aligned to the 32 MiB a reservation hint needs) and pinned host memory x
 * (at base + 64 MiB): the second reads what the first left in y, and x changed in its second page only.
 */
/**
 * One launch of the block-sums fixture in a fresh window: a and b (device memory) 6 and 8 MiB above
 * its base, the sums 10 MiB above it, as `sums.kind` with `sums.before` there before the launch. The
 * parameter buffer is the fixture's, zero-padded to `parameterBytes` when that is longer.
 */
function writeBlockSumsCapture(
  directory: string,
  architecture: string,
  aValues: Float32Array,
  bValues: Float32Array,
  sums: { readonly kind: 'device' | 'host-pinned'; readonly before: (bytes: number) => Uint8Array },
  parameterBytes?: number,
): { readonly a: number; readonly b: number; readonly sums: number; readonly parameters: Uint8Array; readonly expected: Float32Array } {
  const base = freeWindow();
  const [a, b, sumsAt] = [base + 6 * 2 ** 20, base + 8 * 2 ** 20, base + 10 * 2 ** 20];
  const expected = captureFixtureBlockSums(aValues, bValues);
  const parameters = captureFixtureBlockSumsParameters(a, b, sumsAt, aValues.length);
  const buffer = new Uint8Array(Math.max(parameters.length, parameterBytes ?? 0));
  buffer.set(parameters);
  writeTestCapture(directory, {
    device: { name: 'The captured GPU', architecture },
    command: ['block-sums-program'],
    launches: [
      {
        function: 'kreplay_capture_fixture_block_sums',
        module: readFileSync(fileURLToPath(new URL('./kernels/capture-fixture-block-sums.ptx', import.meta.url))),
        grid: [aValues.length / captureFixtureBlockThreads, 1, 1],
        block: [captureFixtureBlockThreads, 1, 1],
        parameters: buffer,
        memory: [
          { base: a, kind: 'device', before: bytesOf(aValues) },
          { base: b, kind: 'device', before: bytesOf(bValues) },
          { base: sumsAt, kind: sums.kind, before: sums.before(expected.byteLength), after: bytesOf(expected) },
        ],
      },
    ],
  });
  return { a, b, sums: sumsAt, parameters, expected };
}

function writeAxpyCapture(
  directory: string,
  base: number,
  module: Uint8Array,
  architecture: string,
  xOffset = 64 * 2 ** 20,
): { readonly y: number; readonly x: number; readonly results: Float32Array[] } {
  const y = base + 6 * 2 ** 20;
  const x = base + xOffset;
  const y0 = Float32Array.from({ length: count }, (_, index) => (index % 97) * 0.5 - 3);
  const x0 = Float32Array.from({ length: count }, (_, index) => ((index * 7) % 101) * 0.25);
  const x1 = x0.slice();
  x1.fill(1.5, 16384 + 10, 16384 + 20); // in the second page
  const y1 = axpy(2.5, x0, y0);
  const y2 = axpy(-1, x1, y1);
  const launch = (a: number, xs: Float32Array, before: Float32Array, after: Float32Array): TestCaptureLaunch => ({
    function: 'kreplay_capture_fixture_axpy',
    module,
    grid: [Math.ceil(count / 256), 1, 1],
    block: [256, 1, 1],
    parameters: captureFixtureAxpyParameters(y, x, a, count),
    slots: [
      { index: 0, offset: 0, size: 8 },
      { index: 1, offset: 8, size: 8 },
      { index: 2, offset: 16, size: 4 },
      { index: 3, offset: 20, size: 4 },
    ],
    pageBytes,
    memory: [
      { base: y, kind: 'device', before: bytesOf(before), after: bytesOf(after) },
      { base: x, kind: 'host-pinned', before: bytesOf(xs) },
      { base: 0x1000, kind: 'module-global', label: 'kreplay_capture_fixture_table', before: table },
    ],
  });
  writeTestCapture(directory, {
    device: { name: 'The captured GPU', architecture },
    command: ['axpy-program'],
    launches: [launch(2.5, x0, y0, y1), launch(-1, x1, y1, y2)],
  });
  return { y, x, results: [y1, y2] };
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!cuda.available)(`openCapture on the cuda driver${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  let architecture: string;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
    architecture = runtime.agents[0]!.info.architecture;
  });
  afterAll(() => runtime?.dispose());

  it('maps the memory at the captured bases, writes only changed pages, and reproduces each launch', async () => {
    const directory = join(root, 'axpy');
    const { y, x, results } = writeAxpyCapture(directory, freeWindow(), axpyModule(architecture), architecture);
    await using replay = await openCapture(directory, { runtime });
    expect(replay.reservations).toEqual([]);
    expect(replay.regions).toEqual([
      { address: y, bytes: count * 4, placement: 'device' },
      { address: x, bytes: count * 4, placement: 'host' },
    ]);
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();

    const first = await replay.prepare(0);
    expect(agent.findAllocation(y)).toMatchObject({ address: y, bytes: count * 4, kind: 'device' });
    expect(agent.findAllocation(x)).toMatchObject({ address: x, bytes: count * 4, kind: 'host-pinned' });
    expect(first.kernel.parameters).toEqual([{ name: 'parameters', type: 'bytes', size: 24, indirect: true }]);
    expect(first.args).toEqual({ parameters: captureFixtureAxpyParameters(y, x, 2.5, count) });
    expect(first.launch).toEqual({ grid: [Math.ceil(count / 256), 1, 1], block: [256, 1, 1], sharedBytes: 0 });
    // y's and x's two pages each, and the global's one page.
    expect(first.pagesWritten).toBe(5);
    const global = first.memory[2]!;
    expect(global).toMatchObject({ kind: 'module-global', label: 'kreplay_capture_fixture_table', bytes: 256 });
    expect(global.address).toBe(Number((await runtime.kernelGlobal(first.kernel, 0, 'kreplay_capture_fixture_table')).address));
    expect(await agent.read(global.address, 256)).toEqual(table);
    queue.enqueueKernel(first.kernel, first.args, first.launch);
    expect(await checkPostLaunchHashes(queue, first.expectedPageHashes)).toMatchObject({ reproduced: true, pagesCompared: 5, pagesMismatched: 0 });
    expect(new Float32Array((await agent.read(y, count * 4)).slice().buffer)).toEqual(results[0]);

    // Launch 1: y's pages are new blobs (what launch 0 left), and so is x's changed second page; x's
    // first page and the global still hold what the replay wrote (their hashes say so) and are kept.
    const second = await replay.prepare(1);
    expect(second.pagesWritten).toBe(3);
    expect(second.bytesWritten).toBe(count * 4 + (count * 4 - pageBytes));
    expect(second.kernel).toBe(first.kernel);
    queue.enqueueKernel(second.kernel, second.args, second.launch);
    expect((await checkPostLaunchHashes(queue, second.expectedPageHashes)).reproduced).toBe(true);

    // Prepared again, launch 0 gets back y as it was before it (the kernel wrote over it) and x's
    // second page; running it twice is not what the program did.
    const again = await replay.prepare(0);
    expect(again.pagesWritten).toBe(3); // y's two pages and x's second one
    queue.enqueueKernel(again.kernel, again.args, again.launch);
    queue.enqueueKernel(again.kernel, again.args, again.launch);
    const twice = await checkPostLaunchHashes(queue, again.expectedPageHashes);
    expect(twice).toMatchObject({ reproduced: false, pagesCompared: 5, pagesMismatched: 2 });
    expect(twice.mismatches).toEqual([{ address: y, bytes: count * 4, kind: 'device', label: '', pages: [0, 1] }]);
    // The registers of the function the driver loaded for the replay: the fake libcuda says 24.
    expect(await replay.registersPerThread(1)).toBe(runtime.kernelRegisters(first.kernel, 0));
    if (agent.info.name.startsWith('Fake CUDA')) expect(await replay.registersPerThread(0)).toBe(24);
    await queue.dispose();
  });

  it('places pinned host memory that lies in a device region\'s 32 MiB window there, as CUDA host memory beside it', async () => {
    const directory = join(root, 'host-in-window');
    // x 4 MiB above y: CUDA puts a program's pinned memory among its device memory like this.
    const { y, x, results } = writeAxpyCapture(directory, freeWindow(), axpyModule(architecture), architecture, 10 * 2 ** 20);
    await using replay = await openCapture(directory, { runtime });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const first = await replay.prepare(0);
    expect(replay.relocations).toEqual([]);
    expect(agent.findAllocation(y)).toMatchObject({ address: y, kind: 'device' });
    expect(agent.findAllocation(x)).toMatchObject({ address: x, kind: 'host-pinned' });
    queue.enqueueKernel(first.kernel, first.args, first.launch);
    expect((await checkPostLaunchHashes(queue, first.expectedPageHashes)).reproduced).toBe(true);
    expect(new Float32Array((await agent.read(y, count * 4)).slice().buffer)).toEqual(results[0]);
    const second = await replay.prepare(1);
    queue.enqueueKernel(second.kernel, second.args, second.launch);
    expect((await checkPostLaunchHashes(queue, second.expectedPageHashes)).reproduced).toBe(true);
    await queue.dispose();
  });

  it('replays a kernel that stores into pinned host memory in a device window: the device\'s hashes and the host see its stores', async () => {
    // The block-sums fixture: each block's sum of a[i] + b[i] stored by thread 0 in sums, pinned host
    // memory 4 MiB above a (where CUDA puts a program's cudaMallocHost memory).
    const directory = join(root, 'host-sums');
    const elements = 16 * captureFixtureBlockThreads;
    const aValues = Float32Array.from({ length: elements }, (_, index) => (index % 17) - 8);
    const bValues = Float32Array.from({ length: elements }, (_, index) => ((index * 7) % 23) * 0.25);
    const { sums, expected } = writeBlockSumsCapture(directory, architecture, aValues, bValues, { kind: 'host-pinned', before: (bytes) => new Uint8Array(bytes).fill(0xff) });
    await using replay = await openCapture(directory, { runtime, placement: 'exact' });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const dispatch = await replay.prepare(0);
    expect(agent.findAllocation(sums)).toMatchObject({ address: sums, kind: 'host-pinned' });
    // Twice: the second stores what the first did, over it.
    for (let run = 0; run < 2; run += 1) {
      queue.enqueueKernel(dispatch.kernel, dispatch.args, dispatch.launch);
      expect(await checkPostLaunchHashes(queue, dispatch.expectedPageHashes)).toMatchObject({ reproduced: true, pagesMismatched: 0 });
      expect(new Float32Array((await agent.read(sums, expected.byteLength)).slice().buffer)).toEqual(expected);
    }
    await queue.dispose();
  });

  it("passes only the kernel's parameters of a recorded buffer that runs past them (CUDA refuses a longer one), with a note", async () => {
    const directory = join(root, 'long-parameters');
    const elements = 4 * captureFixtureBlockThreads;
    const aValues = Float32Array.from({ length: elements }, (_, index) => (index % 13) - 6);
    const bValues = Float32Array.from({ length: elements }, (_, index) => (index % 5) * 0.5);
    // The buffer padded to 32 bytes, as a C struct of the parameters would be; they end at byte 28.
    const { parameters } = writeBlockSumsCapture(directory, architecture, aValues, bValues, { kind: 'device', before: (bytes) => new Uint8Array(bytes) }, 32);
    await using replay = await openCapture(directory, { runtime, placement: 'exact' });
    const queue = runtime.agents[0]!.createQueue();
    const dispatch = await replay.prepare(0);
    expect(dispatch.args).toEqual({ parameters });
    expect(dispatch.notes).toContain("the parameter buffer's last 4 bytes lie past kernel kreplay_capture_fixture_block_sums's parameters in its module and are not passed (CUDA refuses a longer buffer)");
    queue.enqueueKernel(dispatch.kernel, dispatch.args, dispatch.launch);
    expect(await checkPostLaunchHashes(queue, dispatch.expectedPageHashes)).toMatchObject({ reproduced: true, pagesMismatched: 0 });
    await queue.dispose();
  });

  it('relocates memory the driver will not place at its captured addresses, and rewrites the parameter buffer to follow', async () => {
    const directory = join(root, 'relocated');
    const { y, x, results } = writeAxpyCapture(directory, freeWindow(), axpyModule(architecture), architecture);
    await using replay = await openCapture(directory, { runtime, placement: 'relocate' });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const first = await replay.prepare(0);
    // Host memory is mapped first.
    expect(replay.relocations.map((relocation) => relocation.from)).toEqual([x, y]);
    expect(replay.relocations.map(({ placement, reason }) => [placement, reason])).toEqual([
      ['host', "the placement is 'relocate'"],
      ['device', "the placement is 'relocate'"],
    ]);
    const [movedX, movedY] = replay.relocations.map((relocation) => relocation.to);
    expect(movedY).not.toBe(y);
    expect(first.relocatedRegions).toBe(2);
    expect(first.args).toEqual({ parameters: captureFixtureAxpyParameters(movedY!, movedX!, 2.5, count) });
    expect(first.memory.slice(0, 2).map((range) => range.address)).toEqual([movedY, movedX]);
    expect(first.notes.join(' ')).toContain('2 of 2 memory regions are not at their captured addresses');
    queue.enqueueKernel(first.kernel, first.args, first.launch);
    expect((await checkPostLaunchHashes(queue, first.expectedPageHashes)).reproduced).toBe(true);
    const second = await replay.prepare(1);
    queue.enqueueKernel(second.kernel, second.args, second.launch);
    expect((await checkPostLaunchHashes(queue, second.expectedPageHashes)).reproduced).toBe(true);
    expect(new Float32Array((await agent.read(movedY!, count * 4)).slice().buffer)).toEqual(results[1]);
    await queue.dispose();
  });

  it('relocates a region that later launches saw grow (an address freed and allocated again larger)', async () => {
    const directory = join(root, 'grown');
    const base = freeWindow();
    const module = axpyModule(architecture);
    const small = new Uint8Array(3 * pageBytes).fill(1);
    const large = new Uint8Array(5 * pageBytes + 15).fill(2);
    const launch = (memory: Uint8Array): TestCaptureLaunch => ({
      function: 'kreplay_capture_fixture_axpy',
      module,
      grid: [1, 1, 1],
      block: [32, 1, 1],
      parameters: captureFixtureAxpyParameters(base, base, 1, 0),
      slots: [{ index: 0, offset: 0, size: 24 }],
      pageBytes,
      memory: [{ base, kind: 'device', before: memory }],
    });
    writeTestCapture(directory, { device: { name: 'The captured GPU', architecture }, command: ['grown'], launches: [launch(small), launch(large)] });
    await using replay = await openCapture(directory, { runtime, placement: 'relocate' });
    expect(replay.regions).toEqual([{ address: base, bytes: large.length, placement: 'device' }]);
    const queue = runtime.agents[0]!.createQueue();
    for (const sequence of [0, 1]) {
      const dispatch = await replay.prepare(sequence);
      queue.enqueueKernel(dispatch.kernel, dispatch.args, dispatch.launch);
      expect((await checkPostLaunchHashes(queue, dispatch.expectedPageHashes)).reproduced).toBe(true);
    }
    await queue.dispose();
  });

  it('refuses a launch whose parameter buffer is shorter than its module declares, before it runs (no read past the buffer)', async () => {
    const directory = join(root, 'empty-parameters');
    const y = freeWindow() + 6 * 2 ** 20;
    const before = new Uint8Array(4096).fill(1);
    writeTestCapture(directory, {
      device: { name: 'The captured GPU', architecture },
      launches: [{ function: 'kreplay_capture_fixture_axpy', module: axpyModule(architecture), grid: [1, 1, 1], block: [32, 1, 1], parameters: new Uint8Array(0), memory: [{ base: y, kind: 'device', before }] }],
    });
    // Read with verification, the record is damaged; without, the kernel's load refuses it.
    await using verified: CaptureReplay = await openCapture(directory, { runtime });
    expect(verified.launches).toEqual([]);
    expect(verified.folder.damaged[0]!.reason).toMatch(/parameters\.buffer holds 0 bytes, but its module declares 4 parameters of kernel kreplay_capture_fixture_axpy in 24 bytes/);
    await using unverified: CaptureReplay = await openCapture(directory, { runtime, verifyBlobs: false });
    await expect(unverified.prepare(0)).rejects.toThrow(/options\.parameters declares 0 parameters of kernel kreplay_capture_fixture_axpy, but its module declares 4 \(24 bytes\)/);
  });

  it('refuses a launch that is not in the capture, and a module of another architecture without PTX', async () => {
    const directory = join(root, 'other-architecture');
    const captured = architecture === 'sm_80' ? 'sm_86' : 'sm_80';
    // Without nvcc (or the source), a truncated ELF: unreadable, so no code for this device is found in it.
    const module = 'missing' in nvcc || source === undefined ? new Uint8Array([0x7f, 0x45, 0x4c, 0x46]) : axpyModule(captured);
    writeAxpyCapture(directory, freeWindow(), module, captured);
    await using replay: CaptureReplay = await openCapture(directory, { runtime });
    await expect(replay.prepare(7)).rejects.toThrow(/launch 7 is not a complete launch of .*\. Pass one of its launches \(sequences 0, 1\)/);
    const refusal = await replay.prepare(0).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnsupportedError);
    expect((refusal as Error).message).toContain(`the capture was taken on ${captured} and this device is ${architecture}`);
  });
});
