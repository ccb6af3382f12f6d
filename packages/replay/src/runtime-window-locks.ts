import type { Runtime } from '@kreplay/native';
import { QueueSerializer } from './queue-serializer.js';
import { RangeLock } from './range-lock.js';

/**
 * What every replay window on one runtime shares, whichever engine runs it: the lock over memory
 * ranges and the per-queue order. Two engines with locks of their own would not see each other's
 * windows: one engine's restore of its snapshot would undo what the other's dispatch wrote meanwhile.
 * A claim names the ranges of its own window, so engines whose strategies differ share them as well.
 */
export interface RuntimeWindowLocks {
  readonly lock: RangeLock;
  readonly serializer: QueueSerializer;
}

/** A lease of a runtime's window locks; `release` is idempotent. */
export interface RuntimeWindowLocksLease extends RuntimeWindowLocks {
  release(): void;
}

interface Entry extends RuntimeWindowLocks {
  users: number;
}

/** Keyed weakly: a runtime nothing else holds takes its locks with it. */
const entries = new WeakMap<Runtime, Entry>();

/**
 * Leases the window locks of `runtime`, made on first use; the last lease released drops them, so
 * the next engine starts from fresh ones. Release only once nothing of the lessee is in flight.
 */
export function leaseRuntimeWindowLocks(runtime: Runtime): RuntimeWindowLocksLease {
  let entry = entries.get(runtime);
  if (entry === undefined) {
    entry = { lock: new RangeLock(), serializer: new QueueSerializer(), users: 0 };
    entries.set(runtime, entry);
  }
  entry.users += 1;
  const leased = entry;
  let held = true;
  return {
    lock: leased.lock,
    serializer: leased.serializer,
    release() {
      if (!held) return;
      held = false;
      leased.users -= 1;
      if (leased.users === 0 && entries.get(runtime) === leased) entries.delete(runtime);
    },
  };
}

/** How many leases of `runtime`'s window locks are held (0 when it has none). */
export function runtimeWindowLockUsers(runtime: Runtime): number {
  return entries.get(runtime)?.users ?? 0;
}
