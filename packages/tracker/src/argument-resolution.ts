import type { KernelArguments, KernelDescriptor, KernelParameter } from '@kreplay/native';
import { accessBits, accessFromBits, mayWrite, type ResolvedAccess } from './access.js';
import { describeValue, formatAddress, trackerArgumentError } from './errors.js';
import { pointerExtentBytes } from './pointer-extent.js';
import type { AllocationRecord, TrackedAllocation } from './tracked-allocation.js';
import { requireAddress } from './validate.js';

/** One allocation a dispatch's pointer arguments reach. */
export interface ReachedAllocation {
  readonly allocation: TrackedAllocation;
  /**
   * The strongest access of the parameters reaching it: an undeclared or `unknown` access counts as
   * readwrite, and read plus write is readwrite. A `read-only` tag does not change it.
   */
  readonly access: ResolvedAccess;
  /** The names of the parameters reaching it, in declaration order. */
  readonly parameters: readonly string[];
  /**
   * The smallest range covering what the parameters reach (each from its pointer, for its declared
   * extent, else to the allocation's end), clipped to the allocation.
   */
  readonly range: { readonly address: number; readonly bytes: number };
}

/** A pointer argument that lies in no tracked allocation of the agent or of the host. */
export interface UnresolvedPointer {
  readonly parameter: string;
  readonly address: number;
  /** The agent whose device memory the pointer lands in (peer access), when it is another agent's. */
  readonly peerAgentId?: number;
}

/**
 * What a dispatch's arguments reach. The resolution is complete when `bounded` is true and
 * `unresolved` is empty; otherwise `reasons` says why, in plain words.
 */
export interface ArgumentResolution {
  /** One entry per reached allocation, by address; `excluded` allocations are left out. */
  readonly reached: readonly ReachedAllocation[];
  /** False when a pointer parameter is `indirect` (points to pointers): what it reaches cannot be bounded. */
  readonly bounded: boolean;
  /** Why not bounded, unresolved pointers, overruns, and declared writes to `read-only` allocations. */
  readonly reasons: readonly string[];
  /** Pointer arguments that are not inside any tracked allocation of this agent or the host. */
  readonly unresolved: readonly UnresolvedPointer[];
}

/** How argument resolution looks allocations up. */
export interface AllocationLookup {
  /** The record holding `address` among the agent's allocations and host buffers. */
  findReachable(agentId: number, address: number): AllocationRecord | undefined;
  /** The record holding `address` anywhere (another agent's memory), to explain a miss. */
  findAnywhere(address: number): AllocationRecord | undefined;
}

interface Reach {
  readonly record: AllocationRecord;
  bits: number;
  start: number;
  end: number;
  readonly parameters: string[];
}

/**
 * Resolves a dispatch's pointer arguments to the allocations they reach on `agentId`.
 * A null pointer (0) or a parameter whose extent is 0 bytes reaches nothing.
 * @throws {ArgumentError} when the kernel or the arguments are malformed: a pointer argument that is
 * missing or not an address, or an extent argument that is missing or not a non-negative integer.
 */
