import type { DeviceAllocation } from './device-allocation.js';
import type { HostBuffer } from './host-buffer.js';
import type { KernelDescriptor, KernelGlobal, MemoryEvent } from '../runtime/runtime-types.js';

/**
 * What a runtime does with memory beside its agents' own: host buffers, memory at chosen addresses,
 * the globals of loaded kernels, and the events of every allocate and free.
 */
export interface RuntimeMemory {
  /**
   * Calls `listener` synchronously, in program order, for every allocate and free of device,
   * stream-ordered and host memory. A listener that throws makes the allocating call throw (after
   * the allocation or free took effect and every listener was called).
   * @returns a function that unsubscribes.
   * @throws {ArgumentError} when listener is not a function.
   * @throws {DisposedError} when the runtime was disposed.
   */
  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void;

  /**
   * Allocates a zeroed host buffer usable by every agent's queues: pinned (page-locked when the
   * process may lock memory) or pageable. Emits an `allocate` memory event.
   * @throws {ArgumentError} when bytes is not a positive safe integer or options.pinned is not a boolean.
   * @throws {OutOfMemoryError} when the host cannot provide it.
   * @throws {DisposedError} when the runtime was disposed.
   */
  allocateHost(bytes: number, options: { pinned: boolean }): HostBuffer;

  /**
   * Device memory of agent `agentId` at exactly `address` (cuda: the placeholder of
   * `reserveAddresses` released, the range's 32 MiB window reserved with cuMemAddressReserve (CUDA
   * honours only hints aligned so; see API.md), memory made with cuMemCreate, mapped at exactly the
   * address and made read-write). The mapping is widened to whole granules of
   * the device's allocation granularity (2 MiB on current GPUs); ranges that share a granule share
   * its mapping. The allocation is live memory like any other: `kind: 'device'`, an `allocate`
   * memory event, reachable by reads, writes, copies, hashes and kernels; `free()` (or `using`)
   * unmaps it (a placeholder is put back, so the same range can be allocated again). Its contents
   * start undefined.
   * @throws {ArgumentError} (as a rejection) for an invalid agent, address (a bigint above 0, below
   * 2^53) or size, or a range that overlaps live memory of this runtime.
   * @throws {UnsupportedError} (as a rejection) on a driver other than cuda.
   * @throws {DriverError} (as a rejection) when the memory cannot be had at exactly that address; the
   * message names the range (code `address-taken`: something else holds it).
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  allocateAt(agentId: number, address: bigint, bytes: number): Promise<DeviceAllocation>;

  /**
   * Host memory at exactly `address` (whole pages mapped there, over the placeholder of
   * `reserveAddresses` when there is one), pinned and registered with every device
   * (cuMemHostRegister, portable and mapped) so that kernels reach it at the same address. A
   * `host-pinned` {@link HostBuffer}, zeroed; `free()` unmaps it.
   * @throws {ArgumentError} (as a rejection) for an invalid address or size, or a range that overlaps live memory.
   * @throws {UnsupportedError} (as a rejection) on a driver other than cuda.
   * @throws {DriverError} (as a rejection) when the range is taken, or the device reaches it at another address.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  allocateHostAt(address: bigint, bytes: number): Promise<HostBuffer>;

  /**
   * A `__device__` or `__constant__` global variable `name` of the module of a kernel this runtime
   * loaded, on agent `agentId` (cuModuleGetGlobal): its address and size. The first lookup
   * registers it as live device memory of the agent (an `allocate` memory event of kind `device`)
   * so that reads, writes, copies and hashes reach it; it stays live while the runtime is open.
   * @throws {ArgumentError} for a kernel not loaded by this runtime's loadKernel, an invalid agent or name.
   * @throws {DriverError} when the module has no such global.
   * @throws {DisposedError} when the runtime was disposed.
   */
  kernelGlobal(kernel: KernelDescriptor, agentId: number, name: string): Promise<KernelGlobal>;
}
