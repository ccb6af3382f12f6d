import type { DeviceAllocation, KernelArguments, KernelDescriptor } from '@kreplay/native';
import type { ByteAccount } from '../byte-account.js';
import type { Snapshot, SnapshotStrategy } from '../snapshot-strategy.js';
import type { StrategyFixture } from './strategy-fixture.js';

/** A small workload: a read-only source, a read-write buffer with a short last page, and an untouched block. */
export interface Workload {
  readonly source: DeviceAllocation;
  readonly buffer: DeviceAllocation;
  readonly untouched: DeviceAllocation;
  readonly all: readonly DeviceAllocation[];
}

/** What one hand-driven replay saw: memory before each pass, memory after the last, and the account. */
export interface HandReplay {
  readonly beforePass: Uint8Array[][];
  readonly after: Uint8Array[];
  readonly account: ByteAccount;
  readonly snapshot: Snapshot;
}

/** Allocates the workload and fills it with seeded bytes. */
export async function allocateWorkload(fixture: StrategyFixture, seed: number, fill: (length: number, seed: number) => Uint8Array): Promise<Workload> {
  const source = fixture.agent.allocate(192 * 1024);
  const buffer = fixture.agent.allocate(320 * 1024 + 1000);
  const untouched = fixture.agent.allocate(64 * 1024);
  const all = [source, buffer, untouched];
  for (const [index, allocation] of all.entries()) {
    await fixture.agent.write(allocation.address, fill(allocation.bytes, seed * 7 + index + 1));
  }
  return { source, buffer, untouched, all };
}

/** The scatter-write arguments of the workload. */
export function scatterArguments(workload: Workload, seed: number): Record<string, number> {
  return {
    buffer: workload.buffer.address,
    bytes: workload.buffer.bytes,
    pageBytes: 4096,
    fraction: 0.3,
    seed,
    source: workload.source.address,
    sourceBytes: workload.source.bytes,
  };
}

/** Reads every allocation of the workload. */
export function readAll(fixture: StrategyFixture, workload: Workload): Promise<Uint8Array[]> {
  return Promise.all(workload.all.map((allocation) => fixture.agent.read(allocation.address, allocation.bytes)));
}

/**
 * Replays one scatter-write dispatch by hand: capture, then passes with restores between, reading
 * memory before each pass (the replay window does the same without the reads).
 */
export function replayByHand(
  fixture: StrategyFixture,
  strategy: SnapshotStrategy,
  workload: Workload,
  passes: number,
  seed: number,
): Promise<HandReplay> {
  const dispatch = { kernel: fixture.runtime.kernels.scatterWrite, args: scatterArguments(workload, seed) };
  return replayDispatchByHand(fixture, strategy, dispatch, passes, () => readAll(fixture, workload));
}

/** {@link replayByHand} of any kernel, reading memory with `read`. */
export async function replayDispatchByHand(
  fixture: StrategyFixture,
  strategy: SnapshotStrategy,
  { kernel, args }: { readonly kernel: KernelDescriptor; readonly args: KernelArguments },
  passes: number,
  read: () => Promise<Uint8Array[]>,
): Promise<HandReplay> {
  const prepared = strategy.prepare(fixture.dispatch(kernel, args));
  if (prepared.kind === 'declined') throw new Error(`strategy ${strategy.name} declined: ${prepared.reason}`);
  const { snapshot } = prepared;
  const beforePass: Uint8Array[][] = [];
  let completed = false;
  try {
    snapshot.capture();
    for (let pass = 1; pass <= passes; pass += 1) {
      if (pass > 1) snapshot.restore(pass);
      await fixture.queue.synchronize();
      beforePass.push(await read());
      fixture.queue.enqueueKernel(kernel, args);
    }
    snapshot.finish();
    await fixture.queue.synchronize();
    completed = true;
    return { beforePass, after: await read(), account: snapshot.account(), snapshot };
  } finally {
    snapshot.release({ completed });
  }
}

/** Runs the same kernel once, without replay, on a twin of the workload holding `contents`. */
export async function runWithoutReplay(fixture: StrategyFixture, contents: readonly Uint8Array[], seed: number): Promise<Uint8Array[]> {
  const twin = await allocateWorkload(fixture, 0, (length) => new Uint8Array(length));
  try {
    for (const [index, allocation] of twin.all.entries()) await fixture.agent.write(allocation.address, contents[index]!);
    fixture.queue.enqueueKernel(fixture.runtime.kernels.scatterWrite, scatterArguments(twin, seed));
    await fixture.queue.synchronize();
    return await readAll(fixture, twin);
  } finally {
    twin.all.forEach((allocation) => allocation.free());
  }
}
