import type { KernelArguments, KernelDescriptor } from '@kreplay/native';
import type { ArgumentResolution } from './argument-resolution.js';

/** The last resolution of one kernel, with what it was made from. */
interface Remembered {
  readonly agentId: number;
  readonly version: number;
  /** The value of each parameter the resolution depends on, in the order of {@link relevantParameters}. */
  readonly values: readonly unknown[];
  readonly resolution: ArgumentResolution;
}

/**
 * The last argument resolution per kernel descriptor, handed out again while it would come out the
 * same: same agent, same inventory (its version did not move: no allocation, free or tag change),
 * and the same value for every declared parameter. A replay engine resolves the same arguments
 * dispatch after dispatch; this spares it the lookups. Only descriptors that cannot change (frozen,
 * with frozen parameters, as the runtime's kernels are) are remembered. The values compared are
 * those the resolution depends on: the pointers, the counts their extents name and the bytes of
 * parameter buffers (a seed or a scale that changes every dispatch does not matter).
 */
export class ResolutionMemo {
  readonly #last = new WeakMap<KernelDescriptor, Remembered>();
  /** Per descriptor: the names of the parameters its resolution depends on, or null when it can change. */
  readonly #relevant = new WeakMap<KernelDescriptor, readonly string[] | null>();

  /** The remembered resolution, when it still holds. */
  find(agentId: number, version: number, kernel: KernelDescriptor, args: KernelArguments): ArgumentResolution | undefined {
    if (typeof kernel !== 'object' || kernel === null || typeof args !== 'object' || args === null) return undefined;
    const last = this.#last.get(kernel);
    if (last === undefined || last.agentId !== agentId || last.version !== version) return undefined;
    const names = this.#relevant.get(kernel)!;
    for (let index = 0; index < names.length; index += 1) {
      const name = names[index]!;
      if (!Object.hasOwn(args, name) || !sameValue(args[name], last.values[index])) return undefined;
    }
    return last.resolution;
  }

  /** Remembers `resolution` for the next call with the same kernel, when the descriptor cannot change. */
  remember(agentId: number, version: number, kernel: KernelDescriptor, args: KernelArguments, resolution: ArgumentResolution): void {
    const names = this.#relevantParameters(kernel);
    if (names === null) return;
    // A parameter buffer is copied: the caller may change its bytes in place before the next dispatch.
    const values = names.map((name) => {
      const value = args[name];
      return value instanceof Uint8Array ? value.slice() : value;
    });
    this.#last.set(kernel, { agentId, version, values, resolution });
  }

  #relevantParameters(kernel: KernelDescriptor): readonly string[] | null {
    let names = this.#relevant.get(kernel);
    if (names === undefined) {
      const immutable =
        Object.isFrozen(kernel) &&
        Object.isFrozen(kernel.parameters) &&
        kernel.parameters.every((parameter) => Object.isFrozen(parameter) && (parameter.extent === undefined || Object.isFrozen(parameter.extent)));
      names = immutable ? relevantParameters(kernel) : null;
      this.#relevant.set(kernel, names);
    }
    return names;
  }
}

/** Whether an argument is what it was: the same number, or a parameter buffer of the same bytes. */
function sameValue(value: unknown, remembered: unknown): boolean {
  if (!(remembered instanceof Uint8Array)) return Object.is(value, remembered);
  if (!(value instanceof Uint8Array) || value.byteLength !== remembered.byteLength) return false;
  for (let index = 0; index < value.byteLength; index += 1) if (value[index] !== remembered[index]) return false;
  return true;
}

/** The pointer and `bytes` parameters, and the parameters their extents take a byte or element count from. */
function relevantParameters(kernel: KernelDescriptor): string[] {
  const names = new Set<string>();
  for (const parameter of kernel.parameters) {
    if (parameter.type === 'bytes') names.add(parameter.name);
    if (parameter.type !== 'pointer') continue;
    names.add(parameter.name);
    const extent = parameter.extent;
    if (extent !== undefined && 'bytesParameter' in extent) names.add(extent.bytesParameter);
    if (extent !== undefined && 'countParameter' in extent) names.add(extent.countParameter);
  }
  return [...names];
}
