/**
 * Memory at chosen addresses (runtime.allocateAt, runtime.allocateHostAt) and the globals of a
 * loaded kernel's module (runtime.kernelGlobal): what a capture replayed at its own addresses needs.
 * @internal
 */
import { DeviceAllocation } from './device-allocation.js';
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { HostBuffer } from './host-buffer.js';
import type { AllocationState } from './memory-registry.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { KernelGlobal } from '../runtime/runtime-types.js';
import { requireUserKernel } from '../kernels/user-kernels.js';
import { argumentError, describeValue, formatAddress, requireByteCount, requireInteger } from '../errors/validate.js';

const component = 'memory';

/**
 * An exact address: a bigint (or a safe-integer number) above 0 that a number holds exactly.
 * @throws {ArgumentError} for anything else.
 */
export function requireExactAddress(component: string, argument: string, value: unknown): number {
  const address = typeof value === 'bigint' && value > 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (typeof address === 'number' && Number.isSafeInteger(address) && address > 0) return address;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not an address above 0 and below 2^53`, 'Pass the address as a bigint, e.g. 0x7f0000000000n');
}

function rangeText(address: number, bytes: number): string {
  return `[${formatAddress(address)}, ${formatAddress(address + bytes)})`;
}

function requireFixedAddresses(core: RuntimeCore, call: string): void {
  if (core.fixedAddresses) return;
  throw new UnsupportedError({
    packageName: 'native',
    component,
    driver: core.driver,
    feature: 'memory at chosen addresses',
    message: nativeMessage(component, `the ${core.driver} driver cannot place memory at a chosen address (${call})`, "Open the cuda driver (openRuntime({ driver: 'cuda' }))"),
  });
}

/** Refuses a range that meets live memory of this runtime: it could not be mapped there. */
function requireFree(core: RuntimeCore, argument: string, address: number, bytes: number): void {
  const holder = core.memory.overlapping(address, bytes);
  if (holder === undefined) return;
  throw argumentError(
    component,
    argument,
    `${rangeText(address, bytes)} overlaps the live ${holder.kind} allocation ${rangeText(holder.address, holder.bytes)}`,
    'Free that allocation first, or choose a range that does not overlap it',
  );
}

function placementFailure(core: RuntimeCore, agentId: number | null, address: number, bytes: number, failure: { code: string; message: string }): DriverError {
  return new DriverError({
    packageName: 'native',
    component,
    driver: core.driver,
    agentId,
    operation: agentId === null ? 'allocate-host-at' : 'allocate-at',
    code: failure.code,
    message: nativeMessage(
      component,
      `${agentId === null ? 'host' : `agent ${agentId}'s device`} memory could not be placed at exactly ${rangeText(address, bytes)}: ${failure.message}`,
      failure.code === 'address-taken'
        ? 'Reserve the range when opening the runtime (openRuntime reserveAddresses), in a fresh process that has not loaded the driver yet'
        : 'Check the range, and that the device has the memory',
    ),
  });
}

/** Runtime.allocateAt: device memory of `agentId` at exactly `address`. */
export async function allocateDeviceAt(core: RuntimeCore, agentCount: number, agentId: unknown, address: unknown, bytes: unknown): Promise<DeviceAllocation> {
  const agent = requireInteger(component, 'agentId', agentId, 0, agentCount - 1);
  const start = requireExactAddress(component, 'address', address);
  const size = requireByteCount(component, 'bytes', bytes, false);
  requireFixedAddresses(core, 'Runtime.allocateAt()');
  requireFree(core, 'address', start, size);
  const failure = await core.native.allocateAt(agent, start, size);
  if (failure !== null) throw placementFailure(core, agent, start, size, failure);
  core.assertLive(component, 'Runtime.allocateAt()');
  const state: AllocationState = { freed: false };
  const allocation = new DeviceAllocation(core, agent, start, size, state);
  core.memory.register(allocation, state);
  return allocation;
}

/** Runtime.allocateHostAt: pinned host memory at exactly `address`, reached by every agent there. */
export async function allocateHostBufferAt(core: RuntimeCore, address: unknown, bytes: unknown): Promise<HostBuffer> {
  const start = requireExactAddress(component, 'address', address);
  const size = requireByteCount(component, 'bytes', bytes, false);
  requireFixedAddresses(core, 'Runtime.allocateHostAt()');
  requireFree(core, 'address', start, size);
  const failure = await core.native.allocateHostAt(start, size);
  if (failure !== null) throw placementFailure(core, null, start, size, failure);
  core.assertLive(component, 'Runtime.allocateHostAt()');
  const state: AllocationState = { freed: false };
  const buffer = new HostBuffer(core, start, size, true, state);
  core.memory.register(buffer, state);
  return buffer;
}

/** The globals already found, per runtime: `${kernel id}/${agent}/${name}`. */
const foundGlobals = new WeakMap<RuntimeCore, Map<string, KernelGlobal>>();

/**
 * Runtime.kernelGlobal: a global of the kernel's module on `agentId`. The first lookup registers
 * it as live device memory of the agent (an `allocate` event of kind `device`), so that reads,
 * writes, copies and hashes reach it; it stays live until the runtime is disposed.
 */
export function findKernelGlobal(core: RuntimeCore, agentCount: number, kernel: unknown, agentId: unknown, name: unknown): KernelGlobal {
  const user = requireUserKernel(core, kernel);
  const agent = requireInteger('kernel', 'agentId', agentId, 0, agentCount - 1);
  if (typeof name !== 'string' || name.length === 0) {
    throw argumentError('kernel', 'name', `name is ${describeValue(name)}, not a non-empty string`, 'Pass the name of a __device__ or __constant__ variable of the module');
  }
  let globals = foundGlobals.get(core);
  if (globals === undefined) foundGlobals.set(core, (globals = new Map()));
  const key = `${user.id}/${agent}/${name}`;
  const known = globals.get(key);
  if (known !== undefined) return known;
  const found = core.native.kernelGlobal(user.id, agent, name);
  if ('code' in found) {
    throw new DriverError({
      packageName: 'native',
      component: 'kernel',
      driver: core.driver,
      agentId: agent,
      operation: 'kernel-global',
      code: found.code,
      message: nativeMessage('kernel', `the global ${name} of kernel ${(kernel as { name: string }).name} could not be found: ${found.message}`, 'Check the name: an extern "C" variable keeps its source name, others their mangled name'),
    });
  }
  const global: KernelGlobal = Object.freeze({ address: BigInt(found.address), bytes: found.bytes });
  globals.set(key, global);
  if (found.bytes > 0 && core.memory.overlapping(found.address, found.bytes) === undefined) {
    const state: AllocationState = { freed: false };
    core.memory.register(new DeviceAllocation(core, agent, found.address, found.bytes, state), state);
  }
  return global;
}
