import { describe, expect, it } from 'vitest';
import { ArgumentError, type DeviceAllocation, type KernelArguments, type KernelDescriptor, type Queue } from '@kreplay/native';
import { fullStrategy, writeSetStrategy, type DispatchContext, type SnapshotStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createTracker } from '@kreplay/tracker';
import { fixedPasses } from './fixed-passes.js';
import { passProviderSpecificationVersion, type PassProvider } from './pass-provider.js';
import { createReplayEngine } from './replay-engine.js';
import { leaseRuntimeWindowLocks } from './runtime-window-locks.js';
import type { RangeDispatch } from './range-request.js';
import { allocateWith, openHostSetup, randomFloatBytes, readAll, useHostSetup } from './test-support/host-setup.js';
import { timingPasses } from './timing-passes.js';

const setup = useHostSetup();

const count = 4096;

/** Two buffers of floats, the same on both sides: one set for the engine, one run plainly. */
async function twins(seed: number): Promise<[DeviceAllocation[], DeviceAllocation[]]> {
  const make = () => Promise.all([0, 1].map((index) => allocateWith(setup.agent, randomFloatBytes(count, seed + index))));
  return [await make(), await make()];
}

/** fill part of `a`, stencil over all of `a`, then triad `b` from `a`: each dispatch reads what the one before wrote. */
function sequence([a, b]: readonly DeviceAllocation[]): RangeDispatch[] {
  const { fill, stencil, triad } = setup.runtime.kernels;
  return [
    { kernel: fill, args: { destination: a!.address + 1024, bytes: 2048, value: 0x3f800000 } },
    { kernel: stencil, args: { buffer: a!.address, count } },
    { kernel: triad, args: { a: b!.address, b: a!.address, c: a!.address, scalar: 0.5, count } },
  ];
}

async function runPlainly(queue: Queue, dispatches: readonly { kernel: KernelDescriptor; args: KernelArguments }[]): Promise<void> {
  for (const { kernel, args } of dispatches) queue.enqueueKernel(kernel, args);
  await queue.synchronize();
}

function recordingStrategy(strategy: SnapshotStrategy): SnapshotStrategy & { contexts: DispatchContext[] } {
  const contexts: DispatchContext[] = [];
  return {
    ...strategy,
    contexts,
    prepare(dispatch) {
      contexts.push(dispatch);
      return strategy.prepare(dispatch);
    },
  };
}

function freeAll(...allocations: DeviceAllocation[][]): void {
  for (const allocation of allocations.flat()) allocation.free();
}

describe('range replay on the host driver', () => {
  it('captures once, runs the sequence in every pass, and leaves memory as one plain run', async () => {
    const strategy = recordingStrategy(writeSetStrategy());
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full' });
    const [replayed, plain] = await twins(1);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed) });
    await runPlainly(queue, sequence(plain));
    expect(result).toMatchObject({ replayed: true, passes: 3, passesRequested: 3, verified: true, strategy: 'write-set' });
    expect(result.dispatches).toEqual([{ kernelName: 'fill' }, { kernelName: 'stencil' }, { kernelName: 'triad' }]);
    expect(result.timings.passMs).toHaveLength(3);
    expect(result.timings.restoreMs).toHaveLength(2);
    expect(result.bytesCopied).toBeGreaterThan(0);
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
    expect(strategy.contexts).toHaveLength(1);
    const [context] = strategy.contexts;
    expect(context!.kernel).toBe(setup.runtime.kernels.fill);
    expect(context!.dispatches?.map((dispatch) => dispatch.kernel.name)).toEqual(['fill', 'stencil', 'triad']);
    expect(context!.resolution.reached.map((reached) => [reached.allocation.address, reached.access])).toEqual(
      [...replayed].sort((x, y) => x.address - y.address).map((buffer) => [buffer.address, buffer === replayed[0] ? 'readwrite' : 'write']),
    );
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed, plain);
  });

  it('calls the provider around each dispatch of each pass, and collects per dispatch with collectRange', async () => {
    const calls: string[] = [];
    const passes: PassProvider = {
      specificationVersion: passProviderSpecificationVersion,
      name: 'recording',
      passCount: () => 2,
      beginPass: (pass, _queue, scope) => calls.push(`begin ${pass} of ${scope?.dispatches}`),
      endPass: (pass) => calls.push(`end ${pass}`),
      beginDispatch: (pass, index) => calls.push(`begin ${pass}.${index}`),
      endDispatch: (pass, index) => calls.push(`end ${pass}.${index}`),
      collect: () => calls.push('collect'),
      collectRange: (_queue, completed, dispatches) => Array.from({ length: dispatches }, (_, index) => ({ index, completed })),
    };
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes });
    const [replayed] = await twins(2);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed).slice(0, 2) });
    expect(calls).toEqual(['begin 1 of 2', 'begin 1.0', 'end 1.0', 'begin 1.1', 'end 1.1', 'end 1', 'begin 2 of 2', 'begin 2.0', 'end 2.0', 'begin 2.1', 'end 2.1', 'end 2']);
    expect(result.dispatches).toEqual([
      { kernelName: 'fill', collected: { index: 0, completed: [1, 2] } },
      { kernelName: 'stencil', collected: { index: 1, completed: [1, 2] } },
    ]);
    expect(result.collected).toBeUndefined();
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed);
  });

  it('without collectRange, the range holds collect()\'s one value; a single dispatch gets no scope', async () => {
    const scopes: unknown[] = [];
    const passes: PassProvider = {
      specificationVersion: passProviderSpecificationVersion,
      name: 'whole',
      passCount: () => 2,
      beginPass: (_pass, _queue, scope) => scopes.push(scope),
      endPass() {},
      collect: (_queue, completed) => ({ completed }),
    };
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes });
    const [replayed] = await twins(3);
    const queue = setup.agent.createQueue();
    const [fill, stencil] = sequence(replayed);
    const range = await engine.dispatchRange({ queue, dispatches: [fill!, stencil!] });
    expect(range.collected).toEqual({ completed: [1, 2] });
    expect(range.dispatches).toEqual([{ kernelName: 'fill' }, { kernelName: 'stencil' }]);
    const single = await engine.dispatch({ queue, kernel: fill!.kernel, args: fill!.args });
    expect(single.collected).toEqual({ completed: [1, 2] });
    expect(scopes).toEqual([{ dispatches: 2 }, { dispatches: 2 }, undefined, undefined]);
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed);
  });

  it('timingPasses reports device time per dispatch per pass', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes: timingPasses(3) });
    const [replayed] = await twins(4);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed) });
    expect(result.dispatches).toHaveLength(3);
    for (const dispatch of result.dispatches) {
      expect(dispatch.collected).toHaveLength(3);
      for (const milliseconds of dispatch.collected as number[]) expect(milliseconds).toBeGreaterThanOrEqual(0);
    }
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed);
  });
});

