import type { KernelArguments, KernelDescriptor, KernelParameter } from '@kreplay/native';
import { accessBits, accessFromBits, mayWrite, type ResolvedAccess } from './access.js';
import { describeValue, formatAddress, trackerArgumentError } from './errors.js';
import { addressWords, bytesArgument } from './parameter-buffer-words.js';
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
  /**
   * The names of the parameters reaching it, in declaration order. A word of a `bytes` parameter is
   * named `<parameter>+<byte offset>`, e.g. `parameters+16`.
   */
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
  /**
   * False when a pointer or `bytes` parameter is `indirect` (the memory it reaches holds further
   * pointers): what it reaches cannot be bounded.
   */
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
 * A null pointer (0) or a parameter whose extent is 0 bytes reaches nothing. The argument of a
 * `bytes` parameter (a raw parameter buffer) is scanned for 8-byte-aligned words: each one inside a
 * tracked allocation is a pointer of unknown access reaching to the allocation's end; a word inside
 * none is a scalar.
 * @throws {ArgumentError} when the kernel or the arguments are malformed: a pointer argument that is
 * missing or not an address, an extent argument that is missing or not a non-negative integer, or a
 * `bytes` argument that is missing, not a Uint8Array or not of the declared size.
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

  const reach = (record: AllocationRecord, bits: number, start: number, end: number, name: string) => {
    const existing = reaches.get(record.allocation.id);
    if (existing === undefined) {
      reaches.set(record.allocation.id, { record, bits, start, end, parameters: [name] });
      return;
    }
    existing.bits |= bits;
    existing.start = Math.min(existing.start, start);
    existing.end = Math.max(existing.end, end);
    if (!existing.parameters.includes(name)) existing.parameters.push(name);
  };
  const flagReadOnly = (record: AllocationRecord, label: string, access: KernelParameter['access']) => {
    if (record.tags.has('read-only') && mayWrite(access)) {
      reasons.push(
        `${label} may write ${describeAllocation(record.allocation)} (its access is ${access ?? 'undeclared'}), which is tagged read-only`,
      );
    }
  };

  for (const parameter of kernel.parameters) {
    if (parameter.type === 'bytes') {
      const label = `argument "${parameter.name}" of kernel ${kernel.name}`;
      const buffer = bytesArgument(kernel, args, parameter);
      if (parameter.indirect === true) {
        bounded = false;
        reasons.push(
          `${label} is an indirect parameter buffer (the memory its words point to may hold further pointers), so what the kernel reaches through it cannot be bounded`,
        );
      }
      // Each word landing inside a tracked allocation is a pointer of unknown access to its end;
      // a word landing nowhere is a scalar (a size, a float pair, a flag), not an unresolved pointer.
      for (const { offset, address } of addressWords(buffer)) {
        const record = lookup.findReachable(agentId, address);
        if (record === undefined || record.tags.has('excluded')) continue;
        const slot = `${parameter.name}+${offset}`;
        flagReadOnly(record, `the word at byte ${offset} of ${label} (${formatAddress(address)})`, 'unknown');
        reach(record, accessBits('unknown'), address, record.allocation.address + record.allocation.bytes, slot);
      }
      continue;
    }
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
    flagReadOnly(record, label, parameter.access);
    const allocationEnd = allocation.address + allocation.bytes;
    let end = extent === undefined ? allocationEnd : address + extent;
    if (end > allocationEnd) {
      reasons.push(
        `${label} reaches ${end - allocationEnd} bytes past the end of ${describeAllocation(allocation)}; its range was clipped to the allocation`,
      );
      end = allocationEnd;
    }
    reach(record, accessBits(parameter.access), address, end, parameter.name);
  }

  const reached = Array.from(reaches.values(), (reach) => frozenReached({ ...reach, allocation: reach.record.allocation }));
  return frozenResolution(reached, bounded, reasons, unresolved);
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
): number | bigint | Uint8Array {
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

/** What is known of one reached allocation while a resolution is built: the access bits, the range and the parameters. */
export interface ReachedParts {
  readonly allocation: TrackedAllocation;
  readonly bits: number;
  readonly start: number;
  readonly end: number;
  readonly parameters: readonly string[];
}

/**
 * A reached allocation, frozen: reached over [start, end) with the access of `bits`, by `parameters`.
 * @internal
 */
export function frozenReached({ allocation, bits, start, end, parameters }: ReachedParts): ReachedAllocation {
  return Object.freeze({
    allocation,
    access: accessFromBits(bits),
    parameters: Object.freeze([...parameters]),
    range: Object.freeze({ address: start, bytes: end - start }),
  });
}

/**
 * A resolution, frozen like every one the tracker hands out: its reached allocations sorted by address.
 * @internal
 */
export function frozenResolution(reached: ReachedAllocation[], bounded: boolean, reasons: string[], unresolved: UnresolvedPointer[]): ArgumentResolution {
  reached.sort((a, b) => a.allocation.address - b.allocation.address);
  return Object.freeze({
    reached: Object.freeze(reached),
    bounded,
    reasons: Object.freeze(reasons),
    unresolved: Object.freeze(unresolved),
  });
}
