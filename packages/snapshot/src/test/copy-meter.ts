import type { ConditionalCopyOptions, CopySegment, HostBuffer, MemoryKind, MemoryRange, PageListCopyOptions, Queue, Runtime } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import { copyDirection } from '../copy-direction.js';

/** The bytes a queue really copied, by direction, and hashed. */
export interface MovedBytes {
  deviceToDevice: number;
  deviceToHost: number;
  hostToDevice: number;
  hostToHost: number;
  hashed: number;
}

/** A queue that counts what it moves, and the counts. */
export interface CopyMeter {
  /** Forwards everything to the real queue, counting the copies and hashes enqueued through it. */
  readonly queue: Queue;
  /** What moved since the last call (or since the meter was made); call it once the queue has completed that work. */
  take(): MovedBytes;
  /** Frees the meter's buffers. */
  dispose(): void;
}

/** A page-recording copy whose recorded pages are read back after the queue completed it. */
interface PendingPages {
  readonly buffer: HostBuffer;
  readonly offset: number;
  readonly pageBytes: number;
  /** Per segment: its first page, its bytes and its direction. */
  readonly segments: readonly { readonly firstPage: number; readonly bytes: number; readonly direction: keyof MovedBytes }[];
  readonly totalPages: number;
  readonly hashesCopied: boolean;
}

const chunkBytes = 1 << 20;

/**
 * Meters the copies and hashes enqueued on `queue`. Plain copies and hashes count their bytes as
 * they are enqueued. A conditional copy or a page-list copy moves pages chosen on the device: right
 * after it, the meter enqueues a copy of its page count and list into a buffer of its own, and
 * counts those pages' bytes once the queue has run it. Copies count by the kinds of memory on each
 * side, as the tracker knows them (anything it does not track counts as host memory).
 */
export function meterCopies(runtime: Runtime, tracker: Tracker, queue: Queue): CopyMeter {
  let moved = emptyMoved();
  let pending: PendingPages[] = [];
  const buffers: HostBuffer[] = [];
  let used = 0;
  const kindOf = (address: number): MemoryKind => tracker.find(address)?.kind ?? 'host-pageable';
  const directionOf = (segment: CopySegment) => copyDirection(kindOf(segment.source), kindOf(segment.destination));

  /** Room for `bytes` in the meter's own buffers (tagged excluded, so no strategy snapshots them). */
  const reserve = (bytes: number): { buffer: HostBuffer; offset: number } => {
    let buffer = buffers[buffers.length - 1];
    if (buffer === undefined || used + bytes > buffer.bytes) {
      buffer = runtime.allocateHost(Math.max(chunkBytes, bytes), { pinned: true });
      tracker.tag(buffer.address, 'excluded');
      buffers.push(buffer);
      used = 0;
    }
    const offset = used;
    used += Math.ceil(bytes / 8) * 8;
    return { buffer, offset };
  };

  const recordPages = (options: ConditionalCopyOptions | PageListCopyOptions, hashesCopied: boolean) => {
    let totalPages = 0;
    const segments = options.segments.map((segment) => {
      const entry = { firstPage: totalPages, bytes: segment.bytes, direction: directionOf(segment) };
      totalPages += Math.ceil(segment.bytes / options.pageBytes);
      return entry;
    });
    const { buffer, offset } = reserve(4 + totalPages * 4);
    queue.enqueueCopy([
      { source: options.pageCountAddress, destination: buffer.address + offset, bytes: 4 },
      ...(totalPages > 0 ? [{ source: options.pageListAddress, destination: buffer.address + offset + 4, bytes: totalPages * 4 }] : []),
    ]);
    pending.push({ buffer, offset, pageBytes: options.pageBytes, segments, totalPages, hashesCopied });
  };

  const metered: Partial<Queue> = {
    enqueueCopy(plan: readonly CopySegment[]) {
      queue.enqueueCopy(plan);
      for (const segment of plan) moved[directionOf(segment)] += segment.bytes;
    },
    enqueueHashPages(ranges: readonly MemoryRange[], pageBytes: number, hashesAddress: number) {
      queue.enqueueHashPages(ranges, pageBytes, hashesAddress);
      moved.hashed += sumBytes(ranges);
    },
    hashPages(ranges: readonly MemoryRange[], pageBytes: number) {
      moved.hashed += sumBytes(ranges);
      return queue.hashPages(ranges, pageBytes);
    },
    enqueueCopyChangedPages(options: ConditionalCopyOptions) {
      queue.enqueueCopyChangedPages(options);
      moved.hashed += sumBytes(options.segments); // every page of the hashed side
      recordPages(options, false);
    },
    enqueueCopyPageList(options: PageListCopyOptions) {
      queue.enqueueCopyPageList(options);
      recordPages(options, options.storedHashesAddress !== undefined);
    },
  };
  const proxy = new Proxy(queue, {
    get(target, property) {
      if (Object.hasOwn(metered, property)) return metered[property as keyof Queue];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

  return {
    queue: proxy,
    take() {
      for (const record of pending) countPages(record, moved);
      pending = [];
      const taken = moved;
      moved = emptyMoved();
      return taken;
    },
    dispose() {
      for (const buffer of buffers) if (!buffer.freed) buffer.free();
      buffers.length = 0;
    },
  };
}

/** Adds the bytes of the pages a recording copy moved (and hashed, when it stored their hashes). */
function countPages(record: PendingPages, moved: MovedBytes): void {
  const view = record.buffer.view();
  const words = new Uint32Array(view.buffer, view.byteOffset + record.offset, 1 + record.totalPages);
  const count = Math.min(words[0]!, record.totalPages);
  for (let index = 1; index <= count; index += 1) {
    const page = words[index]!;
    let segment = record.segments[0]!;
    for (const candidate of record.segments) if (candidate.firstPage <= page) segment = candidate;
    const bytes = Math.min(record.pageBytes, segment.bytes - (page - segment.firstPage) * record.pageBytes);
    moved[segment.direction] += bytes;
    if (record.hashesCopied) moved.hashed += bytes;
  }
}

function sumBytes(ranges: readonly { readonly bytes: number }[]): number {
  return ranges.reduce((sum, range) => sum + range.bytes, 0);
}

function emptyMoved(): MovedBytes {
  return { deviceToDevice: 0, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };
}
