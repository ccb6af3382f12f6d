import { afterEach, describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { bytesCopied } from './byte-account.js';
import { dirtyPagesStrategy } from './dirty-pages-strategy.js';
import { fullStrategy } from './full-strategy.js';
import { allocateWorkload, readAll, replayByHand, replayDispatchByHand, scatterArguments } from './test/replay-by-hand.js';
import { expectSameBytes } from './test/same-bytes.js';
import type { Workload } from './test/replay-by-hand.js';
import type { SnapshotStrategy } from './snapshot-strategy.js';
import { sameBytes } from './test/same-bytes.js';
import { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';
import type { StrategyFixture } from './test/strategy-fixture.js';
import { testSnapshotStrategy } from './test/test-snapshot-strategy.js';

testSnapshotStrategy({ name: 'dirty-pages', create: ({ tier }) => dirtyPagesStrategy({ tier }) });
testSnapshotStrategy({
  name: 'dirty-pages (4 KiB pages, every allocation a candidate)',
  create: ({ tier }) => dirtyPagesStrategy({ tier, pageBytes: 4096, candidates: 'all' }),
  tiers: ['device', 'host-pinned'],
});

describe('dirty-pages', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  it('copies exactly the pages written once its mirror is warm, far less than full', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 1, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 });
    const before = await readAll(fixture, workload);
    await replayByHand(fixture, dirty, workload, 3, 1);
    const after = (await readAll(fixture, workload))[1]!;
    const written = writtenBytes(before[1]!, after, 4096);
    expect(written).toBeGreaterThan(0);
    const untouchedPage = [...Array(80).keys()].find((page) => sameBytes(before[1]!.subarray(page * 4096, (page + 1) * 4096), after.subarray(page * 4096, (page + 1) * 4096)))!;
    await fixture.agent.write(workload.buffer.address + untouchedPage * 4096 + 17, Uint8Array.of(after[untouchedPage * 4096 + 17]! ^ 0xff));
    const warm = await replayByHand(fixture, dirty, workload, 3, 1);
    // capture: the pages the previous dispatch wrote plus the page written from the host;
    // two restores: only the pages the kernel writes
    expect(warm.account.deviceToDevice).toBe(3 * written + 4096);
    expect(warm.account.hashed).toBe(2 * workload.buffer.bytes);
    const full = await replayByHand(fixture, fullStrategy({ tier: 'device' }), workload, 3, 1);
    expect(bytesCopied(warm.account)).toBeLessThan(bytesCopied(full.account) / 2);
    dirty.dispose?.();
  });

  it('reads only the pages the last dispatch wrote at capture while nothing else was issued since it', async () => {
    fixture = await openStrategyFixture();
    const current = fixture;
    const workload = await allocateWorkload(current, 2, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 });
    const candidates = workload.buffer.bytes;
    const first = await replayByHand(current, dirty, workload, 3, 5);
    const written = writtenBytes(first.beforePass[0]![1]!, first.after[1]!, 4096);
    expect(written).toBeGreaterThan(0);

    const known = await replayByHand(current, dirty, workload, 3, 5);
    expect(known.account.hashed).toBe(written + candidates);
    expect(known.account.deviceToDevice).toBe(3 * written);

    await current.agent.write(workload.buffer.address, Uint8Array.of(1, 2, 3)); // a writer the strategy does not know
    const afterWrite = await replayByHand(current, dirty, workload, 3, 5);
    expect(afterWrite.account.hashed).toBe(2 * candidates);

    // Work another queue issues during a window leaves its end unknown.
    const other = current.agent.createQueue();
    await windowByHand(current, dirty, workload, { completed: true, duringWindow: () => other.enqueueCopy([{ source: workload.source.address, destination: workload.buffer.address, bytes: 64 }]) });
    await other.synchronize();
    const afterOtherQueue = await replayByHand(current, dirty, workload, 3, 5);
    expect(afterOtherQueue.account.hashed).toBe(2 * candidates);
    await other.dispose();

    // A window that did not complete leaves nothing known.
    await windowByHand(current, dirty, workload, { completed: false, duringWindow: () => undefined });
    const afterFailure = await replayByHand(current, dirty, workload, 3, 5);
    expect(afterFailure.account.hashed).toBe(2 * candidates);
    dirty.dispose?.();
  });

  it('drops the mirror of an allocation the program frees, and its hashes and readback, without dispose', async () => {
    fixture = await openStrategyFixture();
    const current = fixture;
    const hostBuffers = () => current.tracker.hostAllocations().length;
    const before = { free: current.agent.memoryInfo().freeBytes, hostBuffers: hostBuffers() };
    const workload = await allocateWorkload(current, 12, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 });
    await replayByHand(current, dirty, workload, 3, 1);
    expect(current.staging.usage().leasedBytes).toBeGreaterThan(0);
    expect(hostBuffers()).toBe(before.hostBuffers + 1);
    workload.buffer.free();
    expect(current.staging.usage().leasedBytes).toBe(0);
    expect(hostBuffers()).toBe(before.hostBuffers);
    workload.source.free();
    workload.untouched.free();
    current.staging.trim();
    await current.agent.synchronize(); // frees take effect once the queues ran the work before them
    expect(current.agent.memoryInfo().freeBytes).toBe(before.free);
  });

  it('drops a mirror that covers several allocations when any one of them is freed', async () => {
    fixture = await openStrategyFixture();
    const current = fixture;
    const workload = await allocateWorkload(current, 13, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'host-pinned', pageBytes: 4096, candidates: 'all' });
    const replay = await replayByHand(current, dirty, workload, 2, 1);
    expect(replay.snapshot.ranges).toHaveLength(3);
    workload.untouched.free(); // neither read nor written by the kernel, but mirrored
    expect(current.staging.usage().leasedBytes).toBe(0);
    // The next dispatch mirrors what is left from scratch, and restores it exactly.
    const original = await Promise.all([workload.source, workload.buffer].map((allocation) => current.agent.read(allocation.address, allocation.bytes)));
    const again = await replayDispatchByHand(current, dirty, { kernel: current.runtime.kernels.scatterWrite, args: scatterArguments(workload, 2) }, 3, () =>
      Promise.all([workload.source, workload.buffer].map((allocation) => current.agent.read(allocation.address, allocation.bytes))),
    );
    expect(again.snapshot.ranges).toHaveLength(2);
    again.beforePass.forEach((memory, pass) => expectSameBytes(memory, original, `before pass ${pass + 1}`));
    dirty.dispose?.();
  });

  it('gives a mirror whose allocation was freed during its window back when the window releases it', async () => {
    fixture = await openStrategyFixture();
    const current = fixture;
    const workload = await allocateWorkload(current, 14, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096, candidates: 'all' });
    const prepared = dirty.prepare(current.dispatch(current.runtime.kernels.scatterWrite, scatterArguments(workload, 1)));
    if (prepared.kind !== 'ready') throw new Error(prepared.reason);
    prepared.snapshot.capture();
    await current.queue.synchronize();
    workload.untouched.free();
    expect(current.staging.usage().leasedBytes).toBeGreaterThan(0); // the window still holds it
    prepared.snapshot.release({ completed: false });
    expect(current.staging.usage().leasedBytes).toBe(0);
  });

  it('listens to the tracker only while it keeps a mirror, so a strategy left undisposed leaves no listener behind', async () => {
    fixture = await openStrategyFixture();
    const current = fixture;
    let listening = 0;
    const tracker = {
      ...current.tracker,
      onChange: (listener: Parameters<typeof current.tracker.onChange>[0]) => {
        listening += 1;
        const off = current.tracker.onChange(listener);
        let subscribed = true;
        return () => {
          if (subscribed) listening -= 1;
          subscribed = false;
          off();
        };
      },
    };
    const counted: StrategyFixture = { ...current, dispatch: (kernel, args) => ({ ...current.dispatch(kernel, args), tracker }) };
    const workload = await allocateWorkload(current, 15, randomBytes);
    const dirty = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096, candidates: 'all' });
    await replayByHand(counted, dirty, workload, 2, 1);
    await replayByHand(counted, dirty, workload, 2, 2);
    expect(listening).toBe(1);
    workload.source.free();
    expect(listening).toBe(0);
    const rest = { ...workload, all: [workload.buffer, workload.untouched] };
    await replayDispatchByHand(counted, dirty, { kernel: current.runtime.kernels.fill, args: { destination: rest.buffer.address, bytes: 4096, value: 3 } }, 2, () => readAll(current, rest));
    expect(listening).toBe(1);
    dirty.dispose();
    expect(listening).toBe(0);
  });

  it('refuses a page size that is not a power of two', () => {
    expect(() => dirtyPagesStrategy({ pageBytes: 5000 })).toThrow(ArgumentError);
    expect(() => dirtyPagesStrategy({ tier: 'disk' as never })).toThrow(/unknown staging tier/);
  });
});

