import type { StreamOrderedAllocation } from '../memory/stream-ordered-allocation.js';
import type {
  ConditionalCopyOptions,
  CopySegment,
  KernelArguments,
  KernelDescriptor,
  KernelLaunch,
  MemoryRange,
  PageListCopyOptions,
} from '../runtime/runtime-types.js';

/**
 * The work a queue takes: copies, page hashes, conditional and page-list copies, kernels and
 * stream-ordered memory. Every `enqueue*` validates its arguments, then returns at once; the work
 * runs in order.
 */
export interface QueueWork {
  /**
   * Copies every segment, in one native call. Segments of one plan run concurrently: a segment's
   * destination must not overlap another segment of the plan. A deeply frozen plan (as the options
   * of the conditional and page-list copies) is checked once and used again while nothing was freed.
   * @throws {ArgumentError} when the plan is not an array of segments or a range is outside live memory this agent reaches.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopy(plan: readonly CopySegment[]): void;

  /**
   * Hashes the pages of `ranges` (see API.md "Page hash"; pages numbered per range in order, each
   * contributing ceil(bytes / pageBytes)) and writes one uint64 per page at `hashesAddress`.
   * @throws {ArgumentError} for bad ranges or page size, or a hashes array outside live memory or too small.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueHashPages(ranges: readonly MemoryRange[], pageBytes: number, hashesAddress: number): void;

  /**
   * Copies the pages whose hash differs from the stored one (see {@link ConditionalCopyOptions}).
   * Counts as a `conditional-copy` operation for fault injection.
   * @throws {ArgumentError} for bad options or arrays outside live memory.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopyChangedPages(options: ConditionalCopyOptions): void;

  /**
   * Copies again the pages a conditional copy recorded (and, with `storedHashesAddress`, stores each
   * copied page's hash, so a mirror's hashes follow a copy into it). Counts as a `conditional-copy` operation for
   * fault injection; a count or index out of range fails it with code `invalid-page-list`. With
   * `compact`, the first listed pages go to or come from a buffer in list order (see {@link PageListCopyOptions.compact}).
   * @throws {ArgumentError} for bad options or arrays outside live memory.
   * @throws {UnsupportedError} for `compact` on a driver without it (`runtime.compactPageLists`).
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueCopyPageList(options: PageListCopyOptions): void;

  /**
   * Launches a kernel with arguments by parameter name: a built-in kernel (runtime.kernels, which
   * chooses its own grid), or a user kernel from runtime.loadKernel with its `launch` shape.
   * @throws {UnsupportedError} when the kernel is not one this driver runs (the host driver runs the built-in ones).
   * @throws {ArgumentError} for a kernel of another runtime, a missing or unexpected launch shape,
   * missing, unknown or mistyped arguments, or pointers whose extent is outside live memory.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueKernel(kernel: KernelDescriptor, args: KernelArguments, launch?: KernelLaunch): void;

  /**
   * Allocates device memory ordered on this queue: the address is reserved now, so later work (of
   * any queue of the agent) may use it. Emits an `allocate` memory event with this queue's id.
   * @throws {ArgumentError} when bytes is not a positive safe integer.
   * @throws {OutOfMemoryError} when it does not fit, or an `allocate` fault is injected.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueAllocate(bytes: number): StreamOrderedAllocation;

  /**
   * Frees a stream-ordered allocation of this agent when the queue reaches this point. It counts as
   * freed at once (later calls may not use it) and emits a `free` memory event with this queue's id.
   * @throws {ArgumentError} when it is not a live stream-ordered allocation of this agent.
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  enqueueFree(allocation: StreamOrderedAllocation): void;

  /**
   * Enqueues a hash of the pages of `ranges` into host memory, waits, and returns the hashes.
   * @throws {ArgumentError} for bad ranges or page size.
   * @throws {DriverError} (as a rejection) when this or earlier work failed (see the queue's `synchronize`).
   * @throws {DisposedError} when the queue or runtime was disposed.
   */
  hashPages(ranges: readonly MemoryRange[], pageBytes: number): Promise<BigUint64Array>;
}
