import type { KernelArguments, KernelDescriptor } from '@kreplay/native';
import type { ArgumentResolution } from './argument-resolution.js';

/** The last resolution of one kernel, with what it was made from. */
interface Remembered {
  readonly agentId: number;
  readonly version: number;
  /** The value of each declared parameter, in declared order. */
  readonly values: readonly unknown[];
  readonly resolution: ArgumentResolution;
}

/**
 * The last argument resolution per kernel descriptor, handed out again while it would come out the
 * same: same agent, same inventory (its version did not move: no allocation, free or tag change),
 * and the same value for every declared parameter. A replay engine resolves the same arguments
 * dispatch after dispatch; this spares it the lookups. Only descriptors that cannot change (frozen,
 * with frozen parameters, as the runtime's kernels are) are remembered.
 */
export class ResolutionMemo {
  readonly #last = new WeakMap<KernelDescriptor, Remembered>();
  readonly #immutable = new WeakMap<KernelDescriptor, boolean>();

  /** The remembered resolution, when it still holds. */
  find(agentId: number, version: number, kernel: KernelDescriptor, args: KernelArguments): ArgumentResolution | undefined {
    if (typeof kernel !== 'object' || kernel === null || typeof args !== 'object' || args === null) return undefined;
    const last = this.#last.get(kernel);
    if (last === undefined || last.agentId !== agentId || last.version !== version) return undefined;
    const { parameters } = kernel;
    for (let index = 0; index < parameters.length; index += 1) {
      const name = parameters[index]!.name;
      if (!Object.hasOwn(args, name) || !Object.is(args[name], last.values[index])) return undefined;
    }
    return last.resolution;
  }

  /** Remembers `resolution` for the next call with the same kernel, when the descriptor cannot change. */
  remember(agentId: number, version: number, kernel: KernelDescriptor, args: KernelArguments, resolution: ArgumentResolution): void {
    if (!this.#isImmutable(kernel)) return;
    const values = kernel.parameters.map((parameter) => args[parameter.name]);
    this.#last.set(kernel, { agentId, version, values, resolution });
  }

  #isImmutable(kernel: KernelDescriptor): boolean {
    let immutable = this.#immutable.get(kernel);
    if (immutable === undefined) {
      immutable =
        Object.isFrozen(kernel) &&
        Object.isFrozen(kernel.parameters) &&
        kernel.parameters.every((parameter) => Object.isFrozen(parameter) && (parameter.extent === undefined || Object.isFrozen(parameter.extent)));
      this.#immutable.set(kernel, immutable);
    }
    return immutable;
  }
}
