import { describe, expect, it } from 'vitest';
import { ArgumentError, type DeviceAllocation, type Queue } from '@kreplay/native';
import { fullStrategy, writeSetStrategy, type DispatchContext, type SnapshotStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createTracker } from '@kreplay/tracker';
import { fixedPasses } from './fixed-passes.js';
import { createReplayEngine } from './replay-engine.js';
import type { RangeDispatch } from './range-request.js';
import { allocateWith, randomFloatBytes, readAll, useHostSetup } from './test-support/host-setup.js';

const setup = useHostSetup();

const count = 4096;

/** a, b, c: the range's memory; source: what the copies read, outside every snapshot. */
async function buffers(seed: number): Promise<DeviceAllocation[]> {
  return Promise.all([0, 1, 2, 3].map((index) => allocateWith(setup.agent, randomFloatBytes(count, seed + index))));
}

/** fill part of a; copy into c and a, then stencil over a; copy into b, then triad b from a. c is written by a copy only. */
function sequence([a, b, c, source]: readonly DeviceAllocation[]): RangeDispatch[] {
  const { fill, stencil, triad } = setup.runtime.kernels;
  return [
    { kernel: fill, args: { destination: a!.address + 1024, bytes: 2048, value: 0x3f800000 } },
    {
      kernel: stencil,
      args: { buffer: a!.address, count },
      before: [
        { source: source!.address, destination: c!.address + 4096, bytes: 8192 },
        { source: source!.address + 256, destination: a!.address, bytes: 512 },
      ],
    },
    { kernel: triad, args: { a: b!.address, b: a!.address, c: a!.address, scalar: 0.5, count }, before: [{ source: source!.address + 64, destination: b!.address + 100, bytes: 1000 }] },
  ];
}

/** The sequence run once: each dispatch's copies, then its kernel. */
async function runPlainly(queue: Queue, dispatches: readonly RangeDispatch[]): Promise<void> {
  for (const { kernel, args, before } of dispatches) {
    for (const segment of before ?? []) queue.enqueueCopy([segment]);
    queue.enqueueKernel(kernel, args);
  }
  await queue.synchronize();
}

function recordingStrategy(strategy: SnapshotStrategy): SnapshotStrategy & { contexts: DispatchContext[] } {
  const contexts: DispatchContext[] = [];
  return { ...strategy, contexts, prepare: (dispatch) => (contexts.push(dispatch), strategy.prepare(dispatch)) };
}

describe('copies before the dispatches of a range (host driver)', () => {
  it('run before their dispatch in every pass; the memory they write is captured and restored, and afterwards is as one plain run', async () => {
    const strategy = recordingStrategy(writeSetStrategy());
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full' });
    const replayed = await buffers(1);
    const plain = await buffers(1);
    setup.tracker.tag(replayed[3]!.address, 'excluded');
    const queue = setup.agent.createQueue();
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed) });
    await runPlainly(queue, sequence(plain));
    expect(result).toMatchObject({ replayed: true, passes: 3, verified: true });
    expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true });
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
    const [context] = strategy.contexts;
    const c = replayed[2]!;
    // c, written by a copy alone, is part of what the range writes: the write set snapshots it.
    expect(context!.resolution.reached.find((reached) => reached.allocation.address === c.address)).toMatchObject({
      access: 'write',
      parameters: ['before'],
      range: { address: c.address + 4096, bytes: 8192 },
    });
    expect(context!.dispatches![1]!.resolution.reached.map((reached) => reached.allocation.address).sort()).toEqual([replayed[0]!.address, c.address].sort());
    expect(context!.resolution.reached.some((reached) => reached.allocation.address === replayed[3]!.address)).toBe(false);
    await queue.dispose();
    await engine.dispose();
    for (const allocation of [...replayed, ...plain]) allocation.free();
  });

  it('a declined range runs its copies once too', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes: fixedPasses(3) });
    const replayed = await buffers(2);
    const plain = await buffers(2);
    const queue = setup.agent.createQueue();
    const dispatches = sequence(replayed);
    dispatches[0] = { ...dispatches[0]!, graph: true };
    const result = await engine.dispatchRange({ queue, dispatches });
    await runPlainly(queue, sequence(plain));
    expect(result).toMatchObject({ replayed: false, declineCode: 'graph', passes: 1 });
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
    await queue.dispose();
    await engine.dispose();
    for (const allocation of [...replayed, ...plain]) allocation.free();
  });

  it('a copy into memory the tracker does not know declines the range, naming it', async () => {
    const untracked = await buffers(3);
    const tracker = createTracker(setup.runtime);
    const tracked = await allocateWith(setup.agent, randomFloatBytes(count, 3));
    const engine = createReplayEngine({ runtime: setup.runtime, tracker, staging: setup.createStaging(), strategy: fullStrategy(), passes: fixedPasses(3) });
    const queue = setup.agent.createQueue();
    const { stencil } = setup.runtime.kernels;
    const result = await engine.dispatchRange({
      queue,
      dispatches: [{ kernel: stencil, args: { buffer: tracked.address, count }, before: [{ source: tracked.address, destination: untracked[0]!.address, bytes: 64 }] }],
    });
    expect(result).toMatchObject({ replayed: false, declineCode: 'unresolved-arguments', passes: 1 });
    expect(result.declineReason).toMatch(/pointer arguments "before" \(0x[0-9a-f]+\) of kernel stencil are in no tracked allocation: a copy before the dispatch writes/);
    await queue.dispose();
    await engine.dispose();
    tracker.dispose();
    for (const allocation of [...untracked, tracked]) allocation.free();
  });

  it('refuses copies that are not segments', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes: fixedPasses(2) });
    const replayed = await buffers(4);
    const queue = setup.agent.createQueue();
    const [fill, stencil] = sequence(replayed);
    const bad = { ...stencil!, before: [{ source: 0, destination: replayed[0]!.address, bytes: -1 }] };
    await expect(engine.dispatchRange({ queue, dispatches: [fill!, bad] })).rejects.toThrow(ArgumentError);
    await expect(engine.dispatchRange({ queue, dispatches: [fill!, bad] })).rejects.toThrow(/before\[0\]\.bytes of dispatch 1 of the range is -1, not a whole number >= 0/);
    await expect(engine.dispatchRange({ queue, dispatches: [{ ...fill!, before: 'x' as never }] })).rejects.toThrow(/the copies before dispatch 0 of the range are "x", not an array/);
    await queue.dispose();
    await engine.dispose();
    for (const allocation of replayed) allocation.free();
  });
});
