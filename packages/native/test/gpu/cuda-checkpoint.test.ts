/**
 * runtime.checkpoint on the cuda driver (the CUPTI Checkpoint API). Where libcheckpoint.so is missing
 * (test:fake-cuda points KREPLAY_CUPTI_LIBRARY_DIR at a folder without it) it checks the reason and
 * the error; on a GPU where it loads, a save
 * and restore round trip, bit-exact, in queue order. Skips without a CUDA device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError, DisposedError, openRuntime, UnsupportedError, type Runtime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
/** Why checkpoints cannot be taken here (null: they can), decided when the file is collected. */
async function probeCheckpoints(): Promise<string | null> {
  const runtime = await openRuntime({ driver: 'cuda' });
  try {
    return runtime.checkpoint!.unavailableReason();
  } finally {
    await runtime.dispose();
  }
}
const checkpointReason = cuda.available ? await probeCheckpoints() : 'no CUDA device';

function pattern(bytes: number, seed: number): Uint8Array {
  const data = new Uint8Array(bytes);
  let state = seed >>> 0;
  for (let index = 0; index < bytes; index += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[index] = state >>> 24;
  }
  return data;
}

describe.skipIf(!cuda.available)(`cuda checkpoint${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  const reason = checkpointReason;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
  });
  afterAll(() => runtime?.dispose());

  it('is offered by the cuda driver, and says why it cannot run when CUPTI is missing', async () => {
    expect(runtime.checkpoint).toBeDefined();
    if (reason === null) return;
    expect(reason).toMatch(/libcheckpoint\.so was not found|does not export/);
    const queue = runtime.agents[0]!.createQueue();
    const error = await runtime.checkpoint!.open(queue).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ driver: 'cuda', feature: 'checkpoint', component: 'checkpoint' });
    expect((error as Error).message).toContain(reason);
    await queue.dispose();
  });

  it('refuses a queue that is not a live queue of the runtime', async () => {
    const queue = runtime.agents[0]!.createQueue();
    await queue.dispose();
    await expect(runtime.checkpoint!.open(queue)).rejects.toBeInstanceOf(ArgumentError);
    await expect(runtime.checkpoint!.open({} as never)).rejects.toBeInstanceOf(ArgumentError);
  });

  // The real CUPTI cannot work over test/fake-cuda's stand-in for libcuda.
  it.skipIf(reason !== null || cuda.fake)('restores every allocation bit-exact, in queue order', async () => {
    const agent = runtime.agents[0]!;
    const bytes = cuda.fake ? 1 << 20 : 64 << 20;
    const first = agent.allocate(bytes);
    const second = agent.allocate(bytes);
    const original = pattern(bytes, 7);
    await agent.write(first.address, original);
    const queue = agent.createQueue();
    // Enqueued before the save and not awaited: the save must see it.
    queue.enqueueKernel(runtime.kernels.fill, { destination: second.address, bytes, value: 0x01020304 });
    const session = await runtime.checkpoint!.open(queue);
    await expect(session.restore()).rejects.toBeInstanceOf(ArgumentError);
    await session.save();
    expect(session.lastStepMilliseconds).toBeGreaterThan(0);
    for (let pass = 0; pass < 3; pass += 1) {
      queue.enqueueKernel(runtime.kernels.fill, { destination: first.address, bytes, value: 0xdeadbeef + pass });
      queue.enqueueKernel(runtime.kernels.fill, { destination: second.address, bytes, value: 0xfeedface });
      await session.restore();
      await queue.synchronize();
      expect(Buffer.from(await agent.read(first.address, bytes)).equals(Buffer.from(original))).toBe(true);
      const filled = new Uint32Array((await agent.read(second.address, bytes)).slice().buffer);
      expect(filled.every((word) => word === 0x01020304)).toBe(true);
    }
    await session.dispose();
    await session.dispose();
    await expect(session.save()).rejects.toBeInstanceOf(DisposedError);
    await queue.dispose();
    first.free();
    second.free();
  });

  it.skipIf(reason !== null || cuda.fake)('saves and restores right after memory was freed, which it then leaves alone', async () => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const kept = agent.allocate(16 << 20);
    for (let round = 0; round < 8; round += 1) {
      // Freed memory goes back on the driver's release thread once the queues pass the free: the
      // save and the restore must not checkpoint an allocation that is being freed.
      const freed = Array.from({ length: 4 }, () => agent.allocate(64 << 20));
      queue.enqueueKernel(runtime.kernels.fill, { destination: freed[0]!.address, bytes: 64 << 20, value: round });
      for (const buffer of freed) buffer.free();
      const session = await runtime.checkpoint!.open(queue);
      await session.save();
      queue.enqueueKernel(runtime.kernels.fill, { destination: kept.address, bytes: 16 << 20, value: 0xabad1dea });
      await session.restore();
      await queue.synchronize();
      await session.dispose();
    }
    await queue.dispose();
    kept.free();
  });
});
