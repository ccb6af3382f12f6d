import { DisposedError } from '../errors/disposed-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { MemoryRegistry } from '../memory/memory-registry.js';
import type { NativeEvent, NativeQueue, NativeRuntime } from '../addon/native-binding.js';
import type { DriverName } from './runtime-types.js';

/**
 * What the objects of one runtime share: the addon's runtime, the driver name, live memory, and
 * whether the runtime was disposed.
 * @internal
 */
export class RuntimeCore {
  readonly native: NativeRuntime;
  readonly driver: DriverName;
  readonly memory: MemoryRegistry;
  /** Whether the driver runs user kernels (runtime.loadKernel). */
  readonly userKernels: boolean;
  /** Whether the driver has a checkpoint facility (runtime.checkpoint). */
  readonly checkpoints: boolean;
  /** Whether the driver has a counter profiler (runtime.profiler). */
  readonly profiler: boolean;
  /** Whether the driver's page-list copies take a compact buffer (PageListCopyOptions.compact). */
  get compactPageLists(): boolean {
    return this.driver !== 'hsa';
  }
  /** Whether the driver runs kernel graphs (agent.createGraph). */
  graphs = false;
  /** Whether the driver places memory at chosen addresses (runtime.allocateAt, allocateHostAt, kernelGlobal). */
  fixedAddresses = false;
  /** Live (not disposed) queues, each with its agent id. */
  readonly queues = new Map<{ synchronize(): Promise<void> }, number>();
  /** The addon's queue behind each queue of this runtime, for the calls that take a queue (checkpoints, profilers). */
  readonly nativeQueues = new WeakMap<object, NativeQueue>();
  /** The addon's event behind each event of this runtime, for queue.waitForEvent. */
  readonly nativeEvents = new WeakMap<object, NativeEvent>();
  disposed = false;
  /** Operations that may have written memory, counted over the whole runtime (see Runtime.workIssued). */
  workIssued = 0;
  /** How long a synchronize keeps the JavaScript thread polling before it may sleep (OpenRuntimeOptions.waitSpinMicroseconds). */
  waitSpinMicroseconds = 0;
  #nextQueueId = 0;

  constructor(native: NativeRuntime, driver: DriverName, agentCount: number, userKernels = false, checkpoints = false, profiler = false) {
    this.native = native;
    this.driver = driver;
    this.userKernels = userKernels;
    this.checkpoints = checkpoints;
    this.profiler = profiler;
    this.memory = new MemoryRegistry(agentCount);
  }

  /** A queue id unique within the runtime. */
  nextQueueId(): number {
    const id = this.#nextQueueId;
    this.#nextQueueId += 1;
    return id;
  }

  /** @throws {DisposedError} when the runtime was disposed. */
  assertLive(component: string, call: string): void {
    if (this.disposed) throw runtimeDisposedError(component, call);
  }
}

/** The error of a call made after the runtime was disposed. @internal */
export function runtimeDisposedError(component: string, call: string): DisposedError {
  return new DisposedError({
    packageName: 'native',
    component,
    objectName: 'Runtime',
    message: nativeMessage(component, `${call} was called after its runtime was disposed`, 'Open a new runtime with openRuntime()'),
  });
}
