import { describe, expect, it } from 'vitest';
import { ArgumentError, DisposedError } from '@kreplay/native';
import type { SnapshotStrategy } from '@kreplay/snapshot';
import { fixedPasses } from './fixed-passes.js';
import { timingPasses } from './timing-passes.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

describe('replay engine (fake runtime)', () => {
  it('replays a dispatch: every pass starts from the same bytes, memory ends as after one run', async () => {
    const setup = fakeSetup();
    const strategy = testStrategy();
    const engine = setup.engine({ strategy, passes: fixedPasses(4), verify: 'full' });
    const buffer = setup.buffer(200_000, 7);
    const queue = setup.queue();
    const result = await engine.dispatch(fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: buffer.bytes }));
    expect(buffer.data.every((byte) => byte === 8)).toBe(true);
    expect(result).toMatchObject({ replayed: true, passes: 4, passesRequested: 4, verified: true, tier: 'host-pinned', strategy: 'test-write-set' });
    expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, nondeterministic: false, complete: true });
    expect(strategy.calls).toEqual({ prepare: 1, capture: 1, restore: [2, 3, 4], release: 1 });
    expect(result.timings.passMs).toHaveLength(4);
    expect(result.timings.restoreMs).toHaveLength(3);
    expect(result.timings.captureMs).toBeGreaterThanOrEqual(0);
    expect(result.bytesCopied).toBe(4 * buffer.bytes);
    expect(result.notes).toContain('test strategy');
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(queue.log.filter((entry) => entry === 'kernel increment')).toHaveLength(4);
    expect(setup.staging.usage().leasedBytes).toBe(0);
    await engine.dispose();
  });

  it("reports the host's time before the first phase and after the last wait, within the dispatch's wall time", async () => {
    const busy = (milliseconds: number) => {
      const until = performance.now() + milliseconds;
      while (performance.now() < until);
    };
    const setup = fakeSetup();
    const inner = testStrategy();
    // The strategy's prepare runs before anything is enqueued, its account after the wait.
    const strategy: SnapshotStrategy = {
      ...inner,
      prepare(dispatch) {
        busy(5);
        const prepared = inner.prepare(dispatch);
        if (prepared.kind !== 'ready') return prepared;
        const { snapshot } = prepared;
        return { kind: 'ready', snapshot: { ...snapshot, account: () => (busy(5), snapshot.account()) } };
      },
    };
    const engine = setup.engine({ strategy, passes: fixedPasses(3) });
    const buffer = setup.buffer(1000, 1);
    const { timings } = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 1000 }));
    expect(timings.hostBeforeEnqueueMs).toBeGreaterThanOrEqual(5);
    expect(timings.hostAfterWaitMs).toBeGreaterThanOrEqual(5);
    expect(timings.hostBeforeEnqueueMs! + timings.hostAfterWaitMs!).toBeLessThanOrEqual(timings.wallMs);
    const once = await setup.engine({ strategy, passes: fixedPasses(1) }).dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 1000 }));
    expect(once.timings.hostBeforeEnqueueMs).toBeGreaterThanOrEqual(0);
    expect(once.timings.hostAfterWaitMs).toBeGreaterThanOrEqual(0);
    expect(once.timings.hostBeforeEnqueueMs! + once.timings.hostAfterWaitMs!).toBeLessThanOrEqual(once.timings.wallMs);
    await engine.dispose();
  });

  it('runs one pass with no snapshot at all', async () => {
    const setup = fakeSetup();
    const strategy = testStrategy();
    const engine = setup.engine({ strategy, passes: fixedPasses(1), verify: 'full' });
    const buffer = setup.buffer(1000, 1);
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 1000 }));
    expect(strategy.calls.prepare).toBe(0);
    expect(buffer.data[0]).toBe(2);
    expect(result).toMatchObject({ replayed: false, passes: 1, tier: null, bytesCopied: 0, verified: null });
    expect(result.verification.status).toBe('not-run');
    expect(result.declineReason).toBeUndefined();
  });

  it('serialises windows of one queue even when the caller does not wait', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ verify: 'restore' });
    const buffer = setup.buffer(5000, 0);
    const queue = setup.queue();
    const request = fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: 5000 });
    const results = await Promise.all(Array.from({ length: 5 }, () => engine.dispatch(request)));
    expect(buffer.data.every((byte) => byte === 5)).toBe(true);
    expect(results.every((result) => result.verified === true)).toBe(true);
  });

  it('reports a write the strategy did not snapshot, by range', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ verify: 'restore' });
    const buffer = setup.buffer(3 * 65536, 0);
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'sneaky', { buffer: buffer.address }));
    expect(result.verified).toBe(false);
    expect(result.verification).toMatchObject({ status: 'mismatch', restoresExact: false });
    const allocationId = setup.tracker.find(buffer.address)!.id;
    expect(result.verification.mismatchedRanges).toEqual([
      { check: 'restore', pass: 2, allocationId, address: buffer.address, bytes: 65536 },
      { check: 'restore', pass: 3, allocationId, address: buffer.address, bytes: 65536 },
    ]);
  });

  it('reports a kernel whose passes differ as nondeterministic under full verification', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ verify: 'full', passes: fixedPasses(5) });
    const output = setup.buffer(64, 0);
    let seen = false;
    for (let attempt = 0; attempt < 5 && !seen; attempt += 1) {
      const result = await engine.dispatch(fakeRequest(setup.queue(), 'random', { output: output.address }));
      expect(result.verification.restoresExact).toBe(true);
      seen = result.verification.nondeterministic;
      if (seen) {
        expect(result.verification.passOutputsEqual).toBe(false);
        expect(result.verified).toBe(false);
        expect(result.verification.status).toBe('mismatch');
        expect(result.notes.join(' ')).toMatch(/not deterministic/);
      }
    }
    expect(seen).toBe(true);
  });

  it('collects each pass time with timingPasses', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ passes: timingPasses(3) });
    const buffer = setup.buffer(100);
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 100 }));
    expect(result.collected).toHaveLength(3);
    for (const milliseconds of result.collected as number[]) expect(milliseconds).toBeGreaterThanOrEqual(0);
  });

  it('waits for the agent with quiesce agent, and still replays exactly', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ quiesce: 'agent', verify: 'full' });
    const buffer = setup.buffer(100, 3);
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 100 }));
    expect(result.verified).toBe(true);
    expect(result.timings.quiesceMs).toBeGreaterThanOrEqual(0);
    expect(buffer.data[99]).toBe(4);
  });

  it('refuses bad options and requests with ArgumentError, and dispatches after dispose with DisposedError', async () => {
    const setup = fakeSetup();
    expect(() => setup.engine({ verify: 'sometimes' as never })).toThrow(ArgumentError);
    expect(() => setup.engine({ quiesce: 'device' as never })).toThrow(/\[replay\] \[engine\] quiesce/);
    expect(() => setup.engine({ strategy: { name: 'x' } as unknown as SnapshotStrategy })).toThrow(ArgumentError);
    const engine = setup.engine();
    const queue = setup.queue();
    await expect(engine.dispatch({ ...fakeRequest(queue, 'fill', {}), args: null as never })).rejects.toThrow(ArgumentError);
    await expect(engine.dispatch({ ...fakeRequest(queue, 'fill', {}), graph: 'yes' as never })).rejects.toThrow(/\[replay\] \[dispatch\] graph/);
    await engine.dispose();
    await engine.dispose();
    const buffer = setup.buffer(8);
    await expect(engine.dispatch(fakeRequest(queue, 'fill', { destination: buffer.address, bytes: 8, value: 1 }))).rejects.toThrow(DisposedError);
  });
});
