import { freemem, totalmem } from 'node:os';
import { Agent } from './agent.js';
import { builtinKernels } from '../kernels/builtin-kernels.js';
import { Checkpoints } from '../memory/checkpoint.js';
import { Profilers } from '../profiler/profiler.js';
import { nativeMessage } from '../errors/native-message.js';
import { OutOfMemoryError } from '../errors/out-of-memory-error.js';
import { packFault } from './fault-spec.js';
import { HostBuffer } from '../memory/host-buffer.js';
import type { AllocationState } from '../memory/memory-registry.js';
import type { NativeAgentDescription } from '../addon/native-binding.js';
import type { RuntimeCore } from './runtime-core.js';
import type { BuiltinKernels, DriverName, FaultSpec, KernelDescriptor, KernelGlobal, LoadKernelOptions, MemoryEvent } from './runtime-types.js';
import type { DeviceAllocation } from '../memory/device-allocation.js';
import { allocateDeviceAt, allocateHostBufferAt, findKernelGlobal } from '../memory/fixed-address-memory.js';
import { loadUserKernel } from '../kernels/user-kernels.js';
import { requireBoolean, requireByteCount, requireFunction, requireObject } from '../errors/validate.js';

const component = 'runtime';

/** An open driver: its agents, built-in kernels, host memory, memory events and fault injection. */
export class Runtime implements AsyncDisposable {
  readonly driver: DriverName;
  readonly agents: readonly Agent[];
  readonly kernels: BuiltinKernels = builtinKernels;
  readonly versions: { readonly addon: string; readonly driver: string };
  /**
   * The driver's checkpoint facility (cuda: the CUPTI Checkpoint API; see {@link Checkpoints}), or
   * undefined on a driver without one (host, hsa).
   */
  readonly checkpoint: Checkpoints | undefined;
  /**
   * The driver's hardware-counter profiler (cuda: CUPTI's range profiler in user replay; see
   * {@link Profilers}), or undefined on a driver without one (host, hsa).
   */
  readonly profiler: Profilers | undefined;
  /**
   * Whether {@link Queue.enqueueCopyPageList} takes a `compact` buffer (host and cuda; the hsa
   * driver's page-list kernel has no compact side).
   */
  readonly compactPageLists: boolean;
  readonly #core: RuntimeCore;
  #disposal: Promise<void> | undefined;

  /** @internal Made by {@link openRuntime}. */
  constructor(core: RuntimeCore, addonVersion: string, driverVersion: string, agents: readonly NativeAgentDescription[]) {
    this.#core = core;
    this.driver = core.driver;
    this.versions = Object.freeze({ addon: addonVersion, driver: driverVersion });
    this.checkpoint = core.checkpoints ? new Checkpoints(core) : undefined;
    this.compactPageLists = core.compactPageLists;
    this.agents = Object.freeze(
      agents.map(
        (agent, id) =>
          new Agent(core, this, Object.freeze({ id, driver: core.driver, ...agent, hostLink: agent.hostLink && Object.freeze({ ...agent.hostLink }) })),
      ),
    );
    this.profiler = core.profiler ? new Profilers(core, this.agents) : undefined;
  }

  /**
   * How many operations that may write memory were issued so far, over every queue and agent of the
   * runtime: queue work (as `queue.workEnqueued` counts it), `agent.write` and checkpoint restores.
   * A caller that notes it can tell later whether anything could have written memory since.
   */
  get workIssued(): number {
    return this.#core.workIssued;
  }

  /**
   * Calls `listener` synchronously, in program order, for every allocate and free of device,
   * stream-ordered and host memory. A listener that throws makes the allocating call throw (after
   * the allocation or free took effect and every listener was called).
   * @returns a function that unsubscribes.
   * @throws {ArgumentError} when listener is not a function.
   * @throws {DisposedError} when the runtime was disposed.
   */
  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void {
    this.#core.assertLive(component, 'Runtime.onMemoryEvent()');
    requireFunction(component, 'listener', listener);
    return this.#core.memory.subscribe(listener);
  }

