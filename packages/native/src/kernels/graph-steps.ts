/**
 * Validation of a kernel graph's steps and their packing for the addon (NativeGraphStep): kernel
 * launches as Queue.enqueueKernel checks them, memsets and copies inside live memory the agent reaches.
 * @internal
 */
import { packKernelLaunch } from './kernel-launch.js';
import type { NativeGraphStep } from '../addon/native-binding.js';
import { packSegments, type RangeScope } from '../queue/packed-ranges.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { GraphStep } from '../runtime/runtime-types.js';
import { argumentError, describeValue, liveRangeHolder, requireArray, requireByteCount, requireLiveRange, requireObject } from '../errors/validate.js';

const kinds = ['kernel', 'memset', 'copy'];

/**
 * The steps packed, and a frozen copy of them (later changes to the caller's objects do not reach the graph).
 * @throws {ArgumentError} for a list that is not a non-empty array, a step of an unknown kind, a
 * kernel launch Queue.enqueueKernel would refuse, a memset value outside 0-255, or a range outside
 * live memory the agent reaches.
 * @throws {UnsupportedError} for a kernel the driver does not run.
 */
export function packGraphSteps(scope: RangeScope, core: Pick<RuntimeCore, 'driver' | 'userKernels'>, steps: unknown): { readonly packed: NativeGraphStep[]; readonly steps: readonly GraphStep[] } {
  const { component } = scope;
  const list = requireArray(component, 'steps', steps);
  if (list.length === 0) throw argumentError(component, 'steps', 'a graph needs at least one step', 'Pass steps: [{ kind: "kernel", kernel, args }, ...]');
  const packed: NativeGraphStep[] = [];
  const copies: GraphStep[] = [];
  list.forEach((item, index) => {
    const argument = `steps[${index}]`;
    const step = requireObject(component, argument, item);
    const kind = step['kind'];
    if (kind === 'kernel') {
      const launch = packKernelLaunch(scope, core, step['kernel'], step['args'], step['launch']);
      packed.push(launch.kind === 'user' ? { kind: 1, kernel: launch.kernel, args: launch.args, shape: launch.shape, ...(launch.buffer && { buffer: launch.buffer }) } : { kind: 0, kernel: launch.kernel, args: launch.args });
      const args = Object.freeze({ ...(step['args'] as object) });
      const copy = { kind, kernel: step['kernel'], args, ...(step['launch'] !== undefined && { launch: step['launch'] }) };
      copies.push(Object.freeze(copy) as GraphStep);
    } else if (kind === 'memset') {
      const { address, bytes, value } = step;
      requireByteCount(component, `${argument}.bytes`, bytes, true);
      if (liveRangeHolder(scope.memory, scope.agentId, address, bytes) === undefined) requireLiveRange(component, `${argument}.address`, scope.memory, scope.agentId, address, bytes);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) {
        throw argumentError(component, `${argument}.value`, `${argument}.value is ${describeValue(value)}, not a byte`, 'Pass a whole number from 0 to 255');
      }
      refusePageable(scope, core, `${argument}.address`, address as number, bytes as number);
      packed.push({ kind: 2, address: address as number, bytes: bytes as number, value });
      copies.push(Object.freeze({ kind, address: address as number, bytes: bytes as number, value }));
    } else if (kind === 'copy') {
      const segment = packSegments(scope, argument, [step]);
      refusePageable(scope, core, `${argument}.source`, segment[0]!, segment[2]!);
      refusePageable(scope, core, `${argument}.destination`, segment[1]!, segment[2]!);
      packed.push({ kind: 3, source: segment[0]!, destination: segment[1]!, bytes: segment[2]! });
      copies.push(Object.freeze({ kind, source: segment[0]!, destination: segment[1]!, bytes: segment[2]! }));
    } else {
      throw argumentError(component, `${argument}.kind`, `${argument}.kind is ${describeValue(kind)}, not one of ${kinds.join(', ')}`, 'Give each step a kind: "kernel", "memset" or "copy"');
    }
  });
  return { packed, steps: Object.freeze(copies) };
}

/** @throws {ArgumentError} for a range in pageable host memory on a GPU driver (a graph's nodes run on the device). */
function refusePageable(scope: RangeScope, core: Pick<RuntimeCore, 'driver'>, argument: string, address: number, bytes: number): void {
  if (core.driver === 'host' || bytes === 0) return;
  if (liveRangeHolder(scope.memory, scope.agentId, address, bytes)?.kind !== 'host-pageable') return;
  throw argumentError(scope.component, argument, `${argument} is in a pageable host buffer, which a graph's nodes cannot reach`, 'Use device memory or a pinned host buffer (allocateHost with pinned: true)');
}
