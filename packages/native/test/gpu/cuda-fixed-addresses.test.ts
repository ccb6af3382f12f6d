/**
 * Memory at chosen addresses on the cuda driver (runtime.allocateAt, allocateHostAt, openRuntime's
 * reserveAddresses) and what a capture replayed at its own addresses launches with it: the capture
 * fixture kernel with its whole parameter buffer as one `bytes` parameter, in clusters, and its
 * module's globals (runtime.kernelGlobal). Skips without a CUDA device (or the fake libcuda).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError, DriverError, openRuntime, pageHash, type DeviceAllocation, type KernelDescriptor, type MemoryEvent, type Runtime } from '../../src/index.js';
import { captureFixtureAxpyParameters } from '../../src/test.js';
import { probeCudaForTests } from './cuda-availability.js';
import { DEVICE_WINDOW, driverChosenAddress, GRANULE, placeAtFreeAddress, processMappings } from './fixed-address-ranges.js';

const cuda = await probeCudaForTests();
const axpyImage = readFileSync(fileURLToPath(new URL('./kernels/capture-fixture-axpy.ptx', import.meta.url)));

function floats(bytes: Uint8Array): Float32Array {
  return new Float32Array(bytes.slice().buffer);
}

/** The child script, runnable by plain Node.js: bundled beside the GPU test bundle, else bundled now. */
async function childScript(): Promise<string> {
  const beside = fileURLToPath(new URL('./fixed-address-child.mjs', import.meta.url));
  if (existsSync(beside)) return beside;
  const bundler = new URL('../../scripts/gpu-runner/bundle-test-files.mjs', import.meta.url).href;
  const { loadEsbuild, commonBundleOptions } = (await import(bundler)) as {
    loadEsbuild(): Promise<{ build(options: object): Promise<unknown> }>;
    commonBundleOptions: object;
  };
  const outfile = join(mkdtempSync(join(tmpdir(), 'kreplay-fixed-')), 'fixed-address-child.mjs');
  const { build } = await loadEsbuild();
  await build({ ...commonBundleOptions, ignoreAnnotations: false, entryPoints: [fileURLToPath(new URL('./fixed-address-child.ts', import.meta.url))], outfile });
  return outfile;
}

// Whether the driver places memory at a requested address: an H200 (driver 580) does inside a
// reservation made at a 32 MiB-aligned hint, and the fake honours hints as it does.
const exactPlacement = cuda.available;

