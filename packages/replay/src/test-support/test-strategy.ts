import type { CopySegment, MemoryRange } from '@kreplay/native';
import {
  emptyByteAccount,
  snapshotSpecificationVersion,
  type ByteAccount,
  type Snapshot,
  type SnapshotStrategy,
  type Staging,
  type StagingUsage,
} from '@kreplay/snapshot';
import type { Tracker } from '@kreplay/tracker';
import type { FakeRuntime } from './fake-runtime.js';

/** Options of the test double strategy. */
export interface TestStrategyOptions {
  /** `write-set`: the reached ranges whose access is not read; `all`: every tracked allocation. Default `write-set`. */
  readonly ranges?: 'write-set' | 'all';
  /** Decline every dispatch with this reason. */
  readonly decline?: string;
}

/** Counts of what the test strategy was asked to do. */
export interface TestStrategyCalls {
  prepare: number;
  capture: number;
  restore: number[];
  release: number;
}

/**
 * A tiny strategy implementing the snapshot contract with one staging lease and plain copies:
 * a test double standing in for the real strategies.
 */
export function testStrategy(options: TestStrategyOptions = {}): SnapshotStrategy & { readonly calls: TestStrategyCalls } {
  const calls: TestStrategyCalls = { prepare: 0, capture: 0, restore: [], release: 0 };
  return {
    specificationVersion: snapshotSpecificationVersion,
    name: `test-${options.ranges ?? 'write-set'}`,
    calls,
    prepare(dispatch) {
      calls.prepare += 1;
      if (options.decline !== undefined) return { kind: 'declined', reason: options.decline };
      const ranges: MemoryRange[] =
        options.ranges === 'all'
          ? dispatch.tracker.allocations(dispatch.agent.id).filter((allocation) => !allocation.tags.has('excluded'))
          : dispatch.resolution.reached.filter((reached) => reached.access !== 'read').map((reached) => reached.range);
      const bytes = ranges.reduce((total, range) => total + range.bytes, 0);
      const leased = dispatch.staging.lease(dispatch.agent, Math.max(bytes, 1), 'host-pinned');
      if (leased.kind === 'declined') return leased;
      const { lease } = leased;
      const toStaging: CopySegment[] = [];
      let offset = 0;
      for (const range of ranges) {
        toStaging.push({ source: range.address, destination: lease.address + offset, bytes: range.bytes });
        offset += range.bytes;
      }
      const fromStaging = toStaging.map((segment) => ({ source: segment.destination, destination: segment.source, bytes: segment.bytes }));
      let account: ByteAccount = { ...emptyByteAccount(), staging: { device: 0, 'host-pinned': lease.bytes, 'host-pageable': 0 } };
      const snapshot: Snapshot = {
        ranges: ranges.map(({ address, bytes: size }) => ({ address, bytes: size })),
        tier: 'host-pinned',
        notes: ['test strategy'],
        capture() {
          calls.capture += 1;
          dispatch.queue.enqueueCopy(toStaging);
          account = { ...account, deviceToHost: account.deviceToHost + bytes };
        },
        restore(nextPass) {
          calls.restore.push(nextPass);
          dispatch.queue.enqueueCopy(fromStaging);
          account = { ...account, hostToDevice: account.hostToDevice + bytes };
        },
        finish() {},
        account: () => account,
        release() {
          calls.release += 1;
          lease.release();
        },
      };
      return { kind: 'ready', snapshot };
    },
  };
}

/** A staging double: each lease is a fresh host buffer of the fake runtime, freed on release. */
export function testStaging(runtime: FakeRuntime, tracker: Tracker, hostBytesLimit = Number.POSITIVE_INFINITY): Staging {
  let leasedBytes = 0;
  let highWater = 0;
  return {
    lease(agent, bytes, choice) {
      if (leasedBytes + bytes > hostBytesLimit) return { kind: 'declined', reason: `over the host limit of ${hostBytesLimit} bytes` };
      const buffer = runtime.allocateHost(bytes, { pinned: true });
      tracker.tag(buffer.address, 'excluded');
      leasedBytes += bytes;
      highWater = Math.max(highWater, leasedBytes);
      let held = true;
      const tier = choice === 'auto' ? 'host-pinned' : choice;
      const release = () => {
        if (!held) return;
        held = false;
        leasedBytes -= bytes;
        buffer.free();
      };
      return {
        kind: 'leased',
        lease: { tier, agentId: agent.id, address: buffer.address, bytes, release, [Symbol.dispose]: release },
      };
    },
    usage(): StagingUsage {
      return { hostBytes: leasedBytes, hostHighWaterBytes: highWater, hostBytesLimit: null, deviceBytes: {}, deviceHighWaterBytes: {}, leasedBytes, pooledBytes: 0 };
    },
    trim() {},
    dispose() {},
    [Symbol.dispose]() {},
  };
}
