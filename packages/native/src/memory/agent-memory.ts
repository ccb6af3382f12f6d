import type { Allocation } from './allocation.js';
import type { DeviceAllocation } from './device-allocation.js';
import type { MemoryInfo } from '../runtime/runtime-types.js';

/** What an agent does with its memory: allocations, free memory, reads, writes and lookups. */
export interface AgentMemory {
  /**
   * Allocates device memory (4096-byte aligned) and emits an `allocate` memory event.
   * @throws {ArgumentError} when bytes is not a positive safe integer.
   * @throws {OutOfMemoryError} when it does not fit, or an `allocate` fault is injected.
   * @throws {DisposedError} when the runtime was disposed.
   */
  allocate(bytes: number): DeviceAllocation;

  /**
   * Free and total device memory of this agent, in bytes.
   * @throws {DisposedError} when the runtime was disposed.
   */
  memoryInfo(): MemoryInfo;

  /**
   * Copies `bytes` at `address` (device memory of this agent or a host buffer) to a new array, after
   * the work already enqueued on this agent's queues has run. For tests and tools.
   * @throws {ArgumentError} (as a rejection) when the range is not inside live memory this agent
   * reaches, or is larger than a typed array can be.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed, also while the read waited.
   */
  read(address: number, bytes: number): Promise<Uint8Array>;

  /**
   * Copies `data` to `address` (device memory of this agent or a host buffer), after the work
   * already enqueued on this agent's queues has run. `data` is copied when called. Await it before
   * enqueuing work that reads the range. For tests and tools.
   * @throws {ArgumentError} (as a rejection) when data is not a Uint8Array or the range is not inside live memory this agent reaches.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed, also while the write waited.
   */
  write(address: number, data: Uint8Array): Promise<void>;

  /**
   * The live allocation holding `address` (any interior address) that this agent reaches: its
   * device or stream-ordered memory, or a host buffer.
   * @throws {ArgumentError} when address is not a number.
   * @throws {DisposedError} when the runtime was disposed.
   */
  findAllocation(address: number): Allocation | undefined;
}
