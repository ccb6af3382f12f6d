import { freemem, totalmem } from 'node:os';
import { AgentHandle } from './agent.js';
import { builtinKernels } from '../kernels/builtin-kernels.js';
import { CheckpointsHandle } from '../memory/checkpoint.js';
import { ProfilersHandle } from '../profiler/profiler.js';
import { nativeMessage } from '../errors/native-message.js';
import { OutOfMemoryError } from '../errors/out-of-memory-error.js';
import { packFault } from './fault-spec.js';
import { HostBuffer } from '../memory/host-buffer.js';
import type { AllocationState } from '../memory/memory-registry.js';
import type { NativeAgentDescription } from '../addon/native-binding.js';
import type { RuntimeCore } from './runtime-core.js';
import type { Agent, Checkpoints, Profilers, Runtime } from './runtime-objects.js';
import type { BuiltinKernels, DriverName, FaultSpec, KernelDescriptor, KernelGlobal, LoadKernelOptions, MemoryEvent } from './runtime-types.js';
import type { DeviceAllocation } from '../memory/device-allocation.js';
import { allocateDeviceAt, allocateHostBufferAt, findKernelGlobal } from '../memory/fixed-address-memory.js';
import { loadedKernelRegisters, loadUserKernel } from '../kernels/user-kernels.js';
import { requireBoolean, requireByteCount, requireFunction, requireObject } from '../errors/validate.js';

const component = 'runtime';

/** The {@link Runtime} of an open driver (runtime-objects.ts and memory/runtime-memory.ts describe each member). @internal */
export class RuntimeHandle implements Runtime {
  readonly driver: DriverName;
  readonly agents: readonly Agent[];
  readonly kernels: BuiltinKernels = builtinKernels;
  readonly versions: { readonly addon: string; readonly driver: string };
  readonly checkpoint: Checkpoints | undefined;
  readonly profiler: Profilers | undefined;
  readonly compactPageLists: boolean;
  readonly #core: RuntimeCore;
  #disposal: Promise<void> | undefined;

  /** @internal Made by {@link openRuntime}. */
  constructor(core: RuntimeCore, addonVersion: string, driverVersion: string, agents: readonly NativeAgentDescription[]) {
    this.#core = core;
    this.driver = core.driver;
    this.versions = Object.freeze({ addon: addonVersion, driver: driverVersion });
    this.checkpoint = core.checkpoints ? new CheckpointsHandle(core) : undefined;
    this.compactPageLists = core.compactPageLists;
    this.agents = Object.freeze(
      agents.map(
        (agent, id) =>
          new AgentHandle(core, this, Object.freeze({ id, driver: core.driver, ...agent, hostLink: agent.hostLink && Object.freeze({ ...agent.hostLink }) })),
      ),
    );
    this.profiler = core.profiler ? new ProfilersHandle(core, this.agents) : undefined;
  }

  get workIssued(): number {
    return this.#core.workIssued;
  }

  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void {
    this.#core.assertLive(component, 'Runtime.onMemoryEvent()');
    requireFunction(component, 'listener', listener);
    return this.#core.memory.subscribe(listener);
  }

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

  async allocateAt(agentId: number, address: bigint, bytes: number): Promise<DeviceAllocation> {
    this.#core.assertLive('memory', 'Runtime.allocateAt()');
    return allocateDeviceAt(this.#core, this.agents.length, agentId, address, bytes);
  }

  async allocateHostAt(address: bigint, bytes: number): Promise<HostBuffer> {
    this.#core.assertLive('memory', 'Runtime.allocateHostAt()');
    return allocateHostBufferAt(this.#core, address, bytes);
  }

  async kernelGlobal(kernel: KernelDescriptor, agentId: number, name: string): Promise<KernelGlobal> {
    this.#core.assertLive('kernel', 'Runtime.kernelGlobal()');
    return findKernelGlobal(this.#core, this.agents.length, kernel, agentId, name);
  }

  kernelRegisters(kernel: KernelDescriptor, agentId: number): number | null {
    this.#core.assertLive(component, 'Runtime.kernelRegisters()');
    return loadedKernelRegisters(this.#core, this.agents.length, kernel, agentId);
  }

  async loadKernel(options: LoadKernelOptions): Promise<KernelDescriptor> {
    this.#core.assertLive(component, 'Runtime.loadKernel()');
    return loadUserKernel(this.#core, options);
  }

  injectFault(fault: FaultSpec): void {
    this.#core.assertLive(component, 'Runtime.injectFault()');
    this.#core.native.injectFault(...packFault(fault, this.agents.length));
  }

  clearFaults(): void {
    this.#core.assertLive(component, 'Runtime.clearFaults()');
    this.#core.native.clearFaults();
  }

  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    this.#core.disposed = true;
    this.#core.queues.clear();
    this.#core.memory.disposeAll();
    this.#disposal = this.#core.native.dispose();
    return this.#disposal;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}
