import type { MemoryEvent, MemoryKind } from '@kreplay/native';
import type { AllocationTag } from './allocation-tag.js';
import { TagSetView } from './tag-set-view.js';

/** One live allocation the tracker knows about, as the runtime reported it. */
export interface TrackedAllocation {
  /** Unique within its tracker, increasing in allocation order, never reused. */
  readonly id: number;
  readonly address: number;
  readonly bytes: number;
  readonly kind: MemoryKind;
  /** The agent owning device and stream-ordered memory; `null` for host buffers. */
  readonly agentId: number | null;
  /** The queue a stream-ordered allocation was enqueued on; absent for the other kinds. */
  readonly queueId?: number;
  /** The allocation's current tags (a live, read-only view; change them with `tracker.tag`/`untag`). */
  readonly tags: ReadonlySet<AllocationTag>;
}

/** The tracker's own record of an allocation: the frozen public object and its mutable tags. */
export interface AllocationRecord {
  readonly allocation: TrackedAllocation;
  readonly tags: Set<AllocationTag>;
}

/** Builds the record of an allocate event; `id` comes from the tracker's counter. */
export function createAllocationRecord(id: number, event: MemoryEvent): AllocationRecord {
  const tags = new Set<AllocationTag>();
  const allocation: TrackedAllocation = Object.freeze({
    id,
    address: event.address,
    bytes: event.bytes,
    kind: event.kind,
    agentId: event.kind === 'host-pinned' || event.kind === 'host-pageable' ? null : event.agentId,
    ...(event.kind === 'stream-ordered' && event.queueId !== undefined ? { queueId: event.queueId } : {}),
    tags: new TagSetView(tags),
  });
  return { allocation, tags };
}

/** Whether the allocation is device memory of an agent (device or stream-ordered), not a host buffer. */
export function isDeviceKind(kind: MemoryKind): boolean {
  return kind === 'device' || kind === 'stream-ordered';
}
