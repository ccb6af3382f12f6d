import { describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '@kreplay/native';
import { fullStrategy, writeSetStrategy, dirtyPagesStrategy, type SnapshotStrategy } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import type { VerifyMode } from './verification-report.js';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { allocateWith, randomBytes, randomFloatBytes, readAll, runDirectly, useHostSetup } from './test-support/host-setup.js';

const setup = useHostSetup();

/** Two identical sets of buffers: one the engine replays on, one the kernel runs on once. */
async function twinBuffers(sizes: readonly number[], seed: number): Promise<[DeviceAllocation[], DeviceAllocation[]]> {
  const data = sizes.map((bytes, index) => randomBytes(bytes, seed + index));
  const replayed = await Promise.all(data.map((bytes) => allocateWith(setup.agent, bytes)));
  const once = await Promise.all(data.map((bytes) => allocateWith(setup.agent, bytes)));
  return [replayed, once];
}

function counting(strategy: SnapshotStrategy): SnapshotStrategy & { prepared: number } {
  const counted = { ...strategy, prepared: 0, prepare: (dispatch: Parameters<SnapshotStrategy['prepare']>[0]) => {
    counted.prepared += 1;
    return strategy.prepare(dispatch);
  } };
  return counted;
}

const scatterArgs = (buffer: DeviceAllocation, source: DeviceAllocation) => ({
  buffer: buffer.address,
  bytes: buffer.bytes,
  pageBytes: 4096,
  fraction: 0.3,
  seed: 12345,
  source: source.address,
  sourceBytes: source.bytes,
});

describe('replay on the host driver', () => {
  for (const [name, make] of [['full', fullStrategy], ['write-set', writeSetStrategy], ['dirty-pages', dirtyPagesStrategy]] as const) {
    it(`${name}: scatterWrite replayed with 4 passes leaves memory bit-identical to one run`, async () => {
      const strategy = make();
      const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(4), verify: 'full' });
      const [[buffer, source], [onceBuffer, onceSource]] = await twinBuffers([256 * 1024, 4096], 1);
      const queue = setup.agent.createQueue();
      for (let dispatch = 0; dispatch < 3; dispatch += 1) {
        const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: { ...scatterArgs(buffer!, source!), seed: dispatch } });
        await runDirectly(queue, setup.runtime.kernels.scatterWrite, { ...scatterArgs(onceBuffer!, onceSource!), seed: dispatch });
        expect(result).toMatchObject({ replayed: true, passes: 4, verified: true, strategy: name });
        expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, nondeterministic: false });
        expect(result.timings.passMs).toHaveLength(4);
        expect(result.timings.restoreMs).toHaveLength(3);
      }
      expectSameBytes(await readAll(setup.agent, [buffer!, source!]), await readAll(setup.agent, [onceBuffer!, onceSource!]));
      await queue.dispose();
      await engine.dispose();
      strategy.dispose?.();
      for (const allocation of [buffer, source, onceBuffer, onceSource]) allocation!.free();
    });
  }

  it('with one pass, snapshots nothing at all', async () => {
    const strategy = counting(fullStrategy());
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(1), verify: 'full' });
    const [[buffer, source], [onceBuffer, onceSource]] = await twinBuffers([64 * 1024, 1024], 2);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer!, source!) });
    await runDirectly(queue, setup.runtime.kernels.scatterWrite, scatterArgs(onceBuffer!, onceSource!));
    expect(strategy.prepared).toBe(0);
    expect(result).toMatchObject({ replayed: false, passes: 1, bytesCopied: 0, tier: null, verified: null });
    expectSameBytes(await readAll(setup.agent, [buffer!]), await readAll(setup.agent, [onceBuffer!]));
    await queue.dispose();
    await engine.dispose();
    for (const allocation of [buffer, source, onceBuffer, onceSource]) allocation!.free();
  });

  for (const verify of ['off', 'restore', 'full'] as VerifyMode[]) {
    it(`verify ${verify} reports what it checked`, async () => {
      const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: writeSetStrategy(), passes: fixedPasses(3), verify });
      const [[buffer, source]] = await twinBuffers([128 * 1024, 64], 3);
      const queue = setup.agent.createQueue();
      const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer!, source!) });
      expect(result.verified).toBe(verify === 'off' ? null : true);
      expect(result.verification.mode).toBe(verify);
      expect(result.verification.restoresExact).toBe(verify === 'off' ? null : true);
      expect(result.verification.passOutputsEqual).toBe(verify === 'full' ? true : null);
      expect(result.verification.hashedBytes > 0).toBe(verify !== 'off');
      await queue.dispose();
      await engine.dispose();
      buffer!.free();
      source!.free();
    });
  }

  for (const [name, make] of [['full', fullStrategy], ['write-set', writeSetStrategy], ['dirty-pages', dirtyPagesStrategy]] as const) {
    it(`${name}: verifies a kernel that writes a pinned host buffer through arguments it cannot bound`, async () => {
      const strategy = make();
      const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full' });
      using host = setup.runtime.allocateHost(80 * 1024, { pinned: true });
      host.view().set(randomBytes(host.bytes, 11));
      // The built-in fill, its destination declared indirect (as a captured launch's parameter buffer is).
      const { fill } = setup.runtime.kernels;
      const kernel = { ...fill, parameters: fill.parameters.map((parameter) => (parameter.name === 'destination' ? { ...parameter, indirect: true } : parameter)) };
      const queue = setup.agent.createQueue();
      const result = await engine.dispatch({ queue, kernel, args: { destination: host.address, bytes: host.bytes, value: 0x3c3c3c3c } });
      expect(result.verification).toMatchObject({ status: 'verified', restoresExact: true, passOutputsEqual: true, nondeterministic: false, mismatchedRanges: [] });
      expect(host.view().every((byte) => byte === 0x3c)).toBe(true);
      await queue.dispose();
      await engine.dispose();
      strategy.dispose?.();
    });
  }

  it('reports the accumulate kernel nondeterministic under full verification', async () => {
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy: writeSetStrategy(), passes: fixedPasses(5), verify: 'full' });
    const count = 1 << 18;
    const input = await allocateWith(setup.agent, randomFloatBytes(count, 4));
    const output = await allocateWith(setup.agent, new Uint8Array(64));
    const queue = setup.agent.createQueue();
    let nondeterministic = false;
    for (let attempt = 0; attempt < 10 && !nondeterministic; attempt += 1) {
      const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.accumulate, args: { input: input.address, count, output: output.address } });
      expect(result.verification.restoresExact).toBe(true);
      nondeterministic = result.verification.nondeterministic;
      if (nondeterministic) {
        expect(result.verification.passOutputsEqual).toBe(false);
        expect(result.verification.mismatchedRanges.some((range) => range.check === 'pass-output' && range.address === output.address)).toBe(true);
      }
    }
    expect(setup.runtime.kernels.accumulate.deterministic).toBe(false);
    expect(nondeterministic).toBe(true);
    await queue.dispose();
    await engine.dispose();
    input.free();
    output.free();
  });
});

