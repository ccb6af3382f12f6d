/**
 * User kernels on the cuda driver: loading a committed PTX module, launching it with a grid, its
 * 4- and 8-byte parameters, and the errors of loading and launching. Skips without a CUDA device.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError, DriverError, openRuntime, type Runtime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const modulePath = fileURLToPath(new URL('./kernels/scale-floats.ptx', import.meta.url));
const scaleFloats = {
  path: modulePath,
  name: 'kreplay_test_scale_floats',
  parameters: [
    { name: 'data', type: 'pointer', access: 'readwrite', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'count', type: 'u32' },
    { name: 'factor', type: 'f32' },
  ],
} as const;

describe.skipIf(!cuda.available)(`cuda user kernels${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
  });
  afterAll(() => runtime?.dispose());

  it('loads a PTX kernel and runs it with a grid, bit-exact in float32', async () => {
    const kernel = await runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters] });
    expect(kernel.name).toBe('kreplay_test_scale_floats');
    expect(kernel.deterministic).toBe(true);
    const agent = runtime.agents[0]!;
    const count = 100_003;
    const values = Float32Array.from({ length: count }, (_, index) => (index % 977) * 0.37 - 150.25);
    const buffer = agent.allocate(count * 4);
    await agent.write(buffer.address, new Uint8Array(values.buffer));
    const queue = agent.createQueue();
    queue.enqueueKernel(kernel, { data: buffer.address, count, factor: 1.1 }, { grid: [Math.ceil(count / 256), 1, 1], block: [256, 1, 1] });
    await queue.synchronize();
    const result = new Float32Array((await agent.read(buffer.address, count * 4)).slice().buffer);
    const factor = Math.fround(1.1);
    const expected = values.map((value) => Math.fround(value * factor));
    expect(Buffer.from(result.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    await queue.dispose();
    buffer.free();
  });

  it("says the driver's count of registers per thread of the loaded function, and refuses what it did not load", async () => {
    const kernel = await runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters] });
    const registers = runtime.kernelRegisters(kernel, 0);
    expect(Number.isInteger(registers) && registers! >= 1 && registers! <= 255, String(registers)).toBe(true);
    // The fake libcuda says 24 for every function: what the runtime gives is the driver's count.
    if (runtime.agents[0]!.info.name.startsWith('Fake CUDA')) expect(registers).toBe(24);
    expect(() => runtime.kernelRegisters(runtime.kernels.fill, 0)).toThrow(/was not loaded by this runtime's loadKernel/);
    expect(() => runtime.kernelRegisters(kernel, runtime.agents.length)).toThrow(ArgumentError);
  });

  it('refuses a launch without a shape, a pointer into pageable memory, and a kernel of another runtime', async () => {
    const kernel = await runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters] });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const device = agent.allocate(4096);
    const pageable = runtime.allocateHost(4096, { pinned: false });
    const launch = { grid: [4, 1, 1], block: [256, 1, 1] } as const;
    expect(() => queue.enqueueKernel(kernel, { data: device.address, count: 1024, factor: 2 })).toThrow(ArgumentError);
    expect(() => queue.enqueueKernel(kernel, { data: pageable.address, count: 1024, factor: 2 }, launch)).toThrow(ArgumentError);
    expect(() => queue.enqueueKernel(kernel, { data: device.address, count: 1024, factor: 2 }, { grid: [1, 1, 1], block: [2048, 1, 1] })).toThrow(
      ArgumentError,
    );
    expect(() => queue.enqueueKernel(runtime.kernels.fill, { destination: device.address, bytes: 8, value: 0 }, launch)).toThrow(ArgumentError);
    const other = await openRuntime({ driver: 'cuda' });
    const foreign = await other.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters] });
    expect(() => queue.enqueueKernel(foreign, { data: device.address, count: 1024, factor: 2 }, launch)).toThrow(ArgumentError);
    await other.dispose();
    await queue.dispose();
    device.free();
    pageable.free();
  });

  it('refuses parameters that pass less than the module declares, which a launch would read past, and a buffer longer than they span', async () => {
    const [data, count] = scaleFloats.parameters;
    // The PTX declares three parameters (a pointer, a u32, an f32): 16 bytes.
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [data, count] })).rejects.toThrow(
      /options\.parameters declares 2 parameters of kernel kreplay_test_scale_floats, but its module declares 3 \(16 bytes\)\. Declare all 3 in order, or one bytes parameter of the whole 16-byte parameter buffer\./,
    );
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [] })).rejects.toBeInstanceOf(ArgumentError);
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [{ name: 'parameters', type: 'bytes', size: 8 }] })).rejects.toThrow(
      /the bytes parameter parameters holds 8 bytes, but its module declares 3 parameters of kernel kreplay_test_scale_floats in 16 bytes \(the last ending at byte 16\)/,
    );
    // More than the parameters span the driver refuses at launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [{ name: 'parameters', type: 'bytes', size: 24 }] })).rejects.toThrow(
      /the bytes parameter parameters holds 24 bytes, more than the 16 bytes where the last parameter of kernel kreplay_test_scale_floats ends in its module; CUDA refuses a longer buffer/,
    );
    const whole = await runtime.loadKernel({ ...scaleFloats, parameters: [{ name: 'parameters', type: 'bytes', size: 16 }] });
    expect(whole.parameters).toHaveLength(1);
  });

  it('reports a missing kernel or an unreadable module as errors of loadKernel', async () => {
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters], name: 'no_such_kernel' })).rejects.toBeInstanceOf(DriverError);
    await expect(runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters], path: `${modulePath}.missing` })).rejects.toBeInstanceOf(
      ArgumentError,
    );
  });

  it('refuses a module path that is a directory or a FIFO without reading from it (a FIFO would block)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kreplay-module-'));
    try {
      const fifo = join(folder, 'module.ptx');
      execFileSync('mkfifo', [fifo]);
      for (const [path, problem] of [[folder, /is a directory, not a regular file/], [fifo, /is a FIFO, not a regular file/]] as const) {
        const refusal = runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters], path });
        await expect(refusal).rejects.toBeInstanceOf(ArgumentError);
        await expect(refusal).rejects.toMatchObject({ argument: 'options.path', message: expect.stringMatching(problem) });
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