/** fixed-address-child.ts in a fresh process: what held the range after openRuntime, and the allocation there. */
function runChild(address: bigint, bytes: number, kind?: 'device'): { placeholder: string | null; address: number; roundTrip: boolean } {
  const binding = process.env['KREPLAY_NATIVE_BINDING'] ?? fileURLToPath(new URL('../../build/Release/kreplay.node', import.meta.url));
  const output = execFileSync(process.execPath, [childScriptPath!, address.toString(), String(bytes), ...(kind ? [kind] : [])], {
    encoding: 'utf8',
    env: { ...process.env, KREPLAY_NATIVE_BINDING: binding },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(output.trim().split('\n').at(-1)!) as { placeholder: string | null; address: number; roundTrip: boolean };
}

let childScriptPath: string | undefined;

describe.skipIf(!cuda.available)(`cuda memory at chosen addresses${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  let axpy: KernelDescriptor;
  beforeAll(async () => {
    childScriptPath = await childScript();
    runtime = await openRuntime({ driver: 'cuda' });
    axpy = await runtime.loadKernel({
      image: axpyImage,
      name: 'kreplay_capture_fixture_axpy',
      parameters: [{ name: 'parameters', type: 'bytes', size: 24, indirect: true }],
    });
  });
  afterAll(() => runtime?.dispose());

  it('places device memory exactly, or says which range could not be had and what the driver offered', async () => {
    const address = await driverChosenAddress(runtime, 4 * 2 ** 20);
    const placed = await runtime.allocateAt(0, address, 65536).catch((error: unknown) => error);
    if (placed instanceof DriverError) {
      expect(placed.code).toBe('address-taken');
      expect(placed.message).toContain(`0x${address.toString(16)}`);
      expect(placed.message).toMatch(/it offered 0x[0-9a-f]+/);
    } else {
      expect(BigInt((placed as DeviceAllocation).address)).toBe(address);
      (placed as DeviceAllocation).free();
    }
  });

  it.skipIf(!exactPlacement)('allocates device memory at exactly the address, which copies, hashes and reads reach', async () => {
    const events: MemoryEvent[] = [];
    const unsubscribe = runtime.onMemoryEvent((event) => events.push(event));
    const bytes = 3 * 65536 + 100;
    const { address, placed } = await placeAtFreeAddress((candidate) => runtime.allocateAt(0, candidate + 4096n, bytes), runtime);
    expect(BigInt(placed.address)).toBe(address + 4096n);
    expect(placed).toMatchObject({ kind: 'device', agentId: 0, bytes });
    // The events of the placement (placeAtFreeAddress's probe for a free address has its own).
    expect(events.filter((event) => event.address === placed.address)).toEqual([{ type: 'allocate', agentId: 0, address: placed.address, bytes, kind: 'device' }]);
    const agent = runtime.agents[0]!;
    expect(agent.findAllocation(placed.address + 5000)).toBe(placed);
    const pattern = Uint8Array.from({ length: bytes }, (_, index) => (index * 31 + 7) & 0xff);
    const source = agent.allocate(bytes);
    await agent.write(source.address, pattern);
    const queue = agent.createQueue();
    queue.enqueueCopy([{ source: source.address, destination: placed.address, bytes }]);
    await queue.synchronize();
    expect(Buffer.from(await agent.read(placed.address, bytes)).equals(Buffer.from(pattern))).toBe(true);
    const hashes = await queue.hashPages([{ address: placed.address, bytes }], 65536);
    expect(hashes[0]).toBe(pageHash(pattern.subarray(0, 65536)));
    expect(hashes[3]).toBe(pageHash(pattern.subarray(3 * 65536)));
    await queue.dispose();
    source.free();
    placed.free();
    unsubscribe();
    expect(events.at(-1)).toMatchObject({ type: 'free', address: placed.address, kind: 'device' });
  });

  it.skipIf(!exactPlacement)('restores fixed-address memory from a mirror with a conditional copy, page by page', async () => {
    const agent = runtime.agents[0]!;
    const pageBytes = 4096;
    const pages = 8;
    const bytes = pages * pageBytes;
    const { placed: memory } = await placeAtFreeAddress((candidate) => runtime.allocateAt(0, candidate, bytes), runtime);
    const mirror = agent.allocate(bytes);
    const hashes = agent.allocate(8 * pages);
    const list = agent.allocate(4 * pages);
    const count = agent.allocate(4);
    const original = Uint8Array.from({ length: bytes }, (_, index) => (index * 13) & 0xff);
    await agent.write(memory.address, original);
    await agent.write(mirror.address, original);
    const queue = agent.createQueue();
    queue.enqueueHashPages([{ address: memory.address, bytes }], pageBytes, hashes.address);
    await queue.synchronize();
    await agent.write(memory.address + 2 * pageBytes + 5, Uint8Array.of(1, 2, 3));
    await agent.write(memory.address + 6 * pageBytes, Uint8Array.of(9));
    queue.enqueueCopyChangedPages({
      segments: [{ source: mirror.address, destination: memory.address, bytes }],
      pageBytes,
      hashedSide: 'destination',
      storedHashesAddress: hashes.address,
      updateStoredHashes: false,
      pageListAddress: list.address,
      pageCountAddress: count.address,
    });
    await queue.synchronize();
    expect(new Uint32Array((await agent.read(count.address, 4)).slice().buffer)[0]).toBe(2);
    expect([...new Uint32Array((await agent.read(list.address, 8)).slice().buffer)].sort()).toEqual([2, 6]);
    expect(Buffer.from(await agent.read(memory.address, bytes)).equals(Buffer.from(original))).toBe(true);
    await queue.dispose();
    for (const allocation of [memory, mirror, hashes, list, count]) allocation.free();
  });

  it.skipIf(!exactPlacement)('releases fixed-address memory when its runtime is disposed, so the range can be had again', async () => {
    const other = await openRuntime({ driver: 'cuda' });
    const { address } = await placeAtFreeAddress((candidate) => other.allocateAt(0, candidate, 65536), other);
    const host = await other.allocateHostAt(address + DEVICE_WINDOW * 2n, 4096);
    await other.dispose();
    expect(host.freed).toBe(true);
    const again = await runtime.allocateAt(0, address, 65536);
    const hostAgain = await runtime.allocateHostAt(address + DEVICE_WINDOW * 2n, 4096);
    expect(BigInt(again.address)).toBe(address);
    expect(BigInt(hostAgain.address)).toBe(address + DEVICE_WINDOW * 2n);
    again.free();
    hostAgain.free();
  });

  it.skipIf(!exactPlacement)('frees the mapping and places the same range again; ranges in one granule share a mapping', async () => {
    const agent = runtime.agents[0]!;
    const { address, placed: first } = await placeAtFreeAddress((candidate) => runtime.allocateAt(0, candidate, 8192), runtime);
    const neighbour = await runtime.allocateAt(0, address + 16384n, 8192);
    expect(BigInt(neighbour.address)).toBe(address + 16384n);
    await agent.write(neighbour.address, new Uint8Array(8192).fill(0x5a));
    first.free();
    // The neighbour's bytes survive: the granule stays mapped while one of its allocations is live.
    expect((await agent.read(neighbour.address, 8192)).every((byte) => byte === 0x5a)).toBe(true);
    const again = await runtime.allocateAt(0, address, 8192);
    expect(BigInt(again.address)).toBe(address);
    await agent.write(again.address, new Uint8Array(8192).fill(1));
    expect((await agent.read(again.address, 8192)).every((byte) => byte === 1)).toBe(true);
    again.free();
    neighbour.free();
    await agent.synchronize();
    const last = await runtime.allocateAt(0, address, GRANULE_BYTES);
    expect(BigInt(last.address)).toBe(address);
    last.free();
  });

  it.skipIf(!exactPlacement)('places device memory at 2 MiB-aligned addresses inside one shared 32 MiB window, freed with the last of them', async () => {
    const agent = runtime.agents[0]!;
    // CUDA honours no reservation hint at these addresses (they are not 32 MiB-aligned): the window around them is reserved.
    const { address, placed: first } = await placeAtFreeAddress((candidate) => runtime.allocateAt(0, candidate + 3n * GRANULE, GRANULE_BYTES));
    const second = await runtime.allocateAt(0, address + 5n * GRANULE, 3 * GRANULE_BYTES);
    expect([BigInt(first.address), BigInt(second.address)]).toEqual([address + 3n * GRANULE, address + 5n * GRANULE]);
    await agent.write(second.address, new Uint8Array(4096).fill(7));
    first.free();
    expect((await agent.read(second.address, 4096)).every((byte) => byte === 7)).toBe(true);
    // Host memory inside the live window is CUDA host memory mapped there: the CPU and the device reach it.
    const inWindow = await runtime.allocateHostAt(address + GRANULE + 4096n, 4096);
    expect(BigInt(inWindow.address)).toBe(address + GRANULE + 4096n);
    expect(inWindow).toMatchObject({ kind: 'host-pinned', agentId: null, bytes: 4096 });
    inWindow.view().fill(0x33);
    expect((await agent.read(inWindow.address, 4096)).every((byte) => byte === 0x33)).toBe(true);
    await agent.write(inWindow.address, new Uint8Array(4096).fill(0x44));
    expect(inWindow.view().every((byte) => byte === 0x44)).toBe(true);
    // It keeps the window: freeing the device memory leaves it readable.
    second.free();
    await agent.synchronize();
    expect(inWindow.view().every((byte) => byte === 0x44)).toBe(true);
    inWindow.free();
    // With the window gone, host memory there is mmap'd pages again.
    const host = await runtime.allocateHostAt(address + GRANULE, 4096);
    expect(BigInt(host.address)).toBe(address + GRANULE);
    host.free();
  });

  it('refuses a range over live memory, and names what holds a range CUDA cannot have', async () => {
    const agent = runtime.agents[0]!;
    const live = agent.allocate(4096);
    await expect(runtime.allocateAt(0, BigInt(live.address), 4096)).rejects.toBeInstanceOf(ArgumentError);
    live.free();
    // The program's own text: mapped by the loader, so no device memory can be placed there.
    const text = processMappings().find((mapping) => mapping.line.includes('r-xp'))!;
    const error = (await runtime.allocateAt(0, text.start, 4096).catch((reason: unknown) => reason)) as DriverError;
    expect(error).toBeInstanceOf(DriverError);
    expect(error.code).toBe('address-taken');
    expect(error.message).toContain(`0x${text.start.toString(16)}`);
    expect(error.message).toContain(text.line.split(' ')[0]!);
  });

  it('reserveAddresses names the mapping that holds a taken range and says to use a fresh process', async () => {
    const host = runtime.allocateHost(4096, { pinned: true });
    const error = (await openRuntime({ driver: 'cuda', reserveAddresses: [{ address: BigInt(host.address), bytes: 4096 }] }).catch((reason: unknown) => reason)) as ArgumentError;
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error.argument).toBe('options.reserveAddresses[0]');
    const holder = processMappings().find((mapping) => mapping.start <= BigInt(host.address) && mapping.end > BigInt(host.address))!;
    expect(error.message).toContain(holder.line.split(' ')[0]!);
    expect(error.message).toContain('libcuda was already loaded');
    expect(error.message).toMatch(/fresh process/);
    host.free();
  });

  it('reserves a range for device memory before the driver starts in a fresh process, which holds its window from then on, and allocates there', async () => {
    const address = 0x3e0000000000n + 2n * GRANULE + 12288n;
    const result = runChild(address, 3 << 20, 'device');
    // The driver gave up the placeholder as it started and reserved the range's 32 MiB window.
    expect(result.placeholder).toMatch(/^3e0000000000-3e0002000000 ---p /);
    expect(BigInt(result.address)).toBe(address);
    expect(result.roundTrip).toBe(true);
  });

  it('keeps a placeholder not marked for device memory, which CUDA then never grants', async () => {
    const address = 0x3e0000000000n + 12288n;
    // The placeholder covers the range widened to 2 MiB granules, and is inaccessible.
    const error = (() => {
      try {
        runChild(address, 3 << 20);
        return null;
      } catch (failure) {
        return String((failure as { stderr?: string }).stderr ?? failure);
      }
    })();
    expect(error).toContain('address-taken');
    expect(error).toContain('3e0000000000-3e0000400000 ---p');
  });


  it('allocates pinned host memory at exactly the address, reached by the device there', async () => {
    const agent = runtime.agents[0]!;
    const bytes = 3 * 4096 + 10;
    const { address, placed } = await placeAtFreeAddress((candidate) => runtime.allocateHostAt(candidate + 512n, bytes));
    expect(BigInt(placed.address)).toBe(address + 512n);
    expect(placed).toMatchObject({ kind: 'host-pinned', agentId: null, bytes });
    const view = placed.view();
    expect(view.every((byte) => byte === 0)).toBe(true);
    view.set(Uint8Array.from({ length: bytes }, (_, index) => index & 0xff));
    const device = agent.allocate(bytes);
    const queue = agent.createQueue();
    queue.enqueueCopy([{ source: placed.address, destination: device.address, bytes }]);
    await queue.synchronize();
    expect(Buffer.from(await agent.read(device.address, bytes)).equals(Buffer.from(view))).toBe(true);
    await queue.dispose();
    device.free();
    placed.free();
    await agent.synchronize();
    const again = await runtime.allocateHostAt(address + 512n, bytes);
    expect(BigInt(again.address)).toBe(address + 512n);
    again.free();
  });

  it.skipIf(!exactPlacement)('launches a kernel with its whole parameter buffer as one bytes parameter', async () => {
    const agent = runtime.agents[0]!;
    const n = 1000;
    const x = Float32Array.from({ length: n }, (_, index) => index * 0.25 - 7);
    const y = Float32Array.from({ length: n }, (_, index) => 3 - index * 0.125);
    const a = 1.7;
    const { placed: yMemory } = await placeAtFreeAddress((candidate) => runtime.allocateAt(0, candidate, n * 4), runtime);
    const xMemory = agent.allocate(n * 4);
    await agent.write(yMemory.address, new Uint8Array(y.buffer));
    await agent.write(xMemory.address, new Uint8Array(x.buffer));
    const queue = agent.createQueue();
    queue.enqueueKernel(axpy, { parameters: captureFixtureAxpyParameters(yMemory.address, xMemory.address, a, n) }, { grid: [4, 1, 1], block: [256, 1, 1] });
    await queue.synchronize();
    const result = floats(await agent.read(yMemory.address, n * 4));
    const expected = y.map((value, index) => Math.fround(Math.fround(Math.fround(a) * x[index]!) + value));
    expect(Buffer.from(result.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    await queue.dispose();
    xMemory.free();
    yMemory.free();
  });

  it('launches in clusters with cuLaunchKernelEx, and reports a cluster that does not divide the grid', async () => {
    const agent = runtime.agents[0]!;
    const n = 512;
    const x = agent.allocate(n * 4);
    const y = agent.allocate(n * 4);
    await agent.write(x.address, new Uint8Array(new Float32Array(n).fill(2).buffer));
    await agent.write(y.address, new Uint8Array(new Float32Array(n).fill(1).buffer));
    const queue = agent.createQueue();
    const args = { parameters: captureFixtureAxpyParameters(y.address, x.address, 3, n) };
    queue.enqueueKernel(axpy, args, { grid: [4, 1, 1], block: [128, 1, 1], clusterDims: [2, 1, 1] });
    await queue.synchronize();
    expect(floats(await agent.read(y.address, n * 4)).every((value) => value === 7)).toBe(true);
    queue.enqueueKernel(axpy, args, { grid: [4, 1, 1], block: [128, 1, 1], clusterDims: [3, 1, 1] });
    const error = (await queue.synchronize().catch((reason: unknown) => reason)) as DriverError;
    expect(error).toBeInstanceOf(DriverError);
    expect(error.code).toBe('CUDA_ERROR_INVALID_CLUSTER_SIZE');
    expect(floats(await agent.read(y.address, n * 4)).every((value) => value === 7)).toBe(true);
    await queue.dispose();
    x.free();
    y.free();
  });

  it('finds the globals of a kernel module, which reads and writes then reach', async () => {
    const agent = runtime.agents[0]!;
    const table = await runtime.kernelGlobal(axpy, 0, 'kreplay_capture_fixture_table');
    expect(table.bytes).toBe(256);
    expect(await runtime.kernelGlobal(axpy, 0, 'kreplay_capture_fixture_table')).toBe(table);
    const launches = await runtime.kernelGlobal(axpy, 0, 'kreplay_capture_fixture_launches');
    expect(launches.bytes).toBe(4);
    const values = Uint8Array.from({ length: 256 }, (_, index) => 255 - index);
    await agent.write(Number(table.address), values);
    expect(Buffer.from(await agent.read(Number(table.address), 256)).equals(Buffer.from(values))).toBe(true);
    expect(agent.findAllocation(Number(table.address) + 10)).toMatchObject({ kind: 'device', bytes: 256 });
    await expect(runtime.kernelGlobal(axpy, 0, 'no_such_global')).rejects.toBeInstanceOf(DriverError);
  });

  it('refuses bytes arguments of the wrong size or type, naming the parameter', async () => {
    const queue = runtime.agents[0]!.createQueue();
    const launch = { grid: [1, 1, 1], block: [32, 1, 1] } as const;
    for (const parameters of [new Uint8Array(23), new Uint8Array(25), 5, undefined]) {
      const error = (() => {
        try {
          queue.enqueueKernel(axpy, { parameters } as never, launch);
        } catch (reason) {
          return reason;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).argument).toBe('args.parameters');
    }
    await queue.dispose();
  });
});

const GRANULE_BYTES = Number(GRANULE);