/**
 * A two-pass window of the scatter-write dispatch driven by hand, with `duringWindow` called after
 * the capture, told at release whether it `completed`.
 */
async function windowByHand(
  fixture: StrategyFixture,
  strategy: SnapshotStrategy,
  workload: Workload,
  { completed, duringWindow }: { readonly completed: boolean; readonly duringWindow: () => void },
): Promise<void> {
  const kernel = fixture.runtime.kernels.scatterWrite;
  const args = scatterArguments(workload, 5);
  const prepared = strategy.prepare(fixture.dispatch(kernel, args));
  if (prepared.kind !== 'ready') throw new Error(`strategy ${strategy.name} declined: ${prepared.reason}`);
  const { snapshot } = prepared;
  snapshot.capture();
  duringWindow();
  fixture.queue.enqueueKernel(kernel, args);
  snapshot.restore(2);
  fixture.queue.enqueueKernel(kernel, args);
  snapshot.finish();
  await fixture.queue.synchronize();
  snapshot.account();
  snapshot.release({ completed });
}

/** Bytes of the pages (of `pageBytes`, the last one short) in which two buffers differ. */
function writtenBytes(before: Uint8Array, after: Uint8Array, pageBytes: number): number {
  let bytes = 0;
  for (let start = 0; start < before.length; start += pageBytes) {
    const end = Math.min(start + pageBytes, before.length);
    if (!Buffer.from(before.subarray(start, end)).equals(after.subarray(start, end))) bytes += end - start;
  }
  return bytes;
}