describe('range requests the engine refuses', () => {
  it('rejects dispatches on another queue, and an empty range', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes: fixedPasses(2) });
    const [replayed] = await twins(5);
    const queue = setup.agent.createQueue();
    const other = setup.agent.createQueue();
    const [fill, stencil] = sequence(replayed);
    await expect(engine.dispatchRange({ queue, dispatches: [{ ...fill!, queue }, { ...stencil!, queue: other }] })).rejects.toThrow(ArgumentError);
    await expect(engine.dispatchRange({ queue, dispatches: [{ ...fill!, queue }, { ...stencil!, queue: other }] })).rejects.toThrow(/dispatch 1 of the range names queue .* a range runs on one queue/);
    await expect(engine.dispatchRange({ queue, dispatches: [] })).rejects.toThrow(/non-empty array/);
    const broken = { ...fixedPasses(2), collectRange: 'per dispatch' } as unknown as PassProvider;
    expect(() => createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy(), passes: broken })).toThrow(/is not a pass provider/);
    await Promise.all([queue.dispose(), other.dispose()]);
    await engine.dispose();
    freeAll(replayed);
  });
});

describe('declined ranges run the sequence exactly once', () => {
  for (const [name, flags, code] of [
    ['a graph launch inside', { graph: true }, 'graph'],
    ['a cross-device dispatch inside', { crossDevice: true }, 'cross-device'],
  ] as const) {
    it(name, async () => {
      const strategy = recordingStrategy(fullStrategy());
      const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full' });
      const [replayed, plain] = await twins(6);
      const queue = setup.agent.createQueue();
      const dispatches = sequence(replayed);
      dispatches[1] = { ...dispatches[1]!, ...flags };
      const result = await engine.dispatchRange({ queue, dispatches });
      await runPlainly(queue, sequence(plain));
      expect(result).toMatchObject({ replayed: false, declineCode: code, passes: 1, verified: null });
      expect(result.declineReason).toMatch(/^dispatch 1 of the range of 3: kernel stencil/);
      expect(strategy.contexts).toHaveLength(0);
      expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
      await queue.dispose();
      await engine.dispose();
      freeAll(replayed, plain);
    });
  }

  it('a dispatch whose pointer is in no tracked allocation', async () => {
    const [replayed, plain] = await twins(7);
    const tracker = createTracker(setup.runtime);
    const tracked = await allocateWith(setup.agent, randomFloatBytes(count, 7));
    const engine = createReplayEngine({ runtime: setup.runtime, tracker, staging: setup.createStaging(), strategy: fullStrategy(), passes: fixedPasses(3) });
    const queue = setup.agent.createQueue();
    const { fill, stencil } = setup.runtime.kernels;
    const result = await engine.dispatchRange({
      queue,
      dispatches: [{ kernel: fill, args: { destination: tracked.address, bytes: 64, value: 1 } }, ...sequence(replayed)],
    });
    expect(result).toMatchObject({ replayed: false, declineCode: 'unresolved-arguments', passes: 1 });
    expect(result.declineReason).toMatch(/^dispatch 1 of the range of 4: pointer arguments "destination"/);
    await runPlainly(queue, sequence(plain));
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
    expect(stencil.name).toBe('stencil');
    await queue.dispose();
    await engine.dispose();
    tracker.dispose();
    freeAll(replayed, plain, [tracked]);
  });

  it('memory a dispatch reaches freed and allocated again after the range was requested', async () => {
    const own = await openHostSetup();
    const strategy = recordingStrategy(fullStrategy());
    const engine = createReplayEngine({ runtime: own.runtime, tracker: own.tracker, staging: own.createStaging(), strategy, passes: fixedPasses(2) });
    const buffers = await Promise.all([0, 1].map((index) => allocateWith(own.agent, randomFloatBytes(count, 8 + index))));
    const queue = own.agent.createQueue();
    // Work of the runtime's queue order ahead of the range holds it back until the gate opens.
    const locks = leaseRuntimeWindowLocks(own.runtime);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    void locks.serializer.run(queue.id, () => gate);
    const range = engine.dispatchRange({ queue, dispatches: sequence(buffers) });
    const { address, bytes } = buffers[1]!;
    buffers[1]!.free();
    // The host driver gives freed memory back once its queues have passed the free.
    let again = own.agent.allocate(bytes);
    for (let tries = 0; tries < 100 && again.address !== address; tries += 1) {
      again.free();
      await queue.synchronize();
      again = own.agent.allocate(bytes);
    }
    expect(again.address).toBe(address);
    buffers[1] = again;
    open();
    const result = await range;
    expect(result).toMatchObject({ replayed: false, declineCode: 'allocations-changed', passes: 1 });
    expect(result.declineReason).toMatch(/^dispatch 2 of the range of 3: memory that kernel triad reaches changed after the range was requested: allocation #\d+ at 0x[0-9a-f]+ \(argument "a"\) was freed/);
    expect(strategy.contexts).toHaveLength(0);
    locks.release();
    await queue.dispose();
    await engine.dispose();
    freeAll(buffers);
    await own.dispose();
  });

  it('refuses a range when memory a dispatch reaches was freed after it was requested', async () => {
    const strategy = recordingStrategy(fullStrategy());
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(2), quiesce: 'agent' });
    const [buffers] = await twins(10);
    const queue = setup.agent.createQueue();
    const range = engine.dispatchRange({ queue, dispatches: sequence(buffers) });
    buffers.pop()!.free();
    await expect(range).rejects.toThrow(ArgumentError);
    await expect(range).rejects.toThrow(/dispatch 2 of the range of 3 cannot run: memory that kernel triad reaches was freed after the range was requested/);
    expect(strategy.contexts).toHaveLength(0);
    await queue.dispose();
    await engine.dispose();
    freeAll(buffers);
  });

  it('a range whose snapshot is over the host budget', async () => {
    const small = setup.createStaging({ hostBytesLimit: 4096 });
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: small, strategy: fullStrategy({ tier: 'host-pinned' }), passes: fixedPasses(3) });
    const [replayed, plain] = await twins(9);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed) });
    await runPlainly(queue, sequence(plain));
    expect(result).toMatchObject({ replayed: false, declineCode: 'snapshot-declined', passes: 1 });
    expect(result.declineReason).toMatch(/strategy full declined: .*\(for a range of 3 dispatches\)/);
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, plain));
    expect(small.usage().leasedBytes).toBe(0);
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed, plain);
  });
});

describe('a device failure inside a range (host driver)', () => {
  it('a kernel failing in the middle of pass 2 leaves memory as before the range, and says so', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: fullStrategy({ tier: 'device' }), passes: fixedPasses(3) });
    const [replayed, untouched] = await twins(11);
    const queue = setup.agent.createQueue();
    // Pass 1 runs kernels 0-2; the fifth kernel is dispatch 1 of pass 2.
    setup.runtime.injectFault({ operation: 'kernel', after: 4, count: 1 });
    const result = await engine.dispatchRange({ queue, dispatches: sequence(replayed) });
    setup.runtime.clearFaults();
    expect(result).toMatchObject({ replayed: true, passes: 1, failure: { phase: 'pass', pass: 2, memory: 'pre-dispatch' } });
    expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, untouched));
    await queue.dispose();
    await engine.dispose();
    freeAll(replayed, untouched);
  });
});
