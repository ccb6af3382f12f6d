/**
 * Device memory freed while a queue still runs work is released once the queue has passed that
 * point (cuda-release-worker.hpp). An allocation that needs that memory must still succeed: the
 * driver waits for the pending releases before it reports the device full. Sized for the fake
 * libcuda's 1 GiB device; on a GPU it takes most of the free memory instead.
 * Skips when no CUDA device is found.
 */
import { describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const MiB = 1024 * 1024;

describe.skipIf(!cuda.available)(`device memory freed behind queued work${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  it('is allocated again at once, before the queue has passed the free', async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    const agent = runtime.agents[0]!;
    const bytes = cuda.fake ? 600 * MiB : Math.floor((agent.memoryInfo().freeBytes * 0.6) / MiB) * MiB;
    const queue = agent.createQueue();
    const first = agent.allocate(bytes);
    // Work that keeps the queue busy past the free: its release waits for this queue.
    for (let round = 0; round < 6; round += 1) queue.enqueueKernel(runtime.kernels.fill, { destination: first.address, bytes, value: round });
    first.free();
    const second = agent.allocate(bytes);
    expect(second.bytes).toBe(bytes);
    second.free();
    await queue.synchronize();
    await queue.dispose();
  });
});
