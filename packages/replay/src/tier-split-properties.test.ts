import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DeviceAllocation } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { allocateWith, openHostSetup, randomFloatBytes, type HostSetup } from './test-support/host-setup.js';
import { regionWriterArbitrary, regionWriterLaunch, type RegionWriter } from './test-support/region-writers.js';

const strategies = {
  full: () => fullStrategy({ tier: 'auto' }),
  'write-set': () => writeSetStrategy({ tier: 'auto' }),
  'dirty-pages': () => dirtyPagesStrategy({ tier: 'auto', pageBytes: 4096 }),
  'dirty-pages (64 KiB pages, every allocation)': () => dirtyPagesStrategy({ tier: 'auto', candidates: 'all' }),
} as const;

const writerArbitrary = fc.record({ target: fc.nat(), writer: regionWriterArbitrary });

const caseArbitrary = fc.record({
  strategy: fc.constantFrom(...(Object.keys(strategies) as (keyof typeof strategies)[])),
  // The device room staging may take, 64 KiB to 1 MiB, and allocations of 0.2x to 1.6x of it.
  roomGranules: fc.integer({ min: 1, max: 16 }),
  allocationShares: fc.array(fc.double({ min: 0.2, max: 1.6, noNaN: true }), { minLength: 1, maxLength: 3 }),
  passes: fc.integer({ min: 2, max: 4 }),
  writers: fc.array(writerArbitrary, { minLength: 2, maxLength: 5 }),
  seed: fc.nat(),
});

/** The launch of `writer` over `target`: it writes nothing outside it. */
const writerLaunch = (setup: HostSetup, { writer }: { readonly writer: RegionWriter }, target: DeviceAllocation) => regionWriterLaunch(setup.runtime, writer, target.address, target.bytes);

describe('snapshots across the device and pinned host tiers (host driver)', () => {
  it('several dispatches in a row around the tier boundary: every dispatch verifies, and memory ends as a plain run leaves it', async () => {
    let spanned = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ strategy: name, roomGranules, allocationShares, passes, writers, seed }) => {
        const setup = await openHostSetup();
        const roomBytes = roomGranules * 65536;
        try {
          const sizes = allocationShares.map((share) => Math.max(4, Math.floor((share * roomBytes) / 4) * 4));
          const initial = sizes.map((bytes, index) => randomFloatBytes(bytes / 4, seed + index));
          const replayed = await Promise.all(initial.map((data) => allocateWith(setup.agent, data)));
          const plain = await Promise.all(initial.map((data) => allocateWith(setup.agent, data)));
          const staging = setup.createStaging();
          const ballast = setup.agent.allocate(staging.deviceRoomBytes!(setup.agent) - roomBytes);
          setup.tracker.tag(ballast.address, 'excluded');
          expect(staging.deviceRoomBytes!(setup.agent)).toBe(roomBytes);
          using strategy = strategies[name]();
          await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes: fixedPasses(passes), verify: 'full' });
          const queue = setup.agent.createQueue();
          try {
            for (const writer of writers) {
              const target = writer.target % sizes.length;
              const result = await engine.dispatch({ queue, ...writerLaunch(setup, writer, replayed[target]!) });
              expect(result.failure).toBeUndefined();
              expect(result.replayed, result.declineReason).toBe(true);
              expect(result.verified).toBe(true);
              if (result.bytes.staging.device > 0 && result.bytes.staging['host-pinned'] > 0) spanned += 1;
              const direct = writerLaunch(setup, writer, plain[target]!);
              queue.enqueueKernel(direct.kernel, direct.args);
              await queue.synchronize();
            }
            for (const [index, allocation] of replayed.entries()) {
              const other = plain[index]!;
              expectSameBytes(await setup.agent.read(allocation.address, allocation.bytes), await setup.agent.read(other.address, other.bytes), `allocation ${index}`);
            }
          } finally {
            await queue.dispose();
          }
        } finally {
          await setup.dispose();
        }
      }),
      { numRuns: 30 },
    );
    // Allocations of up to 1.6x the room: many dispatches must have spanned both tiers.
    expect(spanned).toBeGreaterThan(10);
  }, 120_000);
});