export function resolveKernelArguments(
  lookup: AllocationLookup,
  agentId: number,
  kernel: KernelDescriptor,
  args: KernelArguments,
): ArgumentResolution {
  requireKernel(kernel);
  requireArguments(kernel, args);
  const reaches = new Map<number, Reach>();
  const reasons: string[] = [];
  const unresolved: UnresolvedPointer[] = [];
  let bounded = true;

  for (const parameter of kernel.parameters) {
    if (parameter.type !== 'pointer') continue;
    const label = `argument "${parameter.name}" of kernel ${kernel.name}`;
    const address = requireAddress(
      'resolve-arguments',
      parameter.name,
      pointerArgument(kernel, args, parameter),
      label,
    );
    if (address === 0) continue;
    const extent = pointerExtentBytes(kernel, parameter, args);
    if (extent === 0) continue;
    if (parameter.indirect === true) {
      bounded = false;
      reasons.push(
        `${label} is indirect (the memory at ${formatAddress(address)} holds further pointers), so what the kernel reaches through it cannot be bounded`,
      );
    }
    const record = lookup.findReachable(agentId, address);
    if (record === undefined) {
      const peerAgentId = lookup.findAnywhere(address)?.allocation.agentId;
      unresolved.push(Object.freeze({ parameter: parameter.name, address, ...(typeof peerAgentId === 'number' && { peerAgentId }) }));
      reasons.push(describeMiss(lookup, agentId, label, address));
      continue;
    }
    const { allocation } = record;
    if (record.tags.has('excluded')) continue;
    if (record.tags.has('read-only') && mayWrite(parameter.access)) {
      reasons.push(
        `${label} may write ${describeAllocation(allocation)} (its access is ${parameter.access ?? 'undeclared'}), which is tagged read-only`,
      );
    }
    const allocationEnd = allocation.address + allocation.bytes;
    let end = extent === undefined ? allocationEnd : address + extent;
    if (end > allocationEnd) {
      reasons.push(
        `${label} reaches ${end - allocationEnd} bytes past the end of ${describeAllocation(allocation)}; its range was clipped to the allocation`,
      );
      end = allocationEnd;
    }
    const reach = reaches.get(allocation.id);
    if (reach === undefined) {
      reaches.set(allocation.id, {
        record,
        bits: accessBits(parameter.access),
        start: address,
        end,
        parameters: [parameter.name],
      });
    } else {
      reach.bits |= accessBits(parameter.access);
      reach.start = Math.min(reach.start, address);
      reach.end = Math.max(reach.end, end);
      if (!reach.parameters.includes(parameter.name)) reach.parameters.push(parameter.name);
    }
  }

  const reached = Array.from(reaches.values(), toReachedAllocation);
  reached.sort((a, b) => a.allocation.address - b.allocation.address);
  return Object.freeze({
    reached: Object.freeze(reached),
    bounded,
    reasons: Object.freeze(reasons),
    unresolved: Object.freeze(unresolved),
  });
}

function toReachedAllocation(reach: Reach): ReachedAllocation {
  return Object.freeze({
    allocation: reach.record.allocation,
    access: accessFromBits(reach.bits),
    parameters: Object.freeze(reach.parameters),
    range: Object.freeze({ address: reach.start, bytes: reach.end - reach.start }),
  });
}

function describeAllocation(allocation: TrackedAllocation): string {
  return `allocation #${allocation.id} (${allocation.kind}, ${formatAddress(allocation.address)}, ${allocation.bytes} bytes)`;
}

function describeMiss(
  lookup: AllocationLookup,
  agentId: number,
  label: string,
  address: number,
): string {
  const elsewhere = lookup.findAnywhere(address);
  const where =
    elsewhere === undefined
      ? 'which is not inside any tracked allocation'
      : `which is inside ${describeAllocation(elsewhere.allocation)} of agent ${elsewhere.allocation.agentId} (peer memory)`;
  return `${label} points to ${formatAddress(address)}, ${where}; only agent ${agentId}'s allocations and host buffers resolve`;
}

function pointerArgument(
  kernel: KernelDescriptor,
  args: KernelArguments,
  parameter: KernelParameter,
): number | bigint {
  const value = Object.hasOwn(args, parameter.name) ? args[parameter.name] : undefined;
  if (value === undefined) {
    throw trackerArgumentError(
      'resolve-arguments',
      parameter.name,
      `pointer argument "${parameter.name}" of kernel ${kernel.name} is missing`,
      `Pass every argument the kernel declares, including "${parameter.name}" (0 for a null pointer)`,
    );
  }
  if (value instanceof Uint8Array) {
    throw trackerArgumentError('resolve-arguments', parameter.name, `pointer argument "${parameter.name}" of kernel ${kernel.name} is a Uint8Array`, 'Pass the address as a number or bigint');
  }
  return value;
}

function requireKernel(kernel: KernelDescriptor): void {
  if (
    typeof kernel !== 'object' ||
    kernel === null ||
    typeof kernel.name !== 'string' ||
    !Array.isArray(kernel.parameters)
  ) {
    throw trackerArgumentError(
      'resolve-arguments',
      'kernel',
      `kernel is ${describeValue(kernel)}, not a kernel descriptor`,
      'Pass a KernelDescriptor such as runtime.kernels.triad ({ name, parameters, deterministic })',
    );
  }
}

function requireArguments(kernel: KernelDescriptor, args: KernelArguments): void {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw trackerArgumentError(
      'resolve-arguments',
      'args',
      `the arguments of kernel ${kernel.name} are ${describeValue(args)}, not an object`,
      'Pass the launch arguments by parameter name, e.g. { a: buffer.address, count: 1024 }',
    );
  }
}