  /**
   * Allocates a zeroed host buffer usable by every agent's queues: pinned (page-locked when the
   * process may lock memory) or pageable. Emits an `allocate` memory event.
   * @throws {ArgumentError} when bytes is not a positive safe integer or options.pinned is not a boolean.
   * @throws {OutOfMemoryError} when the host cannot provide it.
   * @throws {DisposedError} when the runtime was disposed.
   */
  allocateHost(bytes: number, options: { pinned: boolean }): HostBuffer {
    this.#core.assertLive(component, 'Runtime.allocateHost()');
    const size = requireByteCount('memory', 'bytes', bytes, false);
    const pinned = requireBoolean('memory', 'options.pinned', requireObject('memory', 'options', options)['pinned']);
    // More than the machine has would be granted lazily by an overcommitting kernel, then killed while zeroing.
    const address = size > totalmem() ? 0 : this.#core.native.allocateHost(size, pinned);
    if (address === 0) {
      const availableBytes = freemem();
      throw new OutOfMemoryError({
        packageName: 'native',
        component: 'memory',
        agentId: null,
        bytes: size,
        availableBytes,
        message: nativeMessage(
          'memory',
          `the host could not provide a ${pinned ? 'pinned' : 'pageable'} buffer of ${size} bytes (${availableBytes} bytes free)`,
          'Allocate less, or free host buffers first',
        ),
      });
    }
    const state: AllocationState = { freed: false };
    const buffer = new HostBuffer(this.#core, address, size, pinned, state);
    this.#core.memory.register(buffer, state);
    return buffer;
  }

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
  async allocateAt(agentId: number, address: bigint, bytes: number): Promise<DeviceAllocation> {
    this.#core.assertLive('memory', 'Runtime.allocateAt()');
    return allocateDeviceAt(this.#core, this.agents.length, agentId, address, bytes);
  }

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
  async allocateHostAt(address: bigint, bytes: number): Promise<HostBuffer> {
    this.#core.assertLive('memory', 'Runtime.allocateHostAt()');
    return allocateHostBufferAt(this.#core, address, bytes);
  }

  /**
   * A `__device__` or `__constant__` global variable `name` of the module of a kernel this runtime
   * loaded, on agent `agentId` (cuModuleGetGlobal): its address and size. The first lookup
   * registers it as live device memory of the agent (an `allocate` memory event of kind `device`)
   * so that reads, writes, copies and hashes reach it; it stays live while the runtime is open.
   * @throws {ArgumentError} for a kernel not loaded by this runtime's loadKernel, an invalid agent or name.
   * @throws {DriverError} when the module has no such global.
   * @throws {DisposedError} when the runtime was disposed.
   */
  async kernelGlobal(kernel: KernelDescriptor, agentId: number, name: string): Promise<KernelGlobal> {
    this.#core.assertLive('kernel', 'Runtime.kernelGlobal()');
    return findKernelGlobal(this.#core, this.agents.length, kernel, agentId, name);
  }

  /**
   * Loads a user kernel from a module file or image (cuda: PTX text, a cubin or a fatbin) on every
   * agent, for queue.enqueueKernel(kernel, args, { grid, block }). Pointer parameters declare access
   * and extent like the built-in kernels' (an absent extent means to the end of the pointer's
   * allocation); a `bytes` parameter, the kernel's only one, takes the whole parameter buffer.
   * @throws {ArgumentError} (as a rejection) for invalid options (both or neither of path and image
   * included), a file that cannot be read, or parameters that pass less than the module's cubin
   * metadata or PTX declares for the kernel (fewer parameters, a smaller bytes parameter).
   * @throws {UnsupportedError} (as a rejection) when the driver runs no user kernels (the host driver).
   * @throws {DriverError} (as a rejection) when the module does not load or has no such kernel.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  async loadKernel(options: LoadKernelOptions): Promise<KernelDescriptor> {
    this.#core.assertLive(component, 'Runtime.loadKernel()');
    return loadUserKernel(this.#core, options);
  }

  /**
   * Fails (or delays) matching operations, counted when they execute: the (after+1)-th to
   * (after+count)-th fail with DriverError code `injected-fault` at the next synchronize of their
   * queue, or are delayed by `delayMilliseconds` and then succeed. `allocate` faults make
   * allocate/enqueueAllocate throw OutOfMemoryError (a delay does not apply to them). Page-list
   * copies count as `conditional-copy`; `any` matches every queue operation (copy, hash,
   * conditional-copy, kernel) but not allocations.
   * @throws {ArgumentError} for an invalid fault.
   * @throws {DisposedError} when the runtime was disposed.
   */
  injectFault(fault: FaultSpec): void {
    this.#core.assertLive(component, 'Runtime.injectFault()');
    this.#core.native.injectFault(...packFault(fault, this.agents.length));
  }

  /**
   * Removes every injected fault.
   * @throws {DisposedError} when the runtime was disposed.
   */
  clearFaults(): void {
    this.#core.assertLive(component, 'Runtime.clearFaults()');
    this.#core.native.clearFaults();
  }

  /**
   * Runs the work already enqueued, stops every queue, frees all memory (allocations become
   * `freed`, host views are detached; no free events are emitted) and joins the threads.
   * Idempotent: a second call returns the first call's Promise.
   */
  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    this.#core.disposed = true;
    this.#core.queues.clear();
    this.#core.memory.disposeAll();
    this.#disposal = this.#core.native.dispose();
    return this.#disposal;
  }

  /** Same as {@link dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}
