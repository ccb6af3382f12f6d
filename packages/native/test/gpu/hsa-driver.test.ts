/**
 * The driver conformance kit on the hsa driver, at two page sizes (a work-group per page below and
 * above the kernels' serial-hash threshold), plus the first-error semantics of a page list found bad
 * on the device. Skips when the hsa driver does not open. On a machine without an AMD GPU it runs on
 * the fake ROCr: `pnpm --filter @kreplay/native test:fake-hsa`.
 */
import { describe, expect, it } from 'vitest';
import { DriverError, openRuntime, UnsupportedError } from '../../src/index.js';
import { testDriver } from '../../src/test.js';
import { probeHsaForTests } from './hsa-availability.js';

const hsa = await probeHsaForTests();
const KiB = 1024;
const MiB = 1024 * KiB;

if (!hsa.available) {
  describe.skip(`hsa driver conformance (${hsa.reason})`, () => {
    it('needs an AMD GPU with ROCm, or KREPLAY_HSA_LIBRARY', () => undefined);
  });
} else {
  const capabilities = { multipleAgents: hsa.agents >= 2, faultInjection: true, streamOrderedMemory: true };
  const open = () => openRuntime({ driver: 'hsa' });
  testDriver({
    name: 'hsa, 4 KiB pages',
    open,
    capabilities,
    sizes: hsa.fake ? { smallBytes: 64 * KiB, largeBytes: 1 * MiB, pageBytes: 4 * KiB } : { smallBytes: 256 * KiB, largeBytes: 32 * MiB, pageBytes: 4 * KiB },
  });
  testDriver({
    name: 'hsa, 128-byte pages',
    open,
    capabilities,
    sizes: hsa.fake ? { smallBytes: 8 * KiB, largeBytes: 64 * KiB, pageBytes: 128 } : { smallBytes: 64 * KiB, largeBytes: 8 * MiB, pageBytes: 128 },
  });

  describe('hsa graphs', () => {
    it('refuses agent.createGraph with an UnsupportedError that says to launch the steps one by one', async () => {
      await using runtime = await openRuntime({ driver: 'hsa' });
      const agent = runtime.agents[0]!;
      const buffer = agent.allocate(4096);
      const creating = () => agent.createGraph([{ kind: 'memset', address: buffer.address, bytes: 4096, value: 0 }]);
      expect(creating).toThrow(UnsupportedError);
      expect(creating).toThrow(/the hsa driver runs no graphs\. Launch the steps one by one on a queue/);
    });
  });

  describe('hsa queue errors', () => {
    it('fails a page-list copy whose list is out of range, skips later work, and recovers', async () => {
      await using runtime = await openRuntime({ driver: 'hsa' });
      const agent = runtime.agents[0]!;
      await using queue = agent.createQueue();
      const buffer = agent.allocate(3 * 4096);
      const list = agent.allocate(8);
      const count = agent.allocate(4);
      await agent.write(buffer.address + 8192, new Uint8Array(4096));
      await agent.write(list.address, Uint8Array.of(9, 0, 0, 0, 0, 0, 0, 0));
      await agent.write(count.address, Uint8Array.of(1, 0, 0, 0));
      const segments = [{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }];
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 1 });
      const failedIndex = queue.workEnqueued;
      queue.enqueueCopyPageList({ segments, pageBytes: 2048, pageListAddress: list.address, pageCountAddress: count.address });
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address + 8192, bytes: 4096, value: 7 }); // skipped
      const error = await queue.synchronize().then(() => undefined, (reason: unknown) => reason);
      expect(error).toBeInstanceOf(DriverError);
      expect(error).toMatchObject({ code: 'invalid-page-list', operation: 'conditional-copy', operationIndex: failedIndex, driver: 'hsa' });
      expect([...(await agent.read(buffer.address + 8192, 16))]).toEqual(new Array(16).fill(0));
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address + 8192, bytes: 4096, value: 7 });
      await queue.synchronize();
      expect([...(await agent.read(buffer.address + 8192, 4))]).toEqual([7, 0, 0, 0]);
    });
  });
}
