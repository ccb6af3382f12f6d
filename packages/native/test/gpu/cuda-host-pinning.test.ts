/**
 * Large pinned host buffers on the cuda driver (cuda-host-pinning.cpp): mapped, touched in parallel
 * and registered rather than allocated by the driver. They must behave as any pinned buffer: zeroed,
 * reached by copies in both directions, freed, and allocated again at once.
 * Skips when no CUDA device is found.
 */
import { describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const MiB = 1024 * 1024;

describe.skipIf(!cuda.available)(`large pinned host buffers on cuda${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  it('are zeroed, carry copies both ways, and can be freed and allocated again', async () => {
    await using runtime = await openRuntime({ driver: 'cuda' });
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const bytes = 96 * MiB + 4096; // above the registration threshold, not a multiple of 2 MiB
    for (let round = 0; round < 2; round += 1) {
      const host = runtime.allocateHost(bytes, { pinned: true });
      const view = host.view();
      expect(view.length).toBe(bytes);
      expect(view.every((byte) => byte === 0)).toBe(true);
      for (let index = 0; index < bytes; index += 4093) view[index] = (index * 7 + round) & 0xff;
      const device = agent.allocate(bytes);
      const back = runtime.allocateHost(bytes, { pinned: true });
      queue.enqueueCopy([{ source: host.address, destination: device.address, bytes }]);
      queue.enqueueCopy([{ source: device.address, destination: back.address, bytes }]);
      await queue.synchronize();
      expect(Buffer.compare(back.view(), view)).toBe(0);
      back.free();
      device.free();
      host.free();
      await queue.synchronize();
    }
    await queue.dispose();
  });
});