describe('declines on the host driver run the dispatch exactly once', () => {
  const cases: [string, { graph?: boolean; crossDevice?: boolean }, string][] = [
    ['a graph launch', { graph: true }, 'graph'],
    ['a cross-device dispatch', { crossDevice: true }, 'cross-device'],
  ];
  for (const [name, flags, code] of cases) {
    it(name, async () => {
      const strategy = counting(fullStrategy());
      const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3) });
      const [[buffer, source], [onceBuffer, onceSource]] = await twinBuffers([64 * 1024, 512], 5);
      const queue = setup.agent.createQueue();
      const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer!, source!), ...flags });
      await runDirectly(queue, setup.runtime.kernels.scatterWrite, scatterArgs(onceBuffer!, onceSource!));
      expect(result).toMatchObject({ replayed: false, declineCode: code, passes: 1 });
      expect(strategy.prepared).toBe(0);
      expectSameBytes(await readAll(setup.agent, [buffer!]), await readAll(setup.agent, [onceBuffer!]));
      await queue.dispose();
      await engine.dispose();
      for (const allocation of [buffer, source, onceBuffer, onceSource]) allocation!.free();
    });
  }

  it('a dispatch whose pointer is in no tracked allocation', async () => {
    const untracked = await allocateWith(setup.agent, randomBytes(4096, 6));
    const tracker = createTracker(setup.runtime);
    const engine = createReplayEngine({ runtime: setup.runtime, tracker, staging: setup.staging, strategy: fullStrategy(), passes: fixedPasses(3) });
    const queue = setup.agent.createQueue();
    const once = await allocateWith(setup.agent, randomBytes(4096, 6));
    const args = (target: DeviceAllocation) => ({ buffer: target.address, bytes: 4096, pageBytes: 256, fraction: 1, seed: 9, source: target.address, sourceBytes: 0 });
    const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: args(untracked) });
    await runDirectly(queue, setup.runtime.kernels.scatterWrite, args(once));
    expect(result).toMatchObject({ replayed: false, declineCode: 'unresolved-arguments', passes: 1 });
    expect(result.declineReason).toMatch(/"buffer"/);
    expectSameBytes(await readAll(setup.agent, [untracked]), await readAll(setup.agent, [once]));
    await queue.dispose();
    await engine.dispose();
    tracker.dispose();
    untracked.free();
    once.free();
  });

  it('a dispatch whose snapshot is over the host budget', async () => {
    const small = setup.createStaging({ hostBytesLimit: 4096 });
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: small, strategy: fullStrategy({ tier: 'host-pinned' }), passes: fixedPasses(3) });
    const [[buffer, source], [onceBuffer, onceSource]] = await twinBuffers([256 * 1024, 512], 7);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer!, source!) });
    await runDirectly(queue, setup.runtime.kernels.scatterWrite, scatterArgs(onceBuffer!, onceSource!));
    expect(result).toMatchObject({ replayed: false, declineCode: 'snapshot-declined', passes: 1 });
    expect(result.declineReason).toMatch(/strategy full declined/);
    expectSameBytes(await readAll(setup.agent, [buffer!]), await readAll(setup.agent, [onceBuffer!]));
    expect(small.usage().leasedBytes).toBe(0);
    await queue.dispose();
    await engine.dispose();
    for (const allocation of [buffer, source, onceBuffer, onceSource]) allocation!.free();
  });

  it('with phaseTimings off, enqueues no events of its own and still replays exactly', async () => {
    const strategy = dirtyPagesStrategy({ tier: 'device' });
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full', phaseTimings: false });
    const [[buffer, source], [onceBuffer, onceSource]] = await twinBuffers([64 * 1024, 4096], 7);
    const queue = setup.agent.createQueue();
    const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer!, source!) });
    await runDirectly(queue, setup.runtime.kernels.scatterWrite, scatterArgs(onceBuffer!, onceSource!));
    expect(result).toMatchObject({ replayed: true, passes: 3, verified: true });
    expect(result.timings).toMatchObject({ captureMs: null, passMs: [], restoreMs: [] });
    expectSameBytes(await readAll(setup.agent, [buffer!, source!]), await readAll(setup.agent, [onceBuffer!, onceSource!]));
    await engine.dispose();
    await expect(async () => createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(2), phaseTimings: 'yes' as never })).rejects.toThrow(/phaseTimings/);
  });
});
