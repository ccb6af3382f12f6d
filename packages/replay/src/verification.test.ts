import { describe, expect, it } from 'vitest';
import { createTracker } from '@kreplay/tracker';
import { HashBufferPool } from './hash-buffer-pool.js';
import { compareHashes } from './verification.js';
import { hashTargets, verificationPageBytes, VerificationPlan } from './verification-plan.js';
import { hashPoints } from './window-phases.js';
import { asQueue, FakeRuntime } from './test-support/fake-runtime.js';

const page = verificationPageBytes;

describe('verification hashes', () => {
  it('reports differing pages as merged ranges per allocation, a short last page included', async () => {
    const runtime = new FakeRuntime();
    const tracker = createTracker(runtime);
    const agent = runtime.agents[0]!;
    const large = agent.allocate(3 * page + 100);
    const small = agent.allocate(10);
    const excluded = agent.allocate(page);
    tracker.tag(excluded.address, 'excluded');
    const resolution = { reached: [], bounded: true, reasons: [], unresolved: [] };
    const targets = hashTargets(tracker, agent.id, resolution);
    expect(targets.map((target) => [target.address, target.pages])).toEqual([[large.address, 4], [small.address, 1]]);
    const buffers = new HashBufferPool(runtime.asRuntime(), tracker);
    const plan = new VerificationPlan(targets, hashPoints('restore', 2), buffers);
    const queue = agent.createQueue();
    plan.enqueueHash(asQueue(queue), { kind: 'baseline' });
    await queue.synchronize();
    large.data[page + 5] = 1;
    large.data[2 * page] = 1;
    large.data[3 * page + 99] = 1;
    small.data[9] = 1;
    excluded.data[0] = 1;
    plan.enqueueHash(asQueue(queue), { kind: 'restore', pass: 2 });
    await queue.synchronize();
    const notes: string[] = [];
    const report = compareHashes({ mode: 'restore', plan, passCount: 2, taken: () => true, hashedPoints: 2 }, runtime.kernels.fill, notes);
    const idOf = (address: number) => tracker.find(address)!.id;
    expect(report).toMatchObject({ restoresExact: false, passOutputsEqual: null, nondeterministic: false, complete: true, hashedBytes: 2 * (3 * page + 110) });
    expect(report.mismatchedRanges).toEqual([
      { check: 'restore', pass: 2, allocationId: idOf(large.address), address: large.address + page, bytes: 2 * page + 100 },
      { check: 'restore', pass: 2, allocationId: idOf(small.address), address: small.address, bytes: 10 },
    ]);
    plan.release();
    buffers.dispose();
    expect(runtime.memory.liveCount).toBe(3);
  });
});
